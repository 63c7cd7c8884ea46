package org.rmqgo.configgen;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.Arrays;
import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
import org.apache.rocketmq.broker.offset.ConsumerOrderInfoManager;
import org.apache.rocketmq.broker.offset.ConsumerOrderInfoManager.OrderInfo;
import org.apache.rocketmq.broker.schedule.DelayOffsetSerializeWrapper;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.subscription.CustomizedRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.ExponentialRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.GroupRetryPolicy;
import org.apache.rocketmq.remoting.protocol.subscription.GroupRetryPolicyType;
import org.apache.rocketmq.remoting.protocol.subscription.SimpleSubscriptionData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/** What class ConfigGen sets that only 5.x has, on line 5 (5.3.3). */
final class Line {
    private Line() {
    }

    static void setStateVersion(DataVersion v, long state) {
        v.setStateVersion(state);
    }

    static void setDataVersion(ConsumerOffsetManager m, DataVersion v) {
        m.setDataVersion(v);
    }

    static void setDataVersion(DelayOffsetSerializeWrapper w, DataVersion v) {
        w.setDataVersion(v);
    }

    static void putAttribute(TopicConfig t, String key, String value) {
        t.getAttributes().put(key, value);
    }

    static void forbid(SubscriptionGroupManager m, String group, String topic, int perm) {
        ConcurrentMap<String, Integer> forbidden = new ConcurrentHashMap<>();
        forbidden.put(topic, perm);
        m.getForbiddenTable().put(group, forbidden);
    }

    static void setGroupFields5x(SubscriptionGroupConfig b) {
        b.setConsumeMessageOrderly(true);
        b.setGroupSysFlag(1);
        b.setConsumeTimeoutMinute(30);
        GroupRetryPolicy p = new GroupRetryPolicy();
        p.setType(GroupRetryPolicyType.EXPONENTIAL);
        p.setExponentialRetryPolicy(new ExponentialRetryPolicy(1000, 60000, 3));
        p.setCustomizedRetryPolicy(new CustomizedRetryPolicy(new long[] {1000, 2000}));
        b.setGroupRetryPolicy(p);
        Set<SimpleSubscriptionData> subs = new HashSet<>();
        subs.add(new SimpleSubscriptionData("TopicTest", "TAG", "a || b", ConfigGen.TS));
        b.setSubscriptionDataSet(subs);
        Map<String, String> attrs = new HashMap<>();
        attrs.put("key", "value");
        b.setAttributes(attrs);
    }

    /**
     * consumerOrderInfo.json: two topics; a queue popped three messages
     * (offsets 5, 6, 8) with an attemptId, message 5 acked, 6 made
     * invisible longer, 5 and 8 delivered before; a queue as a file of
     * 5.0 has it (no i, oc, ot, a); a queue whose last pop shared no
     * message with the one before (an empty oc). The manager has no
     * broker, so encode(true) cleans nothing.
     */
    static void orderInfo(Out out, Out empty) throws java.io.IOException {
        ConsumerOrderInfoManager m = new ConsumerOrderInfoManager();
        ConcurrentHashMap<Integer, OrderInfo> a = new ConcurrentHashMap<>(16);
        OrderInfo q0 = new OrderInfo("attempt-1", ConfigGen.TS, 60000L, Arrays.asList(5L, 6L, 8L), ConfigGen.TS + 1000, 1L);
        q0.updateOffsetNextVisibleTime(6L, ConfigGen.TS + 99999);
        Map<Long, Integer> counts = new HashMap<>();
        counts.put(5L, 1);
        counts.put(8L, 2);
        q0.setOffsetConsumedCount(counts);
        a.put(0, q0);
        OrderInfo q1 = new OrderInfo(null, ConfigGen.TS + 1, 0L, Arrays.asList(7L), ConfigGen.TS, 0L);
        q1.setInvisibleTime(null);
        a.put(1, q1);
        m.getTable().put("TopicTest@group_g", a);
        ConcurrentHashMap<Integer, OrderInfo> b = new ConcurrentHashMap<>(16);
        OrderInfo q3 = new OrderInfo(null, ConfigGen.TS + 2, 30000L, Arrays.asList(100L, 102L), ConfigGen.TS + 2, 0L);
        q3.setOffsetConsumedCount(new HashMap<>());
        b.put(3, q3);
        m.getTable().put("UnitTopic@group_g", b);
        out.pair("consumerOrderInfo", m.encode(true), m.encode(false));
        ConsumerOrderInfoManager none = new ConsumerOrderInfoManager();
        empty.pair("consumerOrderInfo", none.encode(true), none.encode(false));
    }
}
