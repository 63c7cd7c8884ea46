package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.util.HashSet;
import java.util.Set;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WIPE_WRITE_PERM_OF_BROKER(205) / ADD_WRITE_PERM_OF_BROKER(327): mqadmin wipeWritePerm / addWritePerm, how
 * a broker is drained before maintenance. DefaultMQAdminExt has both methods in 4.9.8 and 5.3.3, so this
 * test is the same on both lines.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class WritePermTest {
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    private static int permOn(String topic, String brokerName) throws Exception {
        return admin.examineTopicRouteInfo(topic).getQueueDatas().stream()
            .filter(q -> q.getBrokerName().equals(brokerName)).findFirst()
            .orElseThrow(() -> new AssertionError("no queue data for " + brokerName + " in route of " + topic))
            .getPerm();
    }

    /** The topics whose route has a queue data for brokerName: what the wipe and add count. */
    private static Set<String> topicsOn(String brokerName) throws Exception {
        Set<String> on = new HashSet<>();
        for (String t : admin.fetchAllTopicList().getTopicList()) {
            try {
                if (admin.examineTopicRouteInfo(t).getQueueDatas().stream()
                    .anyMatch(q -> q.getBrokerName().equals(brokerName))) {
                    on.add(t);
                }
            } catch (Exception e) {
                // a topic deleted by another test in between: not on the broker
            }
        }
        return on;
    }

    @Test
    void wipeRemovesWriteFromTheBrokersQueuesAndAddRestoresIt() throws Exception {
        String broker = Env.brokerName();
        String topic = Clients.unique("perm");
        Clients.createTopic(admin, Env.brokerAddr(), broker, topic, 4, 4);
        // The same topic on the other broker, when there is one: draining broker-a must leave it writable.
        String other = System.getenv("BROKER_B_ADDR") == null ? null : Env.brokerBName();
        if (other != null) {
            Clients.createTopic(admin, Env.brokerBAddr(), other, topic, 4, 4);
        }
        assertEquals(PermName.PERM_READ | PermName.PERM_WRITE, permOn(topic, broker), "perm before");
        int expected = topicsOn(broker).size();

        int wiped = admin.wipeWritePermOfBroker(Env.namesrvAddr(), broker);
        int added;
        try {
            assertEquals(expected, wiped, "wipeWritePermOfBroker returns the number of topics on " + broker);
            int perm = permOn(topic, broker);
            assertFalse(PermName.isWriteable(perm), "no write after wipe, perm " + perm);
            assertTrue(PermName.isReadable(perm), "still readable after wipe, perm " + perm);
            assertEquals(PermName.PERM_READ, perm, "perm after wipe");
            if (other != null) {
                assertEquals(PermName.PERM_READ | PermName.PERM_WRITE, permOn(topic, other), "perm on " + other);
            }
        } finally {
            added = admin.addWritePermOfBroker(Env.namesrvAddr(), broker);
        }
        assertEquals(expected, added, "addWritePermOfBroker returns the number of topics on " + broker);
        assertEquals(PermName.PERM_READ | PermName.PERM_WRITE, permOn(topic, broker), "perm after add");
    }

    @Test
    void wipeOfAnUnknownBrokerTouchesNothing() throws Exception {
        assertEquals(0, admin.wipeWritePermOfBroker(Env.namesrvAddr(), Clients.unique("no_such_broker")));
        assertEquals(0, admin.addWritePermOfBroker(Env.namesrvAddr(), Clients.unique("no_such_broker")));
    }
}
