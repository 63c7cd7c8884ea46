package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.trace.TraceBean;
import org.apache.rocketmq.client.trace.TraceContext;
import org.apache.rocketmq.client.trace.TraceDataEncoder;
import org.apache.rocketmq.client.trace.TraceType;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Message traces on a broker with traceTopicEnable=true (which ref-servers.sh writes): the broker
 * makes RMQ_SYS_TRACE_TOPIC (one queue, read and write) at start and registers it; a trace-enabled
 * producer and push consumer write their Pub, SubBefore and SubAfter traces there, keyed by the
 * traced message's id, and a key query on the trace topic (what mqadmin queryMsgTraceById does)
 * finds them.
 */
class MessageTraceTest {
    /** TopicValidator.RMQ_SYS_TRACE_TOPIC, the broker's default msgTraceTopicName. */
    private static final String TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";
    private static final String TAG = "TagTrace";

    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    void theBrokerMakesAndRegistersTheTraceTopicAtStart() throws Exception {
        var admin = Clients.admin();
        var tc = admin.getAllTopicConfig(Env.brokerAddr(), 10_000).getTopicConfigTable().get(TRACE_TOPIC);
        assertNotNull(tc, TRACE_TOPIC + " on " + Env.brokerName());
        assertEquals(1, tc.getReadQueueNums());
        assertEquals(1, tc.getWriteQueueNums());
        assertEquals(6, tc.getPerm(), "read and write");
        var route = admin.examineTopicRouteInfo(TRACE_TOPIC);
        var qd = route.getQueueDatas().stream().filter(q -> q.getBrokerName().equals(Env.brokerName())).findFirst();
        assertTrue(qd.isPresent(), "route of " + TRACE_TOPIC + " names " + Env.brokerName() + ": " + route);
        assertEquals(1, qd.get().getReadQueueNums());
        assertEquals(1, qd.get().getWriteQueueNums());
    }

    @Test
    @Timeout(240)
    void sendAndConsumeTracesAreFoundByMessageId() throws Exception {
        String topic = Clients.newTopic("trace", 2);
        String producerGroup = Clients.unique("trace_pg");
        DefaultMQProducer producer = new DefaultMQProducer(producerGroup, true, TRACE_TOPIC);
        producer.setNamesrvAddr(Env.namesrvAddr());
        producer.setInstanceName(Clients.unique("trace_producer"));
        producer.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        producer.start();
        cleanups.add(producer::shutdown);

        String group = Clients.unique("trace_cg");
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group, true, TRACE_TOPIC);
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("trace_consumer"));
        consumer.setPersistConsumerOffsetInterval(1000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        Received received = new Received();
        consumer.registerMessageListener(received.concurrently("c1"));
        consumer.start();
        cleanups.add(consumer::shutdown);

        Map<String, SendResult> sent = new HashMap<>();
        Map<String, String> keyOf = new HashMap<>();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String body = "traced " + i + " of " + topic;
            String key = "key_" + i + "_" + topic;
            Message m = new Message(topic, TAG, key, body.getBytes(StandardCharsets.UTF_8));
            SendResult r = producer.send(m);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            sent.put(r.getMsgId(), r);
            keyOf.put(r.getMsgId(), key);
            bodies.add(body);
        }
        received.awaitAll(bodies);

        for (String msgId : sent.keySet()) {
            Map<TraceType, TraceContext> traces = Eventually.eventually(Eventually.DEFAULT.multipliedBy(2),
                "Pub, SubBefore and SubAfter traces of " + msgId, () -> tracesOf(msgId));
            String key = keyOf.get(msgId);

            TraceContext pub = traces.get(TraceType.Pub);
            TraceBean pb = pub.getTraceBeans().get(0);
            assertEquals(producerGroup, pub.getGroupName());
            assertTrue(pub.isSuccess(), "Pub success");
            assertEquals(topic, pb.getTopic());
            assertEquals(TAG, pb.getTags());
            assertEquals(key, pb.getKeys());
            assertEquals(Env.brokerAddr(), pb.getStoreHost());
            assertEquals(sent.get(msgId).getOffsetMsgId(), pb.getOffsetMsgId());

            TraceContext before = traces.get(TraceType.SubBefore);
            TraceBean bb = before.getTraceBeans().get(0);
            assertEquals(group, before.getGroupName());
            assertEquals(key, bb.getKeys());
            assertEquals(0, bb.getRetryTimes());
            assertNotNull(before.getRequestId(), "SubBefore requestId");

            TraceContext after = traces.get(TraceType.SubAfter);
            assertTrue(after.isSuccess(), "SubAfter success");
            assertEquals(before.getRequestId(), after.getRequestId(), "SubAfter pairs with SubBefore");
            assertEquals(key, after.getTraceBeans().get(0).getKeys());
        }
    }

    /**
     * The traces of msgId found by a key query on the trace topic, by type; fails until the Pub,
     * SubBefore and SubAfter traces are all there.
     */
    private static Map<TraceType, TraceContext> tracesOf(String msgId) throws Exception {
        var result = Clients.admin().queryMessage(TRACE_TOPIC, msgId, 64, 0, Long.MAX_VALUE);
        Map<TraceType, TraceContext> found = new HashMap<>();
        for (MessageExt m : result.getMessageList()) {
            assertEquals(TRACE_TOPIC, m.getTopic());
            assertTrue(List.of(m.getKeys().split(" ")).contains(msgId), "keys of the trace message: " + m.getKeys());
            String data = new String(m.getBody(), StandardCharsets.UTF_8);
            for (TraceContext ctx : TraceDataEncoder.decoderFromTraceDataString(data)) {
                if (ctx.getTraceBeans().stream().anyMatch(b -> msgId.equals(b.getMsgId()))) {
                    found.put(ctx.getTraceType(), ctx);
                }
            }
        }
        for (TraceType t : List.of(TraceType.Pub, TraceType.SubBefore, TraceType.SubAfter)) {
            assertTrue(found.containsKey(t), t + " trace of " + msgId + " among " + found.keySet());
        }
        return found;
    }
}
