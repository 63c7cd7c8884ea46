package org.rmqgo.configgen;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.broker.filter.ConsumerFilterData;
import org.apache.rocketmq.broker.filter.ConsumerFilterManager;
import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.filter.util.BloomFilterData;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import ${rmq.pkg.common}.DataVersion;
import ${rmq.pkg.common}.subscription.SubscriptionGroupConfig;
import ${rmq.pkg.protocol}.body.TopicConfigSerializeWrapper;
import ${rmq.pkg.schedule}.DelayOffsetSerializeWrapper;

/**
 * Writes the broker's config/*.json documents with the real rocketmq-broker
 * classes of this line (4.9.7 with fastjson 1.2.69_noneautotype, or 5.3.3
 * with fastjson 1.2.83): for each document the pretty form
 * ConfigManager.persist writes (encode(true)) and the compact encode().
 * Both lines write the same content, line 5 adds the 5.x fields. Shared by
 * both lines: a template whose placeholders (the packages that moved between
 * 4.9.7 and 5.3.3) the build fills per profile (pom.xml); what only 5.x has
 * is set through class Line of src/line4 (which leaves it out) or src/line5.
 *
 * <p>Usage: ConfigGen &lt;out dir&gt;, normally through ../../gen.sh.
 */
public final class ConfigGen {
    static final long TS = 1700000000000L;

    public static void main(String[] args) throws Exception {
        Path root = Paths.get(args[0]);
        Out out = new Out(root);
        Out empty = new Out(root.resolve("empty"));
        Out builtin = new Out(root.resolve("builtin"));

        TopicConfigSerializeWrapper topics = topics();
        out.pair("topics", topics.toJson(true), topics.toJson(false));
        TopicConfigSerializeWrapper noTopics = new TopicConfigSerializeWrapper();
        noTopics.setDataVersion(version(0, 0));
        empty.pair("topics", noTopics.toJson(true), noTopics.toJson(false));

        ConsumerOffsetManager offsets = offsets();
        out.pair("consumerOffset", offsets.encode(true), offsets.encode(false));
        ConsumerOffsetManager noOffsets = new ConsumerOffsetManager();
        Line.setDataVersion(noOffsets, version(0, 0));
        empty.pair("consumerOffset", noOffsets.encode(true), noOffsets.encode(false));

        DelayOffsetSerializeWrapper delay = delay();
        out.pair("delayOffset", delay.toJson(true), delay.toJson(false));
        DelayOffsetSerializeWrapper noDelay = new DelayOffsetSerializeWrapper();
        Line.setDataVersion(noDelay, version(0, 0));
        empty.pair("delayOffset", noDelay.toJson(true), noDelay.toJson(false));

        SubscriptionGroupManager groups = groups();
        out.pair("subscriptionGroup", groups.encode(true), groups.encode(false));
        SubscriptionGroupManager noGroups = new SubscriptionGroupManager();
        noGroups.getSubscriptionGroupTable().clear();
        setVersion(noGroups.getDataVersion(), 0, 0);
        empty.pair("subscriptionGroup", noGroups.encode(true), noGroups.encode(false));
        // The groups a fresh broker has, in Java's own hash order.
        SubscriptionGroupManager fresh = new SubscriptionGroupManager();
        setVersion(fresh.getDataVersion(), 1, 0);
        builtin.write("subscriptionGroup.json", fresh.encode(true));

        // RemotingSerializable.toJson is encode() without clean(), which
        // would drop the dead entry depending on the clock.
        ConsumerFilterManager filters = filters();
        out.pair("consumerFilter", RemotingSerializable.toJson(filters, true),
            RemotingSerializable.toJson(filters, false));
        ConsumerFilterManager noFilters = new ConsumerFilterManager();
        empty.pair("consumerFilter", noFilters.encode(true), noFilters.encode(false));

        // 5.x only: consumerOrderInfo.json (orderly POP).
        Line.orderInfo(out, empty);
    }

    static DataVersion version(long counter, long state) {
        DataVersion v = new DataVersion();
        setVersion(v, counter, state);
        return v;
    }

    static void setVersion(DataVersion v, long counter, long state) {
        v.setTimestamp(TS);
        v.setCounter(new AtomicLong(counter));
        Line.setStateVersion(v, state);
    }

