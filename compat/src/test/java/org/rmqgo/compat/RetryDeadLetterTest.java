package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiFunction;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Consumer retry and dead letters: a concurrently listener that answers RECONSUME_LATER sends the
 * message back (CONSUMER_SEND_MSG_BACK); the broker stores it for the group's retry topic
 * %RETRY%group through the delay levels (level 3 + reconsume times unless the listener chose one),
 * and the group gets it again with getReconsumeTimes() one higher. Once the message has been
 * consumed maxReconsumeTimes + 1 times the broker writes it to the dead letter topic %DLQ%group
 * instead, where a consumer can read it.
 */
class RetryDeadLetterTest extends MessagingFixture {
    /** One delivery to the retrying listener: when it arrived and when the listener answered. */
    private record Attempt(MessageExt msg, long arrivedAt, long answeredAt) {
    }

    /**
     * A listener (batch size 1) that notes each delivery and answers what answer says for the
     * message and the number of its earlier deliveries.
     */
    private static MessageListenerConcurrently listener(ConcurrentLinkedQueue<Attempt> attempts,
        BiFunction<MessageExt, ConsumeConcurrentlyContext, ConsumeConcurrentlyStatus> answer) {
        return (msgs, ctx) -> {
            long arrived = System.currentTimeMillis();
            ConsumeConcurrentlyStatus status = answer.apply(msgs.get(0), ctx);
            for (MessageExt m : msgs) {
                attempts.add(new Attempt(m, arrived, System.currentTimeMillis()));
            }
            return status;
        };
    }

