package org.rmqgo.storetool;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.GetMessageStatus;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * StoreDump {@code <storeRootDir> <store.properties> <outDir>}: opens a store directory with the real
 * DefaultMessageStore of the rocketmq-store jar on the classpath, exactly as a broker does
 * (load(): commitlog/consume-queue/index load and recovery; start(): lock, reput of whatever the
 * consume queues and index miss), and writes what Java reads from it:
 *
 * <ul>
 *   <li>{@code dump.jsonl}: every message of every consume queue (inQueue=true, sorted by topic in
 *       UTF-8 byte order, queueId, queueOffset), read with getMessage in batches of 32; then every
 *       commitlog record no consume-queue unit points at (inQueue=false, e.g. transaction
 *       PREPARED/ROLLBACK records), found by walking the commitlog from its min to its max offset,
 *       in commitlog order. Keys: body (base64 of the stored, possibly compressed, body), bodyCRC,
 *       bornHost, bornTimestamp, commitLogOffset, flag, inQueue, preparedTransactionOffset,
 *       properties, queueId, queueOffset (the consume-queue index; for inQueue=false the record's
 *       QUEUEOFFSET field), reconsumeTimes, storeHost, storeSize, storeTimestamp, sysFlag, tagsCode
 *       (of the consume-queue unit; 0 for inQueue=false), topic.</li>
 *   <li>{@code keys.jsonl}: for every distinct (topic, key) among the dumped KEYS (split on spaces)
 *       and UNIQ_KEY properties, the commitlog offsets DefaultMessageStore.queryMessage(topic, key,
 *       64, 0, Long.MAX_VALUE) returns, sorted, as returned (the index does not compare keys, so a
 *       hash-slot collision adds offsets of other keys; duplicates are kept).</li>
 *   <li>{@code queues.jsonl}: min and max offset of each consume queue, then one line with the
 *       commitlog min and max offset.</li>
 * </ul>
 *
 * <p>The MessageStoreConfig is filled from the properties file with the broker's own binder
 * (same keys as broker.conf); storePathRootDir is the first argument and storePathCommitLog is
 * {@code <storeRootDir>/commitlog} whatever the file says. Two settings are forced so that nothing
 * is deleted while the dump runs: fileReservedTime=876000 h and cleanFileForciblyEnable=false. On
 * 4.9.7 the store's own delay-level delivery is stopped right after start() (see Line.afterStart),
 * so the dump never contains messages the tool itself re-put.
 *
 * <p>start() writes to the directory (lock, abort while running, checkpoint, reput results): run
 * it on a copy of anything you want to keep byte for byte.
 *
 * <p>Exit status: 0 on success; 2 when the store does not load or start (message on stderr);
 * 3 when it loaded but reading found inconsistencies (each one on stderr; the files are still
 * written).
 */
public final class StoreDump {
    private static final String TOOL = "StoreDump";
    private static final int BATCH = 32;

    private final DefaultMessageStore store;
    private final MessageStoreConfig cfg;
    private final List<String> problems = new ArrayList<>();

    private StoreDump(DefaultMessageStore store, MessageStoreConfig cfg) {
        this.store = store;
        this.cfg = cfg;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: StoreDump <storeRootDir> <store.properties> <outDir>");
            System.exit(2);
        }
        Path root = Path.of(args[0]).toAbsolutePath();
        Path out = Path.of(args[2]);
        if (!Files.isDirectory(root.resolve("commitlog"))) {
            Stores.die(TOOL, root + " has no commitlog directory: not a store root");
        }
        Properties p = Stores.loadProperties(Path.of(args[1]));
        MessageStoreConfig cfg = Stores.storeConfig(p, root.toString());
        cfg.setFileReservedTime(876000);
        cfg.setCleanFileForciblyEnable(false);

        DefaultMessageStore store = null;
        try {
            store = Line.newStore(cfg, Stores.brokerConfig(p), Stores.topics(root.toString()));
            if (!store.load()) {
                Stores.die(TOOL, "DefaultMessageStore.load() returned false for " + root
                    + " (wrong file sizes for the properties given, or an unreadable file; the store's log above says which)");
            }
            store.start();
            Line.afterStart(store);
        } catch (Exception | Error e) {
            e.printStackTrace();
            Stores.die(TOOL, "the store at " + root + " did not load/start: " + e);
        }
        Stores.log(TOOL, "rocketmq-store " + Stores.version() + " loaded " + root + ": commitlog ["
            + store.getMinPhyOffset() + ", " + store.getMaxPhyOffset() + ")");
        waitDispatched(store);

