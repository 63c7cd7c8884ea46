package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.rmqgo.compat.GrpcClients.closing;
import static org.rmqgo.compat.GrpcClients.message;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.java.message.MessageViewImpl;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.compat.GrpcClients.Delivery;
import org.rmqgo.testsupport.Eventually;

/**
 * The SimpleConsumer's receive / changeInvisibleDuration / ack cycle through the proxy inside
 * broker-a (ref-servers.sh PROXY=1): a changed invisible duration holds the message back that long,
 * an ack with the receipt handle the change returned ends it, a message never acked comes back with
 * its delivery attempt increased, and after the group's retryMaxTimes + 1 attempts the next receive
 * moves it to %DLQ%group instead.
 *
 * "Does not come back" is shown with a sentinel, never with a wait (as in PopTest): a message left
 * un-acked with a longer invisible duration, set after the ack, comes back after the acked one
 * would have.
 */
@Tag("grpc")
class GrpcSimpleConsumerTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    @Timeout(240)
    void aChangedInvisibleDurationHoldsTheMessageBackAndAnAckWithTheNewHandleEndsIt() throws Exception {
        String topic = GrpcClients.newTopic("grpc_invisible", 1, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_invisible");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        String acked = producer.send(message(topic, "acked of " + topic, "TagA", "inv-acked").build())
            .getMessageId().toString();
        String sentinel = producer.send(message(topic, "sentinel of " + topic, "TagA", "inv-sentinel").build())
            .getMessageId().toString();
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));

        // 1. Received (invisible 10 s), then made invisible for 20 s from now: not back before that.
        Map<String, Long> changedAt = new HashMap<>();
        GrpcClients.receiveUntil(consumer, GrpcClients.MIN_INVISIBLE, Duration.ofSeconds(60), "both messages",
            d -> {
                assertEquals(1, d.msg().getDeliveryAttempt(), "first delivery attempt of " + d.body());
                if (changedAt.containsKey(d.id())) {
                    fail("came back before its invisible duration was over: " + d.body());
                }
                String before = handle(d);
                consumer.changeInvisibleDuration(d.msg(), Duration.ofSeconds(20));
                changedAt.put(d.id(), System.currentTimeMillis());
                assertNotEquals(before, handle(d), "the receipt handle after changeInvisibleDuration");
            }, ds -> changedAt.keySet().containsAll(List.of(acked, sentinel)));

        // 2. Back with delivery attempt 2, not before the 20 s. The acked message gets a new invisible
        // duration of 10 s and is acked with the handle that change returned; then the sentinel is made
        // invisible for 15 s and left: it comes back (attempt 3) 5 s after the acked one would have.
        Map<String, Integer> attempts = new HashMap<>();
        List<Delivery> back = GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(90),
            "both messages back", d -> {
                int attempt = d.msg().getDeliveryAttempt();
                Integer was = attempts.put(d.id(), attempt);
                if (d.id().equals(acked) && was != null) {
                    fail("the message acked with its new receipt handle came back: " + d.body() + ", attempt " + attempt);
                }
                if (was == null) {
                    assertEquals(2, attempt, "delivery attempt of " + d.body() + " back after the change");
                    long early = changedAt.get(d.id()) + 20_000 - d.at();
                    assertTrue(early <= 1000, d.body() + " came back " + early + " ms before its 20 s were over");
                    System.out.printf("GrpcSimpleConsumerTest: %s back %d ms after its 20 s%n", d.body(), -early);
                    String before = handle(d);
                    consumer.changeInvisibleDuration(d.msg(), d.id().equals(acked) ? GrpcClients.MIN_INVISIBLE
                        : GrpcClients.MIN_INVISIBLE.plusSeconds(5));
                    assertNotEquals(before, handle(d), "the receipt handle after changeInvisibleDuration");
                    if (d.id().equals(acked)) {
                        consumer.ack(d.msg());
                    }
                } else {
                    assertEquals(sentinel, d.id(), "came a third time: " + d.body());
                    assertEquals(3, attempt, "delivery attempt of the sentinel, back again");
                    consumer.ack(d.msg());
                }
            }, ds -> attempts.containsKey(acked) && attempts.getOrDefault(sentinel, 0) == 3);
        assertEquals(Map.of(acked, 2, sentinel, 3), attempts, "last delivery attempts: " + GrpcClients.describe(back));
    }

    @Test
    @Timeout(300)
    void aMessageNeverAckedComesBackUntilItsMaxAttemptsThenLandsInTheDeadLetterQueue() throws Exception {
        String topic = GrpcClients.newTopic("grpc_dlq", 1, "NORMAL");
        // retryMaxTimes 2: the proxy gives the client max attempts 3
        String group = GrpcClients.newGroup("GID_grpc_dlq", false, 2);
        String dlq = "%DLQ%" + group;
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        String body = "never acked of " + topic;
        String id = producer.send(message(topic, body, "TagD", "dlq-1").addProperty("u", "kept").build())
            .getMessageId().toString();
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));

        List<Integer> attempts = new ArrayList<>();
        GrpcClients.receiveUntil(consumer, GrpcClients.MIN_INVISIBLE, Duration.ofSeconds(180),
            "three deliveries, then the message in " + dlq, d -> {
                assertEquals(id, d.id(), "message id of a delivery");
                assertEquals(body, d.body());
                assertEquals("kept", d.msg().getProperties().get("u"), "property u");
                attempts.add(d.msg().getDeliveryAttempt());
                if (attempts.size() > 3) {
                    fail("delivered more than the 3 attempts of the group: " + attempts);
                }
            }, ds -> ds.size() == 3 && queued(dlq) > 0);
        assertEquals(List.of(1, 2, 3), attempts, "delivery attempts");

        DefaultMQPullConsumer reader = new DefaultMQPullConsumer(Clients.unique("dlq_reader"));
        reader.setNamesrvAddr(Env.namesrvAddr());
        reader.setInstanceName(Clients.unique("dlq_reader"));
        reader.start();
        cleanups.add(reader::shutdown);
        MessageExt dead = Eventually.eventually("the message read from " + dlq, () -> {
            PullResult r = reader.pull(new MessageQueue(dlq, Env.brokerName(), 0), "*", 0, 32);
            assertEquals(PullStatus.FOUND, r.getPullStatus(), "pull of " + dlq);
            assertEquals(1, r.getMsgFoundList().size(), "messages in " + dlq);
            return r.getMsgFoundList().get(0);
        });
        assertEquals(dlq, dead.getTopic());
        assertEquals(id, dead.getMsgId(), "message id (UNIQ_KEY) of the dead letter");
        assertEquals(body, new String(dead.getBody(), StandardCharsets.UTF_8));
        assertEquals("dlq-1", dead.getKeys());
        assertEquals("TagD", dead.getTags());
        assertEquals("kept", dead.getUserProperty("u"));
        System.out.println("GrpcSimpleConsumerTest: dead letter, reconsume times " + dead.getReconsumeTimes()
            + ", properties " + dead.getProperties());
    }

    /** Messages in the queues of topic, 0 while the broker has no such topic. */
    private static long queued(String topic) {
        try {
            long sum = 0;
            for (var w : Clients.admin().examineTopicStats(Env.brokerAddr(), topic).getOffsetTable().values()) {
                sum += w.getMaxOffset() - w.getMinOffset();
            }
            return sum;
        } catch (Exception e) {
            return 0;
        }
    }

    private static String handle(Delivery d) {
        return ((MessageViewImpl) d.msg()).getReceiptHandle();
    }
}