    private DefaultMQPushConsumer consumer(String group, String topic, MessageListenerConcurrently l,
        int maxReconsumeTimes) throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // The broker creates the group's retry topic at its first heartbeat, which comes after the
        // consumer has asked for the routes of its subscriptions at start; the consumer then learns
        // the retry topic's route at its next route poll: every 30 s by default, here every second.
        c.setPollNameServerInterval(1000);
        if (maxReconsumeTimes >= 0) {
            c.setMaxReconsumeTimes(maxReconsumeTimes);
        }
        c.subscribe(topic, "*");
        c.registerMessageListener(l);
        c.start();
        closeLater(c::shutdown);
        return c;
    }

    private static Message message(String topic, String body, String key) {
        Message m = new Message(topic, "TagRetry", body.getBytes(StandardCharsets.UTF_8));
        m.setKeys(List.of(key, "retry-key"));
        m.putUserProperty("u_kind", "retry");
        m.putUserProperty("u_body", body);
        return m;
    }

    private SendResult send(Message m) throws Exception {
        SendResult r = producer.send(m);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        return r;
    }

    private static List<Attempt> attemptsOf(ConcurrentLinkedQueue<Attempt> attempts, String body) {
        return attempts.stream().filter(a -> Received.body(a.msg()).equals(body)).toList();
    }

    /** The message as sent, whichever delivery it is. */
    private static void assertIntact(Message sent, SendResult r, MessageExt got, String what) {
        assertArrayEquals(sent.getBody(), got.getBody(), "body of " + what);
        assertEquals(sent.getTags(), got.getTags(), "tags of " + what);
        assertEquals(sent.getKeys(), got.getKeys(), "keys of " + what);
        assertEquals(sent.getUserProperty("u_kind"), got.getUserProperty("u_kind"), "user property of " + what);
        assertEquals(sent.getUserProperty("u_body"), got.getUserProperty("u_body"), "user property of " + what);
        assertEquals(r.getMsgId(), got.getMsgId(), "msgId (UNIQ_KEY) of " + what);
    }

    /**
     * What the broker adds when it sends a message back: RETRY_TOPIC, the topic it was first sent
     * to, and ORIGIN_MESSAGE_ID, the offsetMsgId of the original record. The retry went through
     * SCHEDULE_TOPIC_XXXX at delay level delay, which leaves DELAY=delay, REAL_TOPIC=%RETRY%group
     * and REAL_QID=0 (the retry topic has one queue) in the record (see DelayMessageTest); a dead
     * letter keeps those of its last retry but DELAY=0.
     */
    private static void assertRetryProperties(String topic, String group, SendResult r, MessageExt got, int delay,
        String what) {
        assertEquals(topic, got.getProperty("RETRY_TOPIC"), "RETRY_TOPIC of " + what + ": " + got.getProperties());
        assertEquals(r.getOffsetMsgId(), got.getProperty("ORIGIN_MESSAGE_ID"), "ORIGIN_MESSAGE_ID of " + what);
        assertEquals(Integer.toString(delay), got.getProperty("DELAY"), "DELAY of " + what);
        assertEquals("%RETRY%" + group, got.getProperty("REAL_TOPIC"), "REAL_TOPIC of " + what);
        assertEquals("0", got.getProperty("REAL_QID"), "REAL_QID of " + what);
    }

    /**
     * A listener answers RECONSUME_LATER with setDelayLevelWhenNextConsume(1) (1 s) and
     * setMaxReconsumeTimes(2): the message comes three times, with reconsume times 0, 1, 2, each
     * time as sent (body, tags, keys, user properties, msgId) under its own topic, a redelivery not
     * before 1 s after the listener answered, then lands in %DLQ%group with reconsume times 3, where
     * a consumer of another group reads it intact. It does not come a fourth time; a message the
     * listener accepts comes once; another group of the topic gets each message once.
     */
    @Test
    @Timeout(120)
    void reconsumeLaterRedeliversTheMessageIntactUntilMaxReconsumeTimesThenItIsADeadLetter() throws Exception {
        String topic = Clients.newTopic("retry", 2);
        String group = Clients.unique("cg_retry");
        ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
        consumer(group, topic, listener(attempts, (m, ctx) -> {
            if (Received.body(m).startsWith("doomed")) {
                ctx.setDelayLevelWhenNextConsume(1);
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        }), 2);
        Received bystander = new Received();
        consumer(Clients.unique("cg_bystander"), topic, bystander.concurrently("bystander"), -1);

        String doomedBody = "doomed of " + topic;
        Message doomed = message(topic, doomedBody, "doomed-key");
        SendResult doomedResult = send(doomed);
        String fineBody = "fine of " + topic;
        send(message(topic, fineBody, "fine-key"));

        Eventually.eventually(Duration.ofSeconds(60), "the doomed message is consumed three times", () -> {
            assertEquals(3, attemptsOf(attempts, doomedBody).size(), "deliveries so far");
            return null;
        });
        List<Attempt> tries = attemptsOf(attempts, doomedBody);
        for (int i = 0; i < tries.size(); i++) {
            MessageExt m = tries.get(i).msg();
            String what = "delivery " + (i + 1);
            assertEquals(i, m.getReconsumeTimes(), "reconsume times of " + what);
            assertEquals(topic, m.getTopic(), "topic of " + what);
            assertIntact(doomed, doomedResult, m, what);
            if (i > 0) {
                assertRetryProperties(topic, group, doomedResult, m, 1, what);
                long early = tries.get(i - 1).answeredAt() + 1_000 - tries.get(i).arrivedAt();
                assertTrue(early <= 0, what + " arrived " + early + " ms before 1 s after the listener answered");
            }
            System.out.println("RetryDeadLetterTest: " + what + ", reconsume times " + m.getReconsumeTimes()
                + ", properties " + m.getProperties());
        }

        String dlq = "%DLQ%" + group;
        Eventually.eventually("the name server routes " + dlq, () -> Clients.admin().examineTopicRouteInfo(dlq));
        Received dead = new Received();
        consumer(Clients.unique("cg_dlq"), dlq, dead.concurrently("dlq reader"), -1);
        dead.awaitAll(List.of(doomedBody));
        dead.assertOnly(List.of(doomedBody));
        MessageExt letter = dead.firstByBody().get(doomedBody);
        assertEquals(dlq, letter.getTopic(), "topic of the dead letter");
        assertEquals(3, letter.getReconsumeTimes(), "reconsume times of the dead letter");
        assertIntact(doomed, doomedResult, letter, "the dead letter");
        assertRetryProperties(topic, group, doomedResult, letter, 0, "the dead letter");
        System.out.println("RetryDeadLetterTest: dead letter in " + dlq + " queue " + letter.getQueueId()
            + ", properties " + letter.getProperties());

        assertEquals(3, attemptsOf(attempts, doomedBody).size(), "deliveries of the doomed message");
        Eventually.eventually("the accepted message delivered once", () -> {
            assertEquals(1, attemptsOf(attempts, fineBody).size(), "deliveries of the accepted message");
            return null;
        });
        bystander.awaitAll(List.of(doomedBody, fineBody));
        assertEquals(2, bystander.deliveries().size(), "deliveries to the other group: " + bystander.bodies());
    }

    /**
     * Without setDelayLevelWhenNextConsume the broker picks delay level 3 + reconsume times: the first
     * retry of a message comes back not before 10 s after the listener answered RECONSUME_LATER, with
     * reconsume times 1, as sent, with RETRY_TOPIC and ORIGIN_MESSAGE_ID.
     */
    @Test
    @Timeout(120)
    void theFirstRetryByDefaultComesBackAfterTenSeconds() throws Exception {
        String topic = Clients.newTopic("retry_default", 2);
        ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
        String group = Clients.unique("cg_retry");
        consumer(group, topic, listener(attempts, (m, ctx) -> m.getReconsumeTimes() == 0
            ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS), -1);
        String body = "retried once of " + topic;
        Message sent = message(topic, body, "once-key");
        SendResult r = send(sent);
        Eventually.eventually(Duration.ofSeconds(60), "the message is consumed twice", () -> {
            assertEquals(2, attemptsOf(attempts, body).size(), "deliveries so far");
            return null;
        });
        List<Attempt> tries = attemptsOf(attempts, body);
        MessageExt retry = tries.get(1).msg();
        assertEquals(0, tries.get(0).msg().getReconsumeTimes(), "reconsume times of the first delivery");
        assertEquals(1, retry.getReconsumeTimes(), "reconsume times of the retry");
        long early = tries.get(0).answeredAt() + 10_000 - tries.get(1).arrivedAt();
        assertTrue(early <= 0, "the retry arrived " + early + " ms before 10 s after RECONSUME_LATER");
        assertEquals(topic, retry.getTopic(), "topic of the retry");
        assertIntact(sent, r, retry, "the retry");
        assertRetryProperties(topic, group, r, retry, 3, "the retry");
        System.out.println("RetryDeadLetterTest: default retry arrived " + (tries.get(1).arrivedAt()
            - tries.get(0).answeredAt()) + " ms after RECONSUME_LATER, properties " + retry.getProperties());
    }
}
