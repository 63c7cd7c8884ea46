package org.rmqgo.compat;

import com.alibaba.fastjson.JSON;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.GetMaxOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.body.AclInfo;
import org.apache.rocketmq.remoting.protocol.body.UserInfo;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * ACL 2.0 on a 5.3.3 broker (authenticationEnabled and authorizationEnabled with the Local metadata
 * providers, initAuthenticationUser the super user; compat/acl2-suite.sh): users and ACLs made through
 * DefaultMQAdminExt, what a permitted, a wrongly signed, an unknown and an unsigned client get, a topic,
 * a group and a source address the ACL does not allow, requests that lack a header field, and the admin
 * calls' answers. Every refusal is NO_PERMISSION (16) with the AuthenticationException's or
 * AuthorizationException's message. The broker also starts with migrateAuthFromV1Enabled=true on compat/acl/plain_acl.yml: its ACL 1.0
 * accounts become users and ACLs.
 */
@Tag("acl2")
class Acl2Test {
    static final int NO_PERMISSION = 16;
    static final String SUPER = "acl2Root";
    static final String SUPER_PW = "acl2Root123";
    static final String NORMAL = "acl2Normal";
    static final String NORMAL_PW = "acl2Normal123";
    static final String TOPIC_A = "Acl2TopicA";
    static final String TOPIC_DENY = "Acl2TopicDeny";
    static final String TOPIC_OTHER = "Acl2TopicOther";
    static final String TOPIC_IP = "Acl2TopicIp";
    static final String GROUP_A = "Acl2GroupA";
    static final String GROUP_OTHER = "Acl2GroupOther";

