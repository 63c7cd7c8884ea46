package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quick-start: a producer and a push consumer that find the broker through the name server. */
class MessagingTest {
    private static final int COUNT = 10;

    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    @Test
    void tenSyncSendsAreAllConsumedFromTheFirstOffset() throws Exception {
        String topic = Clients.unique("msg");
        Clients.createTopic(admin, Env.brokerAddr(), Env.brokerName(), topic, 4, 4);

        Set<String> sent = new HashSet<>();
        DefaultMQProducer producer = new DefaultMQProducer(Clients.unique("pg"));
        producer.setNamesrvAddr(Env.namesrvAddr());
        producer.setInstanceName(Clients.unique("producer"));
        producer.start();
        try {
            for (int i = 0; i < COUNT; i++) {
                String body = "compat message " + i + " of " + topic;
                SendResult r = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)));
                assertEquals(SendStatus.SEND_OK, r.getSendStatus(), "send " + i + ": " + r);
                assertEquals(Env.brokerName(), r.getMessageQueue().getBrokerName(), "send " + i + " went to");
                assertTrue(r.getMsgId() != null && !r.getMsgId().isEmpty(), "msgId of send " + i);
                sent.add(body);
            }
        } finally {
            producer.shutdown();
        }

        Set<String> received = ConcurrentHashMap.newKeySet();
        CountDownLatch all = new CountDownLatch(COUNT);
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(Clients.unique("cg"));
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (var m : msgs) {
                if (received.add(new String(m.getBody(), StandardCharsets.UTF_8))) {
                    all.countDown();
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            boolean done = all.await(60, TimeUnit.SECONDS);
            assertTrue(done, "received " + received.size() + " of " + COUNT + " within 60 s");
            assertEquals(sent, received, "bodies received");
        } finally {
            consumer.shutdown();
        }
    }

    @Test
    void sendingToAnUnknownTopicCreatesItThroughTbw102AndRoutesIt() throws Exception {
        // autoCreateTopicEnable=true: the producer finds no route, sends by TBW102's route, the broker
        // creates the topic and registers it, and from then on the name server routes it.
        String topic = Clients.unique("auto");
        Clients.assertNoRoute(admin, topic);
        var tbw = admin.examineTopicRouteInfo("TBW102");
        assertTrue(tbw.getQueueDatas().stream().anyMatch(q -> q.getBrokerName().equals(Env.brokerName())),
            "TBW102 is routed to " + Env.brokerName() + ": " + tbw);

        DefaultMQProducer producer = new DefaultMQProducer(Clients.unique("pg"));
        producer.setNamesrvAddr(Env.namesrvAddr());
        producer.setInstanceName(Clients.unique("producer"));
        producer.start();
        String broker;
        try {
            SendResult r = producer.send(new Message(topic, "auto".getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            broker = r.getMessageQueue().getBrokerName();
        } finally {
            producer.shutdown();
        }
        Eventually.eventually("route of the auto-created " + topic + " names " + broker, () -> {
            var qd = admin.examineTopicRouteInfo(topic).getQueueDatas().stream()
                .filter(q -> q.getBrokerName().equals(broker)).findFirst()
                .orElseThrow(() -> new AssertionError("no queue data for " + broker));
            assertEquals(4, qd.getWriteQueueNums(), "writeQueueNums: the producer's defaultTopicQueueNums");
            assertEquals(4, qd.getReadQueueNums(), "readQueueNums");
            return null;
        });
    }
}
