package org.rmqgo.benchtool;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.message.MessageExt;
import org.rmqgo.testsupport.Args;

/**
 * Work-alike of org.apache.rocketmq.example.benchmark.Consumer (its defaults, no filter, no
 * simulated failures):
 *
 * <pre>
 *   Consumer -n namesrvAddr [-t topic BenchmarkTest] [-g group benchmark_consumer] [-w threads 20]
 * </pre>
 *
 * <p>As the original: ROCKETMQ binary headers, a push consumer (clustering, queues allocated
 * averagely, instance name = start time) subscribed to "*" with -w consume threads; the listener
 * takes the first message of each call (one message per call by default), counts it and adds
 * now - bornTimestamp (B2C) and now - storeTimestamp (S2C). It prints "Consumer Started." once
 * started, then every 10 s, over the last 9 s (maxima since the previous line):
 *
 * <pre>
 *   Current Time: millis TPS: n FAIL: 0 AVG(B2C) RT(ms): n.nnn AVG(S2C) RT(ms): n.nnn MAX(B2C) RT(ms): n MAX(S2C) RT(ms): n
 * </pre>
 *
 * <p>It runs until stopped; on SIGTERM it prints {@code [Complete] Consume Total: n} and shuts the
 * consumer down (offsets persisted, client unregistered).
 */
public final class Consumer {
    private final LongAdder received = new LongAdder();
    private final LongAdder b2cTotal = new LongAdder();
    private final LongAdder s2cTotal = new LongAdder();
    private final AtomicLong b2cMax = new AtomicLong();
    private final AtomicLong s2cMax = new AtomicLong();

    public static void main(String[] argv) throws Exception {
        System.setProperty("rocketmq.serialize.type", "ROCKETMQ");
        Args args = Args.parse(argv);
        String topic = args.get("t", "BenchmarkTest");
        String group = args.get("g", "benchmark_consumer");
        int threads = args.getInt("w", 20);
        System.out.printf("topic: %s, threadCount %d, group: %s%n", topic, threads, group);

        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        String ns = args.get("n", null);
        if (ns != null) {
            consumer.setNamesrvAddr(ns);
        }
        consumer.setConsumeThreadMin(threads);
        consumer.setConsumeThreadMax(threads);
        consumer.setInstanceName(Long.toString(System.currentTimeMillis()));
        consumer.subscribe(topic, "*");
        new Consumer().run(consumer);
    }

    private long[] snapshot() {
        return new long[] {System.currentTimeMillis(), received.sum(), b2cTotal.sum(), s2cTotal.sum()};
    }

    private void run(DefaultMQPushConsumer consumer) throws Exception {
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            MessageExt msg = msgs.get(0);
            long now = System.currentTimeMillis();
            received.increment();
            long b2c = now - msg.getBornTimestamp();
            long s2c = now - msg.getStoreTimestamp();
            b2cTotal.add(b2c);
            s2cTotal.add(s2c);
            b2cMax.accumulateAndGet(b2c, Math::max);
            s2cMax.accumulateAndGet(s2c, Math::max);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        Window window = new Window();
        window.start(this::snapshot, this::print);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            window.stop();
            System.out.printf("[Complete] Consume Total: %d%n", received.sum());
            consumer.shutdown();
        }));
        consumer.start();
        System.out.printf("Consumer Started.%n");
    }

    private void print(long[] first, long[] last) {
        long n = last[1] - first[1];
        System.out.printf("Current Time: %d TPS: %d FAIL: 0 AVG(B2C) RT(ms): %7.3f AVG(S2C) RT(ms): %7.3f MAX(B2C) RT(ms): %d MAX(S2C) RT(ms): %d%n",
            System.currentTimeMillis(), Window.rate(first, last, 1), (last[2] - first[2]) / (double) n,
            (last[3] - first[3]) / (double) n, b2cMax.getAndSet(0), s2cMax.getAndSet(0));
    }
}
