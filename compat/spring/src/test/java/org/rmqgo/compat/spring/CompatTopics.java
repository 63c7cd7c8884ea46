package org.rmqgo.compat.spring;

import java.time.Duration;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.rmqgo.testsupport.Eventually;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Creates this run's topics on every master broker and waits until the name
 * server routes them, before any listener bean starts its consumer (they
 * @DependsOn this bean): a consumer that starts on a topic without a route
 * would wait for its next route refresh (30 s). It uses the admin calls of
 * the rocketmq-client the starter brings (UPDATE_AND_CREATE_TOPIC to each
 * broker, as DefaultMQAdminExt does; rocketmq-tools 5.3.2 is not on Maven
 * Central). getDefaultMQProducerImpl() is deprecated on 5.x, not gone.
 */
@Component("compatTopics")
public class CompatTopics {
    static final int QUEUES = 4;
    private static final long TIMEOUT_MILLIS = 5000;
    private static final int PERM_READ_WRITE = 6;

    public CompatTopics(@Value("${rocketmq.name-server}") String namesrv) throws Exception {
        DefaultMQProducer admin = new DefaultMQProducer("SpringTopicAdmin_" + RunNames.RUN);
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName("SpringTopicAdmin_" + RunNames.RUN);
        admin.start();
        try {
            MQClientAPIImpl api = admin.getDefaultMQProducerImpl().getmQClientFactory().getMQClientAPIImpl();
            for (String topic : RunNames.TOPICS) {
                create(api, topic);
            }
            for (String topic : RunNames.TOPICS) {
                awaitRoute(api, topic);
            }
        } finally {
            admin.shutdown();
        }
    }

    private static void create(MQClientAPIImpl api, String topic) throws Exception {
        var cluster = api.getBrokerClusterInfo(TIMEOUT_MILLIS);
        for (var broker : cluster.getBrokerAddrTable().values()) {
            String master = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
            if (master != null) {
                api.createTopic(master, "TBW102", new TopicConfig(topic, QUEUES, QUEUES, PERM_READ_WRITE),
                    TIMEOUT_MILLIS);
            }
        }
    }

    private static void awaitRoute(MQClientAPIImpl api, String topic) throws Exception {
        Eventually.eventually(Duration.ofSeconds(45), "the name server routes " + topic, () -> {
            var route = api.getTopicRouteInfoFromNameServer(topic, TIMEOUT_MILLIS);
            if (route.getQueueDatas() == null || route.getQueueDatas().isEmpty()) {
                throw new AssertionError("no queue data for " + topic);
            }
            return route;
        });
    }
}
