package org.rmqgo.fastjson;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.body.BrokerMemberGroup;
import org.apache.rocketmq.remoting.protocol.body.CheckClientRequestBody;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.ConsumerOffsetSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.GetBrokerMemberGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.body.GetConsumerStatusBody;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupList;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupWrapper;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.UnlockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.filter.FilterAPI;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.heartbeat.ProducerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicQueueMappingInfo;
import org.apache.rocketmq.remoting.protocol.subscription.ExponentialRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.GroupRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.GroupRetryPolicyType;
import org.apache.rocketmq.remoting.protocol.subscription.SimpleSubscriptionData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/**
 * Line 5 (rocketmq-common/-remoting 5.3.3): bodies built as the 5.3.3 client,
 * broker and tools build them, encoded as they encode them. Clock-derived
 * values (subVersion, DataVersion.timestamp, opaque) are pinned so the output
 * is the same on every run.
 */
final class Seeds {
    static final String VERSION = "5.3.3";
    private static final long T0 = 1700000000000L;
    private static final String CLIENT_ID = "192.168.0.7@12345#4702317542102700";
    private static final String BROKER_ADDR = "192.168.0.7:10911";

    private Seeds() {
    }

    /** {kind, JSON, where it comes from} rows. */
    static List<String[]> all() throws Exception {
        List<String[]> rows = new ArrayList<>();
        rows.add(row("HeartbeatData", heartbeat().encode(), "MQClientAPIImpl.sendHearbeat: heartbeatData.encode() (push consumers cg_tag, cg_sql; producer)"));
        rows.add(row("HeartbeatData", heartbeatV2(false).encode(), "MQClientInstance.sendHeartbeatToAllBrokerV2: first heartbeat, with subscriptions and heartbeatFingerprint"));
        rows.add(row("HeartbeatData", heartbeatV2(true).encode(), "MQClientInstance.sendHeartbeatToAllBrokerV2: later heartbeat, isWithoutSub and the same fingerprint"));
        rows.add(row("HeartbeatData", producerOnlyHeartbeat().encode(), "heartbeat of a producer-only client"));
        rows.add(row("HeartbeatData", pullHeartbeat().encode(), "heartbeat of a pull consumer (CONSUME_ACTIVELY, BROADCASTING)"));
        rows.add(row("LockBatchRequestBody", lock(false).encode(), "RebalanceImpl.lockAll -> MQClientAPIImpl.lockBatchMQ: requestBody.encode()"));
        rows.add(row("LockBatchRequestBody", lock(true).encode(), "lock with onlyThisBroker (5.x proxy / BrokerOuterAPI.lockBatchMQAsync)"));
        rows.add(row("UnlockBatchRequestBody", unlock(false).encode(), "RebalanceImpl.unlockAll -> MQClientAPIImpl.unlockBatchMQ: requestBody.encode()"));
        rows.add(row("CheckClientRequestBody", checkClient().encode(), "MQClientAPIImpl.checkClientInBroker (SQL92 subscription)"));
        rows.add(row("SubscriptionGroupConfig", RemotingSerializable.encode(groupConfig()), "MQClientAPIImpl.createSubscriptionGroup: RemotingSerializable.encode(config)"));
        rows.add(row("SubscriptionGroupConfig", RemotingSerializable.encode(defaultGroupConfig()), "mqadmin updateSubGroup -g cg_default (defaults)"));
        rows.add(row("SubscriptionGroupConfig", RemotingSerializable.encode(retryPolicyGroupConfig()), "5.x group config with subscriptionDataSet, exponential groupRetryPolicy and attributes"));
        rows.add(row("SubscriptionGroupList", groupList().encode(), "MQClientAPIImpl.createSubscriptionGroupList: requestBody.encode()"));
        rows.add(row("RegisterBrokerBody", registerBrokerBody().encode(false), "BrokerOuterAPI.registerBrokerAll: requestBody.encode(false), TopicConfigAndMappingSerializeWrapper inside"));
        rows.add(row("TopicConfigSerializeWrapper", topicConfigWrapper().encode(), "the REGISTER_BROKER body of brokers older than V3_0_11"));
        rows.add(row("TopicRouteData", singleTopicRoute().encode(), "BrokerOuterAPI.registerSingleTopicAll: REGISTER_TOPIC_IN_NAMESRV body topicRouteData.encode()"));
        rows.add(row("TopicRouteData", route().encode(), "name server GET_ROUTEINFO_BY_TOPIC answer: topicRouteData.encode()"));
        rows.add(row("DataVersion", dataVersion(7).encode(), "BrokerOuterAPI.needRegister: QUERY_DATA_VERSION body dataVersion.encode()"));
        rows.add(row("GetConsumerStatusBody", consumerStatus().encode(), "ClientRemotingProcessor.getConsumeStatus answer: body.encode()"));
        rows.add(row("ConsumerOffsetSerializeWrapper", offsets().encode(), "broker GET_ALL_CONSUMER_OFFSET answer"));
        rows.add(row("KVTable", kvTable().encode(), "name server REGISTER_BROKER answer (ORDER_TOPIC_CONFIG namespace)"));
        rows.add(row("SubscriptionGroupWrapper", groupWrapper().encode(), "broker GET_ALL_SUBSCRIPTIONGROUP_CONFIG answer"));
        rows.add(row("TopicConfigAndMappingSerializeWrapper", registerBrokerBody().getTopicConfigSerializeWrapper().encode(), "broker GET_ALL_TOPIC_CONFIG answer"));
        rows.add(row("ClusterInfo", clusterInfo().encode(), "name server GET_BROKER_CLUSTER_INFO answer"));
        rows.add(row("GetBrokerMemberGroupResponseBody", memberGroup().encode(), "name server GET_BROKER_MEMBER_GROUP answer"));
        rows.add(row("RemotingCommand", header(heartbeatCommand()), "RemotingCommand.headerEncode of a HEART_BEAT request"));
        rows.add(row("RemotingCommand", header(queryOffsetCommand()), "RemotingCommand.headerEncode of a QUERY_CONSUMER_OFFSET request"));
        return rows;
    }

