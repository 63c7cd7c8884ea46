package org.rmqgo.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.AckResult;
import org.apache.rocketmq.client.consumer.AckStatus;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PopResult;
import org.apache.rocketmq.client.consumer.PopStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.message.MessageRequestMode;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.AckMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ChangeInvisibleTimeRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ExtraInfoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * POP consumption over the remoting protocol with the 5.3.3 client (docs/reference/pop.md): a push
 * consumer whose (topic, group) the broker sets to POP (SET_MESSAGE_REQUEST_MODE, as mqadmin
 * setConsumeMode) and which asks QUERY_ASSIGNMENT (clientRebalance=false) pops, acks and, on
 * RECONSUME_LATER, changes the invisible time; the client's own POP_MESSAGE, ACK_MESSAGE,
 * BATCH_ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME calls (MQClientAPIImpl, the requests the push
 * consumer sends) show the revive of un-acked messages into the POP retry topic
 * %RETRY%group_topic, the codes for bad input, orderly pop's blocked queue and long polling.
 *
 * "Does not come back" is shown with a sentinel, never with a wait: a message popped with the ones
 * acked and left un-acked itself comes back from the same checkpoint, or from a later one of the same
 * revive queue, after them; when it is back, the acked ones would have been back too.
 */
class PopTest extends PopFixture {
    // ---------------------------------------------------------------------------------------------
    // 1. A POP-mode push consumer

