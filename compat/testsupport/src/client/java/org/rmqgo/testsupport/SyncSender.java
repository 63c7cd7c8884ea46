package org.rmqgo.testsupport;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * The synchronous sender stream of the kill tests (rocketmq-client 4.x and 5.x): {@code threads}
 * senders on one producer, each sending in a loop until {@link #stop()}, every SEND_OK recorded as
 * a {@link SendOk}. Any other status (FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE)
 * and any exception is not an acknowledgement: such sends are only counted (with when they began)
 * and described to the {@link #problems} sink; a sender pauses {@code pauseMs} after an exception.
 * Sender i sends keys {@code keyPrefix + i + "-" + seq} with {@link #body} bodies.
 *
 * <p>Used by compat/hatool's HaKill (ha-kill.sh) and ControllerKill (controller-kill.sh) and by
 * compat/ctlha's ControllerHa (controller-ha-suite.sh); added to their builds as the source folder
 * compat/testsupport/src/client/java.
 */
public final class SyncSender {
    private final DefaultMQProducer producer;
    private final String topic;
    private final String tag;
    private final int bodySize;
    private final long pauseMs;
    private final ConcurrentLinkedQueue<SendOk> acks = new ConcurrentLinkedQueue<>();
    /** {sentAt, 0 failed | 1 not OK} of every send that was not acknowledged. */
    private final ConcurrentLinkedQueue<long[]> bad = new ConcurrentLinkedQueue<>();
    private final LongAdder notOk = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final List<Thread> senders = new ArrayList<>();
    private volatile Consumer<String> problems = s -> { };
    private volatile boolean stopping;
    private boolean stopped;

    /** Messages of topic with this tag and bodies of bodySize characters; pauseMs after a failed send. */
    public SyncSender(DefaultMQProducer producer, String topic, String tag, int bodySize, long pauseMs) {
        this.producer = producer;
        this.topic = topic;
        this.tag = tag;
        this.bodySize = bodySize;
        this.pauseMs = pauseMs;
    }

    /**
     * Where each unacknowledged send is described (set before {@link #start}): the status name, or
     * the root cause's simple class name, ": " and the first line of its message.
     */
    public SyncSender problems(Consumer<String> sink) {
        this.problems = sink;
        return this;
    }

    /** Starts the senders: thread i named threadPrefix + i, sending the keys keyPrefix + i + "-" + seq. */
    public void start(int threads, String keyPrefix, String threadPrefix) {
        for (int i = 0; i < threads; i++) {
            String prefix = keyPrefix + i + "-";
            Thread t = new Thread(() -> loop(prefix), threadPrefix + i);
            senders.add(t);
            t.start();
        }
    }

    /** Tells the senders to stop after their current send and waits for them (30 s each at most); once. */
    public synchronized void stop() throws InterruptedException {
        if (stopped) {
            return;
        }
        stopping = true;
        for (Thread t : senders) {
            t.join(30_000);
        }
        stopped = true;
    }

    /** One synchronous send of key; its SendOk when the answer was SEND_OK, else null. */
    public SendOk send(String key) throws Exception {
        return send(key, new SendStatus[1]);
    }

    /** As send(key); status[0] is the answer's status. */
    private SendOk send(String key, SendStatus[] status) throws Exception {
        String body = body(key, bodySize);
        long sentAt = System.currentTimeMillis();
        SendResult r = producer.send(new Message(topic, tag, key, body.getBytes(StandardCharsets.UTF_8)));
        status[0] = r.getSendStatus();
        if (r.getSendStatus() != SendStatus.SEND_OK) {
            return null;
        }
        return new SendOk(key, body, r.getMsgId(), r.getOffsetMsgId(), r.getMessageQueue().getBrokerName(),
            storeAddr(r.getOffsetMsgId()), r.getMessageQueue().getQueueId(), r.getQueueOffset(), sentAt,
            System.currentTimeMillis());
    }

    public List<SendOk> acks() {
        return new ArrayList<>(acks);
    }

    public int ackCount() {
        return acks.size();
    }

    /** The first ack answered at or after t by the store addr (any address when null), or null. */
    public SendOk firstAckSince(long t, String addr) {
        SendOk best = null;
        for (SendOk a : acks) {
            if (a.ackAt() >= t && (addr == null || addr.equals(a.storeAddr())) && (best == null || a.ackAt() < best.ackAt())) {
                best = a;
            }
        }
        return best;
    }

    /** Acks answered at or after t by the store addr (any address when null). */
    public long countSince(long t, String addr) {
        return acks.stream().filter(a -> a.ackAt() >= t && (addr == null || addr.equals(a.storeAddr()))).count();
    }

    public long notOk() {
        return notOk.sum();
    }

    public long failed() {
        return failed.sum();
    }

    /** Sends begun at or after t that failed. */
    public long failedSince(long t) {
        return bad.stream().filter(b -> b[0] >= t && b[1] == 0).count();
    }

    /** Sends begun at or after t answered with another status than SEND_OK. */
    public long notOkSince(long t) {
        return bad.stream().filter(b -> b[0] >= t && b[1] == 1).count();
    }

    private void loop(String keyPrefix) {
        for (long seq = 0; !stopping; seq++) {
            String key = keyPrefix + seq;
            long sentAt = System.currentTimeMillis();
            SendStatus[] status = new SendStatus[1];
            try {
                SendOk a = send(key, status);
                if (a != null) {
                    acks.add(a);
                } else {
                    notOk.increment();
                    bad.add(new long[] {sentAt, 1});
                    problems.accept(String.valueOf(status[0]));
                }
            } catch (Exception e) {
                failed.increment();
                bad.add(new long[] {sentAt, 0});
                Throwable c = e;
                while (c.getCause() != null && c.getCause() != c) {
                    c = c.getCause();
                }
                problems.accept(c.getClass().getSimpleName() + ": " + Text.firstLine(String.valueOf(c.getMessage())));
                try {
                    Thread.sleep(pauseMs);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** ip:port of the store host in an offset message id ("?" when it does not decode). */
    public static String storeAddr(String offsetMsgId) {
        try {
            InetSocketAddress a = (InetSocketAddress) MessageDecoder.decodeMessageId(offsetMsgId).getAddress();
            return a.getAddress().getHostAddress() + ":" + a.getPort();
        } catch (Exception e) {
            return "?";
        }
    }

    /** The body of key: the key, '|', then letters from a Random seeded by the key, up to size characters. */
    public static String body(String key, int size) {
        String alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        Random rnd = new Random(key.hashCode() * 0x9E3779B97F4A7C15L);
        StringBuilder sb = new StringBuilder(Math.max(size, key.length() + 1)).append(key).append('|');
        while (sb.length() < size) {
            sb.append(alnum.charAt(rnd.nextInt(alnum.length())));
        }
        return sb.toString();
    }
}
