package org.rmqgo.storetool;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/** Shared pieces of the tools: configs from a properties file, the version, small formatting. */
final class Stores {
    private Stores() {
    }

    /** Commitlog record magics (big-endian ints at offset 4). */
    static final int MAGIC_V1 = 0xDAA320A7;
    static final int MAGIC_V2 = 0xDAA320AB;
    static final int MAGIC_BLANK = 0xCBD43194;

    /** The rocketmq version this build runs (Maven-filtered resource), e.g. 4.9.7. */
    static String version() {
        try (InputStream in = Stores.class.getResourceAsStream("/storetool.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("rocketmq.version");
        } catch (IOException | NullPointerException e) {
            return "unknown";
        }
    }

    /** Reads a properties file the way BrokerStartup reads broker.conf (java.util.Properties, ISO-8859-1). */
    static Properties loadProperties(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }

    /**
     * A MessageStoreConfig filled from p with the broker's own binder (MixAll.properties2Object), then
     * storePathRootDir = root and storePathCommitLog = root/commitlog whatever p says.
     */
    static MessageStoreConfig storeConfig(Properties p, String root) {
        MessageStoreConfig cfg = new MessageStoreConfig();
        MixAll.properties2Object(p, cfg);
        cfg.setStorePathRootDir(root);
        cfg.setStorePathCommitLog(Path.of(root, "commitlog").toString());
        return cfg;
    }

    static BrokerConfig brokerConfig(Properties p) {
        BrokerConfig bc = new BrokerConfig();
        MixAll.properties2Object(p, bc);
        return bc;
    }

    /**
     * The topic table from root/config/topics.json, if there is one (5.x's store looks topics up for
     * their queue type); empty otherwise.
     */
    @SuppressWarnings("unchecked")
    static ConcurrentMap<String, TopicConfig> topics(String root) throws IOException {
        ConcurrentMap<String, TopicConfig> out = new ConcurrentHashMap<>();
        Path f = Path.of(root, "config", "topics.json");
        if (!Files.isRegularFile(f)) {
            return out;
        }
        Map<String, Object> doc = Json.parseObject(Files.readString(f, StandardCharsets.UTF_8));
        Object table = doc.get("topicConfigTable");
        if (!(table instanceof Map)) {
            return out;
        }
        for (Map.Entry<String, Object> e : ((Map<String, Object>) table).entrySet()) {
            Map<String, Object> t = (Map<String, Object>) e.getValue();
            TopicConfig tc = new TopicConfig(e.getKey(), intOf(t.get("readQueueNums"), 8),
                intOf(t.get("writeQueueNums"), 8), intOf(t.get("perm"), 6));
            Object attrs = t.get("attributes");
            if (attrs instanceof Map) {
                Map<String, String> a = new java.util.HashMap<>();
                ((Map<String, Object>) attrs).forEach((k, v) -> a.put(k, String.valueOf(v)));
                Line.setAttributes(tc, a);
            }
            out.put(e.getKey(), tc);
        }
        return out;
    }

    private static int intOf(Object o, int dflt) {
        return o instanceof Number ? ((Number) o).intValue() : dflt;
    }

    /** "ip:port" of a socket address as decoded from a record. */
    static String hostPort(SocketAddress a) {
        if (a instanceof InetSocketAddress) {
            InetSocketAddress i = (InetSocketAddress) a;
            return i.getAddress().getHostAddress() + ":" + i.getPort();
        }
        return String.valueOf(a);
    }

    static void log(String tool, String msg) {
        System.err.println(tool + ": " + msg);
    }

    static void die(String tool, String msg) {
        System.err.println(tool + ": FATAL: " + msg);
        System.exit(2);
    }
}
