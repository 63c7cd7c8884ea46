package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.header.RecallMessageRequestHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import org.rmqgo.testsupport.Eventually;

/**
 * 5.3.3's message recall over remoting: a send of a timer message (Message.setDeliverTimeMs) is
 * answered with a recall handle (SendResult.getRecallHandle), and DefaultMQProducer.recallMessage
 * (RECALL_MESSAGE, 370) takes the message back before its time. The broker refuses recalls until
 * recallMessageEnable is set (default false); the test turns it on with updateBrokerConfig and back
 * off at its end, so it runs alone.
 *
 * "Never delivered" is shown with a sentinel, never with a wait: a timer message due a second after
 * the recalled one is delivered after the recalled one's second (the timer delivers its seconds in
 * order), on a topic of one queue whose consume queue then holds exactly what arrived.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class RecallMessageTest {
    /** ResponseCode numbers. */
    private static final int NO_PERMISSION = 16;
    private static final int TOPIC_NOT_EXIST = 17;
    private static final int SERVICE_NOT_AVAILABLE = 14;
    private static final int ILLEGAL_OPERATION = 604;

    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    /** base64url, with padding, of "v1 topic broker time id": the handle as RecallMessageHandle builds it. */
    private static String handle(String topic, String broker, Object time, String id) {
        String raw = "v1 " + topic + " " + broker + " " + time + " " + id;
        return Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** The second of the timer's wheel a delivery time falls in (HookUtils.transformTimerMessage). */
    private static long slotOf(long deliverMs) {
        return deliverMs % 1000 == 0 ? deliverMs - 1000 : deliverMs / 1000 * 1000;
    }

    private static SendResult sendTimer(DefaultMQProducer p, String topic, String body, long deliverMs) throws Exception {
        Message m = new Message(topic, "TagR", body.getBytes(StandardCharsets.UTF_8));
        m.setDeliverTimeMs(deliverMs);
        SendResult r = p.send(m);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        return r;
    }

    /** The broker's answer to a recall, as the client's MQBrokerException carries it. */
    private static MQBrokerException refused(DefaultMQProducer p, String topic, String handle) {
        return assertThrows(MQBrokerException.class, () -> p.recallMessage(topic, handle),
            "recall of " + handle + " on " + topic);
    }

    private static void assertRefusal(MQBrokerException e, int code, String remark) {
        assertEquals(code, e.getResponseCode(), e.toString());
        assertEquals(remark, e.getErrorMessage(), e.toString());
    }

    private static void updateBrokerConfig(DefaultMQAdminExt admin, String... kv) throws Exception {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        admin.updateBrokerConfig(Env.brokerAddr(), p);
    }

    @Test
    @Timeout(180)
    void aRecalledTimerMessageIsNeverDelivered() throws Exception {
        DefaultMQAdminExt admin = Clients.admin();
        String topic = Clients.newTopic("recall", 1);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);

        // the handle of a timer message; a plain message has none
        long at = System.currentTimeMillis() + 6000;
        SendResult recalled = sendTimer(producer, topic, "recalled of " + topic, at);
        assertEquals(handle(topic, Env.brokerName(), slotOf(at) + 1, recalled.getMsgId()), recalled.getRecallHandle(),
            "the handle: topic, broker, the message's second + 1 ms, its id");
        SendResult plain = producer.send(new Message(topic, "TagP", ("plain of " + topic).getBytes(StandardCharsets.UTF_8)));
        assertNull(plain.getRecallHandle(), "a plain message has no recall handle");

        // recallMessageEnable is false by default
        assertRefusal(refused(producer, topic, recalled.getRecallHandle()), NO_PERMISSION,
            "recall failed, operation is forbidden");

        updateBrokerConfig(admin, "recallMessageEnable", "true");
        cleanups.add(() -> updateBrokerConfig(admin, "recallMessageEnable", "false"));
        assertEquals("true", admin.getBrokerConfig(Env.brokerAddr()).getProperty("recallMessageEnable"));

        SendResult kept = sendTimer(producer, topic, "kept of " + topic, at);
        SendResult sentinel = sendTimer(producer, topic, "sentinel of " + topic, at + 1000);
        assertEquals(recalled.getMsgId(), producer.recallMessage(topic, recalled.getRecallHandle()),
            "the recall answers the recalled message's id");

        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg_recall"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            received.add("c1", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        cleanups.add(c::shutdown);
        List<String> expected = List.of("plain of " + topic, "kept of " + topic, "sentinel of " + topic);
        received.awaitAll(expected);
        received.assertOnly(expected);
        long queued = admin.maxOffset(new MessageQueue(topic, Env.brokerName(), 0));
        assertEquals(3, queued, "the queue holds the plain, the kept and the sentinel message only");
        assertEquals(kept.getMsgId(), received.firstByBody().get("kept of " + topic).getMsgId());
        assertEquals(sentinel.getMsgId(), received.firstByBody().get("sentinel of " + topic).getMsgId());

        // its time has passed now
        assertRefusal(refused(producer, topic, kept.getRecallHandle()), ILLEGAL_OPERATION,
            "recall failed, timestamp invalid");
        System.out.printf("RecallMessageTest: %s; handle %s%n", Env.describe(), recalled.getRecallHandle());
    }

    @Test
    @Timeout(120)
    void eachRefusalHasJavasCodeAndRemark() throws Exception {
        DefaultMQAdminExt admin = Clients.admin();
        String topic = Clients.newTopic("recall_no", 1);
        String other = Clients.newTopic("recall_other", 1);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        SendResult r = sendTimer(producer, topic, "refused of " + topic, System.currentTimeMillis() + 60_000);
        String good = r.getRecallHandle();
        assertNotNull(good);

        updateBrokerConfig(admin, "recallMessageEnable", "true");
        cleanups.add(() -> updateBrokerConfig(admin, "recallMessageEnable", "false"));

        assertRefusal(refused(producer, other, good), ILLEGAL_OPERATION, "recall failed, topic not match");
        assertRefusal(refused(producer, topic, handle(topic, "broker-x", slotOf(System.currentTimeMillis() + 60_000) + 1,
            r.getMsgId())), ILLEGAL_OPERATION, "recall failed, broker service not available");
        assertRefusal(refused(producer, topic, handle(topic, Env.brokerName(), System.currentTimeMillis() - 1000,
            r.getMsgId())), ILLEGAL_OPERATION, "recall failed, timestamp invalid");
        assertRefusal(refused(producer, topic, handle(topic, Env.brokerName(), System.currentTimeMillis() + 4 * 86_400_000L,
            r.getMsgId())), ILLEGAL_OPERATION, "recall failed, timestamp invalid");
        assertRefusal(refused(producer, topic, handle(topic, Env.brokerName(), "soon", r.getMsgId())),
            ILLEGAL_OPERATION, "recall failed, timestamp invalid");
        String missing = Clients.unique("recall_missing");
        assertRefusal(refused(producer, missing, handle(missing, Env.brokerName(), System.currentTimeMillis() + 60_000,
            r.getMsgId())), TOPIC_NOT_EXIST, "recall failed, the topic[" + missing + "] not exist");

        // a handle the client cannot decode never leaves it; sent as it is, the broker refuses it
        MQClientException client = assertThrows(MQClientException.class, () -> producer.recallMessage(topic, "not a handle"));
        assertEquals("recall handle is invalid", client.getErrorMessage(), client.toString());
        for (String bad : List.of("not a handle", "YQ==", handle(topic, Env.brokerName(), 1, ""))) {
            RecallMessageRequestHeader h = new RecallMessageRequestHeader();
            h.setProducerGroup(producer.getProducerGroup());
            h.setTopic(topic);
            h.setRecallHandle(bad);
            MQBrokerException e = assertThrows(MQBrokerException.class, () -> producer.getDefaultMQProducerImpl()
                .getMqClientFactory().getMQClientAPIImpl().recallMessage(Env.brokerAddr(), h, Clients.SEND_TIMEOUT_MILLIS));
            assertRefusal(e, ILLEGAL_OPERATION, "recall handle is invalid");
        }

        // a broker without write permission serves recalls unless allowRecallWhenBrokerNotWriteable is false
        updateBrokerConfig(admin, "brokerPermission", "4", "allowRecallWhenBrokerNotWriteable", "false");
        try {
            assertRefusal(refused(producer, topic, good), SERVICE_NOT_AVAILABLE, "recall failed, broker service not available");
            updateBrokerConfig(admin, "allowRecallWhenBrokerNotWriteable", "true");
            assertEquals(r.getMsgId(), producer.recallMessage(topic, good), "the broker not writeable");
        } finally {
            updateBrokerConfig(admin, "brokerPermission", "6", "allowRecallWhenBrokerNotWriteable", "true");
            Eventually.eventually("route of " + topic + " writeable again", () -> {
                Map<String, Integer> perms = new HashMap<>();
                admin.examineTopicRouteInfo(topic).getQueueDatas().forEach(q -> perms.put(q.getBrokerName(), q.getPerm()));
                assertEquals(6, perms.get(Env.brokerName()), "perms " + perms);
                return null;
            });
        }
    }
}