    private static String[] row(String kind, byte[] json, String from) {
        return new String[] {kind, new String(json, StandardCharsets.UTF_8), from};
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

    /** MQClientInstance.sendHeartbeatToAllBrokerV2: both heartbeats carry the fingerprint of the full one. */
    static HeartbeatData heartbeatV2(boolean withoutSub) throws Exception {
        HeartbeatData full = heartbeat();
        int fingerprint = full.computeHeartbeatFingerprint();
        HeartbeatData h = withoutSub ? heartbeat() : full;
        if (withoutSub) {
            for (ConsumerData c : h.getConsumerDataSet()) {
                c.getSubscriptionDataSet().clear();
            }
        }
        h.setWithoutSub(withoutSub);
        h.setHeartbeatFingerprint(fingerprint);
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

    static LockBatchRequestBody lock(boolean onlyThisBroker) {
        LockBatchRequestBody b = new LockBatchRequestBody();
        b.setConsumerGroup("cg_order");
        b.setClientId(CLIENT_ID);
        b.setOnlyThisBroker(onlyThisBroker);
        for (int i = 0; i < 4; i++) {
            b.getMqSet().add(new MessageQueue("TopicOrder", "broker-a", i));
        }
        return b;
    }

    static UnlockBatchRequestBody unlock(boolean onlyThisBroker) {
        UnlockBatchRequestBody b = new UnlockBatchRequestBody();
        b.setConsumerGroup("cg_order");
        b.setClientId(CLIENT_ID);
        b.setOnlyThisBroker(onlyThisBroker);
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

    static SubscriptionGroupConfig retryPolicyGroupConfig() {
        SubscriptionGroupConfig c = new SubscriptionGroupConfig();
        c.setGroupName("cg_retry");
        c.setConsumeMessageOrderly(true);
        c.setConsumeTimeoutMinute(30);
        GroupRetryPolicy p = new GroupRetryPolicy();
        p.setType(GroupRetryPolicyType.EXPONENTIAL);
        p.setExponentialRetryPolicy(new ExponentialRetryPolicy(1000, 60000, 2));
        c.setGroupRetryPolicy(p);
        HashSet<SimpleSubscriptionData> subs = new HashSet<>();
        subs.add(new SimpleSubscriptionData("TopicTest", ExpressionType.TAG, "TagA || TagC", T0 + 3));
        c.setSubscriptionDataSet(subs);
        c.getAttributes().put("+lite.bind.topic", "TopicTest");
        return c;
    }

    static SubscriptionGroupList groupList() {
        List<SubscriptionGroupConfig> l = new ArrayList<>();
        l.add(groupConfig());
        l.add(defaultGroupConfig());
        return new SubscriptionGroupList(l);
    }

    static DataVersion dataVersion(long counter) {
        DataVersion v = new DataVersion();
        v.setStateVersion(0L);
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

    static RegisterBrokerBody registerBrokerBody() {
        RegisterBrokerBody b = new RegisterBrokerBody();
        TopicConfigAndMappingSerializeWrapper w = new TopicConfigAndMappingSerializeWrapper();
        w.setTopicConfigTable(topicConfigWrapper().getTopicConfigTable());
        w.setDataVersion(dataVersion(12));
        TopicQueueMappingInfo info = new TopicQueueMappingInfo("TopicStatic", 4, "broker-a", 1);
        info.getCurrIdMap().put(0, 0);
        info.getCurrIdMap().put(1, 1);
        w.getTopicQueueMappingInfoMap().put("TopicStatic", info);
        w.setMappingDataVersion(dataVersion(1));
        b.setTopicConfigSerializeWrapper(w);
        return b;
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

    static GetBrokerMemberGroupResponseBody memberGroup() {
        BrokerMemberGroup g = new BrokerMemberGroup("DefaultCluster", "broker-a");
        g.getBrokerAddrs().put(0L, BROKER_ADDR);
        g.getBrokerAddrs().put(1L, "192.168.0.8:10911");
        GetBrokerMemberGroupResponseBody b = new GetBrokerMemberGroupResponseBody();
        b.setBrokerMemberGroup(g);
        return b;
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
