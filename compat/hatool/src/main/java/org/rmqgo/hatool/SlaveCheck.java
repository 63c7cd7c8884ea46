package org.rmqgo.hatool;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Reads one round's messages back while the master is down, as a consumer does: a
 * DefaultMQPullConsumer (a new client instance for every attempt, so that its route comes fresh
 * from the name server, which dropped the dead master: the client then pulls from the slave, the
 * only broker of broker-a left in the route) pulls every queue the round's acks name, from the
 * smallest acknowledged queue offset on, until NO_NEW_MSG. An ack counts as on the slave when a
 * message with its message id (UNIQ_KEY), queue offset and body was pulled.
 *
 * <p>Attempts repeat until every ack is found or {@code deadlineMs} passed: the first pull may
 * still go to the dead master's address, the slave may not know the topic yet (a slave learns
 * topics from its master every 10 s) or may not have dispatched the last records to its consume
 * queues yet.
 */
final class SlaveCheck {
    private final String namesrv;
    private final String group;
    private final String topic;

    SlaveCheck(String namesrv, String group, String topic) {
        this.namesrv = namesrv;
        this.group = group;
        this.topic = topic;
    }

    /** What one check found. */
    record Result(List<Ack> missing, int pulled, int unacked, int attempts, String lastError) {
    }

    Result check(int round, List<Ack> acks, long deadlineMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + deadlineMs;
        Result last = null;
        for (int attempt = 1; ; attempt++) {
            last = attempt(round, acks, attempt);
            if (last.missing().isEmpty() || System.currentTimeMillis() >= deadline) {
                return last;
            }
            Thread.sleep(300);
        }
    }

    private Result attempt(int round, List<Ack> acks, int attempt) {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName("hakill-check-" + round + "-" + attempt + "-" + System.nanoTime());
        Map<String, MessageExt> found = new HashMap<>();
        String error = null;
        try {
            consumer.start();
            for (Map.Entry<MessageQueue, Long> q : startOffsets(acks).entrySet()) {
                readQueue(consumer, q.getKey(), q.getValue(), found);
            }
        } catch (Exception e) {
            error = e.getClass().getSimpleName() + ": " + firstLine(e.getMessage());
        } finally {
            consumer.shutdown();
        }
        List<Ack> missing = new ArrayList<>();
        for (Ack a : acks) {
            MessageExt m = found.remove(a.msgId());
            if (m == null || m.getQueueOffset() != a.queueOffset()
                || !a.body().equals(new String(m.getBody(), StandardCharsets.UTF_8))) {
                missing.add(a);
            }
        }
        String prefix = "r" + round + "-";
        int unacked = (int) found.values().stream().filter(m -> m.getKeys() != null && m.getKeys().startsWith(prefix)).count();
        return new Result(missing, found.size() + acks.size() - missing.size(), unacked, attempt, error);
    }

    /** Each queue that has acks, with the smallest acknowledged offset in it. */
    private Map<MessageQueue, Long> startOffsets(List<Ack> acks) {
        Map<MessageQueue, Long> from = new HashMap<>();
        for (Ack a : acks) {
            from.merge(new MessageQueue(topic, a.brokerName(), a.queueId()), a.queueOffset(), Math::min);
        }
        return from;
    }

    private static void readQueue(DefaultMQPullConsumer consumer, MessageQueue mq, long from, Map<String, MessageExt> found)
        throws Exception {
        long offset = from;
        while (true) {
            PullResult r = consumer.pull(mq, "*", offset, 32);
            if (r.getPullStatus() == PullStatus.FOUND) {
                for (MessageExt m : r.getMsgFoundList()) {
                    found.put(m.getMsgId(), m);
                }
            }
            if (r.getPullStatus() != PullStatus.FOUND || r.getNextBeginOffset() <= offset) {
                return;
            }
            offset = r.getNextBeginOffset();
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
