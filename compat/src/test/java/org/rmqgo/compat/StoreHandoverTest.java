package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store handover: broker-a is stopped and started again as the other implementation on the
 * same store directory (COMPAT_HANDOVER_IMPL=java|go; unset, it restarts as itself, which is what
 * the run against the Java reference does), then back. Across both switches a consumer group
 * resumes from its committed offsets, a new group reads every message from the first offset with
 * body, tags, keys, user properties and msgId intact (a compressed body included), and the index
 * the other broker wrote finds the messages by key. The SQL92 filter a group registered is still in
 * consumerFilter.json once the other broker has rewritten it (a broker that judges the file's
 * bloom-filter data foreign drops every filter in it).
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Order(Integer.MAX_VALUE - 2)
class StoreHandoverTest {
    private static final String OTHER = System.getenv().getOrDefault("COMPAT_HANDOVER_IMPL", "");

    @Test
    @Timeout(600)
    void theOtherBrokerServesEveryMessageAndOffsetOfThisOnesStoreAndBack() throws Exception {
        String topic = Clients.newTopic("handover", 4);
        String resumer = Clients.unique("cg_resume");
        DefaultMQProducer producer = Clients.producer();
        List<AutoCloseable> cleanup = new ArrayList<>(List.of(producer::shutdown));
        try {
            Map<String, Message> first = send(producer, topic, "first", 20);
            Received seen = new Received();
            DefaultMQPushConsumer c1 = consumer(resumer, topic, seen, "c1");
            seen.awaitAll(first.keySet());
            Clients.awaitCommittedToEnd(resumer, topic);
            c1.shutdown();
            Map<String, Message> second = send(producer, topic, "second", 20);
            String sqlGroup = registerSqlFilter(topic);

            long beforeRestart = System.currentTimeMillis();
            RefServers.restartBroker("a", OTHER, 300);
            assertFilterKept(sqlGroup, beforeRestart);
            Received resumed = new Received();
            cleanup.add(consumer(resumer, topic, resumed, "c2")::shutdown);
            resumed.awaitAll(second.keySet());
            resumed.assertOnly(second.keySet());
            Map<String, Message> all = new LinkedHashMap<>(first);
            all.putAll(second);
            Received fresh = new Received();
            cleanup.add(consumer(Clients.unique("cg_fresh"), topic, fresh, "c3")::shutdown);
            fresh.awaitAll(all.keySet());
            fresh.assertOnly(all.keySet());
            assertIntact(all, fresh);
            assertFoundByKey(topic, all);

            Clients.awaitCommittedToEnd(resumer, topic); // c4 resumes where c2 stops
            Clients.runAll(new ArrayList<>(cleanup.subList(1, cleanup.size())));
            cleanup.subList(1, cleanup.size()).clear();
            Map<String, Message> third = send(producer, topic, "third", 10);
            RefServers.restartBroker("a", "", 300);
            Received back = new Received();
            cleanup.add(consumer(resumer, topic, back, "c4")::shutdown);
            back.awaitAll(third.keySet());
            back.assertOnly(third.keySet());
            assertIntact(third, back);
        } finally {
            Clients.runAll(cleanup);
        }
    }

    /** Sends n messages with tags, two keys, user properties and (every fifth) a 64 KiB body. */
    private static Map<String, Message> send(DefaultMQProducer p, String topic, String what, int n)
        throws Exception {
        Map<String, Message> sent = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String body = what + " " + i + " of " + topic + (i % 5 == 0 ? " " + "x".repeat(64 * 1024) : "");
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            Message m = new Message(topic, i % 2 == 0 ? "TagA" : "TagB", bytes);
            m.setKeys(List.of(what + "-" + i, "handover-key"));
            m.putUserProperty("u_what", what);
            m.putUserProperty("u_index", Integer.toString(i));
            SendResult r = p.send(m);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            sent.put(body, m);
        }
        return sent;
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, Received into, String name)
        throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setHeartbeatBrokerInterval(1000);
        c.subscribe(topic, "*");
        c.registerMessageListener(into.concurrently(name));
        c.start();
        return c;
    }

    private static void assertIntact(Map<String, Message> sent, Received got) {
        Map<String, MessageExt> byBody = got.firstByBody();
        for (var e : sent.entrySet()) {
            MessageExt m = byBody.get(e.getKey());
            Message s = e.getValue();
            assertArrayEquals(s.getBody(), m.getBody(), "body of message " + s.getKeys());
            assertEquals(s.getTags(), m.getTags(), "tags of " + s.getKeys());
            assertEquals(s.getKeys(), m.getKeys(), "keys of " + s.getKeys());
            assertEquals(s.getUserProperty("u_what"), m.getUserProperty("u_what"));
            assertEquals(s.getUserProperty("u_index"), m.getUserProperty("u_index"));
            assertEquals(s.getProperty("UNIQ_KEY"), m.getMsgId(), "msgId of " + s.getKeys());
        }
    }

    private static Path consumerFilterFile() {
        return Path.of(Env.runDir(), Env.brokerName(), "store", "config", "consumerFilter.json");
    }

    /**
     * The group's entry in consumerFilter.json with its bloom-filter data: 112 bits and 3 positions
     * (maxErrorRateOfBloomFilter 20, expectConsumerNumUseFilter 32). Java writes the file
     * pretty-printed, so blanks may stand between the tokens.
     */
    private static boolean hasFilterEntry(String group) throws IOException {
        String json = Files.readString(consumerFilterFile());
        return Pattern.compile("\"" + Pattern.quote(group) + "\"\\s*:\\s*\\{\\s*\"bloomFilterData\"\\s*:\\s*\\{\\s*"
            + "\"bitNum\"\\s*:\\s*112\\s*,\\s*\"bitPos\"\\s*:\\s*\\[\\s*\\d+\\s*,\\s*\\d+\\s*,\\s*\\d+\\s*\\]").matcher(json).find();
    }

    /** A group subscribes to topic with SQL92, its filter reaches the file, and the group leaves. */
    private static String registerSqlFilter(String topic) throws Exception {
        String group = Clients.unique("cg_sql");
        DefaultMQPushConsumer c = Clients.startAcknowledgingConsumer(group, topic, MessageSelector.bySql("u_what = 'third'"));
        try {
            Eventually.eventually(group + "'s filter in " + consumerFilterFile(), () -> {
                assertTrue(hasFilterEntry(group), Files.readString(consumerFilterFile()));
                return null;
            });
        } finally {
            c.shutdown();
        }
        return group;
    }

    /** Once the broker started on the store has rewritten consumerFilter.json, the group's filter is in it. */
    private static void assertFilterKept(String group, long since) throws Exception {
        Eventually.eventually("consumerFilter.json rewritten with " + group + "'s filter", () -> {
            Path f = consumerFilterFile();
            assertTrue(Files.getLastModifiedTime(f).toMillis() > since, "not rewritten since the restart");
            assertTrue(hasFilterEntry(group), Files.readString(f));
            return null;
        });
    }

    /** The index (written by whichever broker stored them) finds the messages by their shared key. */
    private static void assertFoundByKey(String topic, Map<String, Message> sent) throws Exception {
        Eventually.eventually("the index finds every message of " + topic + " by key", () -> {
            var found = Clients.admin().queryMessage(topic, "handover-key", 64, 0, System.currentTimeMillis() + 60_000);
            Set<String> got = new TreeSet<>();
            for (MessageExt m : found.getMessageList()) {
                got.add(Received.body(m));
            }
            assertTrue(got.containsAll(sent.keySet()), "found " + got.size() + " of " + sent.size());
            return null;
        });
    }
}
