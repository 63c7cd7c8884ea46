package org.rmqgo.hatool;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.Message;

/**
 * A round's stream for ControllerKill: {@code threads} senders on one producer, each sending
 * synchronously in a loop until {@link #stop()}; every SEND_OK becomes a {@link CtlAck} with the
 * store address decoded from its offset message id and the time the answer came. Other statuses
 * (FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE, ...) and exceptions are only counted (a few samples
 * kept).
 */
final class CtlStream {
    private final DefaultMQProducer producer;
    private final String topic;
    private final int round;
    private final int bodySize;
    private final String tag;
    private final boolean stale;
    private final ConcurrentLinkedQueue<CtlAck> acks = new ConcurrentLinkedQueue<>();
    private final LongAdder notOk = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
    private final List<Thread> senders = new ArrayList<>();
    private volatile boolean stopping;
    private volatile String last;

    CtlStream(DefaultMQProducer producer, String topic, int round, int bodySize, String tag, boolean stale) {
        this.producer = producer;
        this.topic = topic;
        this.round = round;
        this.bodySize = bodySize;
        this.tag = tag;
        this.stale = stale;
    }

    /** When start() ran (System.currentTimeMillis); the samples say how long after it they came. */
    private volatile long startedAt;

    void start(int threads) {
        startedAt = System.currentTimeMillis();
        for (int i = 0; i < threads; i++) {
            int sender = i;
            Thread t = new Thread(() -> loop(sender), "ctlkill-r" + round + "-" + tag + i);
            senders.add(t);
            t.start();
        }
    }

    /** Tells the senders to stop after their current send and waits for them. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread t : senders) {
            t.join();
        }
    }

    List<CtlAck> acks() {
        return new ArrayList<>(acks);
    }

    int ackCount() {
        return acks.size();
    }

    /** The first ack answered at or after {@code t} by {@code addr} (any address when null), or null. */
    CtlAck firstAckSince(long t, String addr) {
        CtlAck best = null;
        for (CtlAck a : acks) {
            if (a.ackAt() >= t && (addr == null || addr.equals(a.storeAddr())) && (best == null || a.ackAt() < best.ackAt())) {
                best = a;
            }
        }
        return best;
    }

    long notOk() {
        return notOk.sum();
    }

    long failed() {
        return failed.sum();
    }

    String samples() {
        return samples.isEmpty() ? "" : " e.g. " + samples + ", last " + last;
    }

    private void loop(int sender) {
        for (long seq = 0; !stopping; seq++) {
            String key = "r" + round + "-" + tag + sender + "-" + seq;
            long sentAt = System.currentTimeMillis();
            try {
                SendResult r = producer.send(new Message(topic, "ctlkill", key, body(key, bodySize).getBytes(StandardCharsets.UTF_8)));
                if (r.getSendStatus() == SendStatus.SEND_OK) {
                    acks.add(new CtlAck(round, key, r.getMsgId(), r.getOffsetMsgId(), storeAddr(r.getOffsetMsgId()),
                        r.getMessageQueue().getQueueId(), r.getQueueOffset(), sentAt, System.currentTimeMillis(), stale));
                } else {
                    notOk.increment();
                    sample(r.getSendStatus().toString());
                }
            } catch (Exception e) {
                failed.increment();
                Throwable c = e;
                while (c.getCause() != null && c.getCause() != c) {
                    c = c.getCause();
                }
                String s = String.valueOf(c.getMessage());
                int nl = s.indexOf('\n');
                sample(c.getClass().getSimpleName() + ": " + (nl < 0 ? s : s.substring(0, nl)));
                pause(20);
            }
        }
    }

    private void sample(String msg) {
        String s = "@" + (System.currentTimeMillis() - startedAt) + "ms " + msg;
        last = s.length() > 240 ? s.substring(0, 240) : s;
        if (samples.size() < 2) {
            samples.add(s.length() > 240 ? s.substring(0, 240) : s);
        }
    }

    /** ip:port of the store host in an offset message id ("?" when it does not decode). */
    static String storeAddr(String offsetMsgId) {
        try {
            InetSocketAddress a = (InetSocketAddress) MessageDecoder.decodeMessageId(offsetMsgId).getAddress();
            return a.getAddress().getHostAddress() + ":" + a.getPort();
        } catch (Exception e) {
            return "?";
        }
    }

    /** The body of key: the key, '|', then letters from a Random seeded by the key, up to size characters. */
    static String body(String key, int size) {
        String alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        Random rnd = new Random(key.hashCode() * 0x9E3779B97F4A7C15L);
        StringBuilder sb = new StringBuilder(Math.max(size, key.length() + 1)).append(key).append('|');
        while (sb.length() < size) {
            sb.append(alnum.charAt(rnd.nextInt(alnum.length())));
        }
        return sb.toString();
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
