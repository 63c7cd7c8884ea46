package org.rmqgo.storetool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.GetMessageStatus;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.PutMessageStatus;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * StoreBench {@code <storeRootDir> <ASYNC_FLUSH|SYNC_FLUSH> <threads> <messages> <bodyBytes>}:
 * append and read throughput of the real DefaultMessageStore on this machine, driven directly (no
 * broker, no network). Store defaults except the flush type (commitlog files 1 GiB).
 *
 * <p>Appends go to topic BenchTopic, 8 queues (round robin), each with a TAGS and a KEYS property,
 * from {@code threads} threads calling putMessage. A warm-up of min(20000, max(1000, messages/10))
 * messages runs first and is not counted; then {@code messages} messages are timed (per-put latency
 * for p50/p99). Then every message (warm-up included) is read back through getMessage, 32 at a time,
 * queue after queue. appendMBPerSec counts the commitlog bytes written (record size, MiB = 2^20).
 * rssMB is the process's VmRSS at the end (it includes the mapped commitlog pages touched).
 *
 * <p>Prints ONE JSON line on stdout: impl, flush, threads, messages, bodyBytes, appendMsgsPerSec,
 * appendMBPerSec, appendP50Us, appendP99Us, readMsgsPerSec, rssMB. Progress goes to stderr.
 *
 * <p>storeRootDir must not exist or be empty; it is deleted at the end unless STOREBENCH_KEEP=1.
 */
