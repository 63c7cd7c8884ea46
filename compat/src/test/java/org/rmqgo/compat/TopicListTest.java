package org.rmqgo.compat;

import java.util.List;
import java.util.Set;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET_ALL_TOPIC_LIST_FROM_NAMESERVER(206) (mqadmin topicList), GET_TOPICS_BY_CLUSTER(224) and
 * GET_SYSTEM_TOPIC_LIST_FROM_NS(304).
 */
class TopicListTest {
    /**
     * Topics every broker of both lines creates at start and registers (autoCreateTopicEnable=true adds
     * TBW102); the cluster and broker names are topics too (clusterTopicEnable, brokerTopicEnable).
     */
    private static final List<String> BROKER_SYSTEM_TOPICS = List.of("TBW102", "SELF_TEST_TOPIC", "BenchmarkTest",
        "OFFSET_MOVED_EVENT", "SCHEDULE_TOPIC_XXXX");

    private static DefaultMQAdminExt admin;
    private static String topic;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
        topic = Clients.unique("list");
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 4, 4);
    }

    @Test
    void allTopicListHasTheTopicAndTheBrokersSystemTopics() throws Exception {
        Set<String> all = admin.fetchAllTopicList().getTopicList();
        assertTrue(all.contains(topic), topic + " in " + all);
        for (String t : BROKER_SYSTEM_TOPICS) {
            assertTrue(all.contains(t), t + " in " + all);
        }
        assertTrue(all.contains(Env.clusterName()), "cluster-name topic " + Env.clusterName() + " in " + all);
        assertTrue(all.contains(Env.brokerName()), "broker-name topic " + Env.brokerName() + " in " + all);
        assertTrue(all.contains(Env.clusterName() + "_REPLY_TOPIC"), "reply topic in " + all);
    }

    @Test
    void topicsByClusterHasTheTopic() throws Exception {
        Set<String> inCluster = admin.fetchTopicsByCLuster(Env.clusterName()).getTopicList();
        assertTrue(inCluster.contains(topic), topic + " in " + inCluster);
        assertTrue(inCluster.contains("TBW102"), "TBW102 in " + inCluster);
    }

    @Test
    void topicsByClusterOfAnUnknownClusterIsEmpty() throws Exception {
        var list = admin.fetchTopicsByCLuster(Clients.unique("no_such_cluster")).getTopicList();
        assertTrue(list.isEmpty(), "topics of an unknown cluster: " + list);
    }

    @Test
    void systemTopicListHasClusterAndBrokerNamesAndBrokerSystemTopics() throws Exception {
        // DefaultMQAdminExt has no wrapper for it; MQClientAPIImpl asks the name server (cluster and broker
        // names, plus one broker address) and then that broker (its system topics), and merges the two.
        var api = MQClientManager.getInstance().getOrCreateMQClientInstance(admin).getMQClientAPIImpl();
        var sys = api.getSystemTopicList(5000);
        Set<String> topics = sys.getTopicList();
        assertTrue(topics.contains(Env.clusterName()), "cluster name in " + topics);
        assertTrue(topics.contains(Env.brokerName()), "broker name in " + topics);
        assertTrue(sys.getBrokerAddr() != null && sys.getBrokerAddr().startsWith("127.0.0.1:"),
            "a broker address to ask for the rest: " + sys.getBrokerAddr());
        assertTrue(topics.contains("SCHEDULE_TOPIC_XXXX") || topics.contains("TBW102"),
            "the broker's own system topics are merged in: " + topics);
        assertFalse(topics.contains(topic), "an ordinary topic is not a system topic: " + topics);
    }
}
