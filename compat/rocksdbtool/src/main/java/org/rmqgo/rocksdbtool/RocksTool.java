package org.rmqgo.rocksdbtool;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.common.config.ConfigRocksDBStorage;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksIterator;

/**
 * Writes and dumps RocksDB databases with the 5.3.3 broker's
 * ConfigRocksDBStorage (see run.sh for the commands and the output).
 */
public final class RocksTool {
    private static final int KEYS = 400;

    private RocksTool() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("gen")) {
            gen(args[1], args[2]);
        } else if (args.length == 2 && args[0].equals("dump")) {
            dump(args[1]);
        } else {
            System.err.println("usage: gen <dir> clean|kill|mixed | dump <dir>");
            System.exit(2);
        }
    }

    private static ConfigRocksDBStorage open(String dir) {
        ConfigRocksDBStorage s = new ConfigRocksDBStorage(dir);
        if (!s.start()) {
            throw new IllegalStateException("ConfigRocksDBStorage did not start on " + dir);
        }
        return s;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The value of key i in round r: a JSON text about 100 bytes long. */
    private static String value(int i, int r) {
        return "{\"password\":\"secret-" + i + "-" + r + "\",\"subjectType\":1,\"userStatus\":1,"
            + "\"userType\":" + (i % 2 + 1) + ",\"username\":\"user" + String.format("%05d", i) + "\"}";
    }

    /**
     * Puts KEYS keys and the two other families' keys; then (clean and
     * mixed: after a flush) overwrites every 7th key, deletes every 5th
     * and adds one; prints what Java should read back.
     */
    private static void gen(String dir, String mode) throws Exception {
        ConfigRocksDBStorage s = open(dir);
        Map<String, String> model = new TreeMap<>();
        for (int i = 0; i < KEYS; i++) {
            put(s, model, "user" + String.format("%05d", i), value(i, 0));
        }
        s.updateKvDataVersion(b("{\"counter\":3,\"stateVersion\":7,\"timestamp\":1733300000000}"));
        s.updateForbidden(b("group@topic"), b("{\"forbidden\":1}"));
        s.flushWAL();
        if (!mode.equals("kill")) {
            try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
                s.flush(fo);
            }
        }
        for (int i = 0; i < KEYS; i += 7) {
            put(s, model, "user" + String.format("%05d", i), value(i, 1));
        }
        for (int i = 0; i < KEYS; i += 5) {
            String k = "user" + String.format("%05d", i);
            s.delete(b(k));
            model.remove(k);
        }
        put(s, model, "User:late", "{\"policies\":[],\"subject\":{\"subjectType\":1,\"username\":\"late\"}}");
        s.flushWAL();
        print(model, "{\"counter\":3,\"stateVersion\":7,\"timestamp\":1733300000000}", "group@topic", "{\"forbidden\":1}");
        System.out.flush();
        if (mode.equals("clean")) {
            s.shutdown();
        } else {
            Runtime.getRuntime().halt(0);
        }
    }

    private static void put(ConfigRocksDBStorage s, Map<String, String> model, String k, String v) throws Exception {
        byte[] kb = b(k);
        s.put(kb, kb.length, b(v));
        model.put(k, v);
    }

    private static void print(Map<String, String> model, String version, String fk, String fv) {
        StringBuilder sb = new StringBuilder();
        model.forEach((k, v) -> sb.append("default\t").append(k).append('\t').append(v).append('\n'));
        if (version != null) {
            sb.append("kvDataVersion\tkvDataVersionKey\t").append(version).append('\n');
        }
        if (fk != null) {
            sb.append("forbidden\t").append(fk).append('\t').append(fv).append('\n');
        }
        System.out.print(sb);
    }

    /** Prints every key of the three families as Java reads them. */
    private static void dump(String dir) throws Exception {
        ConfigRocksDBStorage s = open(dir);
        Map<String, String> model = new TreeMap<>();
        try (RocksIterator it = s.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                model.put(new String(it.key(), StandardCharsets.UTF_8), new String(it.value(), StandardCharsets.UTF_8));
            }
        }
        byte[] version = s.getKvDataVersion();
        String fk = null;
        String fv = null;
        try (RocksIterator it = s.forbiddenIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (fk != null) {
                    throw new IllegalStateException("more than one forbidden key");
                }
                fk = new String(it.key(), StandardCharsets.UTF_8);
                fv = new String(it.value(), StandardCharsets.UTF_8);
            }
        }
        print(model, version == null ? null : new String(version, StandardCharsets.UTF_8), fk, fv);
        System.out.flush();
        s.shutdown();
    }
}
