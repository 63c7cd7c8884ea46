package org.rmqgo.fastjson;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import ${rmq.pkg.common}.DataVersion;
import ${rmq.pkg.common}.filter.FilterAPI;
import ${rmq.pkg.common}.subscription.SubscriptionGroupConfig;
import ${rmq.pkg.protocol}.RequestCode;
import ${rmq.pkg.protocol}.body.CheckClientRequestBody;
import ${rmq.pkg.protocol}.body.ClusterInfo;
import ${rmq.pkg.protocol}.body.ConsumerOffsetSerializeWrapper;
import ${rmq.pkg.protocol}.body.GetConsumerStatusBody;
import ${rmq.pkg.protocol}.body.KVTable;
import ${rmq.pkg.protocol}.body.LockBatchRequestBody;
import ${rmq.pkg.protocol}.body.SubscriptionGroupWrapper;
import ${rmq.pkg.protocol}.body.TopicConfigSerializeWrapper;
import ${rmq.pkg.protocol}.body.UnlockBatchRequestBody;
import ${rmq.pkg.protocol}.header.QueryConsumerOffsetRequestHeader;
import ${rmq.pkg.protocol}.heartbeat.ConsumeType;
import ${rmq.pkg.protocol}.heartbeat.ConsumerData;
import ${rmq.pkg.protocol}.heartbeat.HeartbeatData;
import ${rmq.pkg.protocol}.heartbeat.MessageModel;
import ${rmq.pkg.protocol}.heartbeat.ProducerData;
import ${rmq.pkg.protocol}.heartbeat.SubscriptionData;
import ${rmq.pkg.protocol}.route.BrokerData;
import ${rmq.pkg.protocol}.route.QueueData;
import ${rmq.pkg.protocol}.route.TopicRouteData;

/**
 * The seeds of both lines: bodies built as the Java client, broker and tools
 * of the line build them, encoded as they encode them. Clock-derived values
 * (subVersion, DataVersion.timestamp, opaque) are pinned so the output is the
 * same on every run. Shared by both lines: a template whose placeholders (the
 * packages that moved between 4.9.7 and 5.3.3) the build fills per profile
 * (pom.xml); class Seeds of src/line4 or src/line5 builds what differs by
 * line, and answers null for a row its line does not have.
 */
final class Bodies {
    static final long T0 = 1700000000000L;
    static final String CLIENT_ID = "192.168.0.7@12345#4702317542102700";
    static final String BROKER_ADDR = "192.168.0.7:10911";

    private Bodies() {
    }

