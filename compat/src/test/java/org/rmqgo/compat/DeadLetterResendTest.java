package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A dead letter re-sent by the admin tools (the dashboard's DLQ "resend", mqadmin queryMsgById with
 * a consumer): DefaultMQAdminExt.consumeMessageDirectly has the broker hand the stored message to a
 * running consumer of the group, whose listener consumes it and reports CR_SUCCESS.
 */
class DeadLetterResendTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    @Timeout(180)
    void aDeadLetterIsConsumedAgainWhenTheAdminToolResendsIt() throws Exception {
        String topic = Clients.newTopic("dlq_resend", 1);
        String group = Clients.unique("cg");
        String dlq = "%DLQ%" + group;
        AtomicBoolean healed = new AtomicBoolean();
        Received received = new Received();
        MessageListenerConcurrently recorder = received.concurrently("c1");
        DefaultMQPushConsumer c = Clients.pushConsumer(group);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setMaxReconsumeTimes(0);
        c.subscribe(topic, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            recorder.consumeMessage(msgs, ctx);
            return healed.get() ? ConsumeConcurrentlyStatus.CONSUME_SUCCESS : ConsumeConcurrentlyStatus.RECONSUME_LATER;
        });
        c.start();
        cleanups.add(c::shutdown);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        String body = "poison of " + topic;
        Message m = new Message(topic, "TagD", "dlq-key", body.getBytes(StandardCharsets.UTF_8));
        assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
        received.awaitAll(List.of(body));

        MessageQueue dlqQueue = new MessageQueue(dlq, Env.brokerName(), 0);
        Eventually.eventually("the message lies in " + dlq, () -> {
            assertEquals(1, Clients.admin().maxOffset(dlqQueue));
            return null;
        });
        String dlqMsgId = Eventually.eventually("the dead letter is found by its key", () ->
            Clients.admin().queryMessage(dlq, "dlq-key", 8, 0, Long.MAX_VALUE).getMessageList().get(0).getMsgId());
        String clientId = Clients.admin().examineConsumerConnectionInfo(group).getConnectionSet().iterator().next().getClientId();
        int before = received.deliveries().size();

        healed.set(true);
        // ConsumeMessageDirectlyResult lives in another package on each client line
        var result = Clients.admin().consumeMessageDirectly(group, clientId, dlq, dlqMsgId);
        assertEquals("CR_SUCCESS", result.getConsumeResult().name(), result.toString());
        assertEquals(before + 1, received.deliveries().size(), "the listener consumed the dead letter once more");
        assertEquals(body, Received.body(received.deliveries().get(before).msg()));
    }
}
