package org.rmqgo.storetool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * StoreCheck {@code <sent.jsonl> <dumpDir> [<storeRootDir> <store.properties>]}: the self-check of a
 * store fixture. Compares what StoreGen sent with what StoreDump read back, and with a store root
 * also looks at the raw files. Prints its figures on stdout; exits 1 if any check fails.
 *
 * <ul>
 *   <li>every sent message is in its topic's queue exactly once (matched by topic and UNIQ_KEY;
 *       batch messages by queue offset, since a 5.x batch's stored UNIQ_KEY is the batch's), with
 *       the same body (zlib-inflated when sysFlag bit 0 is set), flag, TAGS, KEYS and user
 *       properties; for kinds sync, sync-compressed, batch and ordered also the same queueId,
 *       queueOffset and (from offsetMsgId) commitlog offset; for kind delay the offsetMsgId points
 *       at the SCHEDULE_TOPIC_XXXX record of the same UNIQ_KEY and queue offset; for the committed
 *       txn kinds a RMQ_SYS_TRANS_HALF_TOPIC record of the same UNIQ_KEY sits at the sent (half)
 *       queue offset and the committed record has the COMMIT type and a preparedTransactionOffset;
 *       oneway messages are found by UNIQ_KEY alone;</li>
 *   <li>no rolled-back transaction message is in a queue of a topic other than RMQ_SYS_*;</li>
 *   <li>keys.jsonl holds every dumped message under each of its keys (unless 64 others came first);
 *       queues.jsonl counts match dump.jsonl;</li>
 *   <li>raw files: every commitlog file before the one holding the max offset ends with a blank
 *       record (magic CB D4 31 94, TOTALSIZE = bytes to the end of the file); per consume queue the
 *       number of files and units; the index files and their entry counts.</li>
 * </ul>
 */
