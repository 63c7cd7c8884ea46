package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * broker-a is stopped with SIGTERM in the middle of a stream and started again on the same store
 * (ref-servers.sh restart-broker a). Every message the broker acknowledged is consumed afterwards
 * (twice is allowed, never zero times), consumers resume from their committed offsets, and the
 * offsets a group committed before the restart are still there. It restarts broker-a, so it runs
 * after the other tests (BrokerUnregisterTest, which stops broker-b, still comes last).
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Order(Integer.MAX_VALUE - 1)
class BrokerRestartTest {
    private static final int WINDOW = 64;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    /**
     * Sends one message after another until stopped, at most WINDOW ahead of the live consumer. A
     * send that fails is retried with the next message (after up to 0.5 s while the broker is down).
     */
    private static final class Stream implements Runnable {
        final DefaultMQProducer producer;
        final String topic;
        final Set<String> attempted = ConcurrentHashMap.newKeySet();
        final Set<String> acked = ConcurrentHashMap.newKeySet();
        final AtomicInteger failures = new AtomicInteger();
        final AtomicInteger ackedAfterRestart = new AtomicInteger();
        final Semaphore window = new Semaphore(WINDOW);
        final CountDownLatch brokerBack = new CountDownLatch(1);
        volatile boolean stop;
        volatile Throwable crashed;
        volatile String lastFailure;

        Stream(DefaultMQProducer producer, String topic) {
            this.producer = producer;
            this.topic = topic;
        }

        @Override
        public void run() {
            try {
                for (int i = 0; !stop; i++) {
                    window.tryAcquire(60, TimeUnit.SECONDS); // a stalled consumer fails the test later
                    String body = "stream " + i + " of " + topic;
                    attempted.add(body);
                    boolean ok = false;
                    try {
                        Message m = new Message(topic, "TagA", "stream-" + i, body.getBytes(StandardCharsets.UTF_8));
                        m.putUserProperty("u_stream", Integer.toString(i));
                        SendResult r = producer.send(m);
                        ok = r.getSendStatus() == SendStatus.SEND_OK;
                        if (!ok) {
                            lastFailure = r.toString();
                        }
                    } catch (Exception e) {
                        lastFailure = e.toString();
                    }
                    if (ok) {
                        acked.add(body);
                        if (brokerBack.getCount() == 0) {
                            ackedAfterRestart.incrementAndGet();
                        }
                    } else {
                        failures.incrementAndGet();
                        window.release();
                        brokerBack.await(500, TimeUnit.MILLISECONDS);
                    }
                }
            } catch (Throwable t) {
                crashed = t;
            }
        }

        /** The live consumer got body for the first time: one more may be in flight. */
        void consumed(String body) {
            if (body.startsWith("stream ")) {
                window.release();
            }
        }
    }

    private DefaultMQPushConsumer start(String group, MessageListenerConcurrently listener) throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        // After the restart the broker knows a group's subscription only from its next heartbeat
        // (default every 30 s); until then it refuses the group's pulls.
        c.setHeartbeatBrokerInterval(1000);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.registerMessageListener(listener);
        cleanups.add(c::shutdown);
        return c;
    }

    private static List<String> union(Set<String> a, Set<String> b) {
        List<String> u = new ArrayList<>(a);
        u.addAll(b);
        return u;
    }

    @Test
    @Timeout(600)
    void everyAcknowledgedMessageIsConsumedAcrossABrokerRestart() throws Exception {
        String topic = Clients.newTopic("restart", 4);
        String liveGroup = Clients.unique("cg_live");
        String resumeGroup = Clients.unique("cg_resume");
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        Stream stream = new Stream(producer, topic);

        Received live = new Received();
        Set<String> liveSeen = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer liveConsumer = start(liveGroup, (msgs, ctx) -> {
            live.add("live", msgs);
            for (MessageExt m : msgs) {
                if (liveSeen.add(Received.body(m))) {
                    stream.consumed(Received.body(m));
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        liveConsumer.subscribe(topic, "*");
        liveConsumer.start();
        Received resumed = new Received();
        DefaultMQPushConsumer resumeConsumer = start(resumeGroup, resumed.concurrently("before restart"));
        resumeConsumer.subscribe(topic, "*");
        resumeConsumer.start();

        Set<String> phase1 = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            String body = "phase1 " + i + " of " + topic;
            SendResult r = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            phase1.add(body);
        }
        live.awaitAll(phase1);
        resumed.awaitAll(phase1);
        Clients.awaitCommittedToEnd(resumeGroup, topic);
        Map<MessageQueue, Long> committedBefore = Clients.committedOffsets(resumeGroup, topic);
        resumeConsumer.shutdown();

        // While the broker shuts down, a send can wait for its whole timeout: the default 3 s (not the
        // tests' 15 s) keeps the stream trying through the restart.
        producer.setSendMsgTimeout(3000);
        Thread sender = new Thread(stream, "compat-restart-stream");
        sender.start();
        try {
            Eventually.eventually(Duration.ofSeconds(60), "100 stream messages acknowledged before the restart",
                () -> {
                    assertNull(stream.crashed, "stream");
                    assertTrue(stream.acked.size() >= 100, stream.acked.size() + " acknowledged");
                    return null;
                });
            RefServers.restartBroker("a", 300);
            stream.brokerBack.countDown();
            Eventually.eventually(Duration.ofSeconds(120), "100 stream messages acknowledged after the restart",
                () -> {
                    assertNull(stream.crashed, "stream");
                    assertTrue(stream.ackedAfterRestart.get() >= 100, stream.ackedAfterRestart.get()
                        + " acknowledged after the restart; " + stream.failures.get() + " failed, last: "
                        + stream.lastFailure);
                    return null;
                });
        } finally {
            stream.stop = true;
            stream.brokerBack.countDown();
            stream.window.release(WINDOW);
            sender.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertNull(stream.crashed, "stream");
        System.out.printf("BrokerRestartTest: %d sends acknowledged (%d after the restart), %d failed%n",
            stream.acked.size(), stream.ackedAfterRestart.get(), stream.failures.get());

        Set<String> acked = Set.copyOf(stream.acked);
        Set<String> sendable = new HashSet<>(stream.attempted); // a failed send may have been stored
        sendable.addAll(phase1);
        live.awaitAll(Duration.ofSeconds(180), union(phase1, acked));
        live.assertOnly(sendable);

        // The broker kept the offsets the group committed before the restart ...
        Eventually.eventually(Duration.ofSeconds(60), resumeGroup + "'s offsets survive the restart", () -> {
            assertEquals(committedBefore, Clients.committedOffsets(resumeGroup, topic), "committed offsets");
            return null;
        });
        // ... and a consumer of that group resumes from them: all of the stream, none of phase 1.
        DefaultMQPushConsumer again = start(resumeGroup, resumed.concurrently("after restart"));
        again.subscribe(topic, "*");
        again.start();
        resumed.awaitAllOf(Duration.ofSeconds(180), "after restart", acked);
        resumed.assertOnly(sendable);
        Set<String> twice = new HashSet<>(resumed.bodiesOf("after restart"));
        twice.retainAll(phase1);
        assertTrue(twice.isEmpty(), "phase 1 messages consumed again after the restart although committed: "
            + Received.first(twice, 5));
    }
}
