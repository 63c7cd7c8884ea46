package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delayed messages (Message.setDelayTimeLevel): the broker parks a message of level n in queue n-1
 * of SCHEDULE_TOPIC_XXXX and writes it to its real topic and queue once its time has come. Java's
 * levels (messageDelayLevel) are 1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h; a
 * level above 18 counts as 18.
 */
class DelayMessageTest extends MessagingFixture {
    static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    /** Delay of levels 1, 2, 3 in ms. */
    private static final Map<Integer, Long> DELAY_MS = Map.of(1, 1_000L, 2, 5_000L, 3, 10_000L);

    /** Starts a push consumer of a new group on topic that notes when each body first arrived. */
    private DefaultMQPushConsumer consumer(String topic, Received into, Map<String, Long> arrivedAt)
        throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            long now = System.currentTimeMillis();
            for (MessageExt m : msgs) {
                arrivedAt.putIfAbsent(Received.body(m), now);
            }
            into.add("c1", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        closeLater(c::shutdown);
        return c;
    }

    private static Message message(String topic, String body, String key, int level) {
        Message m = new Message(topic, "TagDelay", body.getBytes(StandardCharsets.UTF_8));
        m.setKeys(List.of(key, "delay-key"));
        m.putUserProperty("u_level", Integer.toString(level));
        if (level > 0) {
            m.setDelayTimeLevel(level);
        }
        return m;
    }

    /** A send and the wall clock around it. */
    private record Sent(Message msg, SendResult result, long sentAt, long returnedAt) {
    }

    private Sent send(Message m) throws Exception {
        long sentAt = System.currentTimeMillis();
        SendResult r = producer.send(m);
        long returnedAt = System.currentTimeMillis();
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        return new Sent(m, r, sentAt, returnedAt);
    }

    /**
     * Levels 1, 2 and 3 (1 s, 5 s, 10 s): each message arrives, not before the time it was sent
     * plus its delay, as it was sent (body, tags, keys, user properties, msgId, queue) and born
     * when it was sent. What arrives is a new record, written to the real topic when the time came:
     * it lies after the parked one in the commitlog, and still carries the DELAY, REAL_TOPIC and
     * REAL_QID properties the broker parked it with (as the Java broker writes it).
     */
    @Test
    @Timeout(120)
    void levelsOneTwoAndThreeAreDeliveredIntactAndNotBeforeTheirTime() throws Exception {
        String topic = Clients.newTopic("delay", 4);
        Received received = new Received();
        Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        consumer(topic, received, arrivedAt);

        Map<String, Sent> sent = new LinkedHashMap<>();
        for (int level : List.of(3, 2, 1)) {
            String body = "delay level " + level + " of " + topic;
            sent.put(body, send(message(topic, body, "delay-" + level, level)));
        }
        received.awaitAll(sent.keySet());
        received.assertOnly(sent.keySet());

        Map<String, MessageExt> got = received.firstByBody();
        for (var e : sent.entrySet()) {
            Sent s = e.getValue();
            MessageExt m = got.get(e.getKey());
            int level = Integer.parseInt(s.msg().getUserProperty("u_level"));
            long delay = DELAY_MS.get(level);
            long early = s.sentAt() + delay - arrivedAt.get(e.getKey());
            assertTrue(early <= 0, "level " + level + " arrived " + early + " ms before its time");
            assertTrue(m.getStoreTimestamp() >= s.sentAt() + delay, "level " + level + " was written to "
                + topic + " " + (s.sentAt() + delay - m.getStoreTimestamp()) + " ms before its time");
            assertTrue(m.getBornTimestamp() >= s.sentAt() && m.getBornTimestamp() <= s.returnedAt(),
                "born timestamp of level " + level + " is when it was sent");
            assertEquals(topic, m.getTopic(), "topic of level " + level);
            assertArrayEquals(s.msg().getBody(), m.getBody(), "body of level " + level);
            assertEquals(s.msg().getTags(), m.getTags(), "tags of level " + level);
            assertEquals(s.msg().getKeys(), m.getKeys(), "keys of level " + level);
            assertEquals(s.msg().getUserProperty("u_level"), m.getUserProperty("u_level"), "user property");
            assertEquals(s.result().getMsgId(), m.getMsgId(), "msgId (UNIQ_KEY) of level " + level);
            assertEquals(s.result().getMessageQueue().getQueueId(), m.getQueueId(), "queue of level " + level);
            long parkedAt = MessageDecoder.decodeMessageId(s.result().getOffsetMsgId()).getOffset();
            assertTrue(m.getCommitLogOffset() > parkedAt, "level " + level + " is delivered from a new record ("
                + m.getCommitLogOffset() + ") after the parked one (" + parkedAt + ")");
            // The Java broker clears DELAY, REAL_TOPIC and REAL_QID from the properties map of the
            // record it writes to the real topic only after it has serialised them: the record keeps
            // them, and so does what a consumer gets.
            assertEquals(Integer.toString(level), m.getProperty("DELAY"), "DELAY of level " + level + ": "
                + m.getProperties());
            assertEquals(topic, m.getProperty("REAL_TOPIC"), "REAL_TOPIC of level " + level);
            assertEquals(Integer.toString(m.getQueueId()), m.getProperty("REAL_QID"), "REAL_QID of level " + level);
            System.out.println("DelayMessageTest: level " + level + " arrived " + (arrivedAt.get(e.getKey())
                - s.sentAt()) + " ms after the send, properties " + m.getProperties());
        }
    }

