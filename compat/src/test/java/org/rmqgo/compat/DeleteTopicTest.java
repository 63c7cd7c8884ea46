package org.rmqgo.compat;

import java.util.Set;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * DELETE_TOPIC_IN_BROKER(215) then DELETE_TOPIC_IN_NAMESRV(216), in the order mqadmin deleteTopic sends
 * them (the other order lets the broker's next registration bring the route back).
 */
class DeleteTopicTest {
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
}
