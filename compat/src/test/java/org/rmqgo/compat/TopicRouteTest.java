package org.rmqgo.compat;

import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** GET_ROUTEINFO_BY_TOPIC(105), what every producer and consumer asks first (and mqadmin topicRoute). */
class TopicRouteTest {
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    @Test
    void createdTopicIsRoutedToItsBrokerWithItsQueueCounts() throws Exception {
        String topic = Clients.unique("route");
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 6, 4);

        var route = admin.examineTopicRouteInfo(topic);
        assertEquals(1, route.getQueueDatas().size(), "queue datas: " + route.getQueueDatas());
        var qd = route.getQueueDatas().get(0);
        assertEquals(Env.brokerName(), qd.getBrokerName());
        assertEquals(6, qd.getReadQueueNums(), "readQueueNums");
        assertEquals(4, qd.getWriteQueueNums(), "writeQueueNums");
        assertEquals(PermName.PERM_READ | PermName.PERM_WRITE, qd.getPerm(), "perm");
        assertEquals(0, qd.getTopicSysFlag(), "topicSysFlag");

        assertEquals(1, route.getBrokerDatas().size(), "broker datas: " + route.getBrokerDatas());
        var bd = route.getBrokerDatas().get(0);
        assertEquals(Env.clusterName(), bd.getCluster());
        assertEquals(Env.brokerName(), bd.getBrokerName());
        assertEquals(Env.brokerAddr(), bd.getBrokerAddrs().get(0L));

        assertNull(route.getOrderTopicConf(), "no order conf unless orderMessageEnable and a KV entry");
    }

    @Test
    void updatingTheTopicUpdatesTheRoute() throws Exception {
        String topic = Clients.unique("route_update");
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 2, 2);
        admin.createAndUpdateTopicConfig(Env.brokerAddr(), Clients.topicConfig(topic, 8, 8));
        Eventually.eventually("route of " + topic + " shows 8 read and 8 write queues", () -> {
            var qd = admin.examineTopicRouteInfo(topic).getQueueDatas().get(0);
            assertEquals(8, qd.getReadQueueNums(), "readQueueNums");
            assertEquals(8, qd.getWriteQueueNums(), "writeQueueNums");
            return null;
        });
    }

    @Test
    void unknownTopicFailsWithTopicNotExist() {
        Clients.assertNoRoute(admin, Clients.unique("no_such_topic"));
    }
}
