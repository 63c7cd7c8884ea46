package org.rmqgo.compat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.rmqgo.testsupport.Eventually;

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

    /** Creates a topic with that many read and write queues on broker-a and waits for its route. */
    static String newTopic(String prefix, int queues) throws Exception {
        String topic = unique(prefix);
        createTopic(admin(), Env.brokerAddr(), Env.brokerName(), topic, queues, queues);
        return topic;
    }

    /** sendMsgTimeout for the tests' producers: the default 3 s is tight on a busy 2-core machine. */
    static final int SEND_TIMEOUT_MILLIS = 15_000;

    /** A started producer of a group of its own. */
    static DefaultMQProducer producer() throws MQClientException {
        DefaultMQProducer p = new DefaultMQProducer(unique("pg"));
        p.setNamesrvAddr(Env.namesrvAddr());
        p.setInstanceName(unique("producer"));
        p.setSendMsgTimeout(SEND_TIMEOUT_MILLIS);
        p.start();
        return p;
    }

    /**
     * A push consumer of group, not started: the caller subscribes, registers a listener and starts
     * it. It commits its offsets to the broker every second (default 5 s).
     */
    static DefaultMQPushConsumer pushConsumer(String group) {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(unique("consumer"));
        c.setPersistConsumerOffsetInterval(1000);
        return c;
    }

    /**
     * A started push consumer of group on topic (expression selects the tags), from the first
     * offset, that acknowledges every message: a group the broker lists online and consuming.
     */
    static DefaultMQPushConsumer startAcknowledgingConsumer(String group, String topic, String expression)
        throws MQClientException {
        return startAcknowledgingConsumer(group, topic, MessageSelector.byTag(expression));
    }

    /** The same, with a selector (a tag expression or SQL92). */
    static DefaultMQPushConsumer startAcknowledgingConsumer(String group, String topic, MessageSelector selector)
        throws MQClientException {
        DefaultMQPushConsumer c = pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, selector);
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        c.start();
        return c;
    }

    /** Selects the queue whose queueId is the send argument (an Integer). */
    static final MessageQueueSelector BY_QUEUE_ID = (mqs, msg, arg) -> mqs.stream()
        .filter(q -> q.getQueueId() == (Integer) arg).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no queue " + arg + " in " + mqs));

    /**
     * The consumer offsets that the broker holds for group on topic (what mqadmin consumerProgress
     * shows), by queue.
     */
    static Map<MessageQueue, Long> committedOffsets(String group, String topic) throws Exception {
        var stats = admin().examineConsumeStats(group, topic);
        Map<MessageQueue, Long> m = new HashMap<>();
        stats.getOffsetTable().forEach((mq, w) -> m.put(mq, w.getConsumerOffset()));
        return m;
    }

    /** Waits until the broker holds, for every queue of topic, a consumer offset of group at its end. */
    static void awaitCommittedToEnd(String group, String topic) throws Exception {
        Eventually.eventually(group + " has committed every queue of " + topic + " to its end", () -> {
            var stats = admin().examineConsumeStats(group, topic);
            List<String> behind = new ArrayList<>();
            stats.getOffsetTable().forEach((mq, w) -> {
                if (w.getConsumerOffset() != w.getBrokerOffset()) {
                    behind.add(mq.getQueueId() + ": " + w.getConsumerOffset() + " < " + w.getBrokerOffset());
                }
            });
            if (stats.getOffsetTable().isEmpty() || !behind.isEmpty()) {
                throw new AssertionError("behind: " + behind + " of " + stats.getOffsetTable().size() + " queues");
            }
            return null;
        });
    }

    /**
     * Waits until topic's queues hold total messages in all. A send returns once the message is in
     * the commitlog; its queue entry follows a moment later.
     */
    static void awaitQueued(String topic, long total) throws Exception {
        Eventually.eventually(total + " messages in the queues of " + topic, () -> {
            long sum = 0;
            for (var w : admin().examineTopicStats(topic).getOffsetTable().values()) {
                sum += w.getMaxOffset() - w.getMinOffset();
            }
            assertEquals(total, sum, "messages in the queues of " + topic);
            return null;
        });
    }

    /**
     * Waits until the only consumer of its group has taken every queue of topic and fixed where it
     * starts on each (the client adds a queue to its process-queue table once that offset is known).
     * A consumer from the last offset must be past this before the test sends: on a 5.x broker an
     * empty queue has no offset for a new group, so the client starts at the queue's max offset
     * when it asks, and a message stored before that answer is skipped.
     */
    static void awaitRebalanced(DefaultMQPushConsumer consumer, String topic) throws Exception {
        Set<MessageQueue> all = consumer.fetchSubscribeMessageQueues(topic);
        Eventually.eventually(consumer.getConsumerGroup() + " holds the " + all.size() + " queues of " + topic, () -> {
            assertEquals(all, heldQueues(consumer, topic), "queues held");
            return null;
        });
    }

    /** The queues of topic a push consumer holds now (its process-queue table; not its group's retry queue). */
    static Set<MessageQueue> heldQueues(DefaultMQPushConsumer consumer, String topic) {
        Set<MessageQueue> held = new HashSet<>();
        for (MessageQueue mq : consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl()
            .getProcessQueueTable().keySet()) {
            if (mq.getTopic().equals(topic)) {
                held.add(mq);
            }
        }
        return held;
    }

    /** Runs every step, the last added first, and rethrows the first failure after all ran. */
    static void runAll(List<AutoCloseable> steps) throws Exception {
        List<AutoCloseable> rev = new ArrayList<>(steps);
        Collections.reverse(rev);
        steps.clear();
        Exception first = null;
        for (AutoCloseable c : rev) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