    @Test
    void aPopModePushConsumerGetsEveryMessageOnceAndAcksIt() throws Exception {
        String topic = Clients.newTopic("pop", 4);
        String group = Clients.unique("GID_pop");
        admin.setMessageRequestMode(Env.brokerAddr(), topic, group, MessageRequestMode.POP, 0, 15_000);
        Answers answers = new Answers();
        Received received = new Received();
        DefaultMQPushConsumer consumer = popConsumer(group, topic, answers);
        consumer.registerMessageListener(received.concurrently("c1"));
        consumer.start();
        try {
            awaitPopping(consumer, topic);
            Map<String, String> sent = sendKeyed(topic, 40, 4, "pop");
            received.awaitAll(sent.values());
            received.assertOnly(sent.values());
            Map<String, Long> counts = received.counts();
            Map<String, Long> dups = counts.entrySet().stream().filter(e -> e.getValue() != 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            assertTrue(dups.isEmpty(), "delivered more than once: " + dups);
            for (Received.Delivery d : received.deliveries()) {
                MessageExt m = d.msg();
                assertEquals(topic, m.getTopic(), "topic of " + m.getKeys());
                assertEquals(sent.get(m.getKeys()), d.body(), "body of key " + m.getKeys());
                assertEquals(0, m.getReconsumeTimes(), "reconsumeTimes of " + m.getKeys());
                String[] h = handle(m);
                assertEquals(NORMAL, ExtraInfoUtil.getRetry(h), "retry flag of " + m.getProperty(MessageConst.PROPERTY_POP_CK));
                assertEquals(Env.brokerName(), ExtraInfoUtil.getBrokerName(h), "broker of the handle");
                assertEquals(m.getQueueId(), ExtraInfoUtil.getQueueId(h), "queue of the handle");
                assertEquals(m.getQueueOffset(), ExtraInfoUtil.getQueueOffset(h), "offset of the handle");
                assertEquals(60_000L, ExtraInfoUtil.getInvisibleTime(h), "invisible time of the handle");
            }
            // Every message acked with the handle it came with, and the broker said SUCCESS.
            Eventually.eventually(Duration.ofSeconds(60), "an ACK answered SUCCESS for every message", () -> {
                List<String> missing = new ArrayList<>();
                for (Received.Delivery d : received.deliveries()) {
                    String ck = d.msg().getProperty(MessageConst.PROPERTY_POP_CK);
                    if (!answers.answered(RequestCode.ACK_MESSAGE, ck, ResponseCode.SUCCESS)) {
                        missing.add(d.msg().getKeys());
                    }
                }
                assertTrue(missing.isEmpty(), "not acked: " + missing);
                return null;
            });
            assertEquals(List.of(), answers.of(RequestCode.CHANGE_MESSAGE_INVISIBLETIME), "no invisible time changed");
            Clients.awaitCommittedToEnd(group, topic);
        } finally {
            consumer.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 2. RECONSUME_LATER: the invisible time is changed, the message comes back once

    @Test
    @Timeout(300)
    void aFailedMessageComesBackOnceWithReconsumeTimesOne() throws Exception {
        String topic = Clients.newTopic("popfail", 2);
        String group = Clients.unique("GID_popfail");
        admin.setMessageRequestMode(Env.brokerAddr(), topic, group, MessageRequestMode.POP, 0, 15_000);
        Answers answers = new Answers();
        Received received = new Received();
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = popConsumer(group, topic, answers);
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            received.add("c1", msgs);
            for (MessageExt m : msgs) {
                if (failedOnce.add(m.getKeys())) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            awaitPopping(consumer, topic);
            Map<String, String> sent = sendKeyed(topic, 8, 2, "popfail");
            Eventually.eventually(Duration.ofSeconds(150), "every message delivered twice", () -> {
                Map<String, Long> counts = received.counts();
                List<String> fewer = sent.values().stream().filter(b -> counts.getOrDefault(b, 0L) < 2).toList();
                assertTrue(fewer.isEmpty(), "delivered fewer than twice: " + fewer);
                return null;
            });
            received.assertOnly(sent.values());
            Map<String, List<MessageExt>> byKey = new TreeMap<>();
            for (Received.Delivery d : received.deliveries()) {
                byKey.computeIfAbsent(d.msg().getKeys(), k -> new ArrayList<>()).add(d.msg());
            }
            assertEquals(sent.keySet(), byKey.keySet(), "keys delivered");
            for (Map.Entry<String, List<MessageExt>> e : byKey.entrySet()) {
                List<MessageExt> ds = e.getValue();
                assertEquals(2, ds.size(), "deliveries of " + e.getKey());
                MessageExt first = ds.get(0);
                MessageExt again = ds.get(1);
                assertEquals(0, first.getReconsumeTimes(), "reconsumeTimes of the first delivery of " + e.getKey());
                assertEquals(1, again.getReconsumeTimes(), "reconsumeTimes of the redelivery of " + e.getKey());
                assertEquals(first.getMsgId(), again.getMsgId(), "msgId of the redelivery of " + e.getKey());
                assertEquals(topic, again.getTopic(), "topic of the redelivery of " + e.getKey());
                assertEquals(NORMAL, ExtraInfoUtil.getRetry(handle(first)), "first handle of " + e.getKey());
                assertEquals(RETRY, ExtraInfoUtil.getRetry(handle(again)),
                    "the redelivery of " + e.getKey() + " comes from the POP retry topic");
                String ck1 = first.getProperty(MessageConst.PROPERTY_POP_CK);
                // ConsumeMessagePopConcurrentlyService: first failure -> level 0 of the POP delay table, 10 s.
                assertTrue(answers.answered(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, ck1, 10_000L, ResponseCode.SUCCESS),
                    "the first delivery of " + e.getKey() + " was made invisible for 10 s: " + answers.of(ck1));
                assertFalse(answers.answered(RequestCode.ACK_MESSAGE, ck1, ResponseCode.SUCCESS),
                    "the failed delivery of " + e.getKey() + " was acked");
            }
            Eventually.eventually(Duration.ofSeconds(60), "every redelivery acked", () -> {
                for (List<MessageExt> ds : byKey.values()) {
                    String ck2 = ds.get(1).getProperty(MessageConst.PROPERTY_POP_CK);
                    assertTrue(answers.answered(RequestCode.ACK_MESSAGE, ck2, ResponseCode.SUCCESS), "not acked: " + ck2);
                }
                return null;
            });
            // Checked once every redelivery is acked: no message came a third time meanwhile.
            Map<String, Long> counts = received.counts();
            for (String body : sent.values()) {
                assertEquals(2L, counts.get(body), "deliveries of " + body);
            }
            Clients.awaitCommittedToEnd(group, topic);
        } finally {
            consumer.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 3. Un-acked messages are revived into the POP retry topic

    @Test
    @Timeout(300)
    void unackedMessagesComeBackFromThePopRetryTopicUntilAcked() throws Exception {
        String topic = Clients.newTopic("poprev", 1);
        String group = Clients.unique("GID_poprev");
        String retryTopic = "%RETRY%" + group + "_" + topic;
        Map<String, String> sent = sendKeyed(topic, 6, 1, "poprev");
        Clients.awaitQueued(topic, 6);

        // Popped and never acked, invisible for 3 s.
        Map<String, MessageExt> first = popUntil(topic, group, 6, 3_000);
        for (MessageExt m : first.values()) {
            assertEquals(NORMAL, ExtraInfoUtil.getRetry(handle(m)), "first pop's handle of " + m.getKeys());
            assertEquals(0, m.getReconsumeTimes(), "first pop's reconsumeTimes of " + m.getKeys());
        }
        assertEquals(new TreeSet<>(sent.keySet()), keys(first.values()), "keys of the first pop");

        // The broker revives them into %RETRY%<group>_<topic>, a topic of one queue.
        Eventually.eventually(REVIVE, "the six are in " + retryTopic, () -> {
            var stats = admin.examineTopicStats(Env.brokerAddr(), retryTopic).getOffsetTable();
            assertEquals(1, stats.size(), "queues of " + retryTopic + ": " + stats.keySet());
            var w = stats.values().iterator().next();
            assertEquals(6, w.getMaxOffset() - w.getMinOffset(), "messages in " + retryTopic);
            return null;
        });

        Map<String, MessageExt> second = popUntil(topic, group, 6, 5_000);
        assertEquals(first.keySet(), second.keySet(), "msgIds (UNIQ_KEY) that came back");
        for (MessageExt m : second.values()) {
            MessageExt was = first.get(m.getMsgId());
            assertEquals(was.getKeys(), m.getKeys(), "keys of " + m.getMsgId());
            assertEquals(Received.body(was), Received.body(m), "body of " + m.getKeys());
            assertEquals(m.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX),
                was.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX), "UNIQ_KEY of " + m.getKeys());
            assertEquals(topic, m.getTopic(), "topic of the revived " + m.getKeys());
            assertEquals(1, m.getReconsumeTimes(), "reconsumeTimes of the revived " + m.getKeys());
            assertEquals(RETRY, ExtraInfoUtil.getRetry(handle(m)), "handle of the revived " + m.getKeys());
        }

        // Ack all but one message per checkpoint: those come back, the acked ones never do.
        Set<String> sentinels = sentinels(second.values());
        for (MessageExt m : second.values()) {
            if (!sentinels.contains(m.getMsgId())) {
                RemotingCommand r = ack(m, group);
                assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of " + m.getKeys() + ": " + r.getRemark());
            }
        }
        Map<String, MessageExt> third = popUntil(topic, group, sentinels.size(), 60_000);
        assertEquals(sentinels, third.keySet(), "what came back after the acks (the acked ones must not)");
        for (MessageExt m : third.values()) {
            assertEquals(2, m.getReconsumeTimes(), "reconsumeTimes of " + m.getKeys() + " revived twice");
            RemotingCommand r = ack(m, group);
            assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of " + m.getKeys() + ": " + r.getRemark());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 4. ACK, BATCH_ACK, CHANGE_MESSAGE_INVISIBLETIME over the client API, and the codes for bad input

    @Test
    @Timeout(300)
    void ackBatchAckAndChangeInvisibleTimeOverTheClientApi() throws Exception {
        String topic = Clients.newTopic("popapi", 2);
        String group = Clients.unique("GID_popapi");
        String unknown = Clients.unique("popapi_none");
        Map<String, String> sent = new LinkedHashMap<>();
        for (String k : List.of("a", "b", "m", "s")) {
            sent.put(k, sendOne(topic, 0, k, "popapi " + k + " of " + topic));
        }
        Clients.awaitQueued(topic, 4);

        // POP_MESSAGE: codes for bad input.
        assertPopFails(ResponseCode.TOPIC_NOT_EXIST, pop(unknown, group, -1, 32, 60_000, 1_000, false, null));
        assertPopFails(ResponseCode.INVALID_PARAMETER, pop(topic, group, 2, 32, 60_000, 1_000, false, null));
        assertPopFails(ResponseCode.INVALID_PARAMETER, pop(topic, group, 0, 33, 60_000, 1_000, false, null));

        // One pop, one checkpoint, one revive queue for the four.
        List<MessageExt> popped = found(pop(topic, group, 0, 32, 60_000, 1_000, false, null), "pop of queue 0");
        Map<String, MessageExt> byKey = new HashMap<>();
        for (MessageExt m : popped) {
            byKey.put(m.getKeys(), m);
            assertEquals(0, m.getQueueId(), "queue of " + m.getKeys());
            assertEquals(NORMAL, ExtraInfoUtil.getRetry(handle(m)), "retry flag of " + m.getKeys());
        }
        assertEquals(sent.keySet(), byKey.keySet(), "keys popped");
        MessageExt a = byKey.get("a");

        // ACK_MESSAGE: codes for bad input (pop.md 2.3).
        RemotingCommand r = ack(unknown, group, 0, a.getQueueOffset(), ck(a));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, r.getCode(), "ack on an unknown topic: " + r.getRemark());
        r = ack(topic, group, 2, a.getQueueOffset(), ck(a));
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, r.getCode(), "ack of queue 2 of 2: " + r.getRemark());
        r = ack(topic, group, 0, 5, ck(a));
        assertEquals(ResponseCode.NO_MESSAGE, r.getCode(), "ack of offset 5 of a queue of 4: " + r.getRemark());
        // CHANGE_MESSAGE_INVISIBLETIME: the same checks, but the max offset itself is refused (pop.md 2.5).
        r = changeRaw(unknown, group, 0, a.getQueueOffset(), ck(a), 3_000);
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, r.getCode(), "change on an unknown topic: " + r.getRemark());
        r = changeRaw(topic, group, 2, a.getQueueOffset(), ck(a), 3_000);
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, r.getCode(), "change of queue 2 of 2: " + r.getRemark());
        r = changeRaw(topic, group, 0, 4, ck(a), 3_000);
        assertEquals(ResponseCode.NO_MESSAGE, r.getCode(), "change of offset 4 of a queue of 4: " + r.getRemark());
        // BATCH_ACK_MESSAGE without a body.
        r = raw.invokeSync(Env.brokerAddr(), RemotingCommand.createRequestCommand(RequestCode.BATCH_ACK_MESSAGE, null), 15_000);
        assertEquals(ResponseCode.NO_MESSAGE, r.getCode(), "batch ack without a body: " + r.getRemark());

        // Every message made visible again in 3 s: a new handle each.
        Map<String, String> renewed = new LinkedHashMap<>();
        for (String k : sent.keySet()) {
            MessageExt m = byKey.get(k);
            String old = ck(m);
            AckResult res = change(m, group, 3_000);
            assertEquals(AckStatus.OK, res.getStatus(), "change invisible time of " + k);
            String fresh = res.getExtraInfo();
            assertNotNull(fresh, "new handle of " + k);
            String[] h = ExtraInfoUtil.split(fresh);
            String[] o = ExtraInfoUtil.split(old);
            assertEquals(m.getQueueOffset(), ExtraInfoUtil.getCkQueueOffset(h), "checkpoint offset of the new handle of " + k);
            assertEquals(m.getQueueOffset(), ExtraInfoUtil.getQueueOffset(h), "offset of the new handle of " + k);
            assertEquals(3_000L, ExtraInfoUtil.getInvisibleTime(h), "invisible time of the new handle of " + k);
            assertEquals(ExtraInfoUtil.getReviveQid(o), ExtraInfoUtil.getReviveQid(h), "revive queue of the new handle of " + k);
            assertEquals(NORMAL, ExtraInfoUtil.getRetry(h), "retry flag of the new handle of " + k);
            assertTrue(ExtraInfoUtil.getPopTime(h) >= ExtraInfoUtil.getPopTime(o), "pop time of the new handle of " + k);
            renewed.put(k, fresh);
        }
        // a: ACK with its new handle; b and m: one BATCH_ACK with theirs; s: left alone, the sentinel.
        r = ack(topic, group, 0, a.getQueueOffset(), renewed.get("a"));
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of a with its new handle: " + r.getRemark());
        AckResult batch = batchAck(topic, group, List.of(renewed.get("b"), renewed.get("m")));
        assertEquals(AckStatus.OK, batch.getStatus(), "batch ack of b and m");

        Map<String, MessageExt> back = popUntil(topic, group, 1, 60_000);
        MessageExt s = back.values().iterator().next();
        assertEquals("s", s.getKeys(), "what came back after the new invisible time (a, b, m were acked): " + keys(back.values()));
        assertEquals(byKey.get("s").getMsgId(), s.getMsgId(), "msgId of s");
        assertEquals(1, s.getReconsumeTimes(), "reconsumeTimes of s");
        assertEquals(RETRY, ExtraInfoUtil.getRetry(handle(s)), "s comes back from the POP retry topic");
        r = ack(s, group);
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of s from the retry topic: " + r.getRemark());
    }

    // ---------------------------------------------------------------------------------------------
    // 5. Orderly pop (the 5.3.3 push consumer has no working orderly POP: raw pops with order=true)

    @Test
    @Timeout(300)
    void anOrderlyPopBlocksItsQueueUntilAckedOrInvisibleTimeOut() throws Exception {
        String topic = Clients.newTopic("popord", 2);
        String group = Clients.unique("GID_popord");
        List<String> q0 = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            q0.add(sendOne(topic, 0, "o" + i, "popord q0 #" + i + " of " + topic));
        }
        for (int i = 0; i < 2; i++) {
            sendOne(topic, 1, "p" + i, "popord q1 #" + i + " of " + topic);
        }
        Clients.awaitQueued(topic, 6);

        List<MessageExt> first = found(pop(topic, group, 0, 2, 60_000, 1_000, true, "attempt-1"), "first orderly pop of queue 0");
        assertEquals(List.of("o0", "o1"), keyList(first), "first orderly pop of queue 0, in order");
        for (MessageExt m : first) {
            assertTrue(ExtraInfoUtil.isOrder(handle(m)), "an orderly handle: " + ck(m));
            assertEquals(0, m.getReconsumeTimes(), "reconsumeTimes of " + m.getKeys());
        }
        // Blocked for any other attempt while o0 and o1 are in flight.
        assertNotFound(pop(topic, group, 0, 32, 60_000, 1_000, true, "attempt-2"), "queue 0 while o0, o1 are un-acked");
        // The other queue is not.
        List<MessageExt> other = found(pop(topic, group, 1, 32, 60_000, 1_000, true, "attempt-2"), "orderly pop of queue 1");
        assertEquals(List.of("p0", "p1"), keyList(other), "queue 1, in order");
        // The same attempt again (a client retrying its pop) gets the same messages.
        List<MessageExt> again = found(pop(topic, group, 0, 2, 60_000, 1_000, true, "attempt-1"), "attempt-1 again");
        assertEquals(msgIds(first), msgIds(again), "attempt-1 again gets o0, o1 again");

        RemotingCommand r = ack(again.get(0), group);
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of o0: " + r.getRemark());
        assertNotFound(pop(topic, group, 0, 32, 60_000, 1_000, true, "attempt-3"), "queue 0 while o1 is un-acked");
        r = ack(again.get(1), group);
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of o1: " + r.getRemark());
        for (MessageExt m : other) {
            r = ack(m, group);
            assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of " + m.getKeys() + ": " + r.getRemark());
        }

        // Unblocked: the rest of queue 0, in order; left un-acked, invisible for 3 s.
        List<MessageExt> rest = found(pop(topic, group, 0, 32, 3_000, 1_000, true, "attempt-4"), "queue 0 after the acks");
        assertEquals(List.of("o2", "o3"), keyList(rest), "the rest of queue 0, in order");
        // After the invisible time, the same two again, in order, counted as a second delivery.
        List<MessageExt> redelivered = Eventually.eventually(REVIVE, "o2, o3 popped again after 3 s", () ->
            found(pop(topic, group, 0, 32, 60_000, 1_000, true, "attempt-5"), "queue 0 after the invisible time"));
        assertEquals(List.of("o2", "o3"), keyList(redelivered), "o2, o3 again, in order");
        assertEquals(msgIds(rest), msgIds(redelivered), "msgIds of the redelivery");
        for (MessageExt m : redelivered) {
            assertEquals(1, m.getReconsumeTimes(), "reconsumeTimes of the redelivered " + m.getKeys());
            r = ack(m, group);
            assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of " + m.getKeys() + ": " + r.getRemark());
        }
        assertNotFound(pop(topic, group, 0, 32, 60_000, 1_000, true, "attempt-6"), "queue 0 once all is acked");
        Eventually.eventually("the group's offsets at the end of both queues", () -> {
            Map<MessageQueue, Long> offsets = Clients.committedOffsets(group, topic);
            Map<Integer, Long> byQueue = new TreeMap<>();
            offsets.forEach((mq, o) -> byQueue.put(mq.getQueueId(), o));
            assertEquals(Map.of(0, 4L, 1, 2L), byQueue, "consumer offsets");
            return null;
        });
    }

