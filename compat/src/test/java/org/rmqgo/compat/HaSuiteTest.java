package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master (broker-a) and its slave (brokerId 1), started by compat/ha-suite.sh (ref-servers.sh
 * COMPAT_SLAVE=1, slaveReadEnable=true) in any mix of implementations: the pair is registered,
 * metadata made on the master reaches the slave (SlaveSynchronize), a consumer is fed by the slave
 * while the master is stopped and goes on at the master once it is back, and a slave that was
 * stopped catches up. Tagged "ha": the default run has no slave.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Tag("ha")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(600)
class HaSuiteTest {
    /** GET_BROKER_RUNTIME_INFO, GET_ALL_TOPIC_CONFIG, GET_ALL_CONSUMER_OFFSET, GET_ALL_DELAY_OFFSET, GET_ALL_SUBSCRIPTIONGROUP_CONFIG. */
    private static final int RUNTIME_INFO = 28;
    private static final int ALL_TOPICS = 21;
    private static final int ALL_OFFSETS = 43;
    private static final int ALL_DELAY_OFFSETS = 45;
    private static final int ALL_GROUPS = 201;
    /** 5.x syncs every 60 s (4.x every 10 s); a restarted Java broker takes a while to boot. */
    private static final Duration SYNC = Duration.ofSeconds(150);
    private static final long BROKER_RESTART_SECONDS = 240;

    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void setUp() throws Exception {
        admin = Clients.admin();
        producer = Clients.producer();
    }

    @AfterAll
    static void tearDown() {
        if (producer != null) {
            producer.shutdown();
        }
    }

    private static String master() {
        return Env.brokerAddr();
    }

    private static String slave() {
        return Env.required("SLAVE_ADDR");
    }

    /** A body-less request straight to addr, answered SUCCESS; its body as JSON. */
    private static JSONObject call(String addr, int code) throws Exception {
        RemotingCommand resp = Acl.raw(admin, addr, code);
        assertNotNull(resp, "no answer to code " + code + " from " + addr);
        assertEquals(0, resp.getCode(), addr + " code " + code + ": " + resp.getRemark());
        return JSON.parseObject(new String(resp.getBody(), StandardCharsets.UTF_8));
    }

    private static long commitLogMaxOffset(String addr) throws Exception {
        return call(addr, RUNTIME_INFO).getJSONObject("table").getLongValue("commitLogMaxOffset");
    }

    /** Waits until the slave's commitlog ends where the master's does. */
    private static void awaitReplicated() throws Exception {
        Eventually.eventually(Duration.ofSeconds(120), "the slave has the master's commitlog", () -> {
            long m = commitLogMaxOffset(master()), s = commitLogMaxOffset(slave());
            assertEquals(m, s, "commitLogMaxOffset master vs slave");
            return null;
        });
    }