public final class StoreBench {
    private static final String TOOL = "StoreBench";
    private static final String TOPIC = "BenchTopic";
    private static final int QUEUES = 8;

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: StoreBench <storeRootDir> <ASYNC_FLUSH|SYNC_FLUSH> <threads> <messages> <bodyBytes>");
            System.exit(2);
        }
        Path root = Path.of(args[0]).toAbsolutePath();
        FlushDiskType flush = FlushDiskType.valueOf(args[1]);
        int threads = Integer.parseInt(args[2]);
        int messages = Integer.parseInt(args[3]);
        int bodyBytes = Integer.parseInt(args[4]);
        if (Files.exists(root)) {
            try (Stream<Path> s = Files.list(root)) {
                if (s.findAny().isPresent()) {
                    Stores.die(TOOL, root + " is not empty; give a new directory");
                }
            }
        }

        MessageStoreConfig cfg = Stores.storeConfig(new Properties(), root.toString());
        cfg.setFlushDiskType(flush);
        ConcurrentMap<String, TopicConfig> topics = new ConcurrentHashMap<>();
        topics.put(TOPIC, new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
        DefaultMessageStore store = Line.newStore(cfg, Stores.brokerConfig(new Properties()), topics);
        if (!store.load()) {
            Stores.die(TOOL, "load() failed for " + root);
        }
        store.start();
        Line.afterStart(store);

        int status = 0;
        try {
            byte[] body = new byte[bodyBytes];
            new Random(1).nextBytes(body);
            int warm = Math.min(20_000, Math.max(1000, messages / 10));
            Stores.log(TOOL, "java-" + Stores.version() + " " + flush + " threads=" + threads + ": warm-up " + warm);
            append(store, body, threads, warm, 0, null);
            Stores.log(TOOL, "appending " + messages + " x " + bodyBytes + " B");
            long[] lat = new long[messages];
            AtomicLong bytes = new AtomicLong();
            long t0 = System.nanoTime();
            long errors = append(store, body, threads, messages, warm, new Object[] {lat, bytes});
            double appendSecs = (System.nanoTime() - t0) / 1e9;
            Arrays.sort(lat);

            waitDispatched(store);
            Stores.log(TOOL, "reading back");
            long t1 = System.nanoTime();
            long read = readAll(store);
            double readSecs = (System.nanoTime() - t1) / 1e9;
            if (read != (long) warm + messages) {
                Stores.log(TOOL, "WARNING: read " + read + " messages, appended " + (warm + messages));
                status = 3;
            }
            if (errors > 0) {
                Stores.log(TOOL, "WARNING: " + errors + " puts did not return PUT_OK");
                status = 3;
            }

            Map<String, Object> o = new java.util.LinkedHashMap<>();
            o.put("impl", "java-" + Stores.version());
            o.put("flush", flush.name());
            o.put("threads", threads);
            o.put("messages", messages);
            o.put("bodyBytes", bodyBytes);
            o.put("appendMsgsPerSec", Math.round(messages / appendSecs));
            o.put("appendMBPerSec", round1(bytes.get() / 1048576.0 / appendSecs));
            o.put("appendP50Us", lat[(int) Math.min(lat.length - 1, lat.length * 50L / 100)] / 1000);
            o.put("appendP99Us", lat[(int) Math.min(lat.length - 1, lat.length * 99L / 100)] / 1000);
            o.put("readMsgsPerSec", Math.round(read / readSecs));
            o.put("rssMB", rssMB());
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<String, Object> e : o.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                Json.writeString(sb, e.getKey());
                sb.append(':');
                Json.write(sb, e.getValue());
            }
            System.out.println(sb.append('}'));
        } finally {
            store.shutdown();
            if (!"1".equals(System.getenv("STOREBENCH_KEEP"))) {
                deleteTree(root);
            }
        }
        System.exit(status);
    }

    private static Double round1(double d) {
        return Math.round(d * 10) / 10.0;
    }

    /**
     * Appends n messages from threads threads; numbering starts at base. With measure =
     * {long[] latencies, AtomicLong bytes}, records each put's latency (ns) and the bytes written.
     * Returns the number of puts that did not return PUT_OK.
     */
    private static long append(DefaultMessageStore store, byte[] body, int threads, int n, int base,
        Object[] measure) throws InterruptedException {
        InetSocketAddress born = new InetSocketAddress("127.0.0.1", 50000);
        InetSocketAddress host = new InetSocketAddress("127.0.0.1", 10911);
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong done = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(threads);
        long[] lat = measure == null ? null : (long[]) measure[0];
        AtomicLong bytes = measure == null ? null : (AtomicLong) measure[1];
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                try {
                    go.await();
                    long i;
                    while ((i = next.getAndIncrement()) < n) {
                        long seq = base + i;
                        long s = System.nanoTime();
                        PutMessageResult r = Line.put(store, TOPIC, (int) (seq % QUEUES), body, "TagA",
                            "bench-" + seq, born, host);
                        long e = System.nanoTime();
                        if (r == null || r.getPutMessageStatus() != PutMessageStatus.PUT_OK) {
                            errors.incrementAndGet();
                        }
                        if (lat != null) {
                            lat[(int) i] = e - s;
                            if (r != null && r.getAppendMessageResult() != null) {
                                bytes.addAndGet(r.getAppendMessageResult().getWroteBytes());
                            }
                        }
                        done.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            }, "bench-put-" + t);
            th.start();
        }
        go.countDown();
        while (!finished.await(5, java.util.concurrent.TimeUnit.SECONDS)) {
            Stores.log(TOOL, "  appended " + done.get() + "/" + n);
        }
        return errors.get();
    }

    private static void waitDispatched(DefaultMessageStore store) throws InterruptedException {
        while (store.dispatchBehindBytes() > 0) {
            Thread.sleep(10);
        }
    }

    private static long readAll(DefaultMessageStore store) throws Exception {
        long total = 0;
        long lastLog = System.currentTimeMillis();
        for (int q = 0; q < QUEUES; q++) {
            long off = store.getMinOffsetInQueue(TOPIC, q);
            long max = store.getMaxOffsetInQueue(TOPIC, q);
            while (off < max) {
                GetMessageResult r = store.getMessage("bench", TOPIC, q, off, 32, null);
                if (r == null || r.getStatus() != GetMessageStatus.FOUND) {
                    Stores.log(TOOL, "read " + TOPIC + "/" + q + " at " + off + ": " + (r == null ? "null" : r.getStatus()));
                    if (r == null || r.getNextBeginOffset() <= off) {
                        break;
                    }
                    off = r.getNextBeginOffset();
                    continue;
                }
                total += r.getMessageCount();
                off = r.getNextBeginOffset();
                r.release();
                if (System.currentTimeMillis() - lastLog > 5000) {
                    lastLog = System.currentTimeMillis();
                    Stores.log(TOOL, "  read " + total);
                }
            }
        }
        return total;
    }

    private static long rssMB() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return -1;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