    // ---------------------------------------------------------------------------------------------
    // 6. Long polling

    @Test
    void aHeldPopIsAnsweredWhenAMessageArrives() throws Exception {
        String topic = Clients.newTopic("poplp", 2);
        String group = Clients.unique("GID_poplp");
        CompletableFuture<PopResult> held = pop(topic, group, -1, 32, 60_000, 10_000, false, null);
        Eventually.eventually(Duration.ofSeconds(8), "the broker holds the pop (POLLING_INFO)", () -> {
            assertEquals(1, pollingNum(topic, group, -1), "pops held on " + topic + "@" + group + "@-1");
            return null;
        });
        assertFalse(held.isDone(), "the pop was answered before a message was sent: " + (held.isDone() ? held.get() : null));
        String body = sendOne(topic, 1, "lp", "long polled on " + topic);
        PopResult res = held.get(30, TimeUnit.SECONDS);
        assertEquals(PopStatus.FOUND, res.getPopStatus(), "the held pop's answer");
        assertEquals(1, res.getMsgFoundList().size(), "messages: " + res.getMsgFoundList());
        MessageExt m = res.getMsgFoundList().get(0);
        assertEquals(body, Received.body(m), "the message sent");
        assertEquals("lp", m.getKeys());
        RemotingCommand r = ack(m, group);
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack: " + r.getRemark());
    }