public final class StoreCheck {
    private final List<String> failures = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && args.length != 4) {
            System.err.println("usage: StoreCheck <sent.jsonl> <dumpDir> [<storeRootDir> <store.properties>]");
            System.exit(2);
        }
        StoreCheck c = new StoreCheck();
        Path dumpDir = Path.of(args[1]);
        List<Map<String, Object>> sent = read(Path.of(args[0]));
        List<Map<String, Object>> dump = read(dumpDir.resolve("dump.jsonl"));
        c.checkSent(sent, dump);
        c.checkKeys(dump, read(dumpDir.resolve("keys.jsonl")));
        c.checkQueues(dump, read(dumpDir.resolve("queues.jsonl")));
        if (args.length == 4) {
            MessageStoreConfig cfg = Stores.storeConfig(Stores.loadProperties(Path.of(args[3])), args[2]);
            c.checkFiles(Path.of(args[2]), cfg, read(dumpDir.resolve("queues.jsonl")));
        }
        for (String f : c.failures) {
            System.out.println("FAIL: " + f);
        }
        System.out.println(c.failures.isEmpty() ? "store check: OK" : "store check: " + c.failures.size() + " failure(s)");
        System.exit(c.failures.isEmpty() ? 0 : 1);
    }

    static List<Map<String, Object>> read(Path f) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String l : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            if (!l.isBlank()) {
                out.add(Json.parseObject(l));
            }
        }
        return out;
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    private static long num(Object o) {
        return ((Number) o).longValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> props(Map<String, Object> line) {
        return (Map<String, Object>) line.get("properties");
    }

    // ---- sent vs dump ----

    @SuppressWarnings("unchecked")
    private void checkSent(List<Map<String, Object>> sent, List<Map<String, Object>> dump) {
        Map<String, List<Map<String, Object>>> byTopicUniq = new HashMap<>();
        Map<String, Map<String, Object>> byQueueOffset = new HashMap<>();
        Map<Long, Map<String, Object>> byOffset = new HashMap<>();
        TreeMap<String, Integer> perTopic = new TreeMap<>(Json.UTF8_ORDER);
        int inQueue = 0;
        int compressed = 0;
        for (Map<String, Object> d : dump) {
            byOffset.put(num(d.get("commitLogOffset")), d);
            if (Boolean.TRUE.equals(d.get("inQueue"))) {
                inQueue++;
                perTopic.merge(str(d.get("topic")), 1, Integer::sum);
                String uniq = str(props(d).get("UNIQ_KEY"));
                byTopicUniq.computeIfAbsent(d.get("topic") + "\u0000" + uniq, k -> new ArrayList<>()).add(d);
                byQueueOffset.put(d.get("topic") + "/" + d.get("queueId") + "/" + d.get("queueOffset"), d);
            }
            if ((num(d.get("sysFlag")) & 1) != 0) {
                compressed++;
            }
        }
        System.out.println("dump.jsonl: " + dump.size() + " records, " + inQueue + " in queues, "
            + (dump.size() - inQueue) + " without a queue unit, " + compressed + " with a compressed body");
        System.out.println("  per topic: " + perTopic);

        TreeMap<String, Integer> kinds = new TreeMap<>();
        int matched = 0;
        int rollbacksHidden = 0;
        int rollbackHalves = 0;
        int batchUniqDiffers = 0;
        for (Map<String, Object> s : sent) {
            String kind = str(s.get("kind"));
            String topic = str(s.get("topic"));
            String uniq = str(s.get("msgId"));
            kinds.merge(kind, 1, Integer::sum);
            List<Map<String, Object>> found = byTopicUniq.getOrDefault(topic + "\u0000" + uniq, List.of());
            if (kind.equals("txn-rollback")) {
                boolean leaked = false;
                for (Map<String, Object> d : dump) {
                    if (!uniq.equals(props(d).get("UNIQ_KEY"))) {
                        continue;
                    }
                    String t = str(d.get("topic"));
                    if (Boolean.TRUE.equals(d.get("inQueue")) && !t.startsWith("RMQ_SYS_")) {
                        leaked = true;
                        failures.add("rolled-back " + uniq + " is in queue " + t + "/" + d.get("queueId"));
                    }
                    if (t.equals("RMQ_SYS_TRANS_HALF_TOPIC")) {
                        rollbackHalves++;
                    }
                }
                if (!leaked) {
                    rollbacksHidden++;
                }
                continue;
            }
            String what = kind + " " + topic + " " + uniq + " (" + s.get("keys") + ")";
            if (kind.equals("batch")) {
                // Found by queue offset: a 5.x batch message's stored UNIQ_KEY is the batch's own.
                Map<String, Object> b = byQueueOffset.get(topic + "/" + s.get("queueId") + "/" + s.get("queueOffset"));
                found = b == null ? List.of() : List.of(b);
                if (b != null && !uniq.equals(props(b).get("UNIQ_KEY"))) {
                    batchUniqDiffers++;
                }
            }
            if (found.size() != 1) {
                failures.add(what + ": " + found.size() + " records in the topic's queues, want 1");
                if (found.isEmpty()) {
                    continue;
                }
            }
            Map<String, Object> d = found.get(0);
            int before = failures.size();
            compareContent(what, s, d);
            if (s.get("queueOffset") != null && List.of("sync", "sync-compressed", "batch", "ordered").contains(kind)) {
                if (num(s.get("queueId")) != num(d.get("queueId")) || num(s.get("queueOffset")) != num(d.get("queueOffset"))) {
                    failures.add(what + ": SendResult " + s.get("queueId") + "/" + s.get("queueOffset") + ", dump "
                        + d.get("queueId") + "/" + d.get("queueOffset"));
                }
                long off = offsetOf(str(s.get("offsetMsgId")));
                if (off != num(d.get("commitLogOffset"))) {
                    failures.add(what + ": offsetMsgId says commitlog " + off + ", dump " + d.get("commitLogOffset"));
                }
            } else if (kind.equals("delay")) {
                Map<String, Object> first = byOffset.get(offsetOf(str(s.get("offsetMsgId"))));
                if (first == null || !"SCHEDULE_TOPIC_XXXX".equals(first.get("topic"))
                    || !uniq.equals(props(first).get("UNIQ_KEY"))
                    || num(first.get("queueOffset")) != num(s.get("queueOffset"))) {
                    failures.add(what + ": offsetMsgId " + s.get("offsetMsgId") + " is not its SCHEDULE_TOPIC_XXXX record: "
                        + (first == null ? "no record there" : first.get("topic") + "/" + first.get("queueOffset")));
                }
            } else if (kind.startsWith("txn")) {
                Map<String, Object> half = null;
                for (Map<String, Object> h : byTopicUniq.getOrDefault("RMQ_SYS_TRANS_HALF_TOPIC\u0000" + uniq, List.of())) {
                    if (num(h.get("queueOffset")) == num(s.get("queueOffset"))) {
                        half = h;
                    }
                }
                if (half == null) {
                    failures.add(what + ": no RMQ_SYS_TRANS_HALF_TOPIC record at half queue offset " + s.get("queueOffset"));
                } else if (num(d.get("preparedTransactionOffset")) == 0 || (num(d.get("sysFlag")) & 0xC) != 0x8) {
                    failures.add(what + ": committed record has sysFlag " + d.get("sysFlag")
                        + ", preparedTransactionOffset " + d.get("preparedTransactionOffset"));
                }
            }
            if (failures.size() == before) {
                matched++;
            }
        }
        System.out.println("sent.jsonl: " + sent.size() + " messages " + kinds);
        System.out.println("  found with the same body and properties: " + matched + " of "
            + (sent.size() - kinds.getOrDefault("txn-rollback", 0)) + " (the rest are rollbacks)");
        System.out.println("  rolled back: " + kinds.getOrDefault("txn-rollback", 0) + ", in no user queue: "
            + rollbacksHidden + ", half records of them: " + rollbackHalves);
        System.out.println("  batch messages whose stored UNIQ_KEY (last one wins) is not their SendResult msgId: "
            + batchUniqDiffers + " of " + kinds.getOrDefault("batch", 0));
    }

    @SuppressWarnings("unchecked")
    private void compareContent(String what, Map<String, Object> s, Map<String, Object> d) {
        byte[] want = Base64.getDecoder().decode(str(s.get("body")));
        byte[] stored = Base64.getDecoder().decode(str(d.get("body")));
        long sysFlag = num(d.get("sysFlag"));
        byte[] got = stored;
        if ((sysFlag & 1) != 0) {
            long type = (sysFlag & 0x700) >> 8;
            if (type != 0 && type != 3) {
                failures.add(what + ": compression type " + type + " (want zlib)");
                return;
            }
            try {
                got = inflate(stored);
            } catch (DataFormatException e) {
                failures.add(what + ": stored body does not inflate: " + e);
                return;
            }
        }
        if (!Arrays.equals(want, got)) {
            failures.add(what + ": body differs (" + want.length + " sent, " + got.length + " stored)");
        }
        if (num(s.get("flag")) != num(d.get("flag"))) {
            failures.add(what + ": flag " + s.get("flag") + " != " + d.get("flag"));
        }
        Map<String, Object> p = props(d);
        if (!java.util.Objects.equals(s.get("tags"), p.get("TAGS"))) {
            failures.add(what + ": TAGS " + p.get("TAGS") + ", sent " + s.get("tags"));
        }
        if (!java.util.Objects.equals(s.get("keys"), p.get("KEYS"))) {
            failures.add(what + ": KEYS " + p.get("KEYS") + ", sent " + s.get("keys"));
        }
        for (Map.Entry<String, Object> e : ((Map<String, Object>) s.get("userProperties")).entrySet()) {
            if (!e.getValue().equals(p.get(e.getKey()))) {
                failures.add(what + ": property " + e.getKey() + "=" + p.get(e.getKey()) + ", sent " + e.getValue());
            }
        }
    }

    static byte[] inflate(byte[] in) throws DataFormatException {
        Inflater inf = new Inflater();
        inf.setInput(in);
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length * 4);
        byte[] buf = new byte[8192];
        while (!inf.finished()) {
            int n = inf.inflate(buf);
            if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                throw new DataFormatException("truncated zlib stream");
            }
            out.write(buf, 0, n);
        }
        inf.end();
        return out.toByteArray();
    }

    /** The commitlog offset in an offsetMsgId: its last 16 hex digits. */
    static long offsetOf(String offsetMsgId) {
        if (offsetMsgId == null || offsetMsgId.length() < 16) {
            return -1;
        }
        return Long.parseUnsignedLong(offsetMsgId.substring(offsetMsgId.length() - 16), 16);
    }

    // ---- keys and queues ----

    @SuppressWarnings("unchecked")
    private void checkKeys(List<Map<String, Object>> dump, List<Map<String, Object>> keys) {
        Map<String, Set<Long>> idx = new HashMap<>();
        int entries = 0;
        int maxHits = 0;
        for (Map<String, Object> k : keys) {
            Set<Long> offs = new HashSet<>();
            for (Object o : (List<Object>) k.get("offsets")) {
                offs.add(num(o));
            }
            entries += offs.size();
            maxHits = Math.max(maxHits, offs.size());
            idx.put(k.get("topic") + "\u0000" + k.get("key"), offs);
        }
        int expected = 0;
        int extra = 0;
        Map<String, Integer> want = new HashMap<>();
        for (Map<String, Object> d : dump) {
            Map<String, Object> p = props(d);
            Set<String> ks = new HashSet<>();
            if (p.get("KEYS") != null) {
                for (String k : str(p.get("KEYS")).split(" ")) {
                    if (!k.isEmpty()) {
                        ks.add(k);
                    }
                }
            }
            if (p.get("UNIQ_KEY") != null) {
                ks.add(str(p.get("UNIQ_KEY")));
            }
            long off = num(d.get("commitLogOffset"));
            for (String k : ks) {
                String id = d.get("topic") + "\u0000" + k;
                want.merge(id, 1, Integer::sum);
                expected++;
                Set<Long> offs = idx.get(id);
                if (offs == null) {
                    failures.add("keys.jsonl has no line for " + d.get("topic") + " " + k);
                } else if (!offs.contains(off) && offs.size() < 64) {
                    boolean rollback = (num(d.get("sysFlag")) & 0xC) == 0xC;
                    if (!rollback) {
                        failures.add("index lookup " + d.get("topic") + " " + k + " misses commitlog " + off);
                    }
                }
            }
        }
        for (Map<String, Object> k : keys) {
            String id = k.get("topic") + "\u0000" + k.get("key");
            extra += Math.max(0, idx.get(id).size() - want.getOrDefault(id, 0));
        }
        System.out.println("keys.jsonl: " + keys.size() + " (topic, key) pairs, " + entries
            + " distinct offsets returned, " + expected + " expected (message, key) hits, " + extra
            + " extra offsets from hash-slot collisions, most hits for one key: " + maxHits);
    }

    private void checkQueues(List<Map<String, Object>> dump, List<Map<String, Object>> queues) {
        Map<String, Integer> counts = new HashMap<>();
        for (Map<String, Object> d : dump) {
            if (Boolean.TRUE.equals(d.get("inQueue"))) {
                counts.merge(d.get("topic") + "/" + d.get("queueId"), 1, Integer::sum);
            }
        }
        int n = 0;
        for (Map<String, Object> q : queues) {
            if (q.containsKey("commitLogMaxOffset")) {
                System.out.println("queues.jsonl: commitlog [" + q.get("commitLogMinOffset") + ", "
                    + q.get("commitLogMaxOffset") + ")");
                continue;
            }
            n++;
            String id = q.get("topic") + "/" + q.get("queueId");
            long want = num(q.get("maxOffset")) - Math.max(0, num(q.get("minOffset")));
            if (counts.getOrDefault(id, 0) != want) {
                failures.add("queue " + id + ": " + counts.getOrDefault(id, 0) + " dumped, [min,max) holds " + want);
            }
        }
        System.out.println("queues.jsonl: " + n + " queues");
    }

    // ---- raw files ----

    private void checkFiles(Path root, MessageStoreConfig cfg, List<Map<String, Object>> queues) throws IOException {
        long clSize = cfg.getMappedFileSizeCommitLog();
        long max = -1;
        for (Map<String, Object> q : queues) {
            if (q.containsKey("commitLogMaxOffset")) {
                max = num(q.get("commitLogMaxOffset"));
            }
        }
        List<Path> cl = list(root.resolve("commitlog"));
        int blanks = 0;
        int full = 0;
        List<String> blankInfo = new ArrayList<>();
        for (Path f : cl) {
            long start = Long.parseLong(f.getFileName().toString());
            if (Files.size(f) != clSize) {
                failures.add("commitlog " + f.getFileName() + " is " + Files.size(f) + " bytes, want " + clSize);
                continue;
            }
            if (start + clSize > max) {
                continue; // the file being written, or pre-allocated
            }
            full++;
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f));
            int pos = 0;
            int records = 0;
            while (pos + 8 <= clSize) {
                int size = b.getInt(pos);
                int magic = b.getInt(pos + 4);
                if (magic == Stores.MAGIC_BLANK) {
                    if (size != clSize - pos) {
                        failures.add("commitlog " + f.getFileName() + ": blank record at " + pos + " says " + size
                            + " bytes, " + (clSize - pos) + " remain");
                    }
                    blanks++;
                    blankInfo.add(f.getFileName() + ": " + records + " records, blank of " + size + " B at " + pos);
                    break;
                }
                if ((magic != Stores.MAGIC_V1 && magic != Stores.MAGIC_V2) || size <= 0) {
                    failures.add("commitlog " + f.getFileName() + ": no blank record; illegal magic at " + pos);
                    break;
                }
                records++;
                pos += size;
            }
        }
        System.out.println("commitlog: " + cl.size() + " files of " + clSize + " B (" + full
            + " full before the max offset " + max + "), " + blanks + " of them end with a blank record");
        for (String s : blankInfo) {
            System.out.println("  " + s);
        }
        if (full < 2) {
            failures.add("the commitlog spans only " + (full + 1) + " file(s)");
        }

        int cqSize = cfg.getMappedFileSizeConsumeQueue();
        int multi = 0;
        int busy = 0;
        List<String> cqInfo = new ArrayList<>();
        Path cqRoot = root.resolve("consumequeue");
        for (Path t : list(cqRoot)) {
            for (Path q : list(t)) {
                List<Path> files = list(q);
                long units = 0;
                for (Path f : files) {
                    if (Files.size(f) != cqSize) {
                        failures.add("consume queue file " + cqRoot.relativize(f) + " is " + Files.size(f) + " B, want " + cqSize);
                    }
                    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f));
                    for (int p = 0; p + 20 <= b.capacity(); p += 20) {
                        if (b.getLong(p) >= 0 && b.getInt(p + 8) > 0) {
                            units++;
                        }
                    }
                }
                if (units > cqSize / 20) {
                    busy++;
                    if (files.size() > 1) {
                        multi++;
                    } else {
                        failures.add(cqRoot.relativize(q) + " has " + units + " units in one file");
                    }
                }
                cqInfo.add(cqRoot.relativize(q) + ": " + units + " units in " + files.size() + " file(s)");
            }
        }
        System.out.println("consumequeue: " + cqInfo.size() + " queues, " + busy + " with more than " + (cqSize / 20)
            + " units, " + multi + " of them in several files");
        for (String s : cqInfo) {
            System.out.println("  " + s);
        }
        if (busy == 0) {
            failures.add("no consume queue has more than " + (cqSize / 20) + " units");
        }

        int slots = cfg.getMaxHashSlotNum();
        List<Path> idx = list(root.resolve("index"));
        long indexEntries = 0;
        StringBuilder sb = new StringBuilder();
        for (Path f : idx) {
            try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "r")) {
                r.seek(36);
                int count = r.readInt();
                indexEntries += Math.max(0, count - 1);
                sb.append(' ').append(f.getFileName()).append('(').append(count - 1).append(')');
                long want = 40 + 4L * slots + 20L * cfg.getMaxIndexNum();
                if (r.length() != want) {
                    failures.add("index file " + f.getFileName() + " is " + r.length() + " B, want " + want);
                }
            }
        }
        System.out.println("index: " + idx.size() + " files, " + indexEntries + " entries:" + sb);
        if (idx.size() < 2) {
            failures.add("only " + idx.size() + " index file(s)");
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }
}