    /** {kind, JSON, where it comes from} rows, in the order of seeds/java4.tsv and java5.tsv. */
    static List<String[]> rows() throws Exception {
        List<String[]> rows = new ArrayList<>();
        add(rows, "HeartbeatData", heartbeat().encode(), "MQClientAPIImpl.sendHearbeat: heartbeatData.encode() (push consumers cg_tag, cg_sql; producer)");
        add(rows, "HeartbeatData", Seeds.heartbeatV2(false), "MQClientInstance.sendHeartbeatToAllBrokerV2: first heartbeat, with subscriptions and heartbeatFingerprint");
        add(rows, "HeartbeatData", Seeds.heartbeatV2(true), "MQClientInstance.sendHeartbeatToAllBrokerV2: later heartbeat, isWithoutSub and the same fingerprint");
        add(rows, "HeartbeatData", producerOnlyHeartbeat().encode(), "heartbeat of a producer-only client");
        add(rows, "HeartbeatData", pullHeartbeat().encode(), "heartbeat of a pull consumer (CONSUME_ACTIVELY, BROADCASTING)");
        add(rows, "LockBatchRequestBody", lock().encode(), "RebalanceImpl.lockAll -> MQClientAPIImpl.lockBatchMQ: requestBody.encode()");
        add(rows, "LockBatchRequestBody", Seeds.lockOnlyThisBroker(), "lock with onlyThisBroker (5.x proxy / BrokerOuterAPI.lockBatchMQAsync)");
        add(rows, "UnlockBatchRequestBody", unlock().encode(), "RebalanceImpl.unlockAll -> MQClientAPIImpl.unlockBatchMQ: requestBody.encode()");
        add(rows, "CheckClientRequestBody", checkClient().encode(), "MQClientAPIImpl.checkClientInBroker (SQL92 subscription)");
        add(rows, "SubscriptionGroupConfig", RemotingSerializable.encode(groupConfig()), "MQClientAPIImpl.createSubscriptionGroup: RemotingSerializable.encode(config)");
        add(rows, "SubscriptionGroupConfig", RemotingSerializable.encode(defaultGroupConfig()), "mqadmin updateSubGroup -g cg_default (defaults)");
        add(rows, "SubscriptionGroupConfig", Seeds.retryPolicyGroupConfig(), "5.x group config with subscriptionDataSet, exponential groupRetryPolicy and attributes");
        add(rows, "SubscriptionGroupList", Seeds.groupList(), "MQClientAPIImpl.createSubscriptionGroupList: requestBody.encode()");
        add(rows, "RegisterBrokerBody", Seeds.registerBrokerBody().encode(false), Seeds.REGISTER_BROKER_BODY_FROM);
        add(rows, "TopicConfigSerializeWrapper", topicConfigWrapper().encode(), "the REGISTER_BROKER body of brokers older than V3_0_11");
        add(rows, "TopicRouteData", Kinds.LINE >= 5 ? singleTopicRoute().encode() : null, "BrokerOuterAPI.registerSingleTopicAll: REGISTER_TOPIC_IN_NAMESRV body topicRouteData.encode()");
        add(rows, "TopicRouteData", route().encode(), "name server GET_ROUTEINFO_BY_TOPIC answer: topicRouteData.encode()");
        add(rows, "DataVersion", dataVersion(7).encode(), "BrokerOuterAPI.needRegister: QUERY_DATA_VERSION body dataVersion.encode()");
        add(rows, "GetConsumerStatusBody", consumerStatus().encode(), "ClientRemotingProcessor.getConsumeStatus answer: body.encode()");
        add(rows, "ConsumerOffsetSerializeWrapper", offsets().encode(), "broker GET_ALL_CONSUMER_OFFSET answer");
        add(rows, "KVTable", kvTable().encode(), "name server REGISTER_BROKER answer (ORDER_TOPIC_CONFIG namespace)");
        add(rows, "SubscriptionGroupWrapper", groupWrapper().encode(), "broker GET_ALL_SUBSCRIPTIONGROUP_CONFIG answer");
        add(rows, "TopicConfigAndMappingSerializeWrapper", Seeds.topicConfigAndMappingSerializeWrapper(), "broker GET_ALL_TOPIC_CONFIG answer");
        add(rows, "ClusterInfo", clusterInfo().encode(), "name server GET_BROKER_CLUSTER_INFO answer");
        add(rows, "GetBrokerMemberGroupResponseBody", Seeds.brokerMemberGroup(), "name server GET_BROKER_MEMBER_GROUP answer");
        add(rows, "RemotingCommand", header(heartbeatCommand()), "RemotingCommand.headerEncode of a HEART_BEAT request");
        add(rows, "RemotingCommand", header(queryOffsetCommand()), "RemotingCommand.headerEncode of a QUERY_CONSUMER_OFFSET request");
        return rows;
    }

    /** Adds a row, unless json is null: a body this line does not have. */
    private static void add(List<String[]> rows, String kind, byte[] json, String from) {
        if (json != null) {
            rows.add(new String[] {kind, new String(json, StandardCharsets.UTF_8), from});
        }
    }

    static SubscriptionData tagSub(String topic, String expr) throws Exception {
        SubscriptionData s = FilterAPI.buildSubscriptionData(topic, expr);
        s.setSubVersion(T0 + 1);
        return s;
    }

    static SubscriptionData sqlSub(String topic, String expr) throws Exception {
        SubscriptionData s = FilterAPI.build(topic, expr, ExpressionType.SQL92);
        s.setSubVersion(T0 + 2);
        return s;
    }

    static ConsumerData consumer(String group, ConsumeType type, MessageModel model, ConsumeFromWhere from,
        SubscriptionData... subs) {
        ConsumerData c = new ConsumerData();
        c.setGroupName(group);
        c.setConsumeType(type);
        c.setMessageModel(model);
        c.setConsumeFromWhere(from);
        c.setUnitMode(false);
        for (SubscriptionData s : subs) {
            c.getSubscriptionDataSet().add(s);
        }
        return c;
    }

    static ProducerData producer(String group) {
        ProducerData p = new ProducerData();
        p.setGroupName(group);
        return p;
    }

