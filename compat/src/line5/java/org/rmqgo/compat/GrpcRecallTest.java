package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rmqgo.compat.GrpcClients.closing;
import static org.rmqgo.compat.GrpcClients.message;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.apache.rocketmq.client.apis.ClientException;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.SendReceipt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import org.rmqgo.compat.GrpcClients.Delivery;

/**
 * Message recall through the proxy inside broker-a (local mode, ref-servers.sh PROXY=1) with the
 * 5.x gRPC client (rocketmq-client-java 5.0.8): a DELAY message's SendReceipt carries the broker's
 * recall handle, and Producer.recallMessage (the RecallMessage RPC, RECALL_MESSAGE to the broker)
 * takes it back before its time. The proxy answers a broker's refusal with INTERNAL_SERVER_ERROR
 * and the remark as a ProxyException's text (a proxy in cluster mode, PROXY=cluster: the bare
 * remark). The test turns the broker's recallMessageEnable on
 * and back off, so it runs alone.
 *
 * "Never received" is shown with a sentinel due a second later on a topic of one queue, which the
 * proxy pops in order: the recalled message, had it been delivered, would have come first.
 */
@Tag("grpc")
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class GrpcRecallTest {
    private static final int INTERNAL_SERVER_ERROR = 50001;
    private static final int MESSAGE_PROPERTY_CONFLICT_WITH_TYPE = 40014;
    private static final String PROXY_EXCEPTION = "org.apache.rocketmq.proxy.common.ProxyException: ";

    /**
     * A broker's refusal as the proxy words it: in local mode the broker's remark as a
     * ProxyException's text, in cluster mode (PROXY=cluster) the bare remark.
     */
    private static String brokerRefusal(String remark) {
        return ("cluster".equals(Env.optional("PROXY", "0")) ? "" : PROXY_EXCEPTION) + remark;
    }

    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    private static SendReceipt sendDelayed(Producer p, String topic, String body, long deliverAt) throws Exception {
        return p.send(message(topic, body, "TagR").setDeliveryTimestamp(deliverAt).build());
    }

    /** The proxy's status for a recall: its code, and its message (after the client's prefix). */
    private static void assertRecallRefused(Producer p, String topic, String handle, int code, String message) {
        ClientException e = assertThrows(ClientException.class, () -> p.recallMessage(topic, handle),
            "recall of " + handle + " on " + topic);
        System.out.println("GrpcRecallTest: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        assertEquals(code, GrpcClients.responseCode(e), "response code in " + e.getMessage());
        assertTrue(String.valueOf(e.getMessage()).endsWith("] " + message), "message of " + e.getMessage());
    }

    private static void setRecall(boolean enable) throws Exception {
        Properties p = new Properties();
        p.setProperty("recallMessageEnable", Boolean.toString(enable));
        Clients.admin().updateBrokerConfig(Env.brokerAddr(), p);
    }

    @Test
    @Timeout(180)
    void aRecalledDelayMessageIsNeverReceived() throws Exception {
        String topic = GrpcClients.newTopic("grpc_recall", 1, "DELAY");
        String normal = GrpcClients.newTopic("grpc_recall_normal", 1, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_recall");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));

        long at = System.currentTimeMillis() + 8000;
        SendReceipt recalled = sendDelayed(producer, topic, "recalled of " + topic, at);
        long slot = at % 1000 == 0 ? at - 1000 : at / 1000 * 1000;
        String raw = "v1 " + topic + " " + Env.brokerName() + " " + (slot + 1) + " " + recalled.getMessageId();
        assertEquals(Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8)),
            recalled.getRecallHandle(), "the broker's handle, as the proxy passes it on");

        // refused by the broker (recallMessageEnable is false by default), by the proxy
        assertRecallRefused(producer, topic, recalled.getRecallHandle(), INTERNAL_SERVER_ERROR,
            brokerRefusal("recall failed, operation is forbidden"));
        assertRecallRefused(producer, topic, "not a handle", INTERNAL_SERVER_ERROR,
            PROXY_EXCEPTION + "recall handle is invalid");
        assertRecallRefused(producer, normal, recalled.getRecallHandle(), MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
            PROXY_EXCEPTION + "TopicMessageType validate failed, the expected type is NORMAL, but actual type is DELAY");

        setRecall(true);
        cleanups.add(() -> setRecall(false));
        SendReceipt kept = sendDelayed(producer, topic, "kept of " + topic, at);
        SendReceipt sentinel = sendDelayed(producer, topic, "sentinel of " + topic, at + 1000);
        assertEquals(recalled.getMessageId().toString(),
            producer.recallMessage(topic, recalled.getRecallHandle()).getMessageId().toString(),
            "the recall answers the recalled message's id");

        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));
        List<Delivery> got = GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(60),
            "the kept message and the sentinel", d -> consumer.ack(d.msg()),
            ds -> ds.stream().anyMatch(d -> d.body().startsWith("sentinel")));
        assertEquals(List.of(kept.getMessageId().toString(), sentinel.getMessageId().toString()),
            got.stream().map(Delivery::id).toList(), "received " + GrpcClients.describe(got));

        assertRecallRefused(producer, topic, kept.getRecallHandle(), INTERNAL_SERVER_ERROR,
            brokerRefusal("recall failed, timestamp invalid"));
        System.out.printf("GrpcRecallTest: %s; handle %s%n", Env.describe(), recalled.getRecallHandle());
    }
}
