package org.rmqgo.compat;

import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * What differs between the client lines, 4.9.8 flavour (profile rmq4, the
 * default). The twin in src/line5/java has the same methods.
 */
final class Line {
    static final String CLIENT_LINE = "4";

    /**
     * 4.9.8 gives each message of a batch its own UNIQ_KEY and the batch none, so a consumer sees
     * each message with the msgId the send result listed.
     */
    static final boolean BATCH_HAS_ITS_OWN_UNIQ_KEY = false;

    private Line() {
    }

    /** 4.9.8 orders the arguments (addrs, topic, clusterName). */
    static void deleteTopicInNameServer(DefaultMQAdminExt admin, Set<String> namesrvAddrs, String cluster, String topic)
        throws Exception {
        admin.deleteTopicInNameServer(namesrvAddrs, topic, cluster);
    }

    /** MessageModel lives in org.apache.rocketmq.common.protocol.heartbeat on this line. */
    static void broadcasting(DefaultMQPushConsumer consumer) {
        consumer.setMessageModel(MessageModel.BROADCASTING);
    }

    /** 4.9.8: createTopic(key, newTopic, queueNum, topicSysFlag). */
    static void createTopicViaProducer(DefaultMQProducer producer, String key, String topic, int queueNum,
        int topicSysFlag) throws Exception {
        producer.createTopic(key, topic, queueNum, topicSysFlag);
    }

    /**
     * SEARCH_OFFSET_BY_TIMESTAMP to brokerAddr: boundary null sends none, which is all a 4.9.8
     * client can send (it has no BoundaryType).
     */
    static long searchOffset(MQClientAPIImpl api, String brokerAddr, MessageQueue mq, long timestamp, String boundary)
        throws Exception {
        if (boundary != null) {
            throw new UnsupportedOperationException("the 4.9.8 client sends no boundaryType");
        }
        return api.searchOffset(brokerAddr, mq, timestamp, 15_000);
    }
}
