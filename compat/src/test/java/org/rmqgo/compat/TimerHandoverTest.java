package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store handover with timer messages in flight (5.x): broker-a holds timer messages due at
 * times spread over about 40 s, is stopped once some of them are delivered, and starts again as
 * the other implementation on the same store directory (COMPAT_HANDOVER_IMPL=java|go; unset, as
 * itself, which is what the run against the Java reference does), then back, the same again. In
 * each round some messages are due before the stop (delivered by the broker that stops), some
 * while no broker runs (the start waits until they are due: delivered late by the broker that
 * starts, unless the stopping one was still delivering then) and some after the start: the broker
 * that starts reads the timer state of the one that stopped (timercheck, timerwheel, timerlog)
 * and delivers every message that was pending, and none that was delivered. Every message is
 * stored in its topic exactly once (a consumer may be handed one twice across a restart; a timer
 * that delivers twice stores it twice, at two queue offsets), none before its time. Nothing is
 * due from the stop until 14 s after it: the Java broker's timer runs on for about 7 s after
 * SIGTERM, and a message it delivers while it shuts down, after its last checkpoint, its timer
 * delivers again after a restart.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Order(Integer.MAX_VALUE - 4)
class TimerHandoverTest {
    private static final String OTHER = System.getenv().getOrDefault("COMPAT_HANDOVER_IMPL", "");

    /**
     * Delivery times, in ms after the round's sends: before the stop, while stopped, after the
     * start; the stop, and the earliest start.
     */
    private static final long[] BEFORE = {3_000, 4_500, 6_000, 7_500};
    private static final long STOP_AT = 10_000;
    private static final long[] DOWN = {24_000, 24_500, 25_000};
    private static final long START_AT = 27_000;
    private static final long[] AFTER = {38_000, 40_000, 42_000};

    @Test
    @Timeout(600)
    void timerMessagesInFlightAreDeliveredOnceAndOnTimeAcrossTheHandoverAndBack() throws Exception {
        Assumptions.assumeTrue(Env.serversAreLine5() && Line.CLIENT_LINE.equals("5"), "timer messages are 5.x's");
        String topic = Clients.newTopic("timerhandover", 2);
        DefaultMQProducer producer = Clients.producer();
        List<AutoCloseable> cleanup = new ArrayList<>(List.of(producer::shutdown));
        try {
            Received live = new Received();
            cleanup.add(consumer(Clients.unique("cg_timer_live"), topic, live)::shutdown);
            Map<String, Long> due = new LinkedHashMap<>();
            due.putAll(round(producer, topic, live, "there", OTHER));
            due.putAll(round(producer, topic, live, "back", ""));

            Received fresh = new Received();
            cleanup.add(consumer(Clients.unique("cg_timer_fresh"), topic, fresh)::shutdown);
            fresh.awaitAll(Duration.ofSeconds(120), due.keySet());
            Thread.sleep(3000); // a second copy would be stored by now
            fresh.assertOnly(due.keySet());
            assertStoredOnceOnTime(fresh, due);
            System.out.printf("TimerHandoverTest: %d timer messages stored once each, none early (handover to '%s' and back)%n",
                due.size(), OTHER);
        } finally {
            Clients.runAll(cleanup);
        }
    }

