package org.rmqgo.compat;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Starting real clients against the servers under test, and small shared steps. */
final class Clients {
    /** ResponseCode.TOPIC_NOT_EXIST (17), the same number on both lines. */
    static final int TOPIC_NOT_EXIST = 17;
    /** ResponseCode.QUERY_NOT_FOUND (22), what the name server answers for a missing KV entry. */
    static final int QUERY_NOT_FOUND = 22;

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);

    private Clients() {
    }

    /** A name unique to this JVM run, safe as a topic or group name. */
    static String unique(String prefix) {
        return "compat_" + prefix + "_" + RUN + "_" + SEQ.incrementAndGet();
    }

    private static DefaultMQAdminExt shared;

    /**
     * The admin client the test classes share (one per JVM: the 5.3.3 client takes seconds to shut
     * down), shut down when the JVM exits.
     */
    static synchronized DefaultMQAdminExt admin() throws MQClientException {
        if (shared == null) {
            DefaultMQAdminExt admin = new DefaultMQAdminExt();
            admin.setNamesrvAddr(Env.namesrvAddr());
            admin.setInstanceName(unique("admin"));
            admin.setAdminExtGroup(unique("admin_group"));
            admin.start();
            Runtime.getRuntime().addShutdownHook(new Thread(admin::shutdown, "compat-admin-shutdown"));
            shared = admin;
        }
        return shared;
    }

    static TopicConfig topicConfig(String topic, int read, int write) {
        TopicConfig tc = new TopicConfig(topic);
        tc.setReadQueueNums(read);
        tc.setWriteQueueNums(write);
        tc.setPerm(PermName.PERM_READ | PermName.PERM_WRITE);
        return tc;
    }

    /** Creates the topic on the broker at brokerAddr and waits for the name server to route it there. */
    static void createTopic(DefaultMQAdminExt admin, String brokerAddr, String brokerName, String topic, int read,
        int write) throws Exception {
        admin.createAndUpdateTopicConfig(brokerAddr, topicConfig(topic, read, write));
        Eventually.eventually("route of " + topic + " names " + brokerName, () -> {
            var route = admin.examineTopicRouteInfo(topic);
            if (route.getQueueDatas().stream().noneMatch(q -> q.getBrokerName().equals(brokerName))) {
                throw new AssertionError("route has no queue data for " + brokerName + ": " + route);
            }
            return route;
        });
    }

    /** Asserts that asking the name server for the topic's route fails with TOPIC_NOT_EXIST. */
    static void assertNoRoute(DefaultMQAdminExt admin, String topic) {
        MQClientException e = assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo(topic),
            "route of " + topic);
        assertEquals(TOPIC_NOT_EXIST, e.getResponseCode(), "response code for " + topic + ": " + e);
    }

    static void deleteTopicEverywhere(DefaultMQAdminExt admin, Set<String> brokerAddrs, String topic)
        throws Exception {
        admin.deleteTopicInBroker(brokerAddrs, topic);
        Line.deleteTopicInNameServer(admin, Set.of(Env.namesrvAddr()), Env.clusterName(), topic);
    }
}
