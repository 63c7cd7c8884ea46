package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.MessageListener;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DefaultMQPushConsumer: concurrent and orderly listeners, clustering and broadcasting, where a
 * group starts (ConsumeFromWhere), tag expressions, and rebalancing when a consumer joins or leaves.
 */
class PushConsumerTest extends MessagingFixture {
    /** Sends n messages (round robin over the queues) and returns their bodies. */
    private List<String> send(String topic, String label, int n) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = label + " " + i + " of " + topic;
            SendResult r = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            bodies.add(body);
        }
        return bodies;
    }

    /** Starts a push consumer of group on topic with that listener; shut down after the test. */
    private DefaultMQPushConsumer consumer(String group, String topic, String expression, ConsumeFromWhere from,
        MessageListener listener) throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(from);
        c.subscribe(topic, expression);
        c.registerMessageListener(listener);
        c.start();
        closeLater(c::shutdown);
        return c;
    }

    private static List<String> union(List<String> a, List<String> b) {
        List<String> u = new ArrayList<>(a);
        u.addAll(b);
        return u;
    }

    @Test
    void consumeFromFirstOffsetGetsWhatWasSentBeforeAndAfterItStarted() throws Exception {
        String topic = Clients.newTopic("first", 4);
        List<String> before = send(topic, "before", 12);
        Received received = new Received();
        consumer(Clients.unique("cg"), topic, "*", ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET,
            received.concurrently("c1"));
        received.awaitAll(before);
        List<String> after = send(topic, "after", 12);
        received.awaitAll(after);
        received.assertOnly(union(before, after));
    }

    /**
     * CONSUME_FROM_LAST_OFFSET applies only when the broker has no offset for the group and says so.
     * The Java broker answers QUERY_CONSUMER_OFFSET for an unknown group with offset 0 (not
     * QUERY_NOT_FOUND) while the queue's first message (offset 0) is still in memory, so a new group
     * on a young topic starts at the beginning and also gets what was sent before it started. A
     * group that has committed offsets resumes from them whatever its ConsumeFromWhere.
     */
    @Test
    @Timeout(180)
    void consumeFromLastOffsetStartsAtTheCommittedOffsetAndANewGroupOnAYoungQueueAtOffset0() throws Exception {
        String topic = Clients.newTopic("last", 4);
        String group = Clients.unique("cg");
        List<String> before = send(topic, "before", 8);
        Clients.awaitQueued(topic, before.size()); // the broker's answer of 0 needs message 0 in its queue
        Received first = new Received();
        DefaultMQPushConsumer c1 = consumer(group, topic, "*", ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
            first.concurrently("c1"));
        List<String> after = send(topic, "after", 8);
        first.awaitAll(after);
        first.awaitAll(before);
        first.assertOnly(union(before, after));

        Clients.awaitCommittedToEnd(group, topic);
        c1.shutdown();
        List<String> later = send(topic, "later", 8);
        Received second = new Received();
        consumer(group, topic, "*", ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET, second.concurrently("c2"));
        second.awaitAll(later);
        second.assertOnly(later);
    }

    /**
     * CONSUME_FROM_TIMESTAMP, like CONSUME_FROM_LAST_OFFSET, only applies when the broker has no
     * offset for the group: on a young queue the broker answers 0 for a new group, so the timestamp
     * (an hour ahead here) is never looked at and the group starts at the beginning. A group with
     * committed offsets resumes from them.
     */
    @Test
    @Timeout(180)
    void consumeFromTimestampStartsAtTheCommittedOffsetAndANewGroupOnAYoungQueueAtOffset0() throws Exception {
        String topic = Clients.newTopic("timestamp", 4);
        String group = Clients.unique("cg");
        List<String> before = send(topic, "before", 8);
        Clients.awaitQueued(topic, before.size()); // the broker's answer of 0 needs message 0 in its queue
        String anHourAhead = UtilAll.timeMillisToHumanString3(System.currentTimeMillis() + 3_600_000);
        Received first = new Received();
        DefaultMQPushConsumer c1 = Clients.pushConsumer(group);
        c1.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_TIMESTAMP);
        c1.setConsumeTimestamp(anHourAhead);
        c1.subscribe(topic, "*");
        c1.registerMessageListener(first.concurrently("c1"));
        c1.start();
        closeLater(c1::shutdown);
        List<String> after = send(topic, "after", 8);
        first.awaitAll(union(before, after));
        first.assertOnly(union(before, after));

        Clients.awaitCommittedToEnd(group, topic);
        c1.shutdown();
        List<String> later = send(topic, "later", 8);
        Received second = new Received();
        DefaultMQPushConsumer c2 = Clients.pushConsumer(group);
        c2.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_TIMESTAMP);
        c2.setConsumeTimestamp(UtilAll.timeMillisToHumanString3(System.currentTimeMillis() - 3_600_000));
        c2.subscribe(topic, "*");
        c2.registerMessageListener(second.concurrently("c2"));
        c2.start();
        closeLater(c2::shutdown);
        second.awaitAll(later);
        second.assertOnly(later);
    }

    @Test
    void orderlyConsumesEveryQueueInQueueOffsetOrderOneThreadAtATime() throws Exception {
        String topic = Clients.newTopic("orderly", 4);
        Map<String, SendResult> results = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            String body = "orderly " + i + " of " + topic;
            SendResult r = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            results.put(body, r);
        }
        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setConsumeMessageBatchMaxSize(3);
        c.subscribe(topic, "*");
        c.registerMessageListener(received.orderly("c1"));
        c.start();
        closeLater(c::shutdown);
        received.awaitAll(results.keySet());
        received.assertOnly(results.keySet());
        received.assertNoViolations();

        Map<Integer, List<Long>> sentOrder = new TreeMap<>();
        results.values().forEach(r -> sentOrder.computeIfAbsent(r.getMessageQueue().getQueueId(),
            q -> new ArrayList<>()).add(r.getQueueOffset()));
        Map<Integer, List<Long>> consumedOrder = new TreeMap<>();
        for (var d : received.deliveries()) {
            consumedOrder.computeIfAbsent(d.msg().getQueueId(), q -> new ArrayList<>()).add(d.msg().getQueueOffset());
        }
        assertEquals(sentOrder, consumedOrder, "queue offsets consumed per queue, in order, once each");
    }

    @Test
    void broadcastingGivesEveryConsumerOfTheGroupEveryMessage() throws Exception {
        String topic = Clients.newTopic("broadcast", 4);
        String group = Clients.unique("cg");
        List<String> before = send(topic, "before", 12);
        Received received = new Received();
        for (String name : List.of("c1", "c2")) {
            DefaultMQPushConsumer c = Clients.pushConsumer(group);
            Line.broadcasting(c);
            c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            c.subscribe(topic, "*");
            c.registerMessageListener(received.concurrently(name));
            c.start();
            closeLater(c::shutdown);
        }
        List<String> after = send(topic, "after", 12);
        List<String> all = union(before, after);
        received.awaitAllOf(Duration.ofSeconds(90), "c1", all);
        received.awaitAllOf(Duration.ofSeconds(90), "c2", all);
        received.assertOnly(all);
    }

    @Test
    void tagExpressionTagAOrTagBDeliversEveryTagAAndTagBMessageAndNothingElse() throws Exception {
        String topic = Clients.newTopic("tags", 4);
        String[] tags = {"TagA", "TagB", "TagC", null, "TagAB", "taga"};
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 60; i++) {
            String tag = tags[i % tags.length];
            String body = "tag " + tag + " " + i + " of " + topic;
            Message m = new Message(topic, body.getBytes(StandardCharsets.UTF_8));
            if (tag != null) {
                m.setTags(tag);
            }
            SendResult r = producer.send(m);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            if ("TagA".equals(tag) || "TagB".equals(tag)) {
                expected.add(body);
            }
        }
        // A last TagB message on every queue: an orderly consumer that got it has passed every
        // earlier message of that queue, delivered or filtered out.
        for (int q = 0; q < 4; q++) {
            String body = "end of queue " + q + " of " + topic;
            producer.send(new Message(topic, "TagB", body.getBytes(StandardCharsets.UTF_8)), Clients.BY_QUEUE_ID, q);
            expected.add(body);
        }
        Received received = new Received();
        consumer(Clients.unique("cg"), topic, "TagA || TagB", ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET,
            received.orderly("c1"));
        received.awaitAll(expected);
        received.assertOnly(expected);
        for (var m : received.firstByBody().values()) {
            assertTrue(Set.of("TagA", "TagB").contains(m.getTags()), "tags of " + Received.body(m));
        }
    }

    /** Sends one message to every queue per round; body and properties say round and queue. */
    private final class Rounds {
        final String topic;
        final int queues;
        final List<String> sent = new ArrayList<>();
        int round;

        Rounds(String topic, int queues) {
            this.topic = topic;
            this.queues = queues;
        }

        void send() throws Exception {
            for (int q = 0; q < queues; q++) {
                String body = "round " + round + " queue " + q + " of " + topic;
                Message m = new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8));
                m.putUserProperty("u_round", Integer.toString(round));
                SendResult r = producer.send(m, Clients.BY_QUEUE_ID, q);
                assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
                sent.add(body);
            }
            round++;
        }
    }

    private static int round(MessageExt m) {
        return Integer.parseInt(m.getUserProperty("u_round"));
    }

    /**
     * Clustering: c1 consumes alone; c2 joins the group and takes over some queues; c2 leaves and c1
     * takes every queue back. Every message is consumed (a message may come twice around a handover).
     */
    private void rebalance(boolean orderly) throws Exception {
        int queues = 8;
        String topic = Clients.newTopic(orderly ? "rebalance_orderly" : "rebalance", queues);
        String group = Clients.unique("cg");
        Received received = new Received();
        Rounds rounds = new Rounds(topic, queues);
        MessageListener l1 = orderly ? received.orderly("c1") : received.concurrently("c1");
        MessageListener l2 = orderly ? received.orderly("c2") : received.concurrently("c2");
        consumer(group, topic, "*", ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET, l1);
        rounds.send();
        rounds.send();
        received.awaitAll(rounds.sent);

        DefaultMQPushConsumer c2 = consumer(group, topic, "*", ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET, l2);
        Eventually.eventually(Duration.ofSeconds(90), "c2 joins and consumes some queues", () -> {
            rounds.send();
            assertFalse(received.bodiesOf("c2").isEmpty(), "c2 got nothing yet");
            return null;
        });
        Eventually.eventually(Duration.ofSeconds(90), "c1 and c2 share the queues", () -> {
            rounds.send();
            int last = rounds.round - 1;
            Map<Integer, Set<String>> byQueue = new TreeMap<>();
            for (var d : received.deliveries()) {
                if (round(d.msg()) == last) {
                    byQueue.computeIfAbsent(d.msg().getQueueId(), q -> new HashSet<>()).add(d.consumer());
                }
            }
            assertEquals(queues, byQueue.size(), "queues of round " + last + " consumed: " + byQueue);
            Set<String> consumers = new HashSet<>();
            byQueue.values().forEach(consumers::addAll);
            assertEquals(Set.of("c1", "c2"), consumers, "consumers of round " + last + ": " + byQueue);
            return null;
        });

        int mark = rounds.round;
        c2.shutdown();
        Eventually.eventually(Duration.ofSeconds(90), "c1 consumes every queue again after c2 left", () -> {
            rounds.send();
            Set<Integer> c1Queues = new HashSet<>();
            for (var d : received.deliveriesTo("c1")) {
                if (round(d.msg()) >= mark) {
                    c1Queues.add(d.msg().getQueueId());
                }
            }
            assertEquals(queues, c1Queues.size(), "queues c1 consumed from round " + mark + ": " + c1Queues);
            return null;
        });
        received.awaitAll(rounds.sent);
        received.assertOnly(rounds.sent);

        if (orderly) {
            received.assertNoViolations();
            // Per queue, in the order the listeners ran: the first delivery of each round comes in
            // round order, none skipped (a redelivered round may repeat after a handover).
            Map<Integer, List<Integer>> firsts = new TreeMap<>();
            Map<Integer, Set<Integer>> seen = new HashMap<>();
            for (var d : received.deliveries()) {
                int q = d.msg().getQueueId();
                if (seen.computeIfAbsent(q, k -> new HashSet<>()).add(round(d.msg()))) {
                    firsts.computeIfAbsent(q, k -> new ArrayList<>()).add(round(d.msg()));
                }
            }
            List<Integer> all = new ArrayList<>();
            for (int r = 0; r < rounds.round; r++) {
                all.add(r);
            }
            for (int q = 0; q < queues; q++) {
                assertEquals(all, firsts.get(q), "rounds of queue " + q + " in the order first consumed");
            }
        }
    }

    @Test
    @Timeout(300)
    void clusteringRebalancesWhenASecondConsumerJoinsAndLeavesAndLosesNothing() throws Exception {
        rebalance(false);
    }

    @Test
    @Timeout(300)
    void orderlyRebalanceKeepsEveryQueueInOrderWhenASecondConsumerJoinsAndLeaves() throws Exception {
        rebalance(true);
    }
}
