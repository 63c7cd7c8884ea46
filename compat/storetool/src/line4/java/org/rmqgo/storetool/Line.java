package org.rmqgo.storetool;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentMap;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.schedule.ScheduleMessageService;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/** The calls whose signatures differ between the lines: 4.9.7 here, 5.3.3 in src/line5. */
final class Line {
    private Line() {
    }

    /** 4.9.7 has no topic table in the store constructor; topics is ignored. */
    static DefaultMessageStore newStore(MessageStoreConfig cfg, BrokerConfig bc,
        ConcurrentMap<String, TopicConfig> topics) throws IOException {
        return new DefaultMessageStore(cfg,
            new BrokerStatsManager(bc.getBrokerClusterName(), bc.isEnableDetailStat()),
            (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { }, bc);
    }

    /**
     * In 4.9.7 the store itself runs the delay-level delivery (ScheduleMessageService), started by
     * start() with its first run 1 s later. Stopping it at once keeps a dump to what is on disk:
     * no due delayed message is re-put while the dump reads. (5.x runs it in the broker.)
     */
    static void afterStart(DefaultMessageStore store) {
        ScheduleMessageService s = store.getScheduleMessageService();
        if (s != null) {
            s.shutdown();
        }
    }

    /** 4.9.7 TopicConfig has no attributes. */
    static void setAttributes(TopicConfig tc, java.util.Map<String, String> attributes) {
    }

    /** The consume-queue unit {commitlog offset, size, tagsCode} at index, or null. */
    static long[] cqUnit(DefaultMessageStore store, String topic, int queueId, long index) {
        ConsumeQueue cq = store.getConsumeQueue(topic, queueId);
        if (cq == null) {
            return null;
        }
        SelectMappedBufferResult r = cq.getIndexBuffer(index);
        if (r == null) {
            return null;
        }
        try {
            ByteBuffer b = r.getByteBuffer();
            if (r.getSize() < ConsumeQueue.CQ_STORE_UNIT_SIZE) {
                return null;
            }
            return new long[] {b.getLong(0), b.getInt(8), b.getLong(12)};
        } finally {
            r.release();
        }
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