    /**
     * One round: the sends, the stop once the first messages are delivered, the start as impl once
     * the next are due, and every message of the round stored once, at its time. Returns each
     * body's delivery time.
     */
    private static Map<String, Long> round(DefaultMQProducer p, String topic, Received live, String what, String impl)
        throws Exception {
        long t0 = System.currentTimeMillis();
        Map<String, Long> before = send(p, topic, what + " before the stop", t0, BEFORE);
        Map<String, Long> down = send(p, topic, what + " while stopped", t0, DOWN);
        Map<String, Long> after = send(p, topic, what + " after the start", t0, AFTER);
        long sent = System.currentTimeMillis() - t0;
        assertTrue(sent < BEFORE[0] - 500, "the sends took " + sent + " ms");
        live.awaitAll(Duration.ofSeconds(30), before.keySet());
        sleepUntil(t0 + STOP_AT, "the first messages arrived too late to stop the broker in time");
        RefServers.stopBroker("a", 300);
        long stopped = System.currentTimeMillis();
        sleepUntil(Math.max(t0 + START_AT, System.currentTimeMillis()), "");
        RefServers.startBroker("a", impl, 300);
        long started = System.currentTimeMillis();
        Map<String, Long> all = new LinkedHashMap<>(before);
        all.putAll(down);
        all.putAll(after);
        live.awaitAll(Duration.ofSeconds(120), all.keySet());
        Thread.sleep(2000); // a second copy would be stored by now
        assertStoredOnceOnTime(live, all);
        long late = live.deliveries().stream()
            .filter(d -> down.containsKey(d.body()) && d.msg().getStoreTimestamp() >= stopped).map(Received.Delivery::body)
            .distinct().count();
        System.out.printf("TimerHandoverTest: round '%s' to '%s': stopped by +%d ms, started by +%d ms, %d messages"
            + " once each and on time, %d of %d due while stopped delivered by the broker that started%n",
            what, impl, stopped - t0, started - t0, all.size(), late, down.size());
        return all;
    }

    private static void sleepUntil(long when, String tooLate) throws InterruptedException {
        long wait = when - System.currentTimeMillis();
        assertTrue(wait >= 0 || tooLate.isEmpty(), tooLate + " (" + -wait + " ms)");
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    /** Sends one timer message per delay, due that long after t0; returns each body's due time. */
    private static Map<String, Long> send(DefaultMQProducer p, String topic, String what, long t0, long[] delays)
        throws Exception {
        Map<String, Long> due = new LinkedHashMap<>();
        for (int i = 0; i < delays.length; i++) {
            long at = t0 + delays[i];
            String body = what + " " + i + " of " + topic + " due at " + at;
            Message m = new Message(topic, "TagT", body.getBytes(StandardCharsets.UTF_8));
            MessageAccessor.putProperty(m, "TIMER_DELIVER_MS", Long.toString(at));
            assertEquals(SendStatus.SEND_OK, p.send(m).getSendStatus());
            due.put(body, at);
        }
        return due;
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, Received into) throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setHeartbeatBrokerInterval(1000);
        c.subscribe(topic, "*");
        c.registerMessageListener(into.concurrently(group));
        c.start();
        return c;
    }

    /** No message was handed to a consumer, or stored, before its time. */
    private static void assertArrivedOnTime(Received got, Map<String, Long> due) {
        List<String> early = new ArrayList<>();
        for (Received.Delivery d : got.deliveries()) {
            Long at = due.get(d.body());
            if (at != null && d.msg().getStoreTimestamp() < at) {
                early.add(d.body() + " stored " + (at - d.msg().getStoreTimestamp()) + " ms early");
            }
        }
        assertTrue(early.isEmpty(), "delivered before their time: " + early);
    }

    /** Each of due's messages is stored once in the topic (one queue offset), and not before its time. */
    private static void assertStoredOnceOnTime(Received got, Map<String, Long> due) {
        Map<String, Set<String>> stored = new TreeMap<>();
        for (Received.Delivery d : got.deliveries()) {
            if (!due.containsKey(d.body())) {
                continue;
            }
            MessageExt m = d.msg();
            stored.computeIfAbsent(d.body(), k -> new TreeSet<>()).add(m.getQueueId() + "@" + m.getQueueOffset());
        }
        Map<String, Set<String>> twice = new TreeMap<>();
        stored.forEach((body, at) -> {
            if (at.size() != 1) {
                twice.put(body, at);
            }
        });
        assertTrue(twice.isEmpty(), twice.size() + " of " + due.size() + " timer messages stored more than once: " + twice);
        assertArrivedOnTime(got, due);
    }
}
