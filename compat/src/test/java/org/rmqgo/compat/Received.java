package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.common.message.MessageExt;
import org.rmqgo.testsupport.Eventually;

/**
 * What consumers got, in the order the listeners saw it: one record per delivery (a redelivered
 * message appears twice). Messages are told apart by their body, which the tests make unique.
 */
final class Received {
    /** One delivery: which consumer got which message. */
    record Delivery(String consumer, MessageExt msg) {
        String body() {
            return Received.body(msg);
        }
    }

    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    /** Orderly listeners inside consumeMessage, by queue (see orderly). */
    private final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();

    static String body(MessageExt m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }

    void add(String consumer, List<MessageExt> msgs) {
        for (MessageExt m : msgs) {
            deliveries.add(new Delivery(consumer, m));
        }
    }

    /** Notes something a listener saw that must not happen (checked by assertNoViolations). */
    void violation(String what) {
        violations.add(what);
    }

    void assertNoViolations() {
        if (!violations.isEmpty()) {
            throw new AssertionError("listener saw: " + new ArrayList<>(violations));
        }
    }

    List<Delivery> deliveries() {
        return new ArrayList<>(deliveries);
    }

    List<Delivery> deliveriesTo(String consumer) {
        return deliveries.stream().filter(d -> d.consumer().equals(consumer)).toList();
    }

    Set<String> bodies() {
        Set<String> s = new HashSet<>();
        for (Delivery d : deliveries) {
            s.add(d.body());
        }
        return s;
    }

    Set<String> bodiesOf(String consumer) {
        Set<String> s = new HashSet<>();
        for (Delivery d : deliveries) {
            if (d.consumer().equals(consumer)) {
                s.add(d.body());
            }
        }
        return s;
    }

    /** How many times each body was delivered. */
    Map<String, Long> counts() {
        Map<String, Long> m = new HashMap<>();
        for (Delivery d : deliveries) {
            m.merge(d.body(), 1L, Long::sum);
        }
        return m;
    }

    /** The first delivery of each body, in arrival order. */
    Map<String, MessageExt> firstByBody() {
        Map<String, MessageExt> m = new LinkedHashMap<>();
        for (Delivery d : deliveries) {
            m.putIfAbsent(d.body(), d.msg());
        }
        return m;
    }

    /** Waits until every expected body has arrived (at any consumer). */
    void awaitAll(Collection<String> expected) throws Exception {
        awaitAll(Duration.ofSeconds(90), expected);
    }

    void awaitAll(Duration timeout, Collection<String> expected) throws Exception {
        awaitAllOf(timeout, null, expected);
    }

    /** Waits until consumer (null: any) has got every expected body. */
    void awaitAllOf(Duration timeout, String consumer, Collection<String> expected) throws Exception {
        Eventually.eventually(timeout, (consumer == null ? "consumers" : consumer) + " received all "
            + expected.size() + " messages", () -> {
                Set<String> got = consumer == null ? bodies() : bodiesOf(consumer);
                Set<String> missing = new TreeSet<>(expected);
                missing.removeAll(got);
                if (!missing.isEmpty()) {
                    throw new AssertionError(missing.size() + " missing, e.g. " + first(missing, 5));
                }
                return null;
            });
    }

    /** Fails when a body arrived that is not among allowed. */
    void assertOnly(Collection<String> allowed) {
        Set<String> extra = new TreeSet<>(bodies());
        extra.removeAll(allowed);
        if (!extra.isEmpty()) {
            throw new AssertionError(extra.size() + " unexpected messages arrived, e.g. " + first(extra, 5));
        }
    }

    static String first(Collection<String> c, int n) {
        return c.stream().limit(n).toList().toString();
    }

    /** A listener that records every delivery as consumer name and acknowledges it. */
    MessageListenerConcurrently concurrently(String consumer) {
        return (msgs, ctx) -> {
            add(consumer, msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
    }

    /**
     * An orderly listener that records every delivery and notes a violation when two threads are
     * inside it for the same queue at once (across every consumer that shares this Received).
     */
    MessageListenerOrderly orderly(String consumer) {
        return (msgs, ctx) -> {
            String q = ctx.getMessageQueue().getBrokerName() + "/" + ctx.getMessageQueue().getQueueId();
            AtomicInteger n = inside.computeIfAbsent(q, k -> new AtomicInteger());
            if (n.incrementAndGet() > 1) {
                violation(consumer + ": two threads consume queue " + q + " at once");
            }
            try {
                ctx.setAutoCommit(true);
                add(consumer, msgs);
                return ConsumeOrderlyStatus.SUCCESS;
            } finally {
                n.decrementAndGet();
            }
        };
    }
}
