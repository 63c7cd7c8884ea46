package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 5.3.3 broker has no ACL 1.0 (the acl module, PlainAccessValidator and the request codes 50-54
 * were removed in 5.3.3, RIP-77): with aclEnable=true and compat/acl/plain_acl.yml in
 * ROCKETMQ_HOME/conf (compat/acl-suite.sh 5) it checks nothing, and answers the ACL 1.0 admin codes
 * as codes it does not know. The 4.x broker enforces the file (AclPlainTest).
 */
@Tag("acl")
class AclRemovedTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void topics() throws Exception {
        Assumptions.assumeTrue(Env.serversAreLine5(), "the 4.x broker enforces ACL 1.0 (AclPlainTest)");
        // An unsigned admin client creates them: nothing is checked.
        for (String t : List.of(Acl.TOPIC_A, Acl.TOPIC_B, Acl.TOPIC_DENY)) {
            Clients.createTopic(Clients.admin(), Env.brokerAddr(), Env.brokerName(), t, 2, 2);
        }
    }

    @AfterEach
    void runCleanups() throws Exception {
        Clients.runAll(cleanups);
    }

    private DefaultMQProducer producer(RPCHook hook) throws Exception {
        DefaultMQProducer p = Acl.producer(hook);
        cleanups.add(p::shutdown);
        return p;
    }

    private static void assertSent(DefaultMQProducer p, String topic, String what) throws Exception {
        SendResult r = p.send(new Message(topic, "TagA", "x".getBytes(StandardCharsets.UTF_8)),
            new MessageQueue(topic, Env.brokerName(), 0));
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), what + ": " + r);
    }

    @Test
    void nothingIsChecked() throws Exception {
        assertSent(producer(null), Acl.TOPIC_DENY, "unsigned, to a topic the file denies");
        assertSent(producer(Acl.hook(Acl.NORMAL_AK, "notTheSecret1")), Acl.TOPIC_A, "wrong secret");
        assertSent(producer(Acl.hook("aclNobody", "aclNobody123")), Acl.TOPIC_A, "unknown accessKey");
        assertSent(producer(Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK)), Acl.TOPIC_DENY, "a DENY topic");

        DefaultMQPullConsumer c = Acl.pullConsumer(Acl.GROUP_DENY, Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(c::shutdown);
        PullResult r = c.pull(new MessageQueue(Acl.TOPIC_A, Env.brokerName(), 0), "*", 0, 1);
        assertEquals(PullStatus.FOUND, r.getPullStatus(), "pull as a group the file denies: " + r);

        DefaultMQAdminExt normal = Acl.admin(Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(normal::shutdown);
        String topic = Clients.unique("acl_admin_topic");
        Clients.createTopic(normal, Env.brokerAddr(), Env.brokerName(), topic, 1, 1);
        normal.deleteTopicInBroker(Set.of(Env.brokerAddr()), topic);
    }

    @Test
    void aclAdminCodesAreUnknown() throws Exception {
        DefaultMQAdminExt root = Acl.admin(Acl.hook(Acl.ADMIN_AK, Acl.ADMIN_SK));
        cleanups.add(root::shutdown);
        StringBuilder seen = new StringBuilder();
        for (int code = 50; code <= 54; code++) {
            var r = Acl.raw(root, Env.brokerAddr(), code);
            seen.append(code).append(": ").append(r.getCode()).append(" ").append(r.getRemark()).append('\n');
            assertEquals(new Acl.Answer(3, " request type " + code + " not supported"),
                new Acl.Answer(r.getCode(), r.getRemark()), "request code " + code);
        }
        Files.writeString(Path.of(Env.runDir()).resolve("acl-codes-50-54.txt"), seen);
    }

    @Test
    void theFileIsLeftAlone() throws Exception {
        assertEquals(Acl.original(), Acl.brokerFileText(), "the broker's plain_acl.yml");
        assertTrue(Files.exists(Acl.brokerFile()));
    }
}
