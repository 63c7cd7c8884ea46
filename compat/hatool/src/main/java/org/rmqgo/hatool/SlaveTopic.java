package org.rmqgo.hatool;

import java.util.concurrent.Callable;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;

/**
 * Makes sure the slave knows the topic before the first kill: a broker answers a pull for a topic
 * that is not in its topic table with TOPIC_NOT_EXIST, and a slave copies its master's topics
 * (GET_ALL_TOPIC_CONFIG, SlaveSynchronize) only every 10 s, so a topic made by the round's first
 * send could be unknown to the slave when the master dies. {@link #ensure} sends one message (the
 * master creates the topic), then polls the slave's GET_ALL_TOPIC_CONFIG until the topic is there.
 * When it is still missing after {@code waitMs}, it asks the slave itself to create it
 * (UPDATE_AND_CREATE_TOPIC, 4 queues as the master made it) and says so on stdout: a Java slave
 * refuses that (4.x validateSlave), so this only helps a slave that copies no topics but takes
 * them.
 */
final class SlaveTopic {
    private final DefaultMQProducer producer;
    private final String topic;
    private final String slave;
    private final long waitMs;

    SlaveTopic(DefaultMQProducer producer, String topic, String slave, long waitMs) {
        this.producer = producer;
        this.topic = topic;
        this.slave = slave;
        this.waitMs = waitMs;
    }

    void ensure(Callable<?> createOnMaster) throws Exception {
        createOnMaster.call();
        MQClientAPIImpl api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
        long begin = System.currentTimeMillis();
        String error = "";
        while (System.currentTimeMillis() - begin < waitMs) {
            try {
                var wrapper = api.getAllTopicConfig(slave, 3000);
                if (wrapper.getTopicConfigTable().containsKey(topic)) {
                    System.out.printf("the slave %s has the topic %s (after %d ms)%n", slave, topic, System.currentTimeMillis() - begin);
                    return;
                }
            } catch (Exception e) {
                error = " (last error " + e + ")";
            }
            Thread.sleep(500);
        }
        System.out.printf("the slave %s did not copy the topic %s from its master within %d ms%s; asking the slave to create it%n",
            slave, topic, waitMs, error);
        TopicConfig tc = new TopicConfig(topic, 4, 4, 6);
        try {
            api.createTopic(slave, "TBW102", tc, 3000);
        } catch (Exception e) {
            throw new HaKill.HarnessError("the slave has no topic " + topic + " and refused to create it: " + e);
        }
        System.out.printf("the slave %s created the topic %s when asked%n", slave, topic);
    }
}
