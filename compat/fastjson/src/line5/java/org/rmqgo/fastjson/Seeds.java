package org.rmqgo.fastjson;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.body.BrokerMemberGroup;
import org.apache.rocketmq.remoting.protocol.body.GetBrokerMemberGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupList;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicQueueMappingInfo;
import org.apache.rocketmq.remoting.protocol.subscription.ExponentialRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.GroupRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.GroupRetryPolicyType;
import org.apache.rocketmq.remoting.protocol.subscription.SimpleSubscriptionData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/**
 * The seeds of line 5 (rocketmq-common/-remoting 5.3.3) whose build differs
 * by line: the rows only 5.x has and the 5.x register body; the rows of both
 * lines are listed in class Bodies (src/shared).
 */
final class Seeds {
    static final String REGISTER_BROKER_BODY_FROM =
        "BrokerOuterAPI.registerBrokerAll: requestBody.encode(false), TopicConfigAndMappingSerializeWrapper inside";

    private Seeds() {
    }

    static RegisterBrokerBody registerBrokerBody() {
        RegisterBrokerBody b = new RegisterBrokerBody();
        TopicConfigAndMappingSerializeWrapper w = new TopicConfigAndMappingSerializeWrapper();
        w.setTopicConfigTable(Bodies.topicConfigWrapper().getTopicConfigTable());
        w.setDataVersion(Bodies.dataVersion(12));
        TopicQueueMappingInfo info = new TopicQueueMappingInfo("TopicStatic", 4, "broker-a", 1);
        info.getCurrIdMap().put(0, 0);
        info.getCurrIdMap().put(1, 1);
        w.getTopicQueueMappingInfoMap().put("TopicStatic", info);
        w.setMappingDataVersion(Bodies.dataVersion(1));
        b.setTopicConfigSerializeWrapper(w);
        return b;
    }

    /** MQClientInstance.sendHeartbeatToAllBrokerV2: both heartbeats carry the fingerprint of the full one. */
    static byte[] heartbeatV2(boolean withoutSub) throws Exception {
        HeartbeatData full = Bodies.heartbeat();
        int fingerprint = full.computeHeartbeatFingerprint();
        HeartbeatData h = withoutSub ? Bodies.heartbeat() : full;
        if (withoutSub) {
            for (ConsumerData c : h.getConsumerDataSet()) {
                c.getSubscriptionDataSet().clear();
            }
        }
        h.setWithoutSub(withoutSub);
        h.setHeartbeatFingerprint(fingerprint);
        return h.encode();
    }

    static byte[] lockOnlyThisBroker() {
        LockBatchRequestBody b = Bodies.lock();
        b.setOnlyThisBroker(true);
        return b.encode();
    }

    static byte[] retryPolicyGroupConfig() {
        SubscriptionGroupConfig c = new SubscriptionGroupConfig();
        c.setGroupName("cg_retry");
        c.setConsumeMessageOrderly(true);
        c.setConsumeTimeoutMinute(30);
        GroupRetryPolicy p = new GroupRetryPolicy();
        p.setType(GroupRetryPolicyType.EXPONENTIAL);
        p.setExponentialRetryPolicy(new ExponentialRetryPolicy(1000, 60000, 2));
        c.setGroupRetryPolicy(p);
        HashSet<SimpleSubscriptionData> subs = new HashSet<>();
        subs.add(new SimpleSubscriptionData("TopicTest", ExpressionType.TAG, "TagA || TagC", Bodies.T0 + 3));
        c.setSubscriptionDataSet(subs);
        c.getAttributes().put("+lite.bind.topic", "TopicTest");
        return RemotingSerializable.encode(c);
    }

    static byte[] groupList() {
        List<SubscriptionGroupConfig> l = new ArrayList<>();
        l.add(Bodies.groupConfig());
        l.add(Bodies.defaultGroupConfig());
        return new SubscriptionGroupList(l).encode();
    }

    static byte[] topicConfigAndMappingSerializeWrapper() {
        return registerBrokerBody().getTopicConfigSerializeWrapper().encode();
    }

    static byte[] brokerMemberGroup() {
        BrokerMemberGroup g = new BrokerMemberGroup("DefaultCluster", "broker-a");
        g.getBrokerAddrs().put(0L, Bodies.BROKER_ADDR);
        g.getBrokerAddrs().put(1L, "192.168.0.8:10911");
        GetBrokerMemberGroupResponseBody b = new GetBrokerMemberGroupResponseBody();
        b.setBrokerMemberGroup(g);
        return b.encode();
    }
}