    /**
     * Level 99 counts as the highest level, 18 (2 h): the broker parks the message in queue 17 of
     * SCHEDULE_TOPIC_XXXX with DELAY=18 and the real topic and queue as properties (what viewMessage
     * shows for the offsetMsgId the send returned, and what the queue's max offset in topicStatus
     * counts), and a consumer does not get it while a level 1 message sent after it arrives.
     */
    @Test
    @Timeout(120)
    void aLevelAboveTheHighestIsParkedAtTheHighestLevelAndNotDelivered() throws Exception {
        String topic = Clients.newTopic("delay_max", 4);
        Received received = new Received();
        consumer(topic, received, new ConcurrentHashMap<>());
        long before = scheduleQueue17MaxOffset();

        String farBody = "delay level 99 of " + topic;
        Sent far = send(message(topic, farBody, "delay-99", 99));
        MessageExt parked = Clients.admin().viewMessage(SCHEDULE_TOPIC, far.result().getOffsetMsgId());
        assertEquals(SCHEDULE_TOPIC, parked.getTopic(), "topic the level 99 message is stored under");
        assertEquals(17, parked.getQueueId(), "queue of SCHEDULE_TOPIC_XXXX it is parked in");
        assertEquals("18", parked.getProperty("DELAY"), "DELAY property: " + parked.getProperties());
        assertEquals(topic, parked.getProperty("REAL_TOPIC"), "REAL_TOPIC property");
        assertEquals(Integer.toString(far.result().getMessageQueue().getQueueId()), parked.getProperty("REAL_QID"),
            "REAL_QID property");
        assertEquals(farBody, Received.body(parked), "body of the parked message");
        assertEquals(far.result().getMsgId(), parked.getProperty("UNIQ_KEY"), "UNIQ_KEY of the parked message");
        System.out.println("DelayMessageTest: level 99 parked with properties " + parked.getProperties());
        Eventually.eventually("queue 17 of " + SCHEDULE_TOPIC + " counts the level 99 message", () -> {
            long after = scheduleQueue17MaxOffset();
            assertTrue(after > before, "max offset " + after + ", before the send " + before);
            return null;
        });

        List<String> near = new ArrayList<>();
        for (int level : List.of(1, 0)) {
            String body = "delay level " + level + " after level 99 of " + topic;
            send(message(topic, body, "delay-near-" + level, level));
            near.add(body);
        }
        received.awaitAll(near);
        received.assertOnly(near);
    }

    /** The max offset of queue 17 of SCHEDULE_TOPIC_XXXX on broker-a (mqadmin topicStatus). */
    private static long scheduleQueue17MaxOffset() throws Exception {
        var stats = Clients.admin().examineTopicStats(SCHEDULE_TOPIC);
        for (var e : stats.getOffsetTable().entrySet()) {
            if (e.getKey().getBrokerName().equals(Env.brokerName()) && e.getKey().getQueueId() == 17) {
                return e.getValue().getMaxOffset();
            }
        }
        throw new AssertionError("topicStatus of " + SCHEDULE_TOPIC + " has no queue 17 on " + Env.brokerName()
            + ": " + stats.getOffsetTable().keySet());
    }
}
