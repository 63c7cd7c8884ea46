package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.rmqgo.compat.GrpcClients.closing;
import static org.rmqgo.compat.GrpcClients.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.PushConsumer;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.CMResult;
import org.apache.rocketmq.remoting.protocol.body.Connection;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.compat.GrpcClients.Deliveries;
import org.rmqgo.testsupport.Eventually;

/**
 * A gRPC client seen and asked through the broker, as with the proxy in the broker's process
 * (local mode, ref-servers.sh PROXY=1): the proxy registers each client with the broker under its
 * own client id, so the broker's consumer connections list the push consumer (language JAVA,
 * version 479: Java registers a gRPC client with MQVersion.CURRENT_VERSION of 5.3.3), and what
 * the admin tools ask a consumer through the broker reaches it on its Telemetry stream:
 * CONSUME_MESSAGE_DIRECTLY as a VerifyMessageCommand, which runs the consumer's listener on the
 * message (CR_SUCCESS, remark "from gRPC client"), and on ours GET_CONSUMER_RUNNING_INFO with jstack
 * as a PrintThreadStackTraceCommand (the answer carries only the thread stack), which Java's
 * relay loses (see the test).
 *
 * The broker is asked directly: Java's local proxy registers a gRPC consumer without the broker's
 * heartbeat processor, so the group has no %RETRY% topic whose route the admin's group-wide
 * lookups (examineConsumerConnectionInfo(group), getConsumerRunningInfo(group, ...)) start from.
 */
@Tag("grpc")
class GrpcRelayTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    @Test
    @Timeout(120)
    void theBrokerSeesAPushConsumerAndReachesItOnItsStream() throws Exception {
        assumeTrue("1".equals(Env.optional("PROXY", "0")),
            "a proxy in cluster mode never shows its gRPC consumers to the brokers (docs/reference/proxy.md §1.6)");
        String topic = GrpcClients.newTopic("grpc_relay", 2, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_relay");
        Deliveries deliveries = new Deliveries();
        PushConsumer consumer = GrpcClients.pushConsumer(group, topic, FilterExpression.SUB_ALL, deliveries);
        cleanups.add(closing(consumer));

        Connection c = Eventually.eventually(Duration.ofSeconds(30), "the push consumer in the group's connections", () -> {
            ConsumerConnection cc = Clients.admin().examineConsumerConnectionInfo(group, Env.brokerAddr());
            assertEquals(1, cc.getConnectionSet().size(), "connections of " + group);
            return cc.getConnectionSet().iterator().next();
        });
        System.out.println("GrpcRelayTest: connection " + c.getClientId() + " " + c.getClientAddr() + " "
            + c.getLanguage() + " " + c.getVersion());
        assertEquals(LanguageCode.JAVA, c.getLanguage());
        assertEquals(MQVersion.Version.V5_3_3.ordinal(), c.getVersion());
        assertFalse(c.getClientAddr().isEmpty(), "client address");

        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        String id = producer.send(message(topic, "relayed to the listener", "TagR", "relay-key").build())
            .getMessageId().toString();
        Eventually.eventually(Duration.ofSeconds(60), "the message pushed", () -> {
            assertEquals(1, deliveries.of(id).size(), "deliveries of " + id);
            return null;
        });

        var result = Clients.admin().consumeMessageDirectly(group, c.getClientId(), topic, id);
        System.out.println("GrpcRelayTest: consumeMessageDirectly " + result);
        assertEquals(CMResult.CR_SUCCESS, result.getConsumeResult());
        assertEquals("from gRPC client", result.getRemark());
        assertEquals(2, deliveries.of(id).size(), "the listener ran on the message again");
        assertEquals(Set.of("relay-key"), Set.copyOf(deliveries.of(id).get(1).msg().getKeys()));

        var api = Clients.admin().getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
        if ("java".equals(Env.optional("BROKER_IMPL", "java"))) {
            // Java 5.3.3's broker forwards the admin's request with its header as extFields only, and
            // its local proxy reads the header object (ProxyChannel: readCustomHeader() is null), so
            // GrpcClientChannel drops the question and the broker's call times out.
            MQClientException e = assertThrows(MQClientException.class,
                () -> api.getConsumerRunningInfo(Env.brokerAddr(), group, c.getClientId(), true, 15_000));
            assertEquals(ResponseCode.CONSUME_MSG_TIMEOUT, e.getResponseCode(), e.getMessage());
            return;
        }
        var info = api.getConsumerRunningInfo(Env.brokerAddr(), group, c.getClientId(), true, 15_000);
        assertNotNull(info.getJstack(), "jstack");
        assertTrue(info.getJstack().contains("Thread") || info.getJstack().contains("java."), info.getJstack());
        assertTrue(info.getMqTable().isEmpty() && info.getSubscriptionSet().isEmpty() && info.getProperties().isEmpty(),
            "only the stack: " + info);
    }
}
