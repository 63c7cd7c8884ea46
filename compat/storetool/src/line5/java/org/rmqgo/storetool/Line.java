package org.rmqgo.storetool;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentMap;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.queue.ConsumeQueueInterface;
import org.apache.rocketmq.store.queue.CqUnit;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/** The calls whose signatures differ between the lines: 5.3.3 here, 4.9.7 in src/line4. */
final class Line {
    private Line() {
    }

    /** 5.x takes the broker's topic table (used for the queue type, BatchCQ or SimpleCQ). */
    static DefaultMessageStore newStore(MessageStoreConfig cfg, BrokerConfig bc,
        ConcurrentMap<String, TopicConfig> topics) throws IOException {
        return new DefaultMessageStore(cfg,
            new BrokerStatsManager(bc.getBrokerClusterName(), bc.isEnableDetailStat()),
            (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { }, bc,
            topics);
    }

    /** 5.x: delay-level delivery and timers run in the broker, not in the store: nothing to stop. */
    static void afterStart(DefaultMessageStore store) {
    }

    /** Topic attributes (queue.type, cleanup.policy, message.type) as topics.json holds them. */
    static void setAttributes(TopicConfig tc, java.util.Map<String, String> attributes) {
        tc.setAttributes(attributes);
    }

    /** The consume-queue unit {commitlog offset, size, tagsCode} at index, or null. */
    static long[] cqUnit(DefaultMessageStore store, String topic, int queueId, long index) {
        ConsumeQueueInterface cq = store.getConsumeQueue(topic, queueId);
        if (cq == null) {
            return null;
        }
        CqUnit u = cq.get(index);
        if (u == null) {
            return null;
        }
        return new long[] {u.getPos(), u.getSize(), u.getTagsCode()};
    }

    /** Appends one message the way the broker hands it to the store (TAGS, KEYS, tagsCode set). */
    static PutMessageResult put(DefaultMessageStore store, String topic, int queueId, byte[] body,
        String tags, String keys, SocketAddress bornHost, SocketAddress storeHost) {
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(topic);
        m.setQueueId(queueId);
        m.setBody(body);
        m.setFlag(0);
        m.setTags(tags);
        m.setKeys(keys);
        m.setPropertiesString(MessageDecoder.messageProperties2String(m.getProperties()));
        m.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(tags));
        m.setBornTimestamp(System.currentTimeMillis());
        m.setBornHost(bornHost);
        m.setStoreHost(storeHost);
        m.setSysFlag(0);
        return store.putMessage(m);
    }
}
