package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DefaultMQProducer's ways of sending (sync, async, oneway, batch, to a selected queue) and what a
 * message carries (tags, keys, user properties, a body the client compresses), each checked at a
 * push consumer: every message arrives, intact, and nothing else does.
 */
class ProducerSendTest extends MessagingFixture {
    /** Starts a concurrently consuming push consumer of a new group on topic, from the first offset. */
    private Received consume(String topic, String expression) throws Exception {
        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, expression);
        c.registerMessageListener(received.concurrently("c1"));
        c.start();
        closeLater(c::shutdown);
        return received;
    }

    private static Message message(String topic, String tags, String keys, String body) {
        return new Message(topic, tags, keys, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Asserts that got carries what sent carried: topic, tags, keys, body and user properties. */
    private static void assertSame(Message sent, MessageExt got, String what) {
        assertEquals(sent.getTopic(), got.getTopic(), what + ": topic");
        assertEquals(sent.getTags(), got.getTags(), what + ": tags");
        assertEquals(sent.getKeys(), got.getKeys(), what + ": keys");
        assertArrayEquals(sent.getBody(), got.getBody(), what + ": body");
        for (var e : sent.getProperties().entrySet()) {
            if (e.getKey().startsWith("u_")) {
                assertEquals(e.getValue(), got.getUserProperty(e.getKey()), what + ": user property " + e.getKey());
            }
        }
    }

    @Test
    void syncSendKeepsTagsKeysAndUserPropertiesAndTheSendResultNamesTheStoredMessage() throws Exception {
        String topic = Clients.newTopic("sync", 4);
        Map<String, Message> sent = new LinkedHashMap<>();
        Map<String, SendResult> results = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            String body = "sync " + i + " of " + topic;
            Message m = message(topic, i % 2 == 0 ? "TagA" : "TagB", "order-" + i + " user-" + (i % 3), body);
            m.putUserProperty("u_index", Integer.toString(i));
            m.putUserProperty("u_city", "北京 São Paulo");
            SendResult r = producer.send(m);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), "send " + i + ": " + r);
            assertEquals(Env.brokerName(), r.getMessageQueue().getBrokerName(), "send " + i + " went to");
            assertNotNull(r.getMsgId(), "msgId of send " + i);
            assertNotNull(r.getOffsetMsgId(), "offsetMsgId of send " + i);
            sent.put(body, m);
            results.put(body, r);
        }

        Received received = consume(topic, "*");
        received.awaitAll(sent.keySet());
        received.assertOnly(sent.keySet());
        for (var e : received.firstByBody().entrySet()) {
            Message m = sent.get(e.getKey());
            SendResult r = results.get(e.getKey());
            MessageExt got = e.getValue();
            assertSame(m, got, e.getKey());
            assertEquals(Set.of("order-" + got.getUserProperty("u_index"), "user-"
                + Integer.parseInt(got.getUserProperty("u_index")) % 3), Set.copyOf(Arrays.asList(got.getKeys()
                .split(" "))), "keys of " + e.getKey());
            assertEquals(r.getMsgId(), got.getMsgId(), "msgId (the client's unique key) of " + e.getKey());
            assertEquals(r.getMessageQueue().getQueueId(), got.getQueueId(), "queue of " + e.getKey());
            assertEquals(r.getQueueOffset(), got.getQueueOffset(), "queue offset of " + e.getKey());
            var id = MessageDecoder.decodeMessageId(r.getOffsetMsgId());
            assertEquals(id.getOffset(), got.getCommitLogOffset(), "offsetMsgId of " + e.getKey()
                + " holds the commitlog offset");
            assertEquals(Env.brokerAddr(), id.getAddress().toString().replaceFirst("^[^/]*/", ""),
                "offsetMsgId of " + e.getKey() + " holds the broker's address");
        }
    }

    @Test
    void messagesAreFoundByKeyAndByMsgId() throws Exception {
        String topic = Clients.newTopic("bykey", 4);
        String key = Clients.unique("key");
        long begin = System.currentTimeMillis() - 60_000;
        Map<String, SendResult> byBody = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            String body = "keyed " + i + " of " + topic;
            SendResult r = producer.send(message(topic, "TagA", key + " other-" + i, body));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            byBody.put(body, r);
        }
        producer.send(message(topic, "TagA", "unrelated", "not keyed of " + topic));
        var admin = Clients.admin();
        Eventually.eventually("the index finds the 3 messages of key " + key, () -> {
            var found = admin.queryMessage(topic, key, 32, begin, System.currentTimeMillis() + 60_000);
            Set<String> bodies = new java.util.HashSet<>();
            for (MessageExt m : found.getMessageList()) {
                assertEquals(topic, m.getTopic(), "topic of a message found by key");
                bodies.add(Received.body(m));
            }
            assertEquals(byBody.keySet(), bodies, "messages found by key " + key);
            return null;
        });
        for (var e : byBody.entrySet()) {
            MessageExt m = admin.viewMessage(topic, e.getValue().getMsgId());
            assertEquals(e.getKey(), Received.body(m), "viewMessage by msgId " + e.getValue().getMsgId());
        }
    }

    @Test
    void asyncSendCallsBackOnceWithSendOkAndEveryMessageArrives() throws Exception {
        String topic = Clients.newTopic("async", 4);
        int n = 30;
        Map<String, Message> sent = new LinkedHashMap<>();
        Map<String, SendResult> ok = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CountDownLatch callbacks = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            String body = "async " + i + " of " + topic;
            Message m = message(topic, "TagA", "async-" + i, body);
            m.putUserProperty("u_index", Integer.toString(i));
            sent.put(body, m);
            producer.send(m, new SendCallback() {
                @Override
                public void onSuccess(SendResult r) {
                    if (r.getSendStatus() != SendStatus.SEND_OK) {
                        problems.add(body + ": " + r);
                    }
                    if (ok.put(body, r) != null) {
                        problems.add(body + ": second callback");
                    }
                    callbacks.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    problems.add(body + ": " + e);
                    callbacks.countDown();
                }
            });
        }
        assertTrue(callbacks.await(60, TimeUnit.SECONDS), (n - callbacks.getCount()) + " of " + n + " callbacks");
        assertTrue(problems.isEmpty(), "callbacks: " + problems);
        assertEquals(sent.keySet(), ok.keySet(), "bodies with a SEND_OK callback");

        Received received = consume(topic, "*");
        received.awaitAll(sent.keySet());
        received.assertOnly(sent.keySet());
        for (var e : received.firstByBody().entrySet()) {
            assertSame(sent.get(e.getKey()), e.getValue(), e.getKey());
            assertEquals(ok.get(e.getKey()).getMsgId(), e.getValue().getMsgId(), "msgId of " + e.getKey());
        }
    }

    @Test
    void onewaySendsAllArrive() throws Exception {
        String topic = Clients.newTopic("oneway", 4);
        Map<String, Message> sent = new LinkedHashMap<>();
        for (int i = 0; i < 30; i++) {
            String body = "oneway " + i + " of " + topic;
            Message m = message(topic, "TagA", "oneway-" + i, body);
            m.putUserProperty("u_index", Integer.toString(i));
            producer.sendOneway(m);
            sent.put(body, m);
        }
        Received received = consume(topic, "*");
        received.awaitAll(sent.keySet());
        received.assertOnly(sent.keySet());
        for (var e : received.firstByBody().entrySet()) {
            assertSame(sent.get(e.getKey()), e.getValue(), e.getKey());
        }
    }

    @Test
    void batchSendStoresTheListOnOneQueueInListOrder() throws Exception {
        String topic = Clients.newTopic("batch", 4);
        List<Message> batch = new ArrayList<>();
        Map<String, Message> sent = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            String body = "batch " + i + " of " + topic;
            Message m = message(topic, i % 2 == 0 ? "TagA" : "TagB", "batch-" + i, body);
            m.putUserProperty("u_index", Integer.toString(i));
            batch.add(m);
            sent.put(body, m);
        }
        SendResult r = producer.send(batch);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        List<String> ids = Arrays.asList(r.getMsgId().split(","));
        assertEquals(16, Set.copyOf(ids).size(), "a batch's msgId lists the 16 unique ids: " + r.getMsgId());
        List<String> offsetIds = Arrays.asList(r.getOffsetMsgId().split(","));
        assertEquals(16, offsetIds.size(), "a batch's offsetMsgId lists 16 ids: " + r.getOffsetMsgId());

        Received received = consume(topic, "*");
        received.awaitAll(sent.keySet());
        received.assertOnly(sent.keySet());
        Map<String, MessageExt> got = received.firstByBody();
        int i = 0;
        for (var e : sent.entrySet()) {
            MessageExt m = got.get(e.getKey());

            assertSame(e.getValue(), m, e.getKey());
            if (!Line.BATCH_HAS_ITS_OWN_UNIQ_KEY) {
                assertEquals(ids.get(i), m.getMsgId(), "msgId of batch message " + i);
            }
            assertEquals(MessageDecoder.decodeMessageId(offsetIds.get(i)).getOffset(), m.getCommitLogOffset(),
                "the send result's offsetMsgId " + i + " holds the commitlog offset of batch message " + i);
            assertEquals(r.getMessageQueue().getQueueId(), m.getQueueId(), "queue of batch message " + i);
            assertEquals(r.getQueueOffset() + i, m.getQueueOffset(), "queue offset of batch message " + i
                + " (the send result has the first)");
            i++;
        }
        if (Line.BATCH_HAS_ITS_OWN_UNIQ_KEY) {
            // The broker appends the batch's own properties to every message's, and the last
            // UNIQ_KEY wins: every message of the batch is consumed with the batch's msgId.
            Set<String> consumedIds = new java.util.HashSet<>();
            got.values().forEach(m -> consumedIds.add(m.getMsgId()));
            assertEquals(1, consumedIds.size(), "msgIds consumed from one batch: " + consumedIds);
            assertFalse(ids.contains(consumedIds.iterator().next()), "the batch's msgId is none of its messages'");
        }
    }

    @Test
    void selectorSendKeepsEveryKeyOnItsQueueInSendOrder() throws Exception {
        String topic = Clients.newTopic("selector", 4);
        int keys = 6;
        int perKey = 10;
        Map<String, Message> sent = new LinkedHashMap<>();
        Map<String, Integer> queueOfKey = new HashMap<>();
        for (int seq = 0; seq < perKey; seq++) {
            for (int k = 0; k < keys; k++) {
                String key = "order-" + k;
                String body = key + " #" + seq + " of " + topic;
                Message m = message(topic, "TagA", key, body);
                m.putUserProperty("u_seq", Integer.toString(seq));
                SendResult r = producer.send(m, (mqs, msg, arg) -> mqs.get(Math.floorMod(arg.hashCode(), mqs.size())),
                    key);
                assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
                Integer q = queueOfKey.putIfAbsent(key, r.getMessageQueue().getQueueId());
                if (q != null) {
                    assertEquals(q.intValue(), r.getMessageQueue().getQueueId(), "the selector sends " + key
                        + " to one queue");
                }
                sent.put(body, m);
            }
        }

        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener(received.orderly("c1"));
        c.start();
        closeLater(c::shutdown);
        received.awaitAll(sent.keySet());
        received.assertOnly(sent.keySet());
        received.assertNoViolations();

        Map<String, List<Integer>> seqsByKey = new HashMap<>();
        for (var d : received.deliveries()) {
            MessageExt m = d.msg();
            assertSame(sent.get(d.body()), m, d.body());
            assertEquals(queueOfKey.get(m.getKeys()).intValue(), m.getQueueId(), "queue of " + d.body());
            seqsByKey.computeIfAbsent(m.getKeys(), k -> new ArrayList<>())
                .add(Integer.parseInt(m.getUserProperty("u_seq")));
        }
        List<Integer> inOrder = new ArrayList<>();
        for (int seq = 0; seq < perKey; seq++) {
            inOrder.add(seq);
        }
        for (int k = 0; k < keys; k++) {
            assertEquals(inOrder, seqsByKey.get("order-" + k), "order-" + k + " consumed in send order, once each");
        }
    }

    @Test
    void bodiesOf4KiBAndMoreAreCompressedByTheClientAndArriveAsSent() throws Exception {
        String topic = Clients.newTopic("big", 4);
        Random random = new Random(42);
        Map<String, byte[]> bodies = new LinkedHashMap<>();
        for (int size : new int[] {4095, 4096, 4097, 5000, 64 * 1024, 1024 * 1024}) {
            byte[] text = new byte[size];
            for (int j = 0; j < size; j++) {
                text[j] = (byte) ('a' + (j * 7 + j / 100) % 26); // compresses well
            }
            bodies.put("text-" + size, text);
        }
        byte[] noise = new byte[256 * 1024]; // does not compress; the client compresses it all the same
        random.nextBytes(noise);
        bodies.put("noise-" + noise.length, noise);

        Map<String, SendResult> results = new HashMap<>();
        for (var e : bodies.entrySet()) {
            Message m = new Message(topic, "TagA", e.getKey(), e.getValue());
            m.putUserProperty("u_size", Integer.toString(e.getValue().length));
            SendResult r = producer.send(m);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), e.getKey() + ": " + r);
            results.put(e.getKey(), r);
        }

        Map<String, MessageExt> got = new ConcurrentHashMap<>();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener((org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently) (msgs,
            ctx) -> {
            for (MessageExt m : msgs) {
                got.putIfAbsent(m.getKeys(), m);
            }
            return org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        closeLater(c::shutdown);
        Eventually.eventually(Duration.ofSeconds(90), "all " + bodies.size() + " big messages arrive", () -> {
            assertEquals(bodies.keySet(), got.keySet(), "keys received");
            return null;
        });
        for (var e : bodies.entrySet()) {
            MessageExt m = got.get(e.getKey());
            assertArrayEquals(e.getValue(), m.getBody(), e.getKey() + ": body as sent");
            assertEquals(Integer.toString(e.getValue().length), m.getUserProperty("u_size"), e.getKey());
            assertEquals(results.get(e.getKey()).getMsgId(), m.getMsgId(), e.getKey() + ": msgId");
        }
        // The broker stores what the client sent: a compressed body is much smaller than the original.
        MessageExt big = got.get("text-" + 1024 * 1024);
        assertTrue(big.getStoreSize() < 1024 * 1024 / 10, "stored size " + big.getStoreSize()
            + " of the compressible 1 MiB body: the client sends it compressed");
        // compressMsgBodyOverHowmuch (4096) is inclusive: a 4096-byte body is compressed, 4095 is not.
        MessageExt small = got.get("text-4095");
        assertFalse(small.getStoreSize() < 4095, "stored size " + small.getStoreSize()
            + " of the 4095-byte body: sent uncompressed");
        MessageExt edge = got.get("text-4096");
        assertTrue(edge.getStoreSize() < 4096, "stored size " + edge.getStoreSize()
            + " of the 4096-byte body: sent compressed");
    }
}
