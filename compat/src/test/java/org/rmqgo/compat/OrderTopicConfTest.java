package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.util.List;
import java.util.Properties;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The route's orderTopicConf comes from KV namespace ORDER_TOPIC_CONFIG, keyed by topic (what
 * mqadmin updateTopic -o / updateOrderConf write), and only while the name server has
 * orderMessageEnable=true (default false).
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class OrderTopicConfTest {
    private static final String NAMESPACE_ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG";

    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    private static void setOrderMessageEnable(boolean on) throws Exception {
        Properties p = new Properties();
        p.setProperty("orderMessageEnable", Boolean.toString(on));
        admin.updateNameServerConfig(p, List.of(Env.namesrvAddr()));
    }

    @Test
    void orderConfShowsInTheRouteWhenOrderMessagesAreEnabled() throws Exception {
        String topic = Clients.unique("order");
        String conf = Env.brokerName() + ":4";
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 4, 4);
        admin.createAndUpdateKvConfig(NAMESPACE_ORDER_TOPIC_CONFIG, topic, conf);
        try {
            assertNull(admin.examineTopicRouteInfo(topic).getOrderTopicConf(),
                "orderMessageEnable=false (the default): no orderTopicConf even with the KV entry");

            setOrderMessageEnable(true);
            try {
                assertEquals(conf, admin.examineTopicRouteInfo(topic).getOrderTopicConf(), "orderTopicConf");
                String plain = Clients.unique("not_order");
                Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), plain, 4, 4);
                assertNull(admin.examineTopicRouteInfo(plain).getOrderTopicConf(), "a topic with no KV entry");
            } finally {
                setOrderMessageEnable(false);
            }
            assertNull(admin.examineTopicRouteInfo(topic).getOrderTopicConf(), "disabled again");
        } finally {
            admin.deleteKvConfig(NAMESPACE_ORDER_TOPIC_CONFIG, topic);
        }
    }
}
