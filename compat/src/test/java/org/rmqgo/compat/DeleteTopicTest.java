package org.rmqgo.compat;

import java.util.Set;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DELETE_TOPIC_IN_BROKER(215) then DELETE_TOPIC_IN_NAMESRV(216), in the order mqadmin deleteTopic sends
 * them (the other order lets the broker's next registration bring the route back).
 */
class DeleteTopicTest {
    /** ResponseCode numbers (INVALID_PARAMETER is 5.x only). */
    private static final int SYSTEM_ERROR = 1;
    private static final int INVALID_PARAMETER = 29;

    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    @Test
    void routeDisappearsAfterDeleteInBrokerAndNameServer() throws Exception {
        String topic = Clients.unique("delete");
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 4, 4);

        Clients.deleteTopicEverywhere(admin, Set.of(Env.brokerAddr()), topic);

        Eventually.eventually("route of " + topic + " is gone", () -> {
            Clients.assertNoRoute(admin, topic);
            return null;
        });
        var all = admin.fetchAllTopicList().getTopicList();
        assertFalse(all.contains(topic), topic + " still in the topic list " + all);
        var inCluster = admin.fetchTopicsByCLuster(Env.clusterName()).getTopicList();
        assertFalse(inCluster.contains(topic), topic + " still in the cluster's topics " + inCluster);
    }

    @Test
    void deletingAnUnknownTopicInTheNameServerSucceeds() throws Exception {
        String topic = Clients.unique("never_created");
        Line.deleteTopicInNameServer(admin, Set.of(Env.namesrvAddr()), Env.clusterName(), topic);
        Clients.assertNoRoute(admin, topic);
    }

    /**
     * A broker keeps its system topics: DELETE_TOPIC_IN_BROKER of TBW102 or SCHEDULE_TOPIC_XXXX is
     * refused (4.x SYSTEM_ERROR, 5.x INVALID_PARAMETER) and the topic keeps its route.
     */
    @Test
    void systemTopicsAreNotDeleted() throws Exception {
        boolean line5 = Env.serversAreLine5();
        for (String topic : new String[] {"TBW102", "SCHEDULE_TOPIC_XXXX"}) {
            Exception e = assertThrows(Exception.class, () -> admin.deleteTopicInBroker(Set.of(Env.brokerAddr()), topic));
            int code = (Integer) e.getClass().getMethod("getResponseCode").invoke(e);
            assertEquals(line5 ? INVALID_PARAMETER : SYSTEM_ERROR, code, e.toString());
            assertTrue(e.getMessage().contains("The topic[" + topic + "] is conflict with system topic."), e.getMessage());
        }
        var route = admin.examineTopicRouteInfo("TBW102");
        assertTrue(route.getQueueDatas().stream().anyMatch(q -> q.getBrokerName().equals(Env.brokerName())),
            "TBW102 still routed to " + Env.brokerName() + ": " + route);
    }
}
