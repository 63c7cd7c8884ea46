package org.rmqgo.configgen;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
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
}