    static TopicConfigSerializeWrapper topics() {
        TopicConfigSerializeWrapper w = new TopicConfigSerializeWrapper();
        // TopicConfigManager.encode hands its own table (capacity 1024) to the wrapper.
        w.setTopicConfigTable(new ConcurrentHashMap<>(1024));
        w.setDataVersion(version(3, 2));
        TopicConfig test = new TopicConfig("TopicTest", 4, 4, 6);
        Line.putAttribute(test, "message.type", "NORMAL");
        w.getTopicConfigTable().put("TopicTest", test);
        TopicConfig unit = new TopicConfig("UnitTopic", 8, 8, 6);
        unit.setTopicSysFlag(3);
        unit.setOrder(true);
        unit.setTopicFilterType(TopicFilterType.MULTI_TAG);
        Line.putAttribute(unit, "message.type", "FIFO");
        Line.putAttribute(unit, "queue.type", "SimpleCQ");
        w.getTopicConfigTable().put("UnitTopic", unit);
        w.getTopicConfigTable().put("%RETRY%group_g", new TopicConfig("%RETRY%group_g", 1, 1, 6));
        return w;
    }

    static ConsumerOffsetManager offsets() {
        ConsumerOffsetManager m = new ConsumerOffsetManager();
        Line.setDataVersion(m, version(5, 1));
        ConcurrentMap<Integer, Long> q = new ConcurrentHashMap<>(32);
        q.put(0, 12L);
        q.put(1, 7L);
        q.put(2, 0L);
        q.put(3, 1234567890123L);
        m.getOffsetTable().put("TopicTest@group_g", q);
        ConcurrentMap<Integer, Long> retry = new ConcurrentHashMap<>(32);
        retry.put(0, 3L);
        m.getOffsetTable().put("%RETRY%group_g@group_g", retry);
        m.getOffsetTable().put("odd@h@a", new ConcurrentHashMap<>(32));
        return m;
    }

    static DelayOffsetSerializeWrapper delay() {
        DelayOffsetSerializeWrapper w = new DelayOffsetSerializeWrapper();
        Line.setDataVersion(w, version(7, 0));
        for (int level = 1; level <= 18; level++) {
            w.getOffsetTable().put(level, level == 3 ? 5L : 0L);
        }
        return w;
    }

    static SubscriptionGroupManager groups() {
        SubscriptionGroupManager m = new SubscriptionGroupManager();
        m.getSubscriptionGroupTable().clear();
        setVersion(m.getDataVersion(), 2, 1);
        SubscriptionGroupConfig a = new SubscriptionGroupConfig();
        a.setGroupName("group_a");
        m.getSubscriptionGroupTable().put("group_a", a);
        m.getSubscriptionGroupTable().put("group_b", groupB());
        Line.forbid(m, "group_b", "TopicTest", 1);
        return m;
    }

    static SubscriptionGroupConfig groupB() {
        SubscriptionGroupConfig b = new SubscriptionGroupConfig();
        b.setGroupName("group_b");
        b.setConsumeEnable(false);
        b.setConsumeFromMinEnable(false);
        b.setConsumeBroadcastEnable(false);
        b.setRetryQueueNums(2);
        b.setRetryMaxTimes(3);
        b.setBrokerId(1);
        b.setWhichBrokerWhenConsumeSlowly(2);
        b.setNotifyConsumerIdsChangedEnable(false);
        Line.setGroupFields5x(b);
        return b;
    }

    static ConsumerFilterManager filters() {
        ConsumerFilterManager m = new ConsumerFilterManager();
        ConsumerFilterManager.FilterDataMapByTopic byTopic = new ConsumerFilterManager.FilterDataMapByTopic("TopicTest");
        byTopic.getGroupFilterData().put("group_a", filterData("group_a", "TopicTest",
            "a > 5 AND b = '\u4e2d\u6587/x'", 0, new BloomFilterData(new int[] {1, 5, 9}, 64)));
        byTopic.getGroupFilterData().put("group_b", filterData("group_b", "TopicTest",
            "c = 'q\"uote\\\\ \t'", TS + 1000, null));
        m.getFilterDataByTopic().put("TopicTest", byTopic);
        return m;
    }

    static ConsumerFilterData filterData(String group, String topic, String expr, long deadTime, BloomFilterData bloom) {
        ConsumerFilterData d = new ConsumerFilterData();
        d.setConsumerGroup(group);
        d.setTopic(topic);
        d.setExpression(expr);
        d.setExpressionType("SQL92");
        d.setBornTime(TS);
        d.setDeadTime(deadTime);
        d.setBloomFilterData(bloom);
        d.setClientVersion(395);
        return d;
    }
}
