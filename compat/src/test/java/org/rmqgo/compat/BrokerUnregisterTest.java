package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A broker stopped the way mqshutdown stops it (SIGTERM; the shutdown hook sends UNREGISTER_BROKER(104))
 * drops out of the cluster info and out of every route. It stops broker-b, the second broker that
 * ref-servers.sh starts for this test alone, so it runs last and only once per server start.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Order(Integer.MAX_VALUE)
class BrokerUnregisterTest {
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    @Test
    @Timeout(180) // a clean broker shutdown (up to 90 s) plus the unregister
    void stoppedBrokerLeavesClusterInfoAndRoutes() throws Exception {
        String b = Env.brokerBName();
        String bAddr = Env.brokerBAddr();
        long pid = Env.brokerBPid();
        ProcessHandle process = ProcessHandle.of(pid)
            .orElseThrow(() -> new AssertionError("broker " + b + " (pid " + pid + ") is not running; "
                + "this test needs a fresh start of compat/ref-servers.sh"));

        String onlyB = Clients.unique("only_b");
        String both = Clients.unique("both");
        Clients.createTopic(admin, bAddr, b, onlyB, 4, 4);
        Clients.createTopic(admin, bAddr, b, both, 4, 4);
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), both, 4, 4);
        var before = admin.examineBrokerClusterInfo();
        assertEquals(bAddr, before.getBrokerAddrTable().get(b).getBrokerAddrs().get(0L), b + " registered");

        assertTrue(process.destroy(), "SIGTERM to " + b + " (pid " + pid + ")");
        process.onExit().get(90, TimeUnit.SECONDS);

        Eventually.eventually(Duration.ofSeconds(30), b + " gone from the cluster info", () -> {
            var info = admin.examineBrokerClusterInfo();
            assertFalse(info.getBrokerAddrTable().containsKey(b), "brokerAddrTable " + info.getBrokerAddrTable());
            var names = info.getClusterAddrTable().get(Env.clusterName());
            assertNotNull(names, "cluster " + Env.clusterName() + " still has " + Env.brokerName());
            assertFalse(names.contains(b), "clusterAddrTable " + info.getClusterAddrTable());
            assertTrue(names.contains(Env.brokerName()), Env.brokerName() + " stays: " + names);
            return null;
        });

        Clients.assertNoRoute(admin, onlyB);
        var route = admin.examineTopicRouteInfo(both);
        assertEquals(1, route.getQueueDatas().size(), "queue datas left: " + route.getQueueDatas());
        assertEquals(Env.brokerName(), route.getQueueDatas().get(0).getBrokerName());
        assertEquals(1, route.getBrokerDatas().size(), "broker datas left: " + route.getBrokerDatas());
        assertEquals(Env.brokerName(), route.getBrokerDatas().get(0).getBrokerName());
    }
}