    /** The entry of a JSON map by the text of its key (fastjson keeps bare integer keys as numbers). */
    private static Object byKey(Map<?, ?> m, String key) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (String.valueOf(e.getKey()).equals(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static List<String> send(String topic, String prefix, int n) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = prefix + "-" + i;
            var r = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), body);
            bodies.add(body);
        }
        return bodies;
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, Received got, String name)
        throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener(got.concurrently(name));
        c.start();
        return c;
    }

    @Test
    @Order(1)
    void thePairIsRegisteredWithBothAddresses() throws Exception {
        Eventually.eventually("clusterList shows broker-a's master and slave", () -> {
            var addrs = admin.examineBrokerClusterInfo().getBrokerAddrTable().get(Env.brokerName()).getBrokerAddrs();
            assertEquals(master(), addrs.get(0L), "brokerId 0");
            assertEquals(slave(), addrs.get(1L), "brokerId 1");
            return null;
        });
    }

    @Test
    @Order(2)
    void metadataMadeOnTheMasterReachesTheSlave() throws Exception {
        String topic = Clients.unique("ha_meta"), group = Clients.unique("ha_meta_g");
        Clients.createTopic(admin, master(), Env.brokerName(), topic, 4, 4);
        var cfg = admin.examineSubscriptionGroupConfig(master(), "TOOLS_CONSUMER");
        cfg.setGroupName(group);
        cfg.setRetryMaxTimes(7);
        cfg.setConsumeBroadcastEnable(false);
        admin.createAndUpdateSubscriptionGroupConfig(master(), cfg);
        admin.updateConsumeOffset(master(), group, new MessageQueue(topic, Env.brokerName(), 1), 7);
        Message delayed = new Message(topic, "TagA", "delayed".getBytes(StandardCharsets.UTF_8));
        delayed.setDelayTimeLevel(1);
        assertEquals(SendStatus.SEND_OK, producer.send(delayed).getSendStatus());

        Eventually.eventually(SYNC, "the slave has the master's topic, group, offsets and delay offsets", () -> {
            JSONObject topics = call(slave(), ALL_TOPICS).getJSONObject("topicConfigTable");
            assertNotNull(topics.getJSONObject(topic), "topic " + topic + " on the slave");
            assertEquals(4, topics.getJSONObject(topic).getIntValue("readQueueNums"));
            JSONObject groups = call(slave(), ALL_GROUPS).getJSONObject("subscriptionGroupTable");
            assertNotNull(groups.getJSONObject(group), "group " + group + " on the slave");
            assertEquals(7, groups.getJSONObject(group).getIntValue("retryMaxTimes"));
            JSONObject offsets = call(slave(), ALL_OFFSETS).getJSONObject("offsetTable");
            JSONObject queues = offsets.getJSONObject(topic + "@" + group);
            assertNotNull(queues, "offsets of " + topic + "@" + group + " on the slave");
            assertEquals("7", String.valueOf(byKey(queues, "1")));
            // 4.x's slave writes the master's delay offsets to its delayOffset.json only (it answers
            // GET_ALL_DELAY_OFFSET from what it loaded at start); the file is what both lines share.
            JSONObject masterDelay = call(master(), ALL_DELAY_OFFSETS).getJSONObject("offsetTable");
            assertNotNull(byKey(masterDelay, "1"), "the master delivered level 1");
            Path file = Path.of(Env.required("SLAVE_STORE"), "config", "delayOffset.json");
            assertTrue(Files.exists(file), file + " exists");
            JSONObject delay = JSON.parseObject(Files.readString(file)).getJSONObject("offsetTable");
            assertEquals(String.valueOf(byKey(masterDelay, "1")), String.valueOf(byKey(delay, "1")), "level 1");
            return null;
        });
    }

    /**
     * A consumer that starts while the master is stopped reads the slave from the offsets the slave
     * synced, commits to the slave, and reads the master again once it is back: every message
     * arrives (redeliveries are counted and printed, not failed: Java's clients are at-least-once).
     */
    @Test
    @Order(3)
    void aConsumerIsFedByTheSlaveWhileTheMasterIsStopped() throws Exception {
        String topic = Clients.unique("ha_read"), group = Clients.unique("ha_read_g");
        Clients.createTopic(admin, master(), Env.brokerName(), topic, 4, 4);
        List<String> before = send(topic, "before", 40);
        Received got = new Received();
        DefaultMQPushConsumer first = consumer(group, topic, got, "first");
        got.awaitAll(before);
        first.shutdown();
        Eventually.eventually(SYNC, "the slave has the group's offsets", () -> {
            JSONObject queues = call(slave(), ALL_OFFSETS).getJSONObject("offsetTable").getJSONObject(topic + "@" + group);
            assertNotNull(queues, "offsets of the group on the slave");
            long sum = 0;
            for (Object v : queues.values()) {
                sum += Long.parseLong(String.valueOf(v));
            }
            assertEquals(before.size(), sum, "committed offsets on the slave: " + queues);
            return null;
        });
        List<String> whileAway = send(topic, "away", 40);
        awaitReplicated();

        RefServers.stopBroker("a", BROKER_RESTART_SECONDS);
        Received later = new Received();
        DefaultMQPushConsumer second = consumer(group, topic, later, "second");
        try {
            later.awaitAll(Duration.ofSeconds(120), whileAway);
            later.assertOnly(whileAway);
            RefServers.startBroker("a", BROKER_RESTART_SECONDS);
            Eventually.eventually("the master routes " + topic + " again", () -> {
                var route = admin.examineTopicRouteInfo(topic);
                assertNotNull(route.getBrokerDatas().get(0).getBrokerAddrs().get(0L), "master in the route");
                return null;
            });
            List<String> after = send(topic, "after", 40);
            later.awaitAll(Duration.ofSeconds(120), after);
            List<String> all = new ArrayList<>(whileAway);
            all.addAll(after);
            later.assertOnly(all);
            long dups = later.deliveries().size() - later.bodies().size();
            System.out.println("ha: the second consumer got " + later.bodies().size() + " messages, "
                + dups + " of them more than once");
        } finally {
            second.shutdown();
        }
    }

    @Test
    @Order(4)
    void aSlaveThatWasStoppedCatchesUp() throws Exception {
        String topic = Clients.unique("ha_catch");
        Clients.createTopic(admin, master(), Env.brokerName(), topic, 4, 4);
        awaitReplicated();
        RefServers.stopBroker("slave", BROKER_RESTART_SECONDS);
        send(topic, "missed", 200);
        RefServers.startBroker("slave", BROKER_RESTART_SECONDS);
        awaitReplicated();
    }
}
