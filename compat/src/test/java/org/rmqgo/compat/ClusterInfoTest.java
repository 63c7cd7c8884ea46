package org.rmqgo.compat;

import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET_BROKER_CLUSTER_INFO(106), what mqadmin clusterList and the dashboard's cluster page show. */
@Order(1)
class ClusterInfoTest {
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        System.out.println("compat suite against " + Env.describe());
        admin = Clients.admin();
    }

    @Test
    void brokerIsListedUnderItsClusterWithItsAddress() throws Exception {
        String cluster = Env.clusterName();
        String broker = Env.brokerName();
        Eventually.eventually(cluster + " lists " + broker + " at " + Env.brokerAddr(), () -> {
            var info = admin.examineBrokerClusterInfo();
            var names = info.getClusterAddrTable().get(cluster);
            assertNotNull(names, "cluster " + cluster + " in " + info.getClusterAddrTable());
            assertTrue(names.contains(broker), broker + " in " + names);
            var data = info.getBrokerAddrTable().get(broker);
            assertNotNull(data, broker + " in brokerAddrTable " + info.getBrokerAddrTable().keySet());
            assertEquals(cluster, data.getCluster());
            assertEquals(broker, data.getBrokerName());
            assertEquals(Env.brokerAddr(), data.getBrokerAddrs().get(0L), "master (brokerId 0) address");
            assertEquals(1, data.getBrokerAddrs().size(), "one address (no slaves): " + data.getBrokerAddrs());
            return null;
        });
    }

    @Test
    void everyBrokerNamedInTheClusterHasBrokerData() throws Exception {
        var info = Eventually.eventually("cluster info lists " + Env.brokerName(), () -> {
            var i = admin.examineBrokerClusterInfo();
            assertTrue(i.getBrokerAddrTable().containsKey(Env.brokerName()));
            return i;
        });
        for (var e : info.getClusterAddrTable().entrySet()) {
            for (String name : e.getValue()) {
                var data = info.getBrokerAddrTable().get(name);
                assertNotNull(data, "brokerAddrTable entry for " + name);
                assertEquals(e.getKey(), data.getCluster(), "cluster of " + name);
                assertTrue(data.getBrokerAddrs().get(0L).startsWith("127.0.0.1:"), "address of " + name
                    + " is brokerIP1:listenPort: " + data.getBrokerAddrs());
            }
        }
    }
}
