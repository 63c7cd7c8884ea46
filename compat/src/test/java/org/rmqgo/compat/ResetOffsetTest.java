package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Rewinding a consumer group to a time (mqadmin resetOffsetByTime, the dashboard's reset): the
 * group's running consumer receives again every message stored since that time.
 */
class ResetOffsetTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    @Timeout(240)
    void resetByTimeRedeliversEverythingSinceThatTimeToTheRunningConsumer() throws Exception {
        String topic = Clients.newTopic("reset", 4);
        String group = Clients.unique("cg");
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        List<String> old = send(producer, topic, "old", 4);
        // The broker finds a time's offset by binary search and takes the nearer neighbour (4.x), so
        // the reset time must lie much nearer the recent messages than the old ones.
        long oldSent = System.currentTimeMillis();
        Eventually.eventually("two seconds pass after the old messages", () -> {
            if (System.currentTimeMillis() < oldSent + 2000) {
                throw new AssertionError("not yet");
            }
            return null;
        });
        long since = System.currentTimeMillis();
        List<String> recent = send(producer, topic, "recent", 8);

        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener(received.concurrently("c1"));
        c.start();
        cleanups.add(c::shutdown);
        List<String> all = new ArrayList<>(old);
        all.addAll(recent);
        received.awaitAll(all);
        Clients.awaitCommittedToEnd(group, topic);

        Map<MessageQueue, Long> reset = Clients.admin().resetOffsetByTimestamp(topic, group, since, true);
        assertEquals(4, reset.size(), "every queue is reset: " + reset);
        long total = reset.values().stream().mapToLong(Long::longValue).sum();
        assertEquals(old.size(), total, "the offsets after the old messages: " + reset);

        Eventually.eventually("the recent messages arrive a second time, the old ones do not", () -> {
            Map<String, Long> counts = received.counts();
            for (String body : recent) {
                if (counts.getOrDefault(body, 0L) < 2) {
                    throw new AssertionError(body + " delivered " + counts.getOrDefault(body, 0L) + " times");
                }
            }
            return null;
        });
        Map<String, Long> counts = received.counts();
        for (String body : old) {
            assertEquals(1L, counts.get(body), body + " is older than the reset time");
        }
    }

    private static List<String> send(DefaultMQProducer producer, String topic, String label, int n) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = label + " " + i + " of " + topic;
            Message m = new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8));
            assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
            bodies.add(body);
        }
        return bodies;
    }
}