        StoreDump d = new StoreDump(store, cfg);
        int status = 0;
        try {
            Files.createDirectories(out);
            d.dump(root, out);
        } catch (Exception e) {
            e.printStackTrace();
            d.problems.add("dump failed: " + e);
        } finally {
            store.shutdown();
        }
        for (String s : d.problems) {
            Stores.log(TOOL, "PROBLEM: " + s);
        }
        if (!d.problems.isEmpty()) {
            Stores.log(TOOL, d.problems.size() + " problem(s) reading " + root);
            status = 3;
        }
        System.exit(status);
    }

    /** start() already waits for the reput to catch up on 4.9.7; this also covers 5.x. */
    private static void waitDispatched(DefaultMessageStore store) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (store.dispatchBehindBytes() > 0) {
            if (System.currentTimeMillis() > deadline) {
                Stores.die(TOOL, "reput still " + store.dispatchBehindBytes() + " bytes behind after 120 s");
            }
            Thread.sleep(50);
        }
    }

    private void dump(Path root, Path out) throws Exception {
        TreeMap<String, TreeSet<Integer>> queues = queues(root);
        List<Map<String, Object>> lines = new ArrayList<>();
        Set<Long> inQueue = new HashSet<>();
        List<String> queueLines = new ArrayList<>();
        for (Map.Entry<String, TreeSet<Integer>> t : queues.entrySet()) {
            for (int qid : t.getValue()) {
                long min = store.getMinOffsetInQueue(t.getKey(), qid);
                long max = store.getMaxOffsetInQueue(t.getKey(), qid);
                Map<String, Object> q = Json.obj();
                q.put("topic", t.getKey());
                q.put("queueId", qid);
                q.put("minOffset", min);
                q.put("maxOffset", max);
                queueLines.add(Json.write(q));
                readQueue(t.getKey(), qid, min, max, lines, inQueue);
            }
        }
        int queued = lines.size();
        walkCommitLog(inQueue, lines);
        Map<String, Object> cl = Json.obj();
        cl.put("commitLogMinOffset", store.getMinPhyOffset());
        cl.put("commitLogMaxOffset", store.getMaxPhyOffset());
        queueLines.add(Json.write(cl));

        writeLines(out.resolve("dump.jsonl"), lines.stream().map(Json::write).toList());
        writeLines(out.resolve("queues.jsonl"), queueLines);
        List<String> keyLines = keys(lines);
        writeLines(out.resolve("keys.jsonl"), keyLines);
        Stores.log(TOOL, "wrote " + out + ": " + queued + " messages in " + (queueLines.size() - 1)
            + " queues, " + (lines.size() - queued) + " records without a queue unit, " + keyLines.size() + " keys");
    }

    /**
     * consumequeue/<topic>/<numeric queueId> directories after start() (so including queues the reput
     * created). Queues the store only holds in memory (4.9.7's ScheduleMessageService makes all 18
     * SCHEDULE_TOPIC_XXXX ones at load) have no directory and are left out.
     */
    private TreeMap<String, TreeSet<Integer>> queues(Path root) throws IOException {
        TreeMap<String, TreeSet<Integer>> m = new TreeMap<>(Json.UTF8_ORDER);
        Path cq = root.resolve("consumequeue");
        if (Files.isDirectory(cq)) {
            try (Stream<Path> topics = Files.list(cq)) {
                for (Path t : (Iterable<Path>) topics::iterator) {
                    if (!Files.isDirectory(t)) {
                        continue;
                    }
                    try (Stream<Path> ids = Files.list(t)) {
                        for (Path q : (Iterable<Path>) ids::iterator) {
                            String n = q.getFileName().toString();
                            if (Files.isDirectory(q) && n.matches("-?[0-9]+")) {
                                m.computeIfAbsent(t.getFileName().toString(), k -> new TreeSet<>()).add(Integer.parseInt(n));
                            }
                        }
                    }
                }
            }
        }
        return m;
    }

    private void readQueue(String topic, int qid, long min, long max, List<Map<String, Object>> lines,
        Set<Long> inQueue) {
        String where = topic + "/" + qid;
        if (min < 0 || max <= min) {
            return;
        }
        long next = min;
        while (next < max) {
            GetMessageResult r = store.getMessage("storedump", topic, qid, next, BATCH, null);
            if (r == null) {
                problems.add(where + ": getMessage(" + next + ") returned null (store not readable?)");
                return;
            }
            try {
                if (r.getStatus() != GetMessageStatus.FOUND) {
                    problems.add(where + ": getMessage(" + next + ") status " + r.getStatus() + ", next "
                        + r.getNextBeginOffset() + ", queue [" + min + ", " + max + ")");
                    if (r.getNextBeginOffset() <= next) {
                        return;
                    }
                    next = r.getNextBeginOffset();
                    continue;
                }
                long index = next;
                for (SelectMappedBufferResult smr : r.getMessageMapedList()) {
                    ByteBuffer bb = smr.getByteBuffer().slice();
                    MessageExt m = MessageDecoder.decode(bb, true, false);
                    if (m == null) {
                        problems.add(where + ": record at commitlog " + smr.getStartOffset() + " does not decode");
                        continue;
                    }
                    long[] unit = null;
                    while (index < r.getNextBeginOffset()) {
                        unit = Line.cqUnit(store, topic, qid, index);
                        if (unit != null && unit[0] == m.getCommitLogOffset()) {
                            break;
                        }
                        problems.add(where + ": unit " + index + " (" + (unit == null ? "unreadable" : "commitlog "
                            + unit[0]) + ") not returned by getMessage");
                        unit = null;
                        index++;
                    }
                    if (unit == null) {
                        problems.add(where + ": getMessage returned commitlog " + m.getCommitLogOffset()
                            + " that no unit in [" + next + ", " + r.getNextBeginOffset() + ") points at");
                        continue;
                    }
                    check(where, index, unit, m);
                    lines.add(line(m, true, index, unit[2]));
                    inQueue.add(m.getCommitLogOffset());
                    index++;
                }
                for (; index < r.getNextBeginOffset(); index++) {
                    problems.add(where + ": unit " + index + " not returned by getMessage");
                }
                next = r.getNextBeginOffset();
            } finally {
                r.release();
            }
        }
    }

    private void check(String where, long index, long[] unit, MessageExt m) {
        String at = where + " unit " + index + " (commitlog " + unit[0] + "): ";
        if (unit[1] != m.getStoreSize()) {
            problems.add(at + "unit size " + unit[1] + " != record TOTALSIZE " + m.getStoreSize());
        }
        if (m.getQueueOffset() != index) {
            problems.add(at + "record QUEUEOFFSET " + m.getQueueOffset() + " != unit index " + index);
        }
        if (!where.equals(m.getTopic() + "/" + m.getQueueId())) {
            problems.add(at + "record is " + m.getTopic() + "/" + m.getQueueId());
        }
    }

    /** Walks every record from the commitlog min to max offset; keeps those no unit points at. */
    private void walkCommitLog(Set<Long> inQueue, List<Map<String, Object>> lines) {
        long fileSize = cfg.getMappedFileSizeCommitLog();
        long off = store.getMinPhyOffset();
        long max = store.getMaxPhyOffset();
        long records = 0;
        Set<Long> files = new TreeSet<>();
        while (off < max) {
            files.add(off / fileSize);
            SelectMappedBufferResult r = store.getCommitLogData(off);
            if (r == null) {
                problems.add("commitlog: no data at " + off + " (max " + max + ")");
                return;
            }
            try {
                ByteBuffer bb = r.getByteBuffer();
                int pos = 0;
                boolean blank = false;
                while (pos + 8 <= r.getSize()) {
                    int size = bb.getInt(pos);
                    int magic = bb.getInt(pos + 4);
                    if (magic == Stores.MAGIC_BLANK) {
                        blank = true;
                        break;
                    }
                    if ((magic != Stores.MAGIC_V1 && magic != Stores.MAGIC_V2) || size <= 0 || pos + size > r.getSize()) {
                        problems.add("commitlog: illegal record at " + (off + pos) + " (size " + size + ", magic 0x"
                            + Integer.toHexString(magic) + ")");
                        return;
                    }
                    ByteBuffer rec = bb.duplicate();
                    rec.position(pos).limit(pos + size);
                    MessageExt m = MessageDecoder.decode(rec.slice(), true, false);
                    if (m == null) {
                        problems.add("commitlog: record at " + (off + pos) + " does not decode");
                    } else {
                        if (m.getCommitLogOffset() != off + pos) {
                            problems.add("commitlog: record at " + (off + pos) + " says PHYSICALOFFSET " + m.getCommitLogOffset());
                        }
                        records++;
                        if (!inQueue.contains(off + pos)) {
                            lines.add(line(m, false, m.getQueueOffset(), 0));
                        }
                    }
                    pos += size;
                }
                off = blank ? (off / fileSize + 1) * fileSize : off + pos;
                if (!blank && pos == 0) {
                    problems.add("commitlog: no progress at " + off);
                    return;
                }
            } finally {
                r.release();
            }
        }
        Stores.log(TOOL, "commitlog: " + records + " records in " + files.size() + " file(s)");
    }

    private static Map<String, Object> line(MessageExt m, boolean inQueue, long queueOffset, long tagsCode) {
        Map<String, Object> o = Json.obj();
        byte[] body = m.getBody();
        o.put("body", Base64.getEncoder().encodeToString(body == null ? new byte[0] : body));
        o.put("bodyCRC", m.getBodyCRC());
        o.put("bornHost", Stores.hostPort(m.getBornHost()));
        o.put("bornTimestamp", m.getBornTimestamp());
        o.put("commitLogOffset", m.getCommitLogOffset());
        o.put("flag", m.getFlag());
        o.put("inQueue", inQueue);
        o.put("preparedTransactionOffset", m.getPreparedTransactionOffset());
        Map<String, Object> props = Json.obj();
        if (m.getProperties() != null) {
            props.putAll(m.getProperties());
        }
        o.put("properties", props);
        o.put("queueId", m.getQueueId());
        o.put("queueOffset", queueOffset);
        o.put("reconsumeTimes", m.getReconsumeTimes());
        o.put("storeHost", Stores.hostPort(m.getStoreHost()));
        o.put("storeSize", m.getStoreSize());
        o.put("storeTimestamp", m.getStoreTimestamp());
        o.put("sysFlag", m.getSysFlag());
        o.put("tagsCode", tagsCode);
        o.put("topic", m.getTopic());
        return o;
    }

    @SuppressWarnings("unchecked")
    private List<String> keys(List<Map<String, Object>> lines) {
        TreeMap<String, TreeSet<String>> byTopic = new TreeMap<>(Json.UTF8_ORDER);
        for (Map<String, Object> l : lines) {
            Map<String, Object> props = (Map<String, Object>) l.get("properties");
            TreeSet<String> ks = byTopic.computeIfAbsent((String) l.get("topic"), k -> new TreeSet<>(Json.UTF8_ORDER));
            Object keys = props.get("KEYS");
            if (keys != null) {
                for (String k : ((String) keys).split(" ")) {
                    if (!k.isEmpty()) {
                        ks.add(k);
                    }
                }
            }
            Object uniq = props.get("UNIQ_KEY");
            if (uniq != null && !((String) uniq).isEmpty()) {
                ks.add((String) uniq);
            }
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, TreeSet<String>> e : byTopic.entrySet()) {
            for (String key : e.getValue()) {
                QueryMessageResult r = store.queryMessage(e.getKey(), key, 64, 0, Long.MAX_VALUE);
                List<Long> offsets = new ArrayList<>();
                try {
                    for (ByteBuffer bb : r.getMessageBufferList()) {
                        offsets.add(bb.getLong(bb.position() + 28));
                    }
                } finally {
                    r.release();
                }
                offsets.sort(null);
                Map<String, Object> o = Json.obj();
                o.put("topic", e.getKey());
                o.put("key", key);
                o.put("offsets", offsets);
                out.add(Json.write(o));
            }
        }
        return out;
    }

    private static void writeLines(Path file, List<String> lines) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (String l : lines) {
                w.write(l);
                w.write('\n');
            }
        }
    }
}
