package org.rmqgo.storetool;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * StoreGen {@code <namesrvAddr> <sent.jsonl>}: drives a running Java name server and broker (one
 * broker, e.g. {@code COMPAT_BROKER_B=0 sh compat/ref-servers.sh start 4}) with the real client of
 * this build's line and writes one JSON line per message the broker accepted, so that its store
 * holds every kind of record a reader must handle. Content is deterministic (fixed seed); ids,
 * timestamps and offsets are whatever the broker gives.
 *
 * <p>What it does, in order (progress on stderr):
 * <ol>
 *   <li>creates StoreTopicA (4 queues) and StoreTopicB (2 queues) through the admin API;
 *       StoreTopicAuto (4 queues, the client's defaultTopicQueueNums) is auto-created from TBW102
 *       by the first send to it;</li>
 *   <li>150 sync sends (kind {@code sync}) with tags TagA/TagB/none, keys none/one/several
 *       (some non-ASCII), user properties none/ASCII/non-ASCII values, bodies of 1 B to
 *       ~4 KB of ASCII text, non-ASCII text or random bytes, flags 0/7/-2, to queues chosen by
 *       the seeded random (not the client's round robin); StoreTopicA queue 0 gets most of A's
 *       messages so that its consume queue spans several files;</li>
 *   <li>two bodies above the client's 4 KiB compression threshold (kind {@code sync-compressed}:
 *       ~10 KiB text and 5000 random bytes, stored zlib-compressed with sysFlag bit 0);</li>
 *   <li>a batch of 10 to StoreTopicA queue 0 ({@code batch}, keys batch-0..9; msgId is the
 *       message's own UNIQ_KEY from the SendResult, but a 5.x client also gives the batch a
 *       UNIQ_KEY that the broker appends after each message's properties, and readers keep the
 *       last one), 12 ordered sends through a
 *       MessageQueueSelector ({@code ordered}), 3 oneway sends ({@code oneway}, confirmed through
 *       the index before going on);</li>
 *   <li>delay level 1 and 2 messages ({@code delay}), waited for until the broker re-put them to
 *       their topic;</li>
 *   <li>a TransactionMQProducer: 3 {@code txn-commit}, 2 {@code txn-rollback}, 1 UNKNOW that the
 *       broker's check-back commits ({@code txn-check-commit}), waited for;</li>
 *   <li>a push consumer group StoreGenConsumer on StoreTopicA that answers RECONSUME_LATER once
 *       for the two messages keyed retry-me-1/2 (so %RETRY%StoreGenConsumer and SCHEDULE_TOPIC_XXXX
 *       level-3 records exist); it waits until both were redelivered, every StoreTopicA message was
 *       consumed and the broker holds the committed offsets.</li>
 * </ol>
 *
 * <p>sent.jsonl keys: body (base64 of the original, uncompressed body), flag, keys, kind, msgId
 * (UNIQ_KEY), offsetMsgId, queueId, queueOffset, tags, topic, userProperties, and delayLevel for
 * kind delay. queueId/queueOffset/offsetMsgId are the SendResult's (null for oneway). For
 * kind delay, queueOffset and offsetMsgId are those of the SCHEDULE_TOPIC_XXXX record (queueId is
 * the one the client chose); for the txn kinds queueOffset is that of the RMQ_SYS_TRANS_HALF_TOPIC
 * half record and offsetMsgId is null (a TransactionSendResult does not carry it). The message
 * the broker later put into topic carries the same UNIQ_KEY.
 */
public final class StoreGen {
    private static final String TOOL = "StoreGen";
    static final String TOPIC_A = "StoreTopicA";
    static final String TOPIC_B = "StoreTopicB";
    static final String TOPIC_AUTO = "StoreTopicAuto";
    static final String PRODUCER_GROUP = "StoreGenProducer";
    static final String TXN_GROUP = "StoreGenTxnProducer";
    static final String CONSUMER_GROUP = "StoreGenConsumer";
    static final long SEED = 20240607L;
    private static final long WAIT_MS = 180_000;

    private final Random rnd = new Random(SEED);
    private final String namesrv;
    private final BufferedWriter out;
    private DefaultMQAdminExt admin;
    private DefaultMQProducer producer;
    private String brokerName;
    private String brokerAddr;
    private int lines;
    /** UNIQ_KEYs (batch: "keys:" + KEYS) of every message sent to StoreTopicA and kept there. */
    private final Set<String> sentToA = ConcurrentHashMap.newKeySet();

    private StoreGen(String namesrv, BufferedWriter out) {
        this.namesrv = namesrv;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: StoreGen <namesrvAddr> <sent.jsonl>");
            System.exit(2);
        }
        int status = 0;
        try (BufferedWriter w = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
            StoreGen g = new StoreGen(args[0], w);
            try {
                g.run();
                Stores.log(TOOL, "done: " + g.lines + " messages written to " + args[1]);
            } finally {
                g.close();
            }
        } catch (Exception e) {
            e.printStackTrace();
            Stores.log(TOOL, "FATAL: " + e);
            status = 1;
        }
        System.exit(status);
    }

    private void run() throws Exception {
        Stores.log(TOOL, "rocketmq-client " + Stores.version() + ", name server " + namesrv);
        admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName("storegen-admin");
        admin.start();
        findBroker();
        createTopic(TOPIC_A, 4);
        createTopic(TOPIC_B, 2);

        producer = new DefaultMQProducer(PRODUCER_GROUP);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("storegen-producer");
        producer.setSendMsgTimeout(15_000);
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();

        syncSends();
        compressedSends();
        batchSend();
        orderedSends();
        onewaySends();
        delaySends();
        transactions();
        consumeWithRetries();
    }

    private void close() {
        if (producer != null) {
            producer.shutdown();
        }
        if (admin != null) {
            admin.shutdown();
        }
    }

    // ---- setup ----

    /** The master brokers the name server knows, by name. */
    private TreeMap<String, String> masters() {
        TreeMap<String, String> masters = new TreeMap<>();
        try {
            var cluster = admin.examineBrokerClusterInfo();
            for (var e : cluster.getBrokerAddrTable().entrySet()) {
                String addr = e.getValue().getBrokerAddrs().get(0L);
                if (addr != null) {
                    masters.put(e.getKey(), addr);
                }
            }
        } catch (Exception e) {
            // not yet
        }
        return masters;
    }

    private void findBroker() throws Exception {
        // A broker prints "boot success" before its first registration has reached the name server.
        waitFor("a broker registered with the name server", () -> !masters().isEmpty());
        TreeMap<String, String> masters = masters();
        if (masters.size() != 1) {
            throw new IllegalStateException("want exactly one master broker, the name server has " + masters
                + " (start the servers with COMPAT_BROKER_B=0)");
        }
        brokerName = masters.firstKey();
        brokerAddr = masters.firstEntry().getValue();
        Stores.log(TOOL, "broker " + brokerName + " at " + brokerAddr);
    }

    private void createTopic(String topic, int queues) throws Exception {
        TopicConfig tc = new TopicConfig(topic);
        tc.setReadQueueNums(queues);
        tc.setWriteQueueNums(queues);
        tc.setPerm(PermName.PERM_READ | PermName.PERM_WRITE);
        admin.createAndUpdateTopicConfig(brokerAddr, tc);
        waitFor("route of " + topic, () -> {
            try {
                var route = admin.examineTopicRouteInfo(topic);
                return route.getQueueDatas().stream().anyMatch(q -> q.getBrokerName().equals(brokerName)
                    && q.getWriteQueueNums() == queues);
            } catch (Exception e) {
                return false;
            }
        });
        Stores.log(TOOL, "created " + topic + " with " + queues + " queues");
    }

    // ---- content ----

    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
        "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
        "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "0", "42", "store",
        "commitlog", "queue", "index"};
    private static final String[] NON_ASCII = {"Grüße aus Zürich", "Ελληνικά κείμενα", "日本語のテキスト",
        "中文消息正文", "Ñandú pingüino", "emoji 😀🚀✓", "Кириллица", "עברית", "한국어 메시지", "ÀÉÎÕÜ ç ß"};

    private String asciiText(int n) {
        StringBuilder sb = new StringBuilder(n + 16);
        while (sb.length() < n) {
            sb.append(WORDS[rnd.nextInt(WORDS.length)]).append(rnd.nextInt(8) == 0 ? ".\n" : " ");
        }
        return sb.substring(0, n);
    }

    private byte[] nonAsciiText(int n) {
        StringBuilder sb = new StringBuilder();
        while (sb.toString().getBytes(StandardCharsets.UTF_8).length < n) {
            sb.append(NON_ASCII[rnd.nextInt(NON_ASCII.length)]).append(' ');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private int bodySize() {
        int r = rnd.nextInt(10);
        if (r < 2) {
            return 1 + rnd.nextInt(64);
        }
        if (r < 5) {
            return 100 + rnd.nextInt(900);
        }
        return 1000 + rnd.nextInt(3000);
    }

    private byte[] body() {
        int n = bodySize();
        switch (rnd.nextInt(3)) {
            case 0:
                return asciiText(n).getBytes(StandardCharsets.UTF_8);
            case 1:
                return nonAsciiText(n);
            default:
                byte[] b = new byte[n];
                rnd.nextBytes(b);
                return b;
        }
    }

    /** A message with deterministic tags, keys, user properties, flag and body (i numbers it). */
    private Sent message(String topic, int i) {
        Message m = new Message(topic, body());
        switch (rnd.nextInt(3)) {
            case 0: m.setTags("TagA"); break;
            case 1: m.setTags("TagB"); break;
            default: break;
        }
        int k = rnd.nextInt(10);
        if (k < 2) {
            // no keys
        } else if (k < 5) {
            m.setKeys("key-" + i);
        } else if (k < 8) {
            m.setKeys("key-" + i + " order-" + (i % 7) + " shared tag-" + (i % 3) + " k5-" + i);
        } else {
            m.setKeys("schlüssel-" + i + " ключ-" + (i % 5));
        }
        Map<String, String> props = new TreeMap<>();
        switch (rnd.nextInt(3)) {
            case 0:
                break;
            case 1:
                props.put("color", new String[] {"red", "green", "blue"}[rnd.nextInt(3)]);
                props.put("seq", Integer.toString(i));
                break;
            default:
                props.put("greeting", "grüß dich — 你好 ✓");
                props.put("emoji", "🚀 ok");
                props.put("city", NON_ASCII[rnd.nextInt(NON_ASCII.length)]);
                break;
        }
        props.forEach(m::putUserProperty);
        if (i % 10 == 3) {
            m.setFlag(7);
        } else if (i % 25 == 11) {
            m.setFlag(-2);
        }
        return new Sent(m, props);
    }

    /** A message and what StoreGen put in it, before the client adds anything. */
    private static final class Sent {
        final Message msg;
        final Map<String, String> userProps;
        final byte[] body;

        Sent(Message msg, Map<String, String> userProps) {
            this.msg = msg;
            this.userProps = userProps;
            this.body = msg.getBody().clone();
        }
    }

    // ---- the sends ----

    private MessageQueue queue(String topic, int id) {
        return new MessageQueue(topic, brokerName, id);
    }

    private void syncSends() throws Exception {
        for (int i = 0; i < 150; i++) {
            int t = i % 5;
            String topic = t < 3 ? TOPIC_A : t == 3 ? TOPIC_B : TOPIC_AUTO;
            Sent s = message(topic, i);
            if (i == 5 || i == 6) {
                s.msg.setKeys("retry-me-" + (i - 4));
            }
            // Queues are chosen here (not by the client's randomly seeded round robin) so that
            // every run fills them alike; StoreTopicA queue 0 gets ~60% of A.
            int q;
            if (topic.equals(TOPIC_A)) {
                q = rnd.nextInt(10) < 6 ? 0 : 1 + rnd.nextInt(3);
            } else {
                q = rnd.nextInt(topic.equals(TOPIC_B) ? 2 : 4);
            }
            record("sync", s, ok(producer.send(s.msg, queue(topic, q))), 0);
        }
        Stores.log(TOOL, "150 sync sends");
    }

    private void compressedSends() throws Exception {
        StringBuilder text = new StringBuilder();
        while (text.length() < 10 * 1024) {
            text.append(asciiText(64)).append(" | ").append(NON_ASCII[rnd.nextInt(NON_ASCII.length)]).append('\n');
        }
        Message big = new Message(TOPIC_A, "TagA", "big-text", text.toString().getBytes(StandardCharsets.UTF_8));
        big.putUserProperty("size", "10k");
        Sent s1 = new Sent(big, Map.of("size", "10k"));
        record("sync-compressed", s1, ok(producer.send(big, queue(TOPIC_A, 1))), 0);

        byte[] bin = new byte[5000];
        rnd.nextBytes(bin);
        Message noise = new Message(TOPIC_B, null, "big-binary", bin);
        Sent s2 = new Sent(noise, Map.of());
        record("sync-compressed", s2, ok(producer.send(noise, queue(TOPIC_B, 1))), 0);
        Stores.log(TOOL, "2 compressed sends");
    }

    private void batchSend() throws Exception {
        List<Sent> batch = new ArrayList<>();
        List<Message> msgs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Sent s = message(TOPIC_A, 1000 + i);
            s.msg.setKeys("batch-" + i);
            batch.add(s);
            msgs.add(s.msg);
        }
        SendResult r = ok(producer.send(msgs, queue(TOPIC_A, 0)));
        String[] ids = r.getMsgId().split(",");
        String[] offIds = r.getOffsetMsgId().split(",");
        if (ids.length != 10 || offIds.length != 10) {
            throw new IllegalStateException("batch result has " + ids.length + " msgIds / " + offIds.length
                + " offsetMsgIds: " + r);
        }
        for (int i = 0; i < 10; i++) {
            if (!ids[i].equals(batch.get(i).msg.getProperty("UNIQ_KEY"))) {
                throw new IllegalStateException("batch msgId " + i + " " + ids[i] + " != UNIQ_KEY "
                    + batch.get(i).msg.getProperty("UNIQ_KEY"));
            }
            record("batch", batch.get(i), r, i, offIds[i]);
        }
        Stores.log(TOOL, "a batch of 10 at " + TOPIC_A + "/0 offset " + r.getQueueOffset());
    }

    private void orderedSends() throws Exception {
        MessageQueueSelector byOrder = (mqs, msg, arg) -> mqs.get((Integer) arg % mqs.size());
        for (int step = 0; step < 4; step++) {
            for (int order = 0; order < 3; order++) {
                Sent s = message(TOPIC_B, 2000 + order * 10 + step);
                s.msg.setKeys("order-" + order + "-step-" + step);
                record("ordered", s, ok(producer.send(s.msg, byOrder, order)), 0);
            }
        }
        Stores.log(TOOL, "12 ordered sends");
    }

    private void onewaySends() throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Sent s = message(TOPIC_A, 3000 + i);
            s.msg.setKeys("oneway-" + (i + 1));
            producer.sendOneway(s.msg, queue(TOPIC_A, 3));
            record("oneway", s, null, 0);
            sent.add(s);
        }
        for (Sent s : sent) {
            waitStored(TOPIC_A, s.msg.getKeys(), s.msg.getProperty("UNIQ_KEY"));
        }
        Stores.log(TOOL, "3 oneway sends, all found in the index");
    }

    private void delaySends() throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int level = 1; level <= 2; level++) {
            for (int i = 0; i < 2; i++) {
                Sent s = message(TOPIC_A, 4000 + level * 10 + i);
                s.msg.setKeys("delay-" + level + "-" + i);
                s.msg.setDelayTimeLevel(level);
                SendResult r = ok(producer.send(s.msg, queue(TOPIC_A, 2 + i)));
                recordLine("delay", s, r, 0, r.getOffsetMsgId(), level);
                sent.add(s);
            }
        }
        for (Sent s : sent) {
            waitStored(TOPIC_A, s.msg.getKeys(), s.msg.getProperty("UNIQ_KEY"));
        }
        Stores.log(TOOL, "4 delayed sends (levels 1, 2), all delivered to " + TOPIC_A);
    }

    private void transactions() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        Set<String> checkCommitted = ConcurrentHashMap.newKeySet();
        TransactionMQProducer tp = new TransactionMQProducer(TXN_GROUP);
        tp.setNamesrvAddr(namesrv);
        tp.setInstanceName("storegen-txn");
        tp.setSendMsgTimeout(15_000);
        tp.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return (LocalTransactionState) arg;
            }

            /**
             * Commits the txn-check message at its first check only: a second COMMIT for a half the
             * broker checks again before it has seen the first commit's op message would put a second
             * copy in the topic. Rolled-back ones roll back again (idempotent); already committed
             * ones answer UNKNOW (their commit was sent; the broker stops once it sees the op).
             */
            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                checks.incrementAndGet();
                String keys = String.valueOf(msg.getKeys());
                if (keys.startsWith("txn-check")) {
                    return checkCommitted.add(keys) ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.UNKNOW;
                }
                return keys.startsWith("txn-rollback") ? LocalTransactionState.ROLLBACK_MESSAGE : LocalTransactionState.UNKNOW;
            }
        });
        tp.start();
        try {
            List<Sent> committed = new ArrayList<>();
            Object[][] plan = {
                {"txn-commit", LocalTransactionState.COMMIT_MESSAGE, 3},
                {"txn-rollback", LocalTransactionState.ROLLBACK_MESSAGE, 2},
                {"txn-check-commit", LocalTransactionState.UNKNOW, 1},
            };
            int n = 0;
            for (Object[] p : plan) {
                for (int i = 0; i < (Integer) p[2]; i++) {
                    Sent s = message(TOPIC_B, 5000 + n++);
                    String kind = (String) p[0];
                    s.msg.setKeys(kind + "-" + (i + 1));
                    TransactionSendResult r = tp.sendMessageInTransaction(s.msg, p[1]);
                    ok(r);
                    if (r.getLocalTransactionState() != p[1]) {
                        throw new IllegalStateException(kind + ": local state " + r.getLocalTransactionState());
                    }
                    record(kind, s, r, 0);
                    if (p[1] != LocalTransactionState.ROLLBACK_MESSAGE) {
                        committed.add(s);
                    }
                }
            }
            for (Sent s : committed) {
                waitStored(TOPIC_B, s.msg.getKeys(), s.msg.getProperty("UNIQ_KEY"));
            }
            // The producer stays up until the broker's check service has walked past every half
            // message (its progress is group CID_RMQ_SYS_TRANS's offset on the half topic): with the
            // producer gone, unresolved halves are re-put on every check round.
            waitFor("the transaction check service to settle", () -> {
                try {
                    // examineConsumeStats needs a %RETRY% route, which this system group has not:
                    // ask the broker directly through the admin's own client instance.
                    var api = MQClientManager.getInstance().getOrCreateMQClientInstance(admin).getMQClientAPIImpl();
                    var stats = api.getConsumeStats(brokerAddr, "CID_RMQ_SYS_TRANS", "RMQ_SYS_TRANS_HALF_TOPIC", 5000);
                    boolean half = false;
                    for (var e : stats.getOffsetTable().entrySet()) {
                        if (e.getKey().getTopic().equals("RMQ_SYS_TRANS_HALF_TOPIC")) {
                            half = true;
                            if (e.getValue().getConsumerOffset() < e.getValue().getBrokerOffset()) {
                                return false;
                            }
                        }
                    }
                    return half;
                } catch (Exception e) {
                    return false;
                }
            });
            Stores.log(TOOL, "transactions: 3 committed, 2 rolled back, 1 committed by check-back ("
                + checks.get() + " check(s))");
        } finally {
            tp.shutdown();
        }
    }

    private void consumeWithRetries() throws Exception {
        Set<String> consumed = ConcurrentHashMap.newKeySet();
        Map<String, Integer> retried = new ConcurrentHashMap<>();
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(CONSUMER_GROUP);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName("storegen-consumer");
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setConsumeMessageBatchMaxSize(1);
        c.setPersistConsumerOffsetInterval(1000);
        c.subscribe(TOPIC_A, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                String keys = m.getKeys();
                if (keys != null && keys.startsWith("retry-me") && m.getReconsumeTimes() == 0) {
                    retried.putIfAbsent(keys, 0);
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
                if (keys != null && keys.startsWith("retry-me")) {
                    retried.put(keys, m.getReconsumeTimes());
                }
                consumed.add(m.getProperty("UNIQ_KEY"));
                consumed.add("keys:" + keys);
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        try {
            waitFor("every " + TOPIC_A + " message consumed and both retry-me messages redelivered", () ->
                consumed.containsAll(sentToA) && retried.size() == 2 && !retried.containsValue(0), () -> {
                    Set<String> missing = new java.util.TreeSet<>(sentToA);
                    missing.removeAll(consumed);
                    return "(consumed " + consumed.size() + ", missing " + missing + ", retry-me " + retried + ")";
                });
            waitFor("the broker holds the committed offsets of " + CONSUMER_GROUP, () -> {
                try {
                    var stats = admin.examineConsumeStats(CONSUMER_GROUP);
                    boolean retryQueue = false;
                    for (var e : stats.getOffsetTable().entrySet()) {
                        if (e.getValue().getConsumerOffset() != e.getValue().getBrokerOffset()) {
                            return false;
                        }
                        retryQueue |= e.getKey().getTopic().startsWith("%RETRY%");
                    }
                    return retryQueue && !stats.getOffsetTable().isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
            Stores.log(TOOL, CONSUMER_GROUP + " consumed " + consumed.size() + " messages; redelivered " + retried);
        } finally {
            c.shutdown();
        }
    }

    // ---- results ----

    private static <T extends SendResult> T ok(T r) {
        if (r == null || r.getSendStatus() != SendStatus.SEND_OK) {
            throw new IllegalStateException("send not OK: " + r);
        }
        return r;
    }

    private void record(String kind, Sent s, SendResult r, int index) throws Exception {
        record(kind, s, r, index, r == null ? null : r.getOffsetMsgId());
    }

    private void record(String kind, Sent s, SendResult r, int index, String offsetMsgId) throws Exception {
        recordLine(kind, s, r, index, offsetMsgId, 0);
    }

    private void recordLine(String kind, Sent s, SendResult r, int index, String offsetMsgId, int delayLevel)
        throws Exception {
        Map<String, Object> o = Json.obj();
        String uniq = s.msg.getProperty("UNIQ_KEY");
        if (uniq == null) {
            throw new IllegalStateException(kind + " message has no UNIQ_KEY after send");
        }
        o.put("kind", kind);
        o.put("topic", s.msg.getTopic());
        o.put("msgId", uniq);
        o.put("queueId", r == null ? null : r.getMessageQueue().getQueueId());
        o.put("queueOffset", r == null ? null : r.getQueueOffset() + index);
        o.put("offsetMsgId", offsetMsgId);
        o.put("tags", s.msg.getTags());
        o.put("keys", s.msg.getKeys());
        o.put("flag", s.msg.getFlag());
        o.put("body", Base64.getEncoder().encodeToString(s.body));
        o.put("userProperties", new LinkedHashMap<String, Object>(s.userProps));
        if (delayLevel > 0) {
            o.put("delayLevel", delayLevel);
        }
        out.write(Json.write(o));
        out.write('\n');
        out.flush();
        lines++;
        if (s.msg.getTopic().equals(TOPIC_A) && !kind.equals("txn-rollback")) {
            // 5.x stores a batch's own UNIQ_KEY after each message's (readers keep the last one),
            // so batch messages are known by their key batch-<i> instead.
            sentToA.add(kind.equals("batch") ? "keys:" + s.msg.getKeys() : uniq);
        }
    }

    // ---- waiting ----

    /** Polls the broker's index until topic holds a message keyed key whose UNIQ_KEY is uniq. */
    private void waitStored(String topic, String key, String uniq) throws InterruptedException {
        waitFor(topic + " message " + key + " (" + uniq + ")", () -> {
            try {
                QueryResult qr = admin.queryMessage(topic, key, 32, 0, Long.MAX_VALUE);
                for (MessageExt m : qr.getMessageList()) {
                    if (topic.equals(m.getTopic()) && uniq.equals(m.getProperty("UNIQ_KEY"))) {
                        return true;
                    }
                }
                return false;
            } catch (Exception e) {
                return false;
            }
        });
    }

    private static void waitFor(String what, BooleanSupplier cond) throws InterruptedException {
        waitFor(what, cond, () -> "");
    }

    /** Polls cond every 200 ms for up to WAIT_MS; status() says what is missing in the logs. */
    private static void waitFor(String what, BooleanSupplier cond, Supplier<String> status)
        throws InterruptedException {
        long start = System.currentTimeMillis();
        long next = start + 10_000;
        while (!cond.getAsBoolean()) {
            long now = System.currentTimeMillis();
            if (now - start > WAIT_MS) {
                throw new IllegalStateException("gave up after " + WAIT_MS / 1000 + " s waiting for " + what
                    + " " + status.get());
            }
            if (now > next) {
                Stores.log(TOOL, "still waiting for " + what + " " + status.get());
                next = now + 10_000;
            }
            Thread.sleep(200);
        }
    }
}
