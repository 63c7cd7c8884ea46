package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * ACL 1.0 helpers for the tests tagged "acl" (compat/acl-suite.sh): the accounts of
 * compat/acl/plain_acl.yml, clients that sign with the Java client's AclClientRPCHook, the broker's
 * copy of plain_acl.yml, and what a refused request answered.
 */
final class Acl {
    /** The admin account of compat/acl/plain_acl.yml. */
    static final String ADMIN_AK = "RocketMQ";
    static final String ADMIN_SK = "12345678";
    /** defaultTopicPerm DENY, defaultGroupPerm SUB; AclTopicA=PUB|SUB, AclTopicB=PUB, AclTopicDeny=DENY; AclGroupA=SUB, AclGroupDeny=DENY. */
    static final String NORMAL_AK = "aclNormal";
    static final String NORMAL_SK = "aclNormal123";
    /** whiteRemoteAddress 127.0.0.1, all perms DENY. */
    static final String WHITE_AK = "aclWhiteOnly";
    /** whiteRemoteAddress 192.168.1.* (not this host), defaultTopicPerm PUB. */
    static final String OTHER_HOST_AK = "aclOtherHost";
    static final String OTHER_HOST_SK = "aclOtherHost123";

    static final String TOPIC_A = "AclTopicA";
    static final String TOPIC_B = "AclTopicB";
    static final String TOPIC_DENY = "AclTopicDeny";
    static final String GROUP_A = "AclGroupA";
    static final String GROUP_DENY = "AclGroupDeny";

    /** ResponseCode.SYSTEM_ERROR: what the 4.x broker answers a request its RPC hook refused. */
    static final int SYSTEM_ERROR = 1;

    private Acl() {
    }

    static RPCHook hook(String accessKey, String secretKey) {
        return new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    /** A started producer that signs with (accessKey, secretKey); hook null: unsigned. */
    static DefaultMQProducer producer(RPCHook hook) throws MQClientException {
        DefaultMQProducer p = hook == null ? new DefaultMQProducer(Clients.unique("aclpg"))
            : new DefaultMQProducer(Clients.unique("aclpg"), hook);
        p.setNamesrvAddr(Env.namesrvAddr());
        // Its own instance: clients of one instance name share one MQClientInstance, and so one hook.
        p.setInstanceName(Clients.unique("aclproducer"));
        p.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        p.setRetryTimesWhenSendFailed(0);
        p.start();
        return p;
    }

    /** A started admin client that signs with the hook (null: unsigned). */
    static DefaultMQAdminExt admin(RPCHook hook) throws MQClientException {
        DefaultMQAdminExt a = hook == null ? new DefaultMQAdminExt() : new DefaultMQAdminExt(hook);
        a.setNamesrvAddr(Env.namesrvAddr());
        a.setInstanceName(Clients.unique("acladmin"));
        a.setAdminExtGroup(Clients.unique("acladmin_group"));
        a.start();
        return a;
    }

    /** A started pull consumer of group that signs with the hook. */
    @SuppressWarnings("deprecation")
    static DefaultMQPullConsumer pullConsumer(String group, RPCHook hook) throws MQClientException {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(group, hook);
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(Clients.unique("aclpull"));
        c.start();
        return c;
    }

    /** Sends request code with no header and no body to addr through admin's remoting client (and so its hook). */
    static RemotingCommand raw(DefaultMQAdminExt admin, String addr, int code) throws Exception {
        var api = MQClientManager.getInstance().getOrCreateMQClientInstance(admin).getMQClientAPIImpl();
        return api.getRemotingClient().invokeSync(addr, RemotingCommand.createRequestCommand(code, null), 15_000);
    }

    /** What the broker answered: the response code and remark of a refused request. */
    record Answer(int code, String remark) {
    }

    /**
     * The broker's answer inside what a client call threw: the first MQBrokerException of the cause
     * chain, else the first MQClientException that carries a response code.
     */
    static Answer answer(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof MQBrokerException b) {
                return new Answer(b.getResponseCode(), b.getErrorMessage());
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof MQClientException m && m.getResponseCode() != -1) {
                return new Answer(m.getResponseCode(), m.getErrorMessage());
            }
        }
        throw new AssertionError("no broker answer in " + t, t);
    }

    /** The broker's plain_acl.yml (ref-servers.sh's copy of PLAIN_ACL_FILE). */
    static Path brokerFile() {
        return Path.of(Env.required("BROKER_PLAIN_ACL_FILE"));
    }

    /** The file the suite started the broker on (compat/acl/plain_acl.yml). */
    static String original() throws Exception {
        return Files.readString(Path.of(Env.required("PLAIN_ACL_FILE")), StandardCharsets.UTF_8);
    }

    static String brokerFileText() throws Exception {
        return Files.readString(brokerFile(), StandardCharsets.UTF_8);
    }

    /**
     * Replaces the broker's plain_acl.yml with text: written beside it and renamed over it, so the
     * broker never reads half a file; the new file has a new modification time, which is what the
     * 4.x broker's AclFileWatchService looks at.
     */
    static void writeBrokerFile(String text) throws Exception {
        Path f = brokerFile();
        Path tmp = f.resolveSibling("plain_acl.yml.tmp");
        long before = Files.getLastModifiedTime(f).toMillis();
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        if (Files.getLastModifiedTime(tmp).toMillis() == before) {
            Files.setLastModifiedTime(tmp, java.nio.file.attribute.FileTime.fromMillis(before + 1000));
        }
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