    private static DefaultMQAdminExt rootAdmin;
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void usersAndTopics() throws Exception {
        Assumptions.assumeTrue(Env.serversAreLine5(), "ACL 2.0 is 5.3's");
        rootAdmin = Acl.admin(Acl.hook(SUPER, SUPER_PW));
        for (String t : List.of(TOPIC_A, TOPIC_DENY, TOPIC_OTHER, TOPIC_IP, Acl.TOPIC_A, Acl.TOPIC_DENY)) {
            Clients.createTopic(rootAdmin, Env.brokerAddr(), Env.brokerName(), t, 2, 2);
        }
        String addr = Env.brokerAddr();
        rootAdmin.createUser(addr, NORMAL, NORMAL_PW, null);
        rootAdmin.createAcl(addr, AclInfo.of("User:" + NORMAL,
            List.of("Topic:" + TOPIC_A, "Group:" + GROUP_A), List.of("Pub", "Sub"), null, "Allow"));
        rootAdmin.createAcl(addr, AclInfo.of("User:" + NORMAL, List.of("Topic:" + TOPIC_DENY), List.of("Pub"), null, "Deny"));
        rootAdmin.createAcl(addr, AclInfo.of("User:" + NORMAL, List.of("Topic:" + TOPIC_IP), List.of("Pub"),
            List.of("10.10.0.0/16"), "Allow"));
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

    private static MessageQueue queue(String topic) {
        return new MessageQueue(topic, Env.brokerName(), 0);
    }

    private static SendResult send(DefaultMQProducer p, String topic) throws Exception {
        return p.send(new Message(topic, "TagA", "acl2".getBytes(StandardCharsets.UTF_8)), queue(topic));
    }

    private static void assertRefused(String remark, Throwable t, String what) {
        assertEquals(new Acl.Answer(NO_PERMISSION, remark), Acl.answer(t), what);
    }

    private static String noPermission(String resource, String detail) {
        return "User:" + NORMAL + " has no permission to access " + resource + " from 127.0.0.1, " + detail;
    }

    @Test
    void permittedProducerAndConsumerWork() throws Exception {
        DefaultMQProducer p = producer(Acl.hook(NORMAL, NORMAL_PW));
        SendResult r = send(p, TOPIC_A);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        DefaultMQPullConsumer c = Acl.pullConsumer(GROUP_A, Acl.hook(NORMAL, NORMAL_PW));
        cleanups.add(c::shutdown);
        PullResult got = c.pull(queue(TOPIC_A), "*", 0, 32);
        assertEquals(PullStatus.FOUND, got.getPullStatus(), got.toString());
        // The super user may do anything, without an ACL.
        assertEquals(SendStatus.SEND_OK, send(producer(Acl.hook(SUPER, SUPER_PW)), TOPIC_DENY).getSendStatus());
    }

    /**
     * One connection, first signed right, then with a wrong secret. The stateless strategy (the default)
     * checks every request; the stateful one (compat/acl2-suite.sh with ACL2_STRATEGY=stateful, which
     * sets -Dcompat.acl2.stateful=true) keeps the connection's first answer, so the wrong secret passes.
     */
    @Test
    void aConnectionIsAuthenticatedAsTheStrategySays() throws Exception {
        boolean stateful = Boolean.getBoolean("compat.acl2.stateful");
        AtomicReference<SessionCredentials> creds = new AtomicReference<>(new SessionCredentials(SUPER, SUPER_PW));
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.registerRPCHook(new RPCHook() {
            @Override
            public void doBeforeRequest(String addr, RemotingCommand request) {
                new AclClientRPCHook(creds.get()).doBeforeRequest(addr, request);
            }

            @Override
            public void doAfterResponse(String addr, RemotingCommand request, RemotingCommand response) {
            }
        });
        client.start();
        cleanups.add(client::shutdown);
        assertEquals(0, maxOffset(client).getCode(), "signed right");
        creds.set(new SessionCredentials(SUPER, "notTheSecret1"));
        RemotingCommand second = maxOffset(client);
        if (stateful) {
            assertEquals(0, second.getCode(), "stateful: the connection's answer is kept");
        } else {
            assertEquals(new Acl.Answer(NO_PERMISSION, "check signature failed."),
                new Acl.Answer(second.getCode(), second.getRemark()), "stateless: every request checked");
        }
    }

    private static RemotingCommand maxOffset(NettyRemotingClient client) throws Exception {
        GetMaxOffsetRequestHeader h = new GetMaxOffsetRequestHeader();
        h.setTopic(TOPIC_A);
        h.setQueueId(0);
        return client.invokeSync(Env.brokerAddr(), RemotingCommand.createRequestCommand(RequestCode.GET_MAX_OFFSET, h), 5000);
    }

    @Test
    void wrongSecretUnknownUserAndUnsignedAreRefused() throws Exception {
        assertRefused("check signature failed.",
            assertThrows(Exception.class, () -> send(producer(Acl.hook(NORMAL, "notTheSecret1")), TOPIC_A)), "wrong secret");
        assertRefused("User:acl2Nobody is not found.",
            assertThrows(Exception.class, () -> send(producer(Acl.hook("acl2Nobody", "acl2Nobody123")), TOPIC_A)), "unknown user");
        assertRefused("username cannot be null.",
            assertThrows(Exception.class, () -> send(producer(null), TOPIC_A)), "unsigned");
    }

    @Test
    void topicGroupAndSourceAddressTheAclDoesNotAllowAreRefused() throws Exception {
        DefaultMQProducer p = producer(Acl.hook(NORMAL, NORMAL_PW));
        assertRefused(noPermission("Topic:" + TOPIC_DENY, "the decision is deny."),
            assertThrows(Exception.class, () -> send(p, TOPIC_DENY)), "topic denied");
        assertRefused(noPermission("Topic:" + TOPIC_OTHER, "no matched policies."),
            assertThrows(Exception.class, () -> send(p, TOPIC_OTHER)), "topic not in the ACL");
        assertRefused(noPermission("Topic:" + TOPIC_IP, "no matched policies."),
            assertThrows(Exception.class, () -> send(p, TOPIC_IP)), "allowed from 10.10.0.0/16 only");
        DefaultMQPullConsumer c = Acl.pullConsumer(GROUP_OTHER, Acl.hook(NORMAL, NORMAL_PW));
        cleanups.add(c::shutdown);
        assertRefused(noPermission("Group:" + GROUP_OTHER, "no matched policies."),
            assertThrows(Exception.class, () -> c.pull(queue(TOPIC_A), "*", 0, 1)), "group not in the ACL");
    }

    @Test
    void adminCallsAnswerAsJava() throws Exception {
        String addr = Env.brokerAddr();
        UserInfo u = rootAdmin.getUser(addr, NORMAL);
        assertEquals("{\"password\":\"acl2Normal123\",\"userStatus\":\"enable\",\"userType\":\"Normal\",\"username\":\"acl2Normal\"}",
            JSON.toJSONString(u));
        assertNull(rootAdmin.getUser(addr, "acl2Ghost"));
        assertEquals("[{\"password\":\"acl2Normal123\",\"userStatus\":\"enable\",\"userType\":\"Normal\",\"username\":\"acl2Normal\"}]",
            JSON.toJSONString(rootAdmin.listUser(addr, "acl2N")));
        assertEquals("{\"policies\":[{\"entries\":["
                + "{\"actions\":[\"Pub\",\"Sub\"],\"decision\":\"Allow\",\"resource\":\"Topic:Acl2TopicA\"},"
                + "{\"actions\":[\"Pub\",\"Sub\"],\"decision\":\"Allow\",\"resource\":\"Group:Acl2GroupA\"},"
                + "{\"actions\":[\"Pub\"],\"decision\":\"Deny\",\"resource\":\"Topic:Acl2TopicDeny\"},"
                + "{\"actions\":[\"Pub\"],\"decision\":\"Allow\",\"resource\":\"Topic:Acl2TopicIp\",\"sourceIps\":[\"10.10.0.0/16\"]}"
                + "],\"policyType\":\"Custom\"}],\"subject\":\"User:acl2Normal\"}",
            JSON.toJSONString(rootAdmin.getAcl(addr, "User:" + NORMAL)));
        assertEquals(1, rootAdmin.listAcl(addr, NORMAL, "Acl2TopicIp").get(0).getPolicies().get(0).getEntries().size());

        assertRefused("The user is existed",
            assertThrows(Exception.class, () -> rootAdmin.createUser(addr, NORMAL, "x1234567", null)), "existing user");
        assertRefused("The subject of User:acl2Ghost is not exist.", assertThrows(Exception.class, () -> rootAdmin.createAcl(addr,
            AclInfo.of("User:acl2Ghost", List.of("Topic:T"), List.of("Pub"), null, "Allow"))), "acl of an unknown user");
        assertRefused("The source ip is invalid.", assertThrows(Exception.class, () -> rootAdmin.createAcl(addr,
            AclInfo.of("User:" + NORMAL, List.of("Topic:T"), List.of("Pub"), List.of("10.10.0.*"), "Allow"))), "bad address");
        DefaultMQAdminExt normalAdmin = Acl.admin(Acl.hook(NORMAL, NORMAL_PW));
        cleanups.add(normalAdmin::shutdown);
        assertRefused(noPermission("Cluster:DefaultCluster", "no matched policies."),
            assertThrows(Exception.class, () -> normalAdmin.listUser(addr, "")), "a normal user manages no users");

        String temp = "acl2Temp";
        rootAdmin.createUser(addr, temp, "acl2Temp123", null);
        rootAdmin.createAcl(addr, AclInfo.of("User:" + temp, List.of("Topic:" + TOPIC_A), List.of("Pub"), null, "Allow"));
        assertEquals(SendStatus.SEND_OK, send(producer(Acl.hook(temp, "acl2Temp123")), TOPIC_A).getSendStatus());
        rootAdmin.updateUser(addr, temp, null, null, "disable");
        assertRefused("User:acl2Temp is disabled.",
            assertThrows(Exception.class, () -> send(producer(Acl.hook(temp, "acl2Temp123")), TOPIC_A)), "disabled user");
        rootAdmin.deleteAcl(addr, "User:" + temp, "Topic:" + TOPIC_A);
        assertRefused("The acl is not exist.",
            assertThrows(Exception.class, () -> rootAdmin.deleteAcl(addr, "User:" + temp, null)), "acl deleted with its last entry");
        rootAdmin.deleteUser(addr, temp);
        assertNull(rootAdmin.getUser(addr, temp));
    }

    /**
     * What the authorization context builder (DefaultAuthorizationContextBuilder) makes of a request that
     * lacks a header field, all on one raw connection, which every answer leaves open. The header decoder
     * only logs a missing required (@CFNotNull) field, so a missing field of the builder's switch names
     * the resource "null" and a missing annotated field asks nothing; a header whose checkFields throws
     * (CreateTopicRequestHeader's topicFilterType, missing or not an enum name) fails the builder:
     * "parse authorization context error.", once authentication passed.
     */
    @Test
    void missingHeaderFieldsAnswerAsJava() throws Exception {
        RPCHook root = Acl.hook(SUPER, SUPER_PW);
        RPCHook normal = Acl.hook(NORMAL, NORMAL_PW);
        String parse = "parse authorization context error.";
        try (RawConnection c = new RawConnection(Env.brokerAddr())) {
            int create = RequestCode.UPDATE_AND_CREATE_TOPIC;
            assertAnswer(parse, c.call(root, create, createTopic(null), null), "no topicFilterType");
            assertAnswer(parse, c.call(root, create, createTopic("single_tag"), null), "not an enum name");
            assertAnswer("User:acl2Nobody is not found.",
                c.call(Acl.hook("acl2Nobody", "acl2Nobody123"), create, createTopic(null), null), "authentication first");
            RemotingCommand created = c.call(root, create, createTopic("SINGLE_TAG"), null);
            assertEquals(0, created.getCode(), created.getRemark());

            Map<String, String> send = sendFields();
            send.remove("b");
            assertAnswer(noPermission("Topic:null", "no matched policies."),
                c.call(normal, RequestCode.SEND_MESSAGE_V2, send, "x".getBytes(StandardCharsets.UTF_8)), "send without b");
            assertAnswer(noPermission("Group:null", "no matched policies."),
                c.call(normal, RequestCode.GET_CONSUMER_LIST_BY_GROUP, Map.of(), null), "no consumerGroup");
            assertNotEquals(NO_PERMISSION,
                c.call(normal, RequestCode.GET_MAX_OFFSET, Map.of("queueId", "0"), null).getCode(),
                "no topic field: nothing to authorize");
        }
    }

    private static void assertAnswer(String remark, RemotingCommand answer, String what) {
        assertEquals(new Acl.Answer(NO_PERMISSION, remark), new Acl.Answer(answer.getCode(), answer.getRemark()), what);
    }

    /** An UPDATE_AND_CREATE_TOPIC header of topic Acl2TopicRaw; filterType null leaves it out. */
    private static Map<String, String> createTopic(String filterType) {
        Map<String, String> f = new HashMap<>(Map.of("topic", "Acl2TopicRaw", "defaultTopic", "TBW102",
            "readQueueNums", "2", "writeQueueNums", "2", "perm", "6", "topicSysFlag", "0", "order", "false"));
        if (filterType != null) {
            f.put("topicFilterType", filterType);
        }
        return f;
    }

    /** A SEND_MESSAGE_V2 header (SendMessageRequestHeaderV2's one-letter fields) to Acl2TopicA, queue 0. */
    private static Map<String, String> sendFields() {
        return new HashMap<>(Map.ofEntries(Map.entry("a", "acl2RawPG"), Map.entry("b", TOPIC_A),
            Map.entry("c", "TBW102"), Map.entry("d", "4"), Map.entry("e", "0"), Map.entry("f", "0"),
            Map.entry("g", Long.toString(System.currentTimeMillis())), Map.entry("h", "0"), Map.entry("i", ""),
            Map.entry("j", "0"), Map.entry("k", "false"), Map.entry("m", "false")));
    }

    /** One TCP connection to the broker: each call writes a request and reads its answer on it. */
    private static final class RawConnection implements AutoCloseable {
        private final Socket socket = new Socket();
        private final DataInputStream in;

        RawConnection(String addr) throws IOException {
            int colon = addr.lastIndexOf(':');
            socket.connect(new InetSocketAddress(addr.substring(0, colon), Integer.parseInt(addr.substring(colon + 1))), 5000);
            socket.setSoTimeout(15_000);
            in = new DataInputStream(socket.getInputStream());
        }

        /** The request of code, ext fields and body, signed by hook, and the broker's answer. */
        RemotingCommand call(RPCHook hook, int code, Map<String, String> fields, byte[] body) throws Exception {
            RemotingCommand req = RemotingCommand.createRequestCommand(code, null);
            fields.forEach(req::addExtField);
            req.setBody(body);
            hook.doBeforeRequest(Env.brokerAddr(), req);
            ByteBuffer frame = req.encode();
            socket.getOutputStream().write(frame.array(), 0, frame.limit());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            return RemotingCommand.decode(answer);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void acl1AccountsAreMigrated() throws Exception {
        String addr = Env.brokerAddr();
        assertEquals("{\"password\":\"12345678\",\"userStatus\":\"enable\",\"userType\":\"Super\",\"username\":\"RocketMQ\"}",
            JSON.toJSONString(rootAdmin.getUser(addr, Acl.ADMIN_AK)), "admin: true is a super user");
        assertEquals("{\"policies\":[{\"entries\":["
                + "{\"actions\":[\"Pub\",\"Sub\"],\"decision\":\"Allow\",\"resource\":\"Topic:AclTopicA\"},"
                + "{\"actions\":[\"Pub\"],\"decision\":\"Allow\",\"resource\":\"Topic:AclTopicB\"},"
                + "{\"actions\":[\"All\"],\"decision\":\"Deny\",\"resource\":\"Topic:AclTopicDeny\"},"
                + "{\"actions\":[\"Sub\"],\"decision\":\"Allow\",\"resource\":\"Group:AclGroupA\"},"
                + "{\"actions\":[\"All\"],\"decision\":\"Deny\",\"resource\":\"Group:AclGroupDeny\"}],\"policyType\":\"Custom\"},"
                + "{\"entries\":[{\"actions\":[\"All\"],\"decision\":\"Deny\",\"resource\":\"Topic:*\"},"
                + "{\"actions\":[\"Sub\"],\"decision\":\"Allow\",\"resource\":\"Group:*\"}],\"policyType\":\"Default\"}],"
                + "\"subject\":\"User:aclNormal\"}",
            JSON.toJSONString(rootAdmin.getAcl(addr, "User:" + Acl.NORMAL_AK)));
        DefaultMQProducer p = producer(Acl.hook(Acl.NORMAL_AK, Acl.NORMAL_SK));
        assertEquals(SendStatus.SEND_OK, send(p, Acl.TOPIC_A).getSendStatus());
        assertRefused("User:aclNormal has no permission to access Topic:AclTopicDeny from 127.0.0.1, the decision is deny.",
            assertThrows(Exception.class, () -> send(p, Acl.TOPIC_DENY)), "a DENY topic perm");
    }
}
