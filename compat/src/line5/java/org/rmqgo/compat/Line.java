package org.rmqgo.compat;

import java.util.HashMap;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.BoundaryType;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * What differs between the client lines, 5.3.3 flavour (profile rmq5). The
 * twin in src/line4/java has the same methods.
 */
final class Line {
    static final String CLIENT_LINE = "5";

    /**
     * 5.3.3 also gives the batch itself a UNIQ_KEY (DefaultMQProducer.batch). The broker appends the
     * batch's properties to every message's, so every message of the batch is consumed with the
     * batch's msgId, which is none of those the send result lists.
     */
    static final boolean BATCH_HAS_ITS_OWN_UNIQ_KEY = true;

    private Line() {
    }

    /** 5.3.3 orders the three-argument form (addrs, clusterName, topic): the reverse of 4.9.8. */
    static void deleteTopicInNameServer(DefaultMQAdminExt admin, Set<String> namesrvAddrs, String cluster, String topic)
        throws Exception {
        admin.deleteTopicInNameServer(namesrvAddrs, cluster, topic);
    }

    /** MessageModel lives in org.apache.rocketmq.remoting.protocol.heartbeat on this line. */
    static void broadcasting(DefaultMQPushConsumer consumer) {
        consumer.setMessageModel(MessageModel.BROADCASTING);
    }

    /** 5.3.3 adds a map of topic attributes: createTopic(key, newTopic, queueNum, topicSysFlag, attributes). */
    static void createTopicViaProducer(DefaultMQProducer producer, String key, String topic, int queueNum,
        int topicSysFlag) throws Exception {
        producer.createTopic(key, topic, queueNum, topicSysFlag, new HashMap<>());
    }

    /**
     * SEARCH_OFFSET_BY_TIMESTAMP to brokerAddr: boundary null sends none (the five-argument form
     * leaves the header's boundaryType null), "LOWER" or "UPPER" sends that BoundaryType.
     */
    static long searchOffset(MQClientAPIImpl api, String brokerAddr, MessageQueue mq, long timestamp, String boundary)
        throws Exception {
        if (boundary == null) {
            return api.searchOffset(brokerAddr, mq.getTopic(), mq.getQueueId(), timestamp, 15_000);
        }
        return api.searchOffset(brokerAddr, mq, timestamp, BoundaryType.valueOf(boundary), 15_000);
    }
}