    /** MQClientInstance.prepareHeartbeatData of a client with two push consumers and a producer. */
    static HeartbeatData heartbeat() throws Exception {
        HeartbeatData h = new HeartbeatData();
        h.setClientID(CLIENT_ID);
        h.getConsumerDataSet().add(consumer("cg_tag", ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING,
            ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET, tagSub("TopicTest", "TagA || TagC"), tagSub("%RETRY%cg_tag", "*")));
        h.getConsumerDataSet().add(consumer("cg_sql", ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING,
            ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET, sqlSub("TopicSql", "a BETWEEN 0 AND 3 AND b = 'x'"), tagSub("%RETRY%cg_sql", "*")));
        h.getProducerDataSet().add(producer("pg_test"));
        h.getProducerDataSet().add(producer("CLIENT_INNER_PRODUCER"));
        return h;
    }

    static HeartbeatData producerOnlyHeartbeat() {
        HeartbeatData h = new HeartbeatData();
        h.setClientID(CLIENT_ID);
        h.getProducerDataSet().add(producer("pg_only"));
        h.getProducerDataSet().add(producer("CLIENT_INNER_PRODUCER"));
        return h;
    }

    static HeartbeatData pullHeartbeat() throws Exception {
        HeartbeatData h = new HeartbeatData();
        h.setClientID(CLIENT_ID);
        h.getConsumerDataSet().add(consumer("cg_pull", ConsumeType.CONSUME_ACTIVELY, MessageModel.BROADCASTING,
            ConsumeFromWhere.CONSUME_FROM_TIMESTAMP, tagSub("TopicPull", "*")));
        h.getProducerDataSet().add(producer("CLIENT_INNER_PRODUCER"));
        return h;
    }

    static LockBatchRequestBody lock() {
        LockBatchRequestBody b = new LockBatchRequestBody();
        b.setConsumerGroup("cg_order");
        b.setClientId(CLIENT_ID);
        for (int i = 0; i < 4; i++) {
            b.getMqSet().add(new MessageQueue("TopicOrder", "broker-a", i));
        }
        return b;
    }

    static UnlockBatchRequestBody unlock() {
        UnlockBatchRequestBody b = new UnlockBatchRequestBody();
        b.setConsumerGroup("cg_order");
        b.setClientId(CLIENT_ID);
        for (int i = 0; i < 3; i++) {
            b.getMqSet().add(new MessageQueue("TopicOrder", "broker-a", i));
        }
        return b;
    }

    static CheckClientRequestBody checkClient() throws Exception {
        CheckClientRequestBody b = new CheckClientRequestBody();
        b.setClientId(CLIENT_ID);
        b.setGroup("cg_sql");
        b.setSubscriptionData(sqlSub("TopicSql", "a BETWEEN 0 AND 3 AND b = 'x'"));
        return b;
    }

    static SubscriptionGroupConfig groupConfig() {
        SubscriptionGroupConfig c = new SubscriptionGroupConfig();
        c.setGroupName("cg_admin");
        c.setConsumeBroadcastEnable(false);
        c.setRetryQueueNums(1);
        c.setRetryMaxTimes(3);
        c.setBrokerId(0);
        c.setWhichBrokerWhenConsumeSlowly(1);
        return c;
    }

    static SubscriptionGroupConfig defaultGroupConfig() {
        SubscriptionGroupConfig c = new SubscriptionGroupConfig();
        c.setGroupName("cg_default");
        return c;
    }

    static DataVersion dataVersion(long counter) {
        DataVersion v = new DataVersion();
        Line.zeroStateVersion(v);
        v.setTimestamp(T0 + 100);
        v.setCounter(new AtomicLong(counter));
        return v;
    }

    static TopicConfig topic(String name, int queues, int perm, boolean order) {
        TopicConfig t = new TopicConfig(name, queues, queues, perm);
        t.setOrder(order);
        return t;
    }

    static TopicConfigSerializeWrapper topicConfigWrapper() {
        TopicConfigSerializeWrapper w = new TopicConfigSerializeWrapper();
        ConcurrentMap<String, TopicConfig> t = w.getTopicConfigTable();
        t.put("TopicTest", topic("TopicTest", 4, 6, false));
        t.put("TopicOrder", topic("TopicOrder", 4, 6, true));
        t.put("%RETRY%cg_tag", topic("%RETRY%cg_tag", 1, 6, false));
        t.put("TBW102", topic("TBW102", 8, 7, false));
        t.put("SCHEDULE_TOPIC_XXXX", topic("SCHEDULE_TOPIC_XXXX", 18, 6, false));
        w.setDataVersion(dataVersion(12));
        return w;
    }

