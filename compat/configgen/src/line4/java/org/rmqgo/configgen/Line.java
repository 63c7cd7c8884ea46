package org.rmqgo.configgen;

import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.common.DataVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.store.schedule.DelayOffsetSerializeWrapper;

/**
 * What class ConfigGen sets that only 5.x has, on line 4 (4.9.7): nothing,
 * as none of these fields exists in 4.9.7.
 */
final class Line {
    private Line() {
    }

    /** DataVersion has no stateVersion. */
    static void setStateVersion(DataVersion v, long state) {
    }

    /** ConsumerOffsetManager has no dataVersion. */
    static void setDataVersion(ConsumerOffsetManager m, DataVersion v) {
    }

    /** DelayOffsetSerializeWrapper has no dataVersion. */
    static void setDataVersion(DelayOffsetSerializeWrapper w, DataVersion v) {
    }

    /** TopicConfig has no attributes. */
    static void putAttribute(TopicConfig t, String key, String value) {
    }

    /** SubscriptionGroupManager has no forbidden table. */
    static void forbid(SubscriptionGroupManager m, String group, String topic, int perm) {
    }

    /** SubscriptionGroupConfig has none of the 5.x fields. */
    static void setGroupFields5x(SubscriptionGroupConfig b) {
    }

    /** 4.9.7 has no orderly POP, so no consumerOrderInfo.json. */
    static void orderInfo(Out out, Out empty) {
    }
}
