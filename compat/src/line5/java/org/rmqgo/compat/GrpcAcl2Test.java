package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rmqgo.compat.GrpcClients.PROVIDER;
import static org.rmqgo.compat.GrpcClients.closing;
import static org.rmqgo.compat.GrpcClients.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientException;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ACL 2.0 on the gRPC port: the proxy inside broker-a (compat/acl2-suite.sh starts it with PROXY=1
 * and rmq-proxy.json's authenticationEnabled / authorizationEnabled with the Proxy metadata
 * providers) checks the 5.x client's signature (authorization header over x-mq-date-time, the
 * client's StaticSessionCredentialsProvider) against the users of the broker, and each RPC's topic
 * and group against the user's ACL. A refusal is response code UNAUTHORIZED (40100) with the
 * AuthenticationException's or AuthorizationException's message, which the client puts in its
 * ClientException's message. Users, ACLs, the topic and the group are made by the super user over
 * remoting (the broker's remoting port has ACL 2.0 too).
 */
@Tag("acl2")
@Tag("grpc")
class GrpcAcl2Test {
    static final int UNAUTHORIZED = 40100;
    static final String USER = "grpcAclUser";
    static final String USER_PW = "grpcAclUser123";
    static final String SUB_ONLY = "grpcAclSubOnly";
    static final String SUB_ONLY_PW = "grpcAclSubOnly123";
    static final String TOPIC = "GrpcAclTopic";
    static final String TOPIC_PUB = "GrpcAclTopicPub";
    static final String GROUP = "GrpcAclGroup";

    private static DefaultMQAdminExt rootAdmin;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void usersTopicAndGroup() throws Exception {
        rootAdmin = Acl2Fixture.rootAdmin();
        Acl2Fixture.normalTopic(rootAdmin, TOPIC);
        Acl2Fixture.normalTopic(rootAdmin, TOPIC_PUB);
        Acl2Fixture.group(rootAdmin, GROUP);
        Acl2Fixture.user(rootAdmin, USER, USER_PW);
        Acl2Fixture.allow(rootAdmin, USER, List.of("Topic:" + TOPIC, "Group:" + GROUP), List.of("Pub", "Sub"));
        Acl2Fixture.user(rootAdmin, SUB_ONLY, SUB_ONLY_PW);
        Acl2Fixture.allow(rootAdmin, SUB_ONLY, List.of("Topic:" + TOPIC, "Group:" + GROUP), List.of("Sub"));
        Acl2Fixture.allow(rootAdmin, SUB_ONLY, List.of("Topic:" + TOPIC_PUB), List.of("Pub"));
    }

    @AfterAll
    static void stopAdmin() {
        if (rootAdmin != null) {
            rootAdmin.shutdown();
            rootAdmin = null;
        }
    }

    @AfterEach
    void runCleanups() throws Exception {
        Clients.runAll(cleanups);
    }

    /** Plaintext to the proxy, signed with ak/sk (none when ak is null). */
    private static ClientConfiguration config(String ak, String sk) {
        return GrpcClients.config(false, ak, sk);
    }

    private Producer producer(String ak, String sk) throws ClientException {
        return producer(ak, sk, TOPIC);
    }

    private Producer producer(String ak, String sk, String topic) throws ClientException {
        Producer p = PROVIDER.newProducerBuilder().setClientConfiguration(config(ak, sk)).setTopics(topic).build();
        cleanups.add(closing(p));
        return p;
    }

    /** The response code and message of the proxy's refusal inside what the client threw. */
    private static void assertRefused(String message, Throwable t, String what) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ClientException e && GrpcClients.responseCode(e) != -1) {
                assertEquals(UNAUTHORIZED, GrpcClients.responseCode(e), what + ": " + e.getMessage());
                String text = e.getMessage();
                assertEquals(message, text.substring(text.indexOf("] ") + 2), what);
                return;
            }
        }
        throw new AssertionError(what + ": no refusal of the proxy in " + t, t);
    }

    @Test
    void aSignedProducerSendsAndASignedSimpleConsumerReceivesAndAcks() throws Exception {
        Producer p = producer(USER, USER_PW);
        String body = "signed of " + Clients.unique("grpc_acl");
        String id = p.send(message(TOPIC, body, "TagA").build()).getMessageId().toString();
        SimpleConsumer c = PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(config(USER, USER_PW))
            .setConsumerGroup(GROUP)
            .setAwaitDuration(GrpcClients.AWAIT)
            .setSubscriptionExpressions(Map.of(TOPIC, FilterExpression.SUB_ALL))
            .build();
        cleanups.add(closing(c));
        List<GrpcClients.Delivery> got = GrpcClients.receiveUntil(c, GrpcClients.MIN_INVISIBLE, Duration.ofSeconds(60),
            "the message sent", d -> c.ack(d.msg()), ds -> ds.stream().anyMatch(d -> d.id().equals(id)));
        assertTrue(got.stream().anyMatch(d -> d.body().equals(body)), GrpcClients.describe(got));
    }

    @Test
    void wrongSecretUnknownUserAndUnsignedAreRefused() {
        assertRefused("check signature failed.",
            assertThrows(Exception.class, () -> producer(USER, "notTheSecret1")), "wrong secret");
        assertRefused("User:grpcAclNobody is not found.",
            assertThrows(Exception.class, () -> producer("grpcAclNobody", "grpcAclNobody1")), "unknown user");
        assertRefused("username cannot be null.",
            assertThrows(Exception.class, () -> producer(null, null)), "unsigned");
    }

    /**
     * A producer declares its topics in its Telemetry settings, which ask for Pub on each: without it
     * the producer does not start (the client cancels its start; no response code reaches the caller).
     * QueryRoute asks for Pub or Sub, so a producer of another topic reaches this one's route; its
     * send asks for Pub.
     */
    @Test
    void aUserAllowedToSubscribeOnlyCannotPublish() throws Exception {
        assertThrows(IllegalStateException.class, () -> producer(SUB_ONLY, SUB_ONLY_PW), "producer of " + TOPIC);
        Producer p = producer(SUB_ONLY, SUB_ONLY_PW, TOPIC_PUB);
        assertNotNull(p.send(message(TOPIC_PUB, "allowed", "TagA").build()).getMessageId(), "a send to " + TOPIC_PUB);
        assertRefused("User:" + SUB_ONLY + " has no permission to access Topic:" + TOPIC
                + " from 127.0.0.1, no matched policies.",
            assertThrows(Exception.class, () -> p.send(message(TOPIC, "refused", "TagA").build())), "send to " + TOPIC);
    }
}
