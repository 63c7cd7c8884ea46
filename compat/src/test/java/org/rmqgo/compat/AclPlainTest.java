package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACL 1.0 on a 4.x broker (aclEnable=true, compat/acl/plain_acl.yml; compat/acl-suite.sh 4): what
 * a signed, a wrongly signed and an unsigned client may do, the exact answer of every refusal, the
 * admin-only request codes, plain_acl.yml changes taking effect without a restart, and the ACL admin
 * calls of DefaultMQAdminExt with what they write to the file. The 5.3.3 broker has no ACL 1.0
 * (AclRemovedTest).
 */
@Tag("acl")
class AclPlainTest {
    /** Where the 4.9.7 broker's refusals come from: RemotingHelper.exceptionSimpleDesc of the AclException. */
    private static final String EX = "org.apache.rocketmq.acl.common.AclException: ";
    private static final String AT = ", org.apache.rocketmq.acl.plain.PlainPermissionManager.";

    private static DefaultMQAdminExt rootAdmin;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void topics() throws Exception {
        Assumptions.assumeFalse(Env.serversAreLine5(), "ACL 1.0 is not in the 5.3.3 broker (AclRemovedTest)");
        rootAdmin = Acl.admin(Acl.hook(Acl.ADMIN_AK, Acl.ADMIN_SK));
        for (String t : List.of(Acl.TOPIC_A, Acl.TOPIC_B, Acl.TOPIC_DENY)) {
            Clients.createTopic(rootAdmin, Env.brokerAddr(), Env.brokerName(), t, 2, 2);
        }
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

    private DefaultMQProducer producer(RPCHook hook) throws Exception {
        DefaultMQProducer p = Acl.producer(hook);
        cleanups.add(p::shutdown);
        return p;
    }

    private DefaultMQProducer producer(String ak, String sk) throws Exception {
        return producer(Acl.hook(ak, sk));
    }

    private static MessageQueue queue(String topic) {
        return new MessageQueue(topic, Env.brokerName(), 0);
    }

    private static SendResult send(DefaultMQProducer p, String topic, String body) throws Exception {
        return p.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)), queue(topic));
    }

    private static void assertSent(DefaultMQProducer p, String topic) throws Exception {
        SendResult r = send(p, topic, "ok");
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), "send to " + topic + ": " + r);
    }

    /** The broker's answer to a send to topic that must be refused. */
    private static Acl.Answer refusedSend(DefaultMQProducer p, String topic) {
        Exception e = assertThrows(Exception.class, () -> send(p, topic, "refused"), "send to " + topic);
        return Acl.answer(e);
    }

    private static void assertAnswer(int code, String remark, Acl.Answer got, String what) {
        assertEquals(new Acl.Answer(code, remark), got, what);
    }

    /**
     * SYSTEM_ERROR with the AclException's message thrown at PlainPermissionManager.method(line).
     * where names the line of the 4.9.7 jar, the Java broker the suite runs (measured). Our broker
     * speaks 4.9.8, whose PlainPermissionManager throws each of these one line further down
     * (rocketmq-all-4.9.8 sources; Maven Central has no 4.9.8 broker to run): for BROKER_IMPL=go the
     * expected line is moved by one.
     */
    private static void assertAcl(String message, String where, Acl.Answer got, String what) {
        assertAnswer(Acl.SYSTEM_ERROR, EX + message + AT + frame(where), got, what);
    }

    private static String frame(String where497) {
        if (!"go".equals(Env.optional("BROKER_IMPL", "java"))) {
            return where497;
        }
        var m = java.util.regex.Pattern.compile("^(.*\\(PlainPermissionManager\\.java:)(\\d+)\\)$").matcher(where497);
        if (!m.matches()) {
            throw new IllegalArgumentException(where497);
        }
        return m.group(1) + (Integer.parseInt(m.group(2)) + 1) + ")";
    }

    @Test
    void permittedProducerSendsAndPermittedConsumerReceivesEveryMessage() throws Exception {
        DefaultMQProducer p = producer(Acl.NORMAL_AK, Acl.NORMAL_SK);
        Set<String> got = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(Acl.GROUP_A, Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK),
            new org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely());
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(Clients.unique("aclconsumer"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(Acl.TOPIC_A, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> got.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        cleanups.add(c::shutdown);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String body = Clients.unique("acl_body");
            SendResult r = p.send(new Message(Acl.TOPIC_A, "TagA", body.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            sent.add(body);
        }
        Eventually.eventually(Duration.ofSeconds(60), "the consumer of " + Acl.GROUP_A + " receives all 20", () -> {
            List<String> missing = sent.stream().filter(b -> !got.contains(b)).toList();
            assertTrue(missing.isEmpty(), "missing " + missing.size() + ": " + missing);
            return null;
        });
        // PUB alone is enough to send.
        assertSent(p, Acl.TOPIC_B);
        // The admin account holds every permission.
        assertSent(producer(Acl.ADMIN_AK, Acl.ADMIN_SK), Acl.TOPIC_DENY);
    }

    @Test
    void wrongSecretIsRefused() throws Exception {
        assertAcl("Check signature failed for accessKey=aclNormal", "validate(PlainPermissionManager.java:683)",
            refusedSend(producer(Acl.NORMAL_AK, "notTheSecret1"), Acl.TOPIC_A), "wrong secret");
    }

    @Test
    void unknownAccessKeyIsRefused() throws Exception {
        assertAcl("No acl config for aclNobody", "validate(PlainPermissionManager.java:667)",
            refusedSend(producer("aclNobody", "aclNobody123"), Acl.TOPIC_A), "unknown accessKey");
    }

    @Test
    void unsignedRequestIsRefused() throws Exception {
        assertAcl("No accessKey is configured", "validate(PlainPermissionManager.java:663)",
            refusedSend(producer(null), Acl.TOPIC_A), "no signature");
    }

    @Test
    void topicWithoutPubIsRefused() throws Exception {
        DefaultMQProducer p = producer(Acl.NORMAL_AK, Acl.NORMAL_SK);
        // Listed as DENY: the explicit check (the remark says "default" all the same).
        assertAcl("No default permission for topic:AclTopicDeny", "checkPerm(PlainPermissionManager.java:610)",
            refusedSend(p, Acl.TOPIC_DENY), "topic listed DENY");
        // Not listed: defaultTopicPerm DENY.
        String other = Clients.unique("acl_unlisted");
        Clients.createTopic(rootAdmin, Env.brokerAddr(), Env.brokerName(), other, 1, 1);
        assertAcl("No default permission for topic:" + other, "checkPerm(PlainPermissionManager.java:605)",
            refusedSend(p, other), "topic not listed");
        // PUB but not SUB: a pull is refused for the topic.
        DefaultMQPullConsumer c = Acl.pullConsumer(Acl.GROUP_A, Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(c::shutdown);
        Exception e = assertThrows(Exception.class, () -> c.pull(queue(Acl.TOPIC_B), "*", 0, 1), "pull AclTopicB");
        assertAcl("No default permission for topic:AclTopicB", "checkPerm(PlainPermissionManager.java:610)",
            Acl.answer(e), "pull from a PUB-only topic");
    }

    @Test
    void groupWithoutSubIsRefused() throws Exception {
        DefaultMQPullConsumer c = Acl.pullConsumer(Acl.GROUP_DENY, Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(c::shutdown);
        Exception e = assertThrows(Exception.class, () -> c.pull(queue(Acl.TOPIC_A), "*", 0, 1), "pull as AclGroupDeny");
        assertAcl("No default permission for group:AclGroupDeny", "checkPerm(PlainPermissionManager.java:610)",
            Acl.answer(e), "group listed DENY");
        // A group that is not listed has defaultGroupPerm SUB.
        DefaultMQPullConsumer ok = Acl.pullConsumer(Clients.unique("acl_unlisted_group"),
            Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(ok::shutdown);
        PullResult r = ok.pull(queue(Acl.TOPIC_A), "*", 0, 1);
        assertNotNull(r.getPullStatus(), "pull as an unlisted group: " + r);
    }

    @Test
    void adminOnlyRequestsNeedTheAdminAccount() throws Exception {
        DefaultMQAdminExt normal = Acl.admin(Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(normal::shutdown);
        String topic = Clients.unique("acl_admin_topic");
        Exception e = assertThrows(Exception.class, () -> normal.createAndUpdateTopicConfig(Env.brokerAddr(),
            Clients.topicConfig(topic, 1, 1)), "createTopic as a normal account");
        assertAcl("Need admin permission for request code=17, but accessKey=aclNormal is not",
            "checkPerm(PlainPermissionManager.java:580)", Acl.answer(e), "UPDATE_AND_CREATE_TOPIC (17)");
        Clients.createTopic(rootAdmin, Env.brokerAddr(), Env.brokerName(), topic, 1, 1);
        e = assertThrows(Exception.class, () -> normal.deleteTopicInBroker(Set.of(Env.brokerAddr()), topic),
            "deleteTopicInBroker as a normal account");
        assertAcl("Need admin permission for request code=215, but accessKey=aclNormal is not",
            "checkPerm(PlainPermissionManager.java:580)", Acl.answer(e), "DELETE_TOPIC_IN_BROKER (215)");
        // The admin account may.
        rootAdmin.deleteTopicInBroker(Set.of(Env.brokerAddr()), topic);
    }

    @Test
    void whiteRemoteAddressSkipsSignatureAndPermissions() throws Exception {
        // aclWhiteOnly's whiteRemoteAddress is 127.0.0.1: a wrong secret and a DENY topic pass.
        assertSent(producer(Acl.WHITE_AK, "notTheSecret1"), Acl.TOPIC_DENY);
        // aclOtherHost's (192.168.1.*) does not match this host: its signature is checked.
        assertAcl("Check signature failed for accessKey=aclOtherHost", "validate(PlainPermissionManager.java:683)",
            refusedSend(producer(Acl.OTHER_HOST_AK, "notTheSecret1"), Acl.TOPIC_A), "other host, wrong secret");
        assertSent(producer(Acl.OTHER_HOST_AK, Acl.OTHER_HOST_SK), Acl.TOPIC_A);
    }

    /**
     * Puts compat/acl/plain_acl.yml back and waits until the broker has read it again: until probe,
     * whose account the original file lacks, is refused with message thrown at where.
     */
    private void restoreFile(DefaultMQProducer probe, String message, String where) throws Exception {
        Acl.writeBrokerFile(Acl.original());
        Eventually.eventually(Duration.ofSeconds(30), "the broker reads the original plain_acl.yml again", () -> {
            assertAcl(message, where, refusedSend(probe, Acl.TOPIC_A), "after the restore");
            return null;
        });
    }

    /**
     * How the 4.9.7 broker refuses an account that a reload of its file took away: a reload of one
     * changed file (PlainPermissionManager.load(path)) rebuilds that file's accounts but never drops a
     * key from its accessKey-to-file table, so the key is known and its account is not.
     */
    private void restoreFileDroppingAccount(DefaultMQProducer probe, String accessKey) throws Exception {
        restoreFile(probe, "No PlainAccessResource for accessKey=" + accessKey,
            "validate(PlainPermissionManager.java:674)");
    }

    @Test
    @Timeout(180)
    void fileChangesTakeEffectWithoutRestart() throws Exception {
        String original = Acl.original();
        assertEquals(original, Acl.brokerFileText(), "the broker starts on compat/acl/plain_acl.yml");
        String changed = original.replace("  - AclTopicB=PUB\n", "  - AclTopicB=DENY\n")
            + "- accessKey: aclHotAdded\n"
            + "  secretKey: aclHotAdded123\n"
            + "  admin: false\n"
            + "  defaultTopicPerm: DENY\n"
            + "  topicPerms:\n"
            + "  - AclTopicA=PUB\n";
        DefaultMQProducer hot = producer("aclHotAdded", "aclHotAdded123");
        DefaultMQProducer normal = producer(Acl.NORMAL_AK, Acl.NORMAL_SK);
        assertAcl("No acl config for aclHotAdded", "validate(PlainPermissionManager.java:667)",
            refusedSend(hot, Acl.TOPIC_A), "before the change");
        assertSent(normal, Acl.TOPIC_B);
        Acl.writeBrokerFile(changed);
        cleanups.add(() -> restoreFileDroppingAccount(hot, "aclHotAdded"));
        Eventually.eventually(Duration.ofSeconds(30), "the new account may send", () -> {
            assertSent(hot, Acl.TOPIC_A);
            return null;
        });
        Eventually.eventually(Duration.ofSeconds(30), "AclTopicB=DENY holds", () -> {
            assertAcl("No default permission for topic:AclTopicB", "checkPerm(PlainPermissionManager.java:610)",
                refusedSend(normal, Acl.TOPIC_B), "AclTopicB after the change");
            return null;
        });
        cleanups.remove(cleanups.size() - 1);
        restoreFileDroppingAccount(hot, "aclHotAdded");
        assertSent(normal, Acl.TOPIC_B);
    }

    @Test
    @Timeout(240)
    void aclAdminCallsOfDefaultMQAdminExt() throws Exception {
        Assumptions.assumeTrue(AclLine.HAS_ACL1_ADMIN, "the 5.3.3 DefaultMQAdminExt has no ACL 1.0 calls");
        String addr = Env.brokerAddr();
        Path out = Path.of(Env.runDir());
        DefaultMQProducer unsigned = producer(null);
        DefaultMQProducer created = producer("aclCreated1", "aclCreated123");
        // deletePlainAccessConfig drops the key from the table too: "No acl config" after the restore.
        cleanups.add(() -> restoreFile(created, "No acl config for aclCreated1",
            "validate(PlainPermissionManager.java:667)"));

        Map<String, Object> v0 = AclLine.examineBrokerClusterAclVersionInfo(rootAdmin, addr);
        Files.writeString(out.resolve("acl-version-0.txt"), v0.toString());
        assertEquals(Env.brokerName(), v0.get("brokerName"), "version info " + v0);
        assertEquals(Env.clusterName(), v0.get("clusterName"), "version info " + v0);
        assertEquals(addr, v0.get("brokerAddr"), "version info " + v0);
        assertEquals(List.of(Acl.brokerFile().toString()), v0.get("files"), "version info " + v0);

        // createAndUpdatePlainAccessConfig: the account is in the file, in Java's format, and in force.
        AclLine.createAndUpdatePlainAccessConfig(rootAdmin, addr, "aclCreated1", "aclCreated123", "192.168.1.*",
            false, "DENY", "SUB", List.of("AclTopicA=PUB", "AclTopicB=PUB|SUB"), List.of("AclGroupA=SUB"));
        String afterCreate = Acl.brokerFileText();
        Files.writeString(out.resolve("plain_acl-after-create.yml"), afterCreate);
        assertTrue(afterCreate.contains("- accessKey: aclCreated1\n  secretKey: aclCreated123\n"
            + "  whiteRemoteAddress: 192.168.1.*\n  admin: false\n  defaultTopicPerm: DENY\n"
            + "  defaultGroupPerm: SUB\n  topicPerms:\n  - AclTopicA=PUB\n  - AclTopicB=PUB|SUB\n"
            + "  groupPerms:\n  - AclGroupA=SUB\n"), "the account as Java writes it:\n" + afterCreate);
        assertTrue(afterCreate.contains("dataVersion:\n- counter: 1\n  timestamp: "), afterCreate);
        assertFalse(afterCreate.contains("#"), "Java rewrites the file without the comments:\n" + afterCreate);
        Eventually.eventually(Duration.ofSeconds(30), "aclCreated1 may send", () -> {
            assertSent(created, Acl.TOPIC_A);
            return null;
        });
        Map<String, Object> v1 = AclLine.examineBrokerClusterAclVersionInfo(rootAdmin, addr);
        Files.writeString(out.resolve("acl-version-1.txt"), v1.toString());
        assertEquals(Map.of(Acl.brokerFile().toString(), 1L), v1.get("fileCounters"), "version info " + v1);

        // GET_BROKER_CLUSTER_ACL_CONFIG (54), which the 4.9.8 DefaultMQAdminExt no longer sends.
        var r = Acl.raw(rootAdmin, addr, 54);
        String body = r.getBody() == null ? "" : new String(r.getBody(), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("acl-config-54.json"), r.getCode() + " " + r.getRemark() + "\n" + body);
        assertEquals(0, r.getCode(), "code 54: " + r);
        assertTrue(body.contains("\"accessKey\":\"aclCreated1\""), body);
        assertTrue(body.contains("\"globalWhiteAddrs\":[\"10.10.103.*\",\"192.168.0.*\"]"), body);

        // updateGlobalWhiteAddrConfig: 127.0.0.1 on the global white list lets an unsigned client in.
        AclLine.updateGlobalWhiteAddrConfig(rootAdmin, addr, "10.10.103.*,192.168.0.*,127.0.0.1");
        String afterWhite = Acl.brokerFileText();
        Files.writeString(out.resolve("plain_acl-after-global-white.yml"), afterWhite);
        assertTrue(afterWhite.contains("globalWhiteRemoteAddresses:\n- 10.10.103.*\n- 192.168.0.*\n- 127.0.0.1\n"),
            afterWhite);
        Eventually.eventually(Duration.ofSeconds(30), "an unsigned client may send", () -> {
            assertSent(unsigned, Acl.TOPIC_DENY);
            return null;
        });
        AclLine.updateGlobalWhiteAddrConfig(rootAdmin, addr, "10.10.103.*,192.168.0.*");
        Eventually.eventually(Duration.ofSeconds(30), "an unsigned client is refused again", () -> {
            assertAcl("No accessKey is configured", "validate(PlainPermissionManager.java:663)",
                refusedSend(unsigned, Acl.TOPIC_A), "unsigned");
            return null;
        });

        // The ACL codes are not admin codes: a normal account may add and delete accounts.
        DefaultMQAdminExt normal = Acl.admin(Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        cleanups.add(normal::shutdown);
        AclLine.createAndUpdatePlainAccessConfig(normal, addr, "aclCreated2", "aclCreated223", "192.168.1.*", false,
            "DENY", "SUB", List.of("AclTopicA=PUB"), List.of("AclGroupA=SUB"));
        assertTrue(Acl.brokerFileText().contains("- accessKey: aclCreated2\n"), Acl.brokerFileText());
        AclLine.deletePlainAccessConfig(normal, addr, "aclCreated2");

        // Refusals of the ACL calls themselves.
        Exception e = assertThrows(Exception.class, () -> AclLine.createAndUpdatePlainAccessConfig(rootAdmin, addr,
            "aclShort1", "123", "192.168.1.*", false, "DENY", "SUB", List.of("AclTopicA=PUB"),
            List.of("AclGroupA=SUB")), "a secret of 3 characters");
        assertAnswer(209, "The accessKey=aclShort1 and secretKey=123 cannot be null and length should longer than 6",
            Acl.answer(e), "UPDATE_AND_CREATE_ACL_CONFIG (50) refused");
        e = assertThrows(Exception.class, () -> AclLine.deletePlainAccessConfig(rootAdmin, addr, "aclNobody"),
            "delete an unknown account");
        assertAnswer(210, "The accesskey[aclNobody] corresponding to accessConfig has been deleted failed.",
            Acl.answer(e), "DELETE_ACL_CONFIG (51) refused");

        // deletePlainAccessConfig: gone from the file and from the broker.
        AclLine.deletePlainAccessConfig(rootAdmin, addr, "aclCreated1");
        String afterDelete = Acl.brokerFileText();
        Files.writeString(out.resolve("plain_acl-after-delete.yml"), afterDelete);
        assertFalse(afterDelete.contains("aclCreated1"), afterDelete);
        Eventually.eventually(Duration.ofSeconds(30), "aclCreated1 is refused", () -> {
            assertAcl("No acl config for aclCreated1", "validate(PlainPermissionManager.java:667)",
                refusedSend(created, Acl.TOPIC_A), "after the delete");
            return null;
        });
        Map<String, Object> v2 = AclLine.examineBrokerClusterAclVersionInfo(rootAdmin, addr);
        Files.writeString(out.resolve("acl-version-2.txt"), v2.toString());
    }
}
