package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.FileInputStream;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker's operations surface (AdminBrokerProcessor) as mqadmin and the dashboard use it:
 * subscription groups (200, 201, 207, 5.x 225 and 352), consumer and producer connections (203, 204), who
 * consumes a topic (300, 5.x 343 and 345), topic stats (202), the consumer and delay offset documents
 * (43, 45) and the broker's configuration (25, 26).
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class AdminOpsTest {
    /** ResponseCode numbers, the same on both lines. */
    private static final int SUCCESS = 0;
    private static final int SYSTEM_ERROR = 1;
    private static final int REQUEST_CODE_NOT_SUPPORTED = 3;
    private static final int NO_PERMISSION = 16;
    private static final int CONSUMER_NOT_ONLINE = 206;
    private static final int INVALID_PARAMETER = 29;

    /** RequestCode numbers sent raw (no DefaultMQAdminExt call reaches them on both lines). */
    private static final int UPDATE_AND_CREATE_TOPIC = 17;
    private static final int GET_ALL_TOPIC_CONFIG = 21;
    private static final int GET_ALL_CONSUMER_OFFSET = 43;
    private static final int GET_ALL_DELAY_OFFSET = 45;
    private static final int GET_TOPIC_STATS_INFO = 202;
    private static final int UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST = 225;
    private static final int GET_CONSUMER_CONNECTION_LIST = 203;
    private static final int GET_PRODUCER_CONNECTION_LIST = 204;
    private static final int QUERY_TOPICS_BY_CONSUMER = 343;
    private static final int QUERY_SUBSCRIPTION_BY_CONSUMER = 345;
    private static final int GET_SUBSCRIPTIONGROUP_CONFIG = 352;

    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;
    private static NettyRemotingClient raw;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
        producer = Clients.producer();
        raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            producer.shutdown();
        }
        if (raw != null) {
            raw.shutdown();
        }
    }

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    /** Sends a request straight to broker-a and returns the answer. */
    private static RemotingCommand call(int code, Map<String, String> fields) throws Exception {
        RemotingCommand req = RemotingCommand.createRequestCommand(code, null);
        fields.forEach(req::addExtField);
        RemotingCommand resp = raw.invokeSync(Env.brokerAddr(), req, 15_000);
        assertNotNull(resp, "no answer to code " + code);
        return resp;
    }

    private static JSONObject jsonBody(RemotingCommand resp) {
        assertEquals(SUCCESS, resp.getCode(), resp.getRemark());
        return JSON.parseObject(new String(resp.getBody(), StandardCharsets.UTF_8));
    }

    /** A map value by the text of its key (fastjson keeps the bare integer keys as numbers). */
    private static Object byKeyText(Map<?, ?> m, String key) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (String.valueOf(e.getKey()).equals(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Invokes a method that only the 5.3.3 tools have. */
    private static Object invoke(Object target, String name, Object... args) throws Exception {
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                return m.invoke(target, args);
            }
        }
        throw new AssertionError(target.getClass() + " has no method " + name);
    }

    /** A subscription group config of the client line, from a built-in group's, renamed. */
    private static Object newGroupConfig(String group, int retryMaxTimes) throws Exception {
        var cfg = admin.examineSubscriptionGroupConfig(Env.brokerAddr(), "TOOLS_CONSUMER");
        assertNotNull(cfg, "the built-in group TOOLS_CONSUMER");
        cfg.setGroupName(group);
        cfg.setRetryMaxTimes(retryMaxTimes);
        cfg.setRetryQueueNums(2);
        cfg.setConsumeBroadcastEnable(false);
        admin.createAndUpdateSubscriptionGroupConfig(Env.brokerAddr(), cfg);
        return cfg;
    }

    private static void commitOffset(String group, String topic, int queueId, long offset) throws Exception {
        admin.updateConsumeOffset(Env.brokerAddr(), group, new MessageQueue(topic, Env.brokerName(), queueId), offset);
    }

    private static void sendTo(String topic, int queueId, int n, int delayLevel) throws Exception {
        for (int i = 0; i < n; i++) {
            Message m = new Message(topic, "TagA", ("ops " + i).getBytes(StandardCharsets.UTF_8));
            if (delayLevel > 0) {
                m.setDelayTimeLevel(delayLevel);
            }
            var r = producer.send(m, Clients.BY_QUEUE_ID, queueId);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        }
    }

    @Test
    void subscriptionGroupIsCreatedUpdatedListedAndDeleted() throws Exception {
        String addr = Env.brokerAddr();
        String group = Clients.unique("sg");
        var before = admin.getAllSubscriptionGroup(addr, 10_000);
        assertFalse(before.getSubscriptionGroupTable().containsKey(group));

        newGroupConfig(group, 5);
        var wrapper = admin.getAllSubscriptionGroup(addr, 10_000);
        var got = wrapper.getSubscriptionGroupTable().get(group);
        assertNotNull(got, group + " in " + wrapper.getSubscriptionGroupTable().keySet());
        assertEquals(5, got.getRetryMaxTimes());
        assertEquals(2, got.getRetryQueueNums());
        assertFalse(got.isConsumeBroadcastEnable());
        assertTrue(got.isConsumeEnable());
        assertNotEquals(before.getDataVersion(), wrapper.getDataVersion(), "the data version moves on a change");
        assertTrue(wrapper.getSubscriptionGroupTable().containsKey("TOOLS_CONSUMER"), "built-in groups are listed");

        newGroupConfig(group, 7);
        assertEquals(7, admin.examineSubscriptionGroupConfig(addr, group).getRetryMaxTimes(), "an update replaces");

        admin.deleteSubscriptionGroup(addr, group);
        assertFalse(admin.getAllSubscriptionGroup(addr, 10_000).getSubscriptionGroupTable().containsKey(group));
        admin.deleteSubscriptionGroup(addr, group); // deleting it again is no error
    }

    @Test
    void deletingAGroupDropsItsOffsetsOnlyWhenAsked() throws Exception {
        String topic = Clients.newTopic("sgoff", 2);
        String keep = Clients.unique("keep");
        String drop = Clients.unique("drop");
        sendTo(topic, 0, 2, 0);
        for (String g : List.of(keep, drop)) {
            newGroupConfig(g, 3);
            commitOffset(g, topic, 0, 1);
        }
        var who = admin.queryTopicConsumeByWho(topic).getGroupList();
        assertTrue(who.containsAll(Set.of(keep, drop)), "groups with offsets on " + topic + ": " + who);

        admin.deleteSubscriptionGroup(Env.brokerAddr(), keep, false);
        admin.deleteSubscriptionGroup(Env.brokerAddr(), drop, true);

        who = admin.queryTopicConsumeByWho(topic).getGroupList();
        assertTrue(who.contains(keep), keep + " kept its offsets: " + who);
        assertFalse(who.contains(drop), drop + " lost its offsets: " + who);
        Map<?, ?> offsets = jsonBody(call(GET_ALL_CONSUMER_OFFSET, Map.of())).getJSONObject("offsetTable");
        assertFalse(offsets.containsKey(topic + "@" + drop), "consumerOffset document still has " + drop);
        Map<?, ?> kept = (Map<?, ?>) offsets.get(topic + "@" + keep);
        assertNotNull(kept, "consumerOffset document lost " + keep);
        assertEquals(1L, ((Number) byKeyText(kept, "0")).longValue(), "offset of queue 0 in " + kept);
    }

    @Test
    void connectionsDescribeTheOnlineClients() throws Exception {
        String topic = Clients.newTopic("conn", 2);
        String group = Clients.unique("cg");
        DefaultMQPushConsumer consumer = Clients.startAcknowledgingConsumer(group, topic, "TagA || TagB");
        cleanups.add(consumer::shutdown);
        sendTo(topic, 0, 1, 0);

        var cc = Eventually.eventually(group + " is online", () -> {
            var c = admin.examineConsumerConnectionInfo(group);
            assertEquals(1, c.getConnectionSet().size(), "connections " + c.getConnectionSet());
            // The broker files a heartbeat's channel, then its subscriptions.
            assertNotNull(c.getSubscriptionTable().get(topic), "subscription of " + topic + " in "
                + c.getSubscriptionTable().keySet());
            return c;
        });
        var conn = cc.getConnectionSet().iterator().next();
        assertEquals(consumer.buildMQClientId(), conn.getClientId());
        assertTrue(conn.getClientAddr().matches("127\\.0\\.0\\.1:\\d+"), "clientAddr " + conn.getClientAddr());
        assertEquals("JAVA", conn.getLanguage().name());
        assertEquals(MQVersion.CURRENT_VERSION, conn.getVersion());
        assertEquals("CONSUME_PASSIVELY", cc.getConsumeType().name());
        assertEquals("CLUSTERING", cc.getMessageModel().name());
        assertEquals("CONSUME_FROM_FIRST_OFFSET", cc.getConsumeFromWhere().name());
        var sub = cc.getSubscriptionTable().get(topic);
        assertEquals("TagA || TagB", sub.getSubString());
        assertEquals(Set.of("TagA", "TagB"), sub.getTagsSet());
        assertEquals(Set.of("TagA".hashCode(), "TagB".hashCode()), sub.getCodeSet());
        assertEquals("TAG", sub.getExpressionType());
        assertTrue(cc.getSubscriptionTable().containsKey("%RETRY%" + group), "the retry topic is subscribed");

        var pc = Eventually.eventually(producer.getProducerGroup() + " is online", () -> {
            var p = admin.examineProducerConnectionInfo(producer.getProducerGroup(), topic);
            assertFalse(p.getConnectionSet().isEmpty());
            return p;
        });
        var pconn = pc.getConnectionSet().iterator().next();
        assertEquals(producer.buildMQClientId(), pconn.getClientId());
        assertEquals("JAVA", pconn.getLanguage().name());
        assertEquals(MQVersion.CURRENT_VERSION, pconn.getVersion());

        var who = admin.queryTopicConsumeByWho(topic).getGroupList();
        if (!Env.serversAreLine5()) {
            // 5.3.3's ConsumerManager files the topic's own name where the online group's belongs
            // (topicGroupTable gets subscriptionData.getTopic()), so only its offset answer is checked.
            assertTrue(who.contains(group), "online group consumes " + topic + ": " + who);
        }
        commitOffset(group, topic, 1, 0);
        who = admin.queryTopicConsumeByWho(topic).getGroupList();
        assertTrue(who.contains(group), "group with an offset consumes " + topic + ": " + who);
        if (Env.serversAreLine5()) {
            var topics = invoke(invoke(admin, "queryTopicsByConsumer", group), "getTopicList");
            assertTrue(((Collection<?>) topics).contains(topic), topic + " in " + topics);
            var data = invoke(admin, "querySubscription", group, topic);
            assertNotNull(data, "subscription of " + group + " to " + topic);
            assertEquals("TagA || TagB", invoke(data, "getSubString"));
        } else {
            assertEquals(REQUEST_CODE_NOT_SUPPORTED, call(QUERY_TOPICS_BY_CONSUMER, Map.of("group", group)).getCode());
            assertEquals(REQUEST_CODE_NOT_SUPPORTED,
                call(QUERY_SUBSCRIPTION_BY_CONSUMER, Map.of("group", group, "topic", topic)).getCode());
        }
    }

    @Test
    void unknownGroupsAreNotOnline() throws Exception {
        String group = Clients.unique("nobody");
        RemotingCommand c = call(GET_CONSUMER_CONNECTION_LIST, Map.of("consumerGroup", group));
        assertEquals(CONSUMER_NOT_ONLINE, c.getCode());
        assertEquals("the consumer group[" + group + "] not online", c.getRemark());
        RemotingCommand p = call(GET_PRODUCER_CONNECTION_LIST, Map.of("producerGroup", group));
        assertEquals(SYSTEM_ERROR, p.getCode());
        assertEquals("the producer group[" + group + "] not exist", p.getRemark());
    }

    @Test
    void topicStatsShowEveryQueuesRange() throws Exception {
        String topic = Clients.newTopic("stats", 3);
        long sentAfter = System.currentTimeMillis() - 1000;
        sendTo(topic, 1, 3, 0);
        var stats = Eventually.eventually("3 messages in queue 1 of " + topic, () -> {
            var s = admin.examineTopicStats(topic);
            var q1 = s.getOffsetTable().get(new MessageQueue(topic, Env.brokerName(), 1));
            assertNotNull(q1, "queue 1 in " + s.getOffsetTable());
            assertEquals(3, q1.getMaxOffset());
            return s;
        });
        assertEquals(3, stats.getOffsetTable().size(), "queues: " + stats.getOffsetTable().keySet());
        var q1 = stats.getOffsetTable().get(new MessageQueue(topic, Env.brokerName(), 1));
        assertEquals(0, q1.getMinOffset());
        assertTrue(q1.getLastUpdateTimestamp() >= sentAfter && q1.getLastUpdateTimestamp() <= System.currentTimeMillis(),
            "lastUpdateTimestamp " + q1.getLastUpdateTimestamp());
        var q0 = stats.getOffsetTable().get(new MessageQueue(topic, Env.brokerName(), 0));
        assertEquals(0, q0.getMaxOffset());
        assertEquals(0, q0.getLastUpdateTimestamp());

        String unknown = Clients.unique("no_such_topic");
        RemotingCommand r = call(GET_TOPIC_STATS_INFO, Map.of("topic", unknown));
        assertEquals(Clients.TOPIC_NOT_EXIST, r.getCode());
        assertEquals("topic[" + unknown + "] not exist", r.getRemark());
    }

    @Test
    void topicStatsCountQueuesAsTheLineDoes() throws Exception {
        String topic = Clients.unique("stats_rw");
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 4, 2);
        var stats = admin.examineTopicStats(topic);
        // 4.x lists the write queues, 5.x the larger of read and write.
        assertEquals(Env.serversAreLine5() ? 4 : 2, stats.getOffsetTable().size(), "queues " + stats.getOffsetTable().keySet());
    }

    @Test
    void consumerAndDelayOffsetDocuments() throws Exception {
        String topic = Clients.newTopic("docs", 1);
        String group = Clients.unique("docs_g");
        newGroupConfig(group, 3);
        sendTo(topic, 0, 2, 0);
        commitOffset(group, topic, 0, 2);
        JSONObject doc = jsonBody(call(GET_ALL_CONSUMER_OFFSET, Map.of()));
        Map<?, ?> queues = (Map<?, ?>) doc.getJSONObject("offsetTable").get(topic + "@" + group);
        assertNotNull(queues, topic + "@" + group + " in the consumerOffset document");
        assertEquals(2L, ((Number) byKeyText(queues, "0")).longValue());
        assertEquals(Env.serversAreLine5(), doc.containsKey("dataVersion"), "dataVersion in " + doc.keySet());

        Map<?, ?> delays = jsonBody(call(GET_ALL_DELAY_OFFSET, Map.of())).getJSONObject("offsetTable");
        assertNotNull(delays, "the delayOffset document has an offsetTable");
        Object was = byKeyText(delays, "1");
        long before = was == null ? 0 : ((Number) was).longValue();
        sendTo(topic, 0, 1, 1);
        Eventually.eventually("delay level 1 moved past " + before, () -> {
            Map<?, ?> now = jsonBody(call(GET_ALL_DELAY_OFFSET, Map.of())).getJSONObject("offsetTable");
            Object v = byKeyText(now, "1");
            assertNotNull(v, "level 1 in " + now);
            assertTrue(((Number) v).longValue() > before, "level 1 at " + v);
            return null;
        });
    }

    /** UPDATE_AND_CREATE_TOPIC of topic (4 queues) with a 5.x attribute modification string. */
    private static RemotingCommand createTopic(String topic, String attributes) throws Exception {
        return call(UPDATE_AND_CREATE_TOPIC, Map.of("topic", topic, "defaultTopic", "TBW102", "readQueueNums", "4",
            "writeQueueNums", "4", "perm", "6", "topicFilterType", "SINGLE_TAG", "topicSysFlag", "0", "order", "false",
            "attributes", attributes));
    }

    /** The topic's entry in GET_ALL_TOPIC_CONFIG. */
    private static JSONObject topicConfigEntry(String topic) throws Exception {
        JSONObject entry = jsonBody(call(GET_ALL_TOPIC_CONFIG, Map.of())).getJSONObject("topicConfigTable").getJSONObject(topic);
        assertNotNull(entry, topic + " in the topic table");
        return entry;
    }

    /**
     * 5.x topic attributes (the dashboard's message type, mqadmin updateTopic -a): set at creation,
     * changed, deleted, each refusal with the broker's code and text; a 4.x broker ignores them.
     */
    @Test
    void topicAttributesAreSetChangedAndDeleted() throws Exception {
        String topic = Clients.unique("attrs");
        assertEquals(SUCCESS, createTopic(topic, "+message.type=FIFO").getCode());
        if (!Env.serversAreLine5()) {
            assertFalse(topicConfigEntry(topic).containsKey("attributes"), "4.x has no attributes: " + topicConfigEntry(topic));
            return;
        }
        assertEquals(Map.of("message.type", "FIFO"), topicConfigEntry(topic).getJSONObject("attributes"));
        RemotingCommand r = createTopic(topic, "+message.type=NORMAL,+reserve.time=72");
        assertEquals(SUCCESS, r.getCode(), r.getRemark());
        assertEquals(Map.of("message.type", "NORMAL", "reserve.time", "72"), topicConfigEntry(topic).getJSONObject("attributes"));
        r = createTopic(topic, "-reserve.time");
        assertEquals(SUCCESS, r.getCode(), r.getRemark());
        assertEquals(Map.of("message.type", "NORMAL"), topicConfigEntry(topic).getJSONObject("attributes"));

        String fresh = Clients.unique("attrs");
        Map<String, String> refusals = Map.of(
            "+message.type=BAD", "value is not in set: [UNSPECIFIED, TRANSACTION, FIFO, MIXED, DELAY, NORMAL]",
            "+queue.type=BAD", "value is not in set: [SimpleCQ, BatchCQ]",
            "+cleanup.policy=BAD", "value is not in set: [DELETE, COMPACTION]",
            "+foo=1", "unsupported key: foo",
            "-message.type", "only add attribute is supported while creating topic. key: message.type",
            "message.type=FIFO", "add/alter attribute format is wrong: message.type",
            "+reserve.time=-2", "value is not in range(-1, 9223372036854775807)");
        refusals.forEach((mod, remark) -> {
            try {
                RemotingCommand bad = createTopic(fresh, mod);
                assertEquals(SYSTEM_ERROR, bad.getCode(), mod);
                assertEquals(remark, bad.getRemark(), mod);
            } catch (Exception e) {
                throw new AssertionError(mod, e);
            }
        });
        assertFalse(jsonBody(call(GET_ALL_TOPIC_CONFIG, Map.of())).getJSONObject("topicConfigTable").containsKey(fresh),
            "a refused topic is not made");
        RemotingCommand mixed = createTopic(fresh, "+message.type=MIXED");
        assertEquals(INVALID_PARAMETER, mixed.getCode());
        assertEquals("MIXED message type is not supported.", mixed.getRemark());
        assertEquals(SUCCESS, createTopic(fresh, "+queue.type=SimpleCQ").getCode());
        RemotingCommand unchangeable = createTopic(fresh, "+queue.type=SimpleCQ");
        assertEquals(SYSTEM_ERROR, unchangeable.getCode());
        assertEquals("attempt to update an unchangeable attribute. key: queue.type", unchangeable.getRemark());
        assertEquals(Map.of("message.type", "NORMAL"), topicConfigEntry(topic).getJSONObject("attributes"), "unchanged");
    }

    @Test
    void subscriptionGroupsAreCreatedAndReplacedByTheList() throws Exception {
        if (!Env.serversAreLine5()) {
            assertEquals(REQUEST_CODE_NOT_SUPPORTED, call(UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST, Map.of()).getCode());
            return;
        }
        Assumptions.assumeTrue(Line.CLIENT_LINE.equals("5"), "createAndUpdateSubscriptionGroupConfigList is a 5.x call");
        String addr = Env.brokerAddr();
        String existing = Clients.unique("sgl");
        String fresh = Clients.unique("sgl");
        newGroupConfig(existing, 2);
        var before = admin.getAllSubscriptionGroup(addr, 10_000).getDataVersion();

        var replaced = admin.examineSubscriptionGroupConfig(addr, existing);
        replaced.setRetryMaxTimes(6);
        var created = admin.examineSubscriptionGroupConfig(addr, existing);
        created.setGroupName(fresh);
        created.setRetryMaxTimes(8);
        created.setConsumeBroadcastEnable(true);
        invoke(admin, "createAndUpdateSubscriptionGroupConfigList", addr, List.of(replaced, created));

        var wrapper = admin.getAllSubscriptionGroup(addr, 10_000);
        var table = wrapper.getSubscriptionGroupTable();
        assertEquals(6, table.get(existing).getRetryMaxTimes(), "an update replaces");
        assertNotNull(table.get(fresh), fresh + " in " + table.keySet());
        assertEquals(8, table.get(fresh).getRetryMaxTimes());
        assertTrue(table.get(fresh).isConsumeBroadcastEnable());
        assertEquals(before.getCounter().get() + 2, wrapper.getDataVersion().getCounter().get(),
            "the data version moves once per group");

        invoke(admin, "createAndUpdateSubscriptionGroupConfigList", addr, List.of());
        assertEquals(wrapper.getDataVersion(), admin.getAllSubscriptionGroup(addr, 10_000).getDataVersion(),
            "an empty list changes nothing");
        for (String g : List.of(existing, fresh)) {
            admin.deleteSubscriptionGroup(addr, g);
        }
    }

    @Test
    void subscriptionGroupConfigByName() throws Exception {
        String group = Clients.unique("one_sg");
        newGroupConfig(group, 4);
        RemotingCommand r = call(GET_SUBSCRIPTIONGROUP_CONFIG, Map.of("group", group));
        if (!Env.serversAreLine5()) {
            assertEquals(REQUEST_CODE_NOT_SUPPORTED, r.getCode(), r.getRemark());
            return;
        }
        JSONObject cfg = jsonBody(r);
        assertEquals(group, cfg.getString("groupName"));
        assertEquals(4, cfg.getIntValue("retryMaxTimes"));
        assertFalse(cfg.getBooleanValue("consumeBroadcastEnable"));
    }

    @Test
    void brokerConfigIsReadUpdatedAndWrittenBack() throws Exception {
        String addr = Env.brokerAddr();
        Properties p = admin.getBrokerConfig(addr);
        assertEquals(Env.brokerName(), p.getProperty("brokerName"));
        assertEquals(Env.clusterName(), p.getProperty("brokerClusterName"));
        assertEquals(addr.substring(addr.lastIndexOf(':') + 1), p.getProperty("listenPort"));
        assertEquals("ASYNC_FLUSH", p.getProperty("flushDiskType"));
        for (String key : List.of("serverWorkerThreads", "clientWorkerThreads", "storePathRootDir", "autoCreateTopicEnable")) {
            assertTrue(p.containsKey(key), key + " in the broker config");
        }
        String topic = Clients.newTopic("perm", 1);
        String perm = p.getProperty("brokerPermission");
        assertEquals("6", perm);
        cleanups.add(() -> {
            Properties back = new Properties();
            back.setProperty("brokerPermission", perm);
            admin.updateBrokerConfig(addr, back);
            awaitRoutePerm(topic, 6);
        });

        Properties readOnly = new Properties();
        readOnly.setProperty("brokerPermission", "4");
        admin.updateBrokerConfig(addr, readOnly);
        assertEquals("4", admin.getBrokerConfig(addr).getProperty("brokerPermission"));
        awaitRoutePerm(topic, 4);

        Properties file = new Properties();
        try (InputStream in = new FileInputStream(Path.of(Env.runDir(), Env.brokerName(), "broker.conf").toFile())) {
            file.load(in);
        }
        assertEquals("4", file.getProperty("brokerPermission"), "broker.conf after the update");
        assertEquals(Env.brokerName(), file.getProperty("brokerName"), "broker.conf keeps the other keys");

        if (Env.serversAreLine5()) {
            Properties black = new Properties();
            black.setProperty("brokerConfigPath", "/tmp/elsewhere.conf");
            MQBrokerException e = assertThrows(MQBrokerException.class, () -> admin.updateBrokerConfig(addr, black));
            assertEquals(NO_PERMISSION, e.getResponseCode(), e.toString());
        }
    }

    /** Waits until the name server routes broker-a's queues of topic with that permission. */
    private static void awaitRoutePerm(String topic, int perm) throws Exception {
        Eventually.eventually("route of " + topic + " has perm " + perm, () -> {
            Map<String, Integer> perms = new HashMap<>();
            admin.examineTopicRouteInfo(topic).getQueueDatas().forEach(q -> perms.put(q.getBrokerName(), q.getPerm()));
            assertEquals(perm, perms.get(Env.brokerName()), "perms " + perms);
            return null;
        });
    }
}
