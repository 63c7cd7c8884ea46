package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages with a delivery time (the 5.x client's Message.setDeliverTimeMs, which sets the property
 * TIMER_DELIVER_MS; set here through MessageAccessor so that both client lines compile it): a 5.x
 * broker holds them until that time, to the second; a 4.x broker does not know the property and
 * delivers them at once. The servers' line is taken to be the client line, as in every run of the
 * suite.
 */
class TimerMessageTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    @Timeout(120)
    void aMessageWithADeliveryTimeArrivesAtThatTimeOnA5xBroker() throws Exception {
        String topic = Clients.newTopic("timer", 2);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener(received.concurrently("c1"));
        c.start();
        cleanups.add(c::shutdown);

        long deliverAt = System.currentTimeMillis() + 4000;
        String body = "timer of " + topic;
        Message m = new Message(topic, "TagT", body.getBytes(StandardCharsets.UTF_8));
        m.putUserProperty("u", "kept");
        MessageAccessor.putProperty(m, "TIMER_DELIVER_MS", Long.toString(deliverAt));
        assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
        received.awaitAll(List.of(body));
        long arrived = System.currentTimeMillis();
        MessageExt got = received.firstByBody().get(body);
        assertEquals("kept", got.getUserProperty("u"));
        assertEquals(topic, got.getTopic());
        if (Line.CLIENT_LINE.equals("5")) {
            // the broker rounds the time down to its second
            assertTrue(arrived >= deliverAt - 1000, "arrived " + (deliverAt - arrived) + " ms before its time");
        } else {
            assertTrue(arrived < deliverAt, "a 4.x broker delivers at once; arrived " + (arrived - deliverAt) + " ms after the time");
        }
        System.out.printf("TimerMessageTest: line %s, arrived %d ms after the send, %d ms from the delivery time%n",
            Line.CLIENT_LINE, arrived - (deliverAt - 4000), arrived - deliverAt);
    }
}