    static TopicRouteData singleTopicRoute() {
        TopicRouteData r = new TopicRouteData();
        List<QueueData> qs = new ArrayList<>();
        QueueData q = new QueueData();
        q.setBrokerName("broker-a");
        q.setPerm(6);
        q.setReadQueueNums(8);
        q.setWriteQueueNums(8);
        q.setTopicSysFlag(0);
        qs.add(q);
        r.setQueueDatas(qs);
        return r;
    }

    static TopicRouteData route() {
        TopicRouteData r = new TopicRouteData();
        List<QueueData> qs = new ArrayList<>();
        for (String broker : new String[] {"broker-a", "broker-b"}) {
            QueueData q = new QueueData();
            q.setBrokerName(broker);
            q.setReadQueueNums(4);
            q.setWriteQueueNums(4);
            q.setPerm(6);
            q.setTopicSysFlag(0);
            qs.add(q);
        }
        r.setQueueDatas(qs);
        List<BrokerData> bs = new ArrayList<>();
        HashMap<Long, String> addrs = new HashMap<>();
        addrs.put(0L, BROKER_ADDR);
        addrs.put(1L, "192.168.0.8:10911");
        bs.add(new BrokerData("DefaultCluster", "broker-a", addrs));
        HashMap<Long, String> addrsB = new HashMap<>();
        addrsB.put(0L, "192.168.0.9:10911");
        bs.add(new BrokerData("DefaultCluster", "broker-b", addrsB));
        r.setBrokerDatas(bs);
        r.setFilterServerTable(new HashMap<>());
        return r;
    }

    static GetConsumerStatusBody consumerStatus() {
        GetConsumerStatusBody b = new GetConsumerStatusBody();
        for (int i = 0; i < 3; i++) {
            b.getMessageQueueTable().put(new MessageQueue("TopicTest", "broker-a", i), 100L + i);
        }
        return b;
    }

    static ConsumerOffsetSerializeWrapper offsets() {
        ConsumerOffsetSerializeWrapper w = new ConsumerOffsetSerializeWrapper();
        ConcurrentMap<Integer, Long> q = new ConcurrentHashMap<>();
        q.put(0, 10L);
        q.put(1, 12L);
        q.put(2, 0L);
        w.getOffsetTable().put("TopicTest@cg_tag", q);
        ConcurrentMap<Integer, Long> r = new ConcurrentHashMap<>();
        r.put(0, 3L);
        w.getOffsetTable().put("%RETRY%cg_tag@cg_tag", r);
        return w;
    }

    static KVTable kvTable() {
        KVTable t = new KVTable();
        t.getTable().put("TopicOrder", "broker-a:4;broker-b:4");
        return t;
    }

    static SubscriptionGroupWrapper groupWrapper() {
        SubscriptionGroupWrapper w = new SubscriptionGroupWrapper();
        w.getSubscriptionGroupTable().put("cg_admin", groupConfig());
        w.getSubscriptionGroupTable().put("cg_default", defaultGroupConfig());
        w.setDataVersion(dataVersion(2));
        return w;
    }

    static ClusterInfo clusterInfo() {
        ClusterInfo c = new ClusterInfo();
        HashMap<String, BrokerData> brokers = new HashMap<>();
        for (BrokerData b : route().getBrokerDatas()) {
            brokers.put(b.getBrokerName(), b);
        }
        c.setBrokerAddrTable(brokers);
        HashMap<String, java.util.Set<String>> clusters = new HashMap<>();
        clusters.put("DefaultCluster", new java.util.HashSet<>(brokers.keySet()));
        c.setClusterAddrTable(clusters);
        return c;
    }

    static RemotingCommand heartbeatCommand() {
        RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        c.setOpaque(42);
        c.setVersion(MQVersion.CURRENT_VERSION);
        return c;
    }

    static RemotingCommand queryOffsetCommand() {
        QueryConsumerOffsetRequestHeader h = new QueryConsumerOffsetRequestHeader();
        h.setConsumerGroup("cg_tag");
        h.setTopic("TopicTest");
        h.setQueueId(1);
        RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.QUERY_CONSUMER_OFFSET, h);
        c.setOpaque(43);
        c.setVersion(MQVersion.CURRENT_VERSION);
        return c;
    }

    /** The JSON header bytes of cmd as RemotingCommand.encodeHeader writes them. */
    static byte[] header(RemotingCommand cmd) {
        ByteBuffer b = cmd.encodeHeader();
        b.getInt();
        int headerLength = b.getInt() & 0xFFFFFF;
        byte[] json = new byte[headerLength];
        b.get(json);
        return json;
    }
}
