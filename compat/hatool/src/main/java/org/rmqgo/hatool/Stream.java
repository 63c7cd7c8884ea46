package org.rmqgo.hatool;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * One round's stream: {@code threads} senders, each sending synchronously in a loop until
 * {@link #stop()}, and recording every send answered SEND_OK as an {@link Ack}. Any other status
 * (FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE) and any exception is not an
 * acknowledgement; such sends are only counted.
 */
final class Stream {
    private final DefaultMQProducer producer;
    private final String topic;
    private final int round;
    private final int bodySize;
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final LongAdder notOk = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final List<Thread> senders = new ArrayList<>();
    private volatile boolean stopping;

    Stream(DefaultMQProducer producer, String topic, int round, int bodySize) {
        this.producer = producer;
        this.topic = topic;
        this.round = round;
        this.bodySize = bodySize;
    }

    /** Starts the senders. */
    void start(int threads) {
        for (int i = 0; i < threads; i++) {
            int sender = i;
            Thread t = new Thread(() -> loop(sender), "hakill-r" + round + "-s" + i);
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

    List<Ack> acks() {
        return new ArrayList<>(acks);
    }

    int ackCount() {
        return acks.size();
    }

    long notOk() {
        return notOk.sum();
    }

    long failed() {
        return failed.sum();
    }

    private void loop(int sender) {
        for (long seq = 0; !stopping; seq++) {
            String key = "r" + round + "-s" + sender + "-" + seq;
            try {
                Ack a = send(key);
                if (a != null) {
                    acks.add(a);
                } else {
                    notOk.increment();
                }
            } catch (Exception e) {
                failed.increment();
                pause(20);
            }
        }
    }

    /** Sends one message with this key; its Ack when the answer was SEND_OK, else null. */
    Ack send(String key) throws Exception {
        String body = body(key, bodySize);
        Message msg = new Message(topic, "hakill", key, body.getBytes(StandardCharsets.UTF_8));
        SendResult r = producer.send(msg);
        if (r.getSendStatus() != SendStatus.SEND_OK) {
            return null;
        }
        return new Ack(round, key, r.getMsgId(), r.getOffsetMsgId(), r.getMessageQueue().getBrokerName(),
            r.getMessageQueue().getQueueId(), r.getQueueOffset(), body);
    }

    /** The body of key: the key, '|', then random letters up to size characters. */
    static String body(String key, int size) {
        String alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder(Math.max(size, key.length() + 1)).append(key).append('|');
        while (sb.length() < size) {
            sb.append(alnum.charAt(ThreadLocalRandom.current().nextInt(alnum.length())));
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
