package org.rmqgo.benchtool;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.rmqgo.testsupport.Args;

/**
 * Work-alike of org.apache.rocketmq.example.benchmark.Producer (synchronous sends, its defaults):
 *
 * <pre>
 *   Producer -n namesrvAddr [-t topic BenchmarkTest] [-s bodySize 128] [-w threads 64] [-q messages 0 = forever]
 * </pre>
 *
 * <p>As the original: ROCKETMQ binary headers, producer group {@code benchmark_producer}, instance
 * name = start time, no compression, one body of random letters and digits sent as
 * {@code new Message(topic, body)} by every thread in a loop; a thread waits 3 s after a
 * RemotingException or MQBrokerException. Every 10 s it prints, over the last 9 s:
 *
 * <pre>
 *   Current Time: ... Send TPS: n Max RT(ms): n Average RT(ms): n.nnn Send Failed: n Response Failed: n
 * </pre>
 *
 * <p>(Max RT since the start; the failure counts are totals.) Unlike the original it also prints, when
 * it ends (after -q messages, or on SIGTERM), a line with the totals of the whole run:
 * {@code [Complete] Send Total: n Send TPS: n Max RT(ms): n Average RT(ms): n.nnn Send Failed: n Response Failed: n}.
 */
public final class Producer {
    private final LongAdder ok = new LongAdder();
    private final LongAdder sendFailed = new LongAdder();
    private final LongAdder responseFailed = new LongAdder();
    private final LongAdder rtTotal = new LongAdder();
    private final AtomicLong maxRt = new AtomicLong();
    private final long start = System.currentTimeMillis();

    public static void main(String[] argv) throws Exception {
        // The original does this too; it must happen before the remoting classes load.
        System.setProperty("rocketmq.serialize.type", "ROCKETMQ");
        Args args = Args.parse(argv);
        String topic = args.get("t", "BenchmarkTest");
        int size = args.getInt("s", 128);
        int threads = args.getInt("w", 64);
        long quantity = args.getLong("q", 0);
        System.out.printf("topic: %s threadCount: %d messageSize: %d messageQuantity: %d%n", topic, threads, size, quantity);

        DefaultMQProducer producer = new DefaultMQProducer("benchmark_producer");
        producer.setInstanceName(Long.toString(System.currentTimeMillis()));
        String ns = args.get("n", null);
        if (ns != null) {
            producer.setNamesrvAddr(ns);
        }
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        new Producer().run(producer, topic, body(size), threads, quantity);
    }

    private static byte[] body(int size) {
        String alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder(size);
        for (int i = 0; i < size; i++) {
            sb.append(alnum.charAt(ThreadLocalRandom.current().nextInt(alnum.length())));
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private long[] snapshot() {
        return new long[] {System.currentTimeMillis(), ok.sum(), sendFailed.sum(), responseFailed.sum(), rtTotal.sum()};
    }

    private void run(DefaultMQProducer producer, String topic, byte[] body, int threads, long quantity)
        throws MQClientException, InterruptedException {
        Window window = new Window();
        window.start(this::snapshot, (first, last) -> print("Current Time: " + LocalDateTime.now(), first, last));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            window.stop();
            print("[Complete] Send Total: " + (ok.sum() + sendFailed.sum()), new long[] {start, 0, 0, 0, 0}, snapshot());
            producer.shutdown();
        }));
        producer.start();
        Thread[] senders = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            long share = quantity / threads + (i == 0 ? quantity % threads : 0);
            senders[i] = new Thread(() -> sendLoop(producer, new Message(topic, body), share), "sender-" + i);
            senders[i].start();
        }
        for (Thread t : senders) {
            t.join();
        }
        System.exit(0);
    }

    private void sendLoop(DefaultMQProducer producer, Message template, long share) {
        for (long n = 0; share <= 0 || n < share; n++) {
            Message msg = new Message(template.getTopic(), template.getBody());
            long begin = System.currentTimeMillis();
            try {
                producer.send(msg);
                long rt = System.currentTimeMillis() - begin;
                ok.increment();
                rtTotal.add(rt);
                maxRt.accumulateAndGet(rt, Math::max);
            } catch (RemotingException | InterruptedException e) {
                sendFailed.increment();
                pause();
            } catch (MQClientException e) {
                sendFailed.increment();
            } catch (MQBrokerException e) {
                responseFailed.increment();
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(3000);
        } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
        }
    }

    private void print(String prefix, long[] first, long[] last) {
        long sent = last[1] - first[1];
        System.out.printf("%s Send TPS: %d Max RT(ms): %d Average RT(ms): %7.3f Send Failed: %d Response Failed: %d%n",
            prefix, Window.rate(first, last, 1), maxRt.get(), (last[4] - first[4]) / (double) sent, last[2], last[3]);
    }
}
