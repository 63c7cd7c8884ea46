package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

/**
 * ACL 2.0 on the proxy's remoting port (cluster mode: compat/acl2-suite.sh with ACL2_PROXY=cluster):
 * remoting clients signed with AclClientRPCHook take the port for their name server; the proxy checks
 * their signature and their rights with the brokers' users and ACLs, as the broker checks its own
 * port. A user allowed Pub and Sub sends and a push consumer of it receives; a user allowed only Sub
 * cannot send (the proxy answers SYSTEM_ERROR with the decision, docs/reference/proxy-remoting.md
 * §7.1); a wrong secret gets no route.
 */
@Tag("acl2")
class ProxyRemotingAcl2Test {
    static final String USER = "remAclUser";
    static final String USER_PW = "remAclUser123";
    static final String SUB_ONLY = "remAclSubOnly";
    static final String SUB_ONLY_PW = "remAclSubOnly123";
    static final String TOPIC = "RemAclTopic";
    static final String GROUP = "RemAclGroup";

    private static DefaultMQAdminExt rootAdmin;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void usersTopicAndGroup() throws Exception {
        assumeTrue("cluster".equals(Env.optional("PROXY", "0")), "the remoting port of a proxy in cluster mode");
        rootAdmin = Acl2Fixture.rootAdmin();
        Acl2Fixture.normalTopic(rootAdmin, TOPIC);
        Acl2Fixture.group(rootAdmin, GROUP);
        Acl2Fixture.user(rootAdmin, USER, USER_PW);
        Acl2Fixture.allow(rootAdmin, USER, List.of("Topic:" + TOPIC, "Group:" + GROUP), List.of("Pub", "Sub"));
        Acl2Fixture.user(rootAdmin, SUB_ONLY, SUB_ONLY_PW);
        Acl2Fixture.allow(rootAdmin, SUB_ONLY, List.of("Topic:" + TOPIC, "Group:" + GROUP), List.of("Sub"));
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

    private DefaultMQProducer producer(String ak, String sk) throws MQClientException {
        RPCHook hook = Acl.hook(ak, sk);
        DefaultMQProducer p = new DefaultMQProducer(Clients.unique("pg_rem_acl"), hook);
        p.setNamesrvAddr(Env.required("PROXY_REMOTING_ADDR"));
        p.setInstanceName(Clients.unique("rem_acl_producer"));
        p.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        p.start();
        cleanups.add(p::shutdown);
        return p;
    }

    private static Message message(String body) {
        return new Message(TOPIC, "TagA", body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(120)
    void aSignedProducerSendsAndASignedPushConsumerReceives() throws Exception {
        Set<String> got = java.util.concurrent.ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(GROUP, Acl.hook(USER, USER_PW));
        c.setNamesrvAddr(Env.required("PROXY_REMOTING_ADDR"));
        c.setInstanceName(Clients.unique("rem_acl_consumer"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(TOPIC, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                got.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        cleanups.add(c::shutdown);

        DefaultMQProducer p = producer(USER, USER_PW);
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            String b = "signed through the proxy " + i;
            assertEquals(SendStatus.SEND_OK, p.send(message(b)).getSendStatus());
            sent.add(b);
        }
        Eventually.eventually(Duration.ofSeconds(90), "the 10 messages received", () -> {
            assertTrue(got.containsAll(sent), "received " + got);
            return null;
        });
    }

    @Test
    @Timeout(60)
    void aUserAllowedOnlyToSubscribeCannotSend() throws Exception {
        DefaultMQProducer p = producer(SUB_ONLY, SUB_ONLY_PW);
        Exception e = assertThrows(Exception.class, () -> p.send(message("refused")), "send of " + SUB_ONLY);
        MQBrokerException refusal = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException b) {
                refusal = b;
            }
        }
        System.out.println("ProxyRemotingAcl2Test: " + e);
        assertTrue(refusal != null, "the proxy's refusal in " + e);
        assertEquals(1, refusal.getResponseCode(), "SYSTEM_ERROR, as Java's proxy answers: " + refusal.getErrorMessage());
        assertTrue(refusal.getErrorMessage().contains("User:" + SUB_ONLY + " has no permission to access Topic:" + TOPIC),
            refusal.getErrorMessage());
    }

    @Test
    @Timeout(60)
    void aWrongSecretGetsNoRoute() throws Exception {
        DefaultMQProducer p = producer(USER, "notTheSecret1");
        Exception e = assertThrows(MQClientException.class, () -> p.send(message("unsigned")), "send with a wrong secret");
        System.out.println("ProxyRemotingAcl2Test: " + e);
    }
}
