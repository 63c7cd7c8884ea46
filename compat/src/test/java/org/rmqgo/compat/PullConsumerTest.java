package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pulling consumers: DefaultLitePullConsumer (subscribe mode with committed offsets; assign mode
 * with seek) and DefaultMQPullConsumer (pull by queue and offset).
 */
class PullConsumerTest extends MessagingFixture {
    /** Sends n messages to queueId (-1: round robin); tags alternate TagA, TagB. Returns their bodies. */
    private List<String> send(String topic, String label, int n, int queueId) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = label + " " + i + " of " + topic;
            Message m = new Message(topic, i % 2 == 0 ? "TagA" : "TagB", "key-" + label + "-" + i,
                body.getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("u_label", label);
            SendResult r = queueId < 0 ? producer.send(m) : producer.send(m, Clients.BY_QUEUE_ID, queueId);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            bodies.add(body);
        }
        return bodies;
    }

    private DefaultLitePullConsumer litePull(String group) {
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(group);
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(Clients.unique("lite"));
        closeLater(c::shutdown);
        return c;
    }

    /** Polls until n messages came or 60 s passed; returns them in the order poll returned them. */
    private static List<MessageExt> pollN(DefaultLitePullConsumer c, int n) {
        List<MessageExt> got = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (got.size() < n && System.nanoTime() - deadline < 0) {
            got.addAll(c.poll(1000));
        }
        return got;
    }

    /** A started DefaultMQPullConsumer of a group of its own. */
    private DefaultMQPullConsumer pullConsumer() throws Exception {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(Clients.unique("cg"));
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(Clients.unique("pull"));
        c.start();
        closeLater(c::shutdown);
        return c;
    }

    private static MessageQueue queue(Set<MessageQueue> mqs, int queueId) {
        return mqs.stream().filter(q -> q.getQueueId() == queueId).findFirst().orElseThrow();
    }

    private static List<String> bodies(List<MessageExt> msgs) {
        return msgs.stream().map(Received::body).collect(Collectors.toList());
    }

    private static List<Long> offsets(List<MessageExt> msgs) {
        return msgs.stream().map(MessageExt::getQueueOffset).collect(Collectors.toList());
    }

    private static List<Long> range(long from, long to) {
        List<Long> l = new ArrayList<>();
        for (long i = from; i < to; i++) {
            l.add(i);
        }
        return l;
    }

    @Test
    void litePullSubscribeGetsEveryMessageAndANewInstanceResumesFromTheCommittedOffsets() throws Exception {
        String topic = Clients.newTopic("lite_sub", 4);
        String group = Clients.unique("cg");
        List<String> first = send(topic, "first", 20, -1);

        DefaultLitePullConsumer c1 = litePull(group);
        c1.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c1.setAutoCommit(false);
        c1.subscribe(topic, "*");
        c1.start();
        List<MessageExt> got = pollN(c1, first.size());
        assertEquals(Set.copyOf(first), Set.copyOf(bodies(got)), "bodies polled");
        assertEquals(first.size(), got.size(), "polled once each");
        for (MessageExt m : got) {
            assertEquals("first", m.getUserProperty("u_label"), "user property of " + Received.body(m));
            assertTrue(Set.of("TagA", "TagB").contains(m.getTags()), "tags of " + Received.body(m));
        }

        Set<MessageQueue> assigned = c1.assignment();
        assertEquals(4, assigned.size(), "queues assigned to the only consumer: " + assigned);
        c1.commit(assigned, true);
        Map<MessageQueue, Long> ends = new LinkedHashMap<>();
        for (MessageQueue mq : assigned) {
            ends.put(mq, producer.maxOffset(mq));
        }
        Eventually.eventually("committed offsets of " + group + " reach the ends " + ends, () -> {
            for (MessageQueue mq : assigned) {
                assertEquals(ends.get(mq), c1.committed(mq), "committed offset of " + mq);
            }
            return null;
        });
        c1.shutdown();

        List<String> second = send(topic, "second", 12, -1);
        DefaultLitePullConsumer c2 = litePull(group);
        c2.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c2.subscribe(topic, "*");
        c2.start();
        List<MessageExt> got2 = pollN(c2, second.size());
        assertEquals(Set.copyOf(second), Set.copyOf(bodies(got2)), "a new instance of the group polls only "
            + "what came after the committed offsets");
    }

    @Test
    void litePullAssignSeeksByOffsetToTheBeginningToTheEndAndByTimestamp() throws Exception {
        String topic = Clients.newTopic("lite_assign", 2);
        List<String> early = send(topic, "early", 5, 0);
        send(topic, "other queue", 5, 1);
        // One message with a store time of its own: every earlier one is stored before the clock moved
        // on, every later one after, so a search for its store time finds exactly its offset.
        long beforeMark = System.currentTimeMillis();
        Eventually.eventually("the clock moves past " + beforeMark, () -> {
            assertTrue(System.currentTimeMillis() > beforeMark);
            return null;
        });
        List<String> mark = send(topic, "mark", 1, 0);
        long afterMark = System.currentTimeMillis();
        Eventually.eventually("the clock moves past " + afterMark, () -> {
            assertTrue(System.currentTimeMillis() > afterMark);
            return null;
        });
        List<String> late = send(topic, "late", 4, 0);
        List<String> all = new ArrayList<>(early);
        all.addAll(mark);
        all.addAll(late);

        DefaultLitePullConsumer c = litePull(Clients.unique("cg"));
        c.setAutoCommit(false);
        c.start();
        MessageQueue q0 = c.fetchMessageQueues(topic).stream().filter(q -> q.getQueueId() == 0).findFirst()
            .orElseThrow();
        c.assign(List.of(q0));
        // Assign mode starts at the group's offset: 0 for a new group (the broker answers 0 while the
        // queue's head is in memory). Polling that first keeps the seeks below clear of a client race:
        // a seek while the first pull task is starting can be undone by it (seen with 5.3.3).
        List<MessageExt> initial = pollN(c, 10);
        assertEquals(range(0, 10), offsets(initial), "offsets polled after assign");
        assertEquals(all, bodies(initial), "bodies polled after assign");

        c.seek(q0, 3);
        List<MessageExt> fromThree = pollN(c, 7);
        assertEquals(range(3, 10), offsets(fromThree), "offsets polled after seek(q0, 3)");
        assertEquals(all.subList(3, 10), bodies(fromThree), "bodies polled after seek(q0, 3)");
        assertTrue(fromThree.stream().allMatch(m -> m.getQueueId() == 0), "only the assigned queue");

        c.seekToBegin(q0);
        List<MessageExt> fromBegin = pollN(c, 10);
        assertEquals(range(0, 10), offsets(fromBegin), "offsets polled after seekToBegin");
        assertEquals(all, bodies(fromBegin), "bodies polled after seekToBegin");

        MessageExt markMsg = fromBegin.get(5);
        assertEquals(mark.get(0), Received.body(markMsg));
        Long byTime = c.offsetForTimestamp(q0, markMsg.getStoreTimestamp());
        assertEquals(5L, byTime, "offsetForTimestamp(store time of the mark message)");
        c.seek(q0, byTime);
        List<MessageExt> fromMark = pollN(c, 5);
        assertEquals(range(5, 10), offsets(fromMark), "offsets polled from the mark's offset");

        c.seekToEnd(q0);
        List<String> after = send(topic, "after end", 2, 0);
        List<MessageExt> fromEnd = pollN(c, 2);
        assertEquals(after, bodies(fromEnd), "after seekToEnd only what was sent later");
        assertEquals(range(10, 12), offsets(fromEnd), "offsets after seekToEnd");
    }

    /**
     * What the broker answers for a group that has committed nothing (QUERY_CONSUMER_OFFSET, read
     * by a consumer starting from its last offset or a timestamp to decide whether it applies): 0
     * for a queue whose message 0 is in memory; for a queue that never had a message, 0 from a 4.9.x
     * broker and QUERY_NOT_FOUND from 5.3.3, which the client reads as -1.
     */
    @Test
    void aNewGroupsBrokerOffsetIs0OnAYoungQueueAndOnAnEmptyQueueOnlyFrom4x() throws Exception {
        String topic = Clients.newTopic("fresh", 2);
        send(topic, "fresh", 1, 0);
        DefaultMQPullConsumer c = pullConsumer();
        Set<MessageQueue> mqs = c.fetchSubscribeMessageQueues(topic);
        MessageQueue q0 = queue(mqs, 0);
        MessageQueue q1 = queue(mqs, 1);
        Eventually.eventually("queue 0 holds the message", () -> {
            assertEquals(1, c.maxOffset(q0), "maxOffset of queue 0");
            return null;
        });
        assertEquals(0, c.fetchConsumeOffset(q0, true), "the young queue");
        assertEquals(Env.serversAreLine5() ? -1 : 0, c.fetchConsumeOffset(q1, true), "the empty queue");
    }

    @Test
    void pullConsumerPullsByQueueAndOffsetWithNextBeginOffsetAndTheRightStatus() throws Exception {
        String topic = Clients.newTopic("pull", 2);
        List<String> sent = send(topic, "pull", 6, 0);

        DefaultMQPullConsumer c = pullConsumer();
        Set<MessageQueue> mqs = c.fetchSubscribeMessageQueues(topic);
        assertEquals(2, mqs.size(), "queues of " + topic + ": " + mqs);
        MessageQueue q0 = queue(mqs, 0);
        MessageQueue q1 = queue(mqs, 1);
        Eventually.eventually("queue 0 holds the six messages", () -> {
            assertEquals(6, c.maxOffset(q0), "maxOffset of queue 0");
            return null;
        });
        assertEquals(0, c.minOffset(q0), "minOffset of queue 0");
        assertEquals(0, c.maxOffset(q1), "maxOffset of the empty queue 1");

        PullResult all = c.pull(q0, "*", 0, 32);
        assertEquals(PullStatus.FOUND, all.getPullStatus(), all.toString());
        assertEquals(sent, bodies(all.getMsgFoundList()), "bodies from offset 0");
        assertEquals(range(0, 6), offsets(all.getMsgFoundList()), "offsets from offset 0");
        assertEquals(6, all.getNextBeginOffset(), "nextBeginOffset after everything");
        assertEquals(0, all.getMinOffset(), "minOffset in the result");
        assertEquals(6, all.getMaxOffset(), "maxOffset in the result");
        for (MessageExt m : all.getMsgFoundList()) {
            assertEquals("pull", m.getUserProperty("u_label"));
            assertEquals("key-pull-" + m.getQueueOffset(), m.getKeys());
        }

        PullResult two = c.pull(q0, "*", 2, 2);
        assertEquals(PullStatus.FOUND, two.getPullStatus(), two.toString());
        assertEquals(sent.subList(2, 4), bodies(two.getMsgFoundList()), "pull(offset 2, max 2)");
        assertEquals(4, two.getNextBeginOffset(), "nextBeginOffset after pull(offset 2, max 2)");

        PullResult tagA = c.pull(q0, "TagA", 0, 32);
        assertEquals(PullStatus.FOUND, tagA.getPullStatus(), tagA.toString());
        assertEquals(List.of(0L, 2L, 4L), offsets(tagA.getMsgFoundList()), "TagA messages only");
        assertEquals(6, tagA.getNextBeginOffset(), "nextBeginOffset after a filtered pull");

        PullResult none = c.pull(q0, "*", 6, 32);
        assertEquals(PullStatus.NO_NEW_MSG, none.getPullStatus(), "pull at maxOffset: " + none);
        assertEquals(6, none.getNextBeginOffset(), "nextBeginOffset of NO_NEW_MSG");

        PullResult empty = c.pull(q1, "*", 0, 32);
        assertEquals(PullStatus.NO_NEW_MSG, empty.getPullStatus(), "pull of the empty queue: " + empty);
        assertEquals(0, empty.getNextBeginOffset(), "nextBeginOffset of the empty queue");

        PullResult beyond = c.pull(q0, "*", 100, 32);
        assertEquals(PullStatus.OFFSET_ILLEGAL, beyond.getPullStatus(), "pull beyond maxOffset: " + beyond);
        assertEquals(6, beyond.getNextBeginOffset(), "nextBeginOffset of OFFSET_ILLEGAL: the queue's maxOffset");

        // What arrives after a NO_NEW_MSG is found at the nextBeginOffset it gave.
        List<String> more = send(topic, "more", 2, 0);
        // A send returns once the message is in the commitlog; the queue entry follows a moment later.
        Eventually.eventually("queue 0 holds the two new messages", () -> {
            assertEquals(8, c.maxOffset(q0));
            return null;
        });
        PullResult found = c.pull(q0, "*", none.getNextBeginOffset(), 32);
        assertEquals(PullStatus.FOUND, found.getPullStatus(), found.toString());
        assertEquals(more, bodies(found.getMsgFoundList()), "bodies after the first NO_NEW_MSG");
        assertEquals(8, found.getNextBeginOffset());
    }
}
