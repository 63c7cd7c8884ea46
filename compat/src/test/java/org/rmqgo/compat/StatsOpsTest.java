package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker's statistics and the remaining admin codes as mqadmin, the dashboard and
 * rocketmq-exporter use them: VIEW_BROKER_STATS_DATA (315, mqadmin statsAll), GET_CONSUME_STATS'
 * consumeTps (208), GET_BROKER_CONSUME_STATS (317, brokerConsumeStats), QUERY_CONSUME_TIME_SPAN
 * (303), CLONE_GROUP_OFFSET (314), CLEAN_EXPIRED_CONSUMEQUEUE (306), CLEAN_UNUSED_TOPIC (316) and
 * INVOKE_BROKER_TO_GET_CONSUMER_STATUS (223, which the broker answers by asking the consumers).
 *
 * <p>The broker samples its statistics every 10 s and keeps a minute of samples, so values are
 * awaited, and read within the minute after the traffic.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class StatsOpsTest {
    private static final int SYSTEM_ERROR = 1;
    private static final int MESSAGES = 5;

    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
        producer = Clients.producer();
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            producer.shutdown();
        }
    }

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    private static void send(String topic, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            Message m = new Message(topic, "TagA", ("stats " + i).getBytes(StandardCharsets.UTF_8));
            var r = producer.send(m, Clients.BY_QUEUE_ID, 0);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        }
    }

    /** Starts a consumer of topic in group and waits until it has consumed and committed everything. */
    private DefaultMQPushConsumer consumeAll(String group, String topic, int expected) throws Exception {
        Set<String> got = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = Clients.pushConsumer(group);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> got.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cleanups.add(consumer::shutdown);
        Eventually.eventually(group + " consumed " + expected, () -> {
            assertEquals(expected, got.size(), "consumed " + got);
            return null;
        });
        Clients.awaitCommittedToEnd(group, topic);
        return consumer;
    }

    /** The statistic's sum over the last minute, once the broker has sampled it. */
    private static long minuteSum(String name, String key, long expected) throws Exception {
        return Eventually.eventually(name + " " + key + " sums " + expected, () -> {
            var data = admin.viewBrokerStatsData(Env.brokerAddr(), name, key);
            assertNotNull(data.getStatsMinute(), "statsMinute");
            assertNotNull(data.getStatsHour(), "statsHour");
            assertNotNull(data.getStatsDay(), "statsDay");
            assertEquals(expected, data.getStatsMinute().getSum(), name + " " + key);
            assertTrue(data.getStatsMinute().getTps() > 0, "tps " + data.getStatsMinute().getTps());
            return data.getStatsMinute().getSum();
        });
    }

    /** A group's consumer offsets of topic, from GET_BROKER_CONSUME_STATS. */
    private static Map<MessageQueue, Long> offsetsInBroker(String group, String topic) throws Exception {
        Map<MessageQueue, Long> m = new HashMap<>();
        for (var byGroup : admin.fetchConsumeStatsInBroker(Env.brokerAddr(), false, 15_000).getConsumeStatsList()) {
            for (var stats : byGroup.getOrDefault(group, List.of())) {
                stats.getOffsetTable().forEach((mq, w) -> {
                    if (mq.getTopic().equals(topic)) {
                        m.put(mq, w.getConsumerOffset());
                    }
                });
            }
        }
        return m;
    }

    @Test
    void statsCountStoredAndConsumedMessages() throws Exception {
        String topic = Clients.newTopic("stats_put", 1);
        String group = Clients.unique("stats_g");
        MQClientException none = assertThrows(MQClientException.class,
            () -> admin.viewBrokerStatsData(Env.brokerAddr(), "TOPIC_PUT_NUMS", topic));
        assertEquals(SYSTEM_ERROR, none.getResponseCode());
        assertTrue(none.getErrorMessage().contains("The stats <TOPIC_PUT_NUMS> <" + topic + "> not exist"),
            none.getErrorMessage());

        send(topic, MESSAGES);
        minuteSum("TOPIC_PUT_NUMS", topic, MESSAGES);
        // Each statistic is sampled on its own: TOPIC_PUT_SIZE may lag TOPIC_PUT_NUMS by a sample.
        Eventually.eventually("TOPIC_PUT_SIZE " + topic + " counts " + MESSAGES + " sends", () -> {
            var size = admin.viewBrokerStatsData(Env.brokerAddr(), "TOPIC_PUT_SIZE", topic).getStatsMinute();
            assertTrue(size.getSum() > MESSAGES * 10L, "stored bytes " + size.getSum());
            assertEquals(size.getSum() / (double) MESSAGES, size.getAvgpt(), 1e-9, "bytes per send");
            return null;
        });

        consumeAll(group, topic, MESSAGES);
        minuteSum("GROUP_GET_NUMS", topic + "@" + group, MESSAGES);
        Eventually.eventually(group + " has a consume TPS", () -> {
            double tps = admin.examineConsumeStats(group, topic).getConsumeTps();
            assertTrue(tps > 0, "consumeTps " + tps);
            return null;
        });
        var broker = admin.viewBrokerStatsData(Env.brokerAddr(), "BROKER_PUT_NUMS", Env.clusterName());
        assertTrue(broker.getStatsDay() != null && broker.getStatsMinute().getAvgpt() == 0.0,
            "BROKER_PUT_NUMS counts no calls");
    }

    @Test
    void brokerConsumeStatsListEveryGroup() throws Exception {
        String topic = Clients.newTopic("stats_list", 1);
        String group = Clients.unique("stats_lg");
        send(topic, MESSAGES);
        consumeAll(group, topic, MESSAGES);

        var list = admin.fetchConsumeStatsInBroker(Env.brokerAddr(), false, 15_000);
        assertEquals(Env.brokerAddr(), list.getBrokerAddr());
        var mine = list.getConsumeStatsList().stream().filter(m -> m.containsKey(group)).findFirst();
        assertTrue(mine.isPresent(), group + " in the list");
        // One ConsumeStats per topic the group has offsets on: the topic and its retry topic.
        var stats = mine.get().get(group);
        MessageQueue q0 = new MessageQueue(topic, Env.brokerName(), 0);
        var ofTopic = stats.stream().filter(s -> s.getOffsetTable().containsKey(q0)).toList();
        assertEquals(1, ofTopic.size(), "one ConsumeStats of " + topic + " among " + stats.size());
        assertEquals(1, ofTopic.get(0).getOffsetTable().size(), "one write queue");
        var w = ofTopic.get(0).getOffsetTable().get(q0);
        assertEquals(MESSAGES, w.getBrokerOffset());
        assertEquals(MESSAGES, w.getConsumerOffset());
        assertTrue(w.getLastTimestamp() > 0, "lastTimestamp");

        var order = admin.fetchConsumeStatsInBroker(Env.brokerAddr(), true, 15_000);
        var orderMine = order.getConsumeStatsList().stream().filter(m -> m.containsKey(group)).findFirst();
        assertTrue(orderMine.isPresent() && orderMine.get().get(group).isEmpty(), "not an order topic");
    }

    @Test
    void consumeTimeSpanAndCloneAndConsumerStatus() throws Exception {
        String topic = Clients.newTopic("stats_span", 1);
        String group = Clients.unique("stats_sg");
        send(topic, MESSAGES);
        DefaultMQPushConsumer consumer = consumeAll(group, topic, MESSAGES);

        var spans = admin.queryConsumeTimeSpan(topic, group);
        assertEquals(1, spans.size(), "one write queue");
        var span = spans.get(0);
        assertEquals(new MessageQueue(topic, Env.brokerName(), 0), span.getMessageQueue());
        assertTrue(span.getMinTimeStamp() > 0 && span.getMinTimeStamp() <= span.getMaxTimeStamp(), "min/max times");
        assertEquals(span.getMaxTimeStamp(), span.getConsumeTimeStamp(), "consumed to the last message");
        assertEquals(0, span.getDelayTime(), "not behind");

        // The clone has no retry topic, so examineConsumeStats cannot see it: read the broker's list.
        String dest = Clients.unique("stats_clone");
        var cfg = admin.examineSubscriptionGroupConfig(Env.brokerAddr(), "TOOLS_CONSUMER");
        cfg.setGroupName(dest);
        admin.createAndUpdateSubscriptionGroupConfig(Env.brokerAddr(), cfg);
        assertTrue(offsetsInBroker(dest, topic).isEmpty(), "no offsets before the clone");
        admin.cloneGroupOffset(group, dest, topic, false);
        Map<MessageQueue, Long> src = Clients.committedOffsets(group, topic);
        assertEquals(src, offsetsInBroker(dest, topic), "clone of " + group);
        assertEquals(Long.valueOf(MESSAGES), src.get(new MessageQueue(topic, Env.brokerName(), 0)));

        Map<String, Map<MessageQueue, Long>> status = admin.getConsumeStatus(topic, group, "");
        String clientId = consumer.buildMQClientId();
        assertTrue(status.containsKey(clientId), clientId + " in " + status.keySet());
        assertEquals(Long.valueOf(MESSAGES), status.get(clientId).get(new MessageQueue(topic, Env.brokerName(), 0)),
            "the consumer's own offset: " + status.get(clientId));
        var nobody = assertThrows(MQClientException.class,
            () -> admin.getConsumeStatus(topic, Clients.unique("stats_nobody"), ""));
        assertEquals(SYSTEM_ERROR, nobody.getResponseCode());
    }

    @Test
    void cleanCommandsSucceed() throws Exception {
        assertTrue(admin.cleanExpiredConsumerQueue(Env.clusterName()), "cleanExpiredCQ");
        assertTrue(admin.cleanUnusedTopic(Env.clusterName()), "cleanUnusedTopic");
        String topic = Clients.newTopic("stats_clean", 1);
        send(topic, 1);
        MessageQueue q0 = new MessageQueue(topic, Env.brokerName(), 0);
        // A send returns once the message is in the commitlog; the queue entry follows a moment later.
        Eventually.eventually("queue 0 of " + topic + " holds the message", () -> {
            assertEquals(1, admin.maxOffset(q0));
            return null;
        });
        assertTrue(admin.cleanUnusedTopic(Env.clusterName()), "cleanUnusedTopic");
        var after = admin.examineTopicStats(topic).getOffsetTable();
        assertTrue(after.containsKey(q0), "a configured topic keeps its queues: " + after.keySet());
        assertEquals(1, after.get(q0).getMaxOffset(), "the message is still in queue 0");
    }
}