    // ---------------------------------------------------------------------------------------------
    // helpers

    /** A push consumer of group on topic, every tag, from the first offset, with server-side rebalance. */
    private DefaultMQPushConsumer popConsumer(String group, String topic, RPCHook hook) throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group, hook);
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(Clients.unique("consumer"));
        c.setClientRebalance(false);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setPopInvisibleTime(60_000);
        c.subscribe(topic, "*");
        return c;
    }

    /** Waits until the broker has assigned the consumer the topic in POP mode (it pops, it does not pull). */
    private void awaitPopping(DefaultMQPushConsumer c, String topic) throws Exception {
        Eventually.eventually("the broker assigns " + topic + " to " + c.getConsumerGroup() + " in POP mode", () -> {
            var impl = c.getDefaultMQPushConsumerImpl().getRebalanceImpl();
            Set<MessageQueue> pop = impl.getPopProcessQueueTable().keySet().stream()
                .filter(mq -> mq.getTopic().equals(topic)).collect(Collectors.toSet());
            assertFalse(pop.isEmpty(), "no POP queue of " + topic + "; pull queues: " + Clients.heldQueues(c, topic));
            assertEquals(Set.of(), Clients.heldQueues(c, topic), "queues pulled");
            return pop;
        });
    }

    /** Sends n messages over the first `queues` queues in turn; key -> body. */
    /**
     * What a client sent and the broker answered, for ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME:
     * an RPCHook on the push consumer sees its asynchronous acks and invisible-time changes.
     */
    static final class Answers implements RPCHook {
        record Answer(int request, String extraInfo, long invisibleTime, int code) {
        }

        private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();

        @Override
        public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
        }

        @Override
        public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
            if (response == null) {
                return;
            }
            CommandCustomHeader h = request.readCustomHeader();
            if (h instanceof AckMessageRequestHeader a) {
                answers.add(new Answer(request.getCode(), a.getExtraInfo(), 0, response.getCode()));
            } else if (h instanceof ChangeInvisibleTimeRequestHeader c) {
                answers.add(new Answer(request.getCode(), c.getExtraInfo(), c.getInvisibleTime(), response.getCode()));
            }
        }

        boolean answered(int request, String extraInfo, int code) {
            return answers.stream().anyMatch(a -> a.request() == request && a.extraInfo().equals(extraInfo) && a.code() == code);
        }

        boolean answered(int request, String extraInfo, long invisibleTime, int code) {
            return answers.stream().anyMatch(a -> a.request() == request && a.extraInfo().equals(extraInfo)
                && a.invisibleTime() == invisibleTime && a.code() == code);
        }

        List<Answer> of(int request) {
            return answers.stream().filter(a -> a.request() == request).toList();
        }

        List<Answer> of(String extraInfo) {
            return answers.stream().filter(a -> extraInfo.equals(a.extraInfo())).toList();
        }
    }
}
