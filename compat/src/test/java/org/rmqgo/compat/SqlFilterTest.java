package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL92 subscriptions (MessageSelector.bySql) on a broker with enablePropertyFilter=true (which
 * ref-servers.sh writes): the consumer receives exactly the messages whose user properties make
 * the expression true, a message without the property is not among them, and an expression that
 * does not compile stops the consumer from starting.
 */
class SqlFilterTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    @Timeout(180)
    void aConsumerReceivesExactlyTheMessagesItsExpressionSelects() throws Exception {
        String topic = Clients.newTopic("sql", 4);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, MessageSelector.bySql("amount > 100 AND (region IN ('eu', 'us') OR vip = 'true')"));
        c.registerMessageListener(received.concurrently("c1"));
        c.start();
        cleanups.add(c::shutdown);

        List<String> wanted = new ArrayList<>();
        List<String> all = new ArrayList<>();
        String[][] cases = {
            // amount, region, vip, wanted
            {"150", "eu", null, "yes"}, {"150", "asia", null, "no"}, {"150", "asia", "true", "yes"},
            {"50", "eu", "true", "no"}, {null, "eu", "true", "no"}, {"101", "us", "false", "yes"},
            {"100", "us", null, "no"}, {"2000", null, null, "no"}, {"2000", null, "true", "yes"},
        };
        for (int i = 0; i < cases.length; i++) {
            String body = "order " + i + " of " + topic;
            Message m = new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8));
            putIfPresent(m, "amount", cases[i][0]);
            putIfPresent(m, "region", cases[i][1]);
            putIfPresent(m, "vip", cases[i][2]);
            assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
            all.add(body);
            if (cases[i][3].equals("yes")) {
                wanted.add(body);
            }
        }
        received.awaitAll(wanted);
        // A marker sent last and selected: once it arrived, every earlier message of its queue was
        // filtered, so nothing unwanted is still on its way there.
        List<String> markers = new ArrayList<>();
        for (int q = 0; q < 4; q++) {
            String body = "marker " + q + " of " + topic;
            Message m = new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("amount", "1000");
            m.putUserProperty("vip", "true");
            assertEquals(SendStatus.SEND_OK, producer.send(m, Clients.BY_QUEUE_ID, q).getSendStatus());
            markers.add(body);
        }
        received.awaitAll(markers);
        List<String> allowed = new ArrayList<>(wanted);
        allowed.addAll(markers);
        received.assertOnly(allowed);
    }

    @Test
    void anExpressionThatDoesNotCompileStopsTheConsumerFromStarting() throws Exception {
        String topic = Clients.newTopic("sql_bad", 1);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        producer.send(new Message(topic, "TagA", "x".getBytes(StandardCharsets.UTF_8)));
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.subscribe(topic, MessageSelector.bySql("amount >"));
        c.registerMessageListener(new Received().concurrently("c1"));
        cleanups.add(c::shutdown);
        MQClientException e = assertThrows(MQClientException.class, c::start);
        String text = String.valueOf(e.getMessage()) + " / " + e.getCause();
        assertTrue(text.contains("CODE: 23") || text.contains("SUBSCRIPTION_PARSE_FAILED") || text.contains("ParseException"),
            "the broker's SUBSCRIPTION_PARSE_FAILED reaches the application: " + text);
    }

    private static void putIfPresent(Message m, String k, String v) {
        if (v != null) {
            m.putUserProperty(k, v);
        }
    }
}
