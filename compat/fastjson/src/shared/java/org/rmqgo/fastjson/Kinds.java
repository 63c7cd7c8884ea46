package org.rmqgo.fastjson;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import ${rmq.pkg.common}.DataVersion;
import ${rmq.pkg.protocol}.body.CheckClientRequestBody;
import ${rmq.pkg.protocol}.body.ClusterInfo;
import ${rmq.pkg.protocol}.body.ConsumerOffsetSerializeWrapper;
import ${rmq.pkg.protocol}.body.GetConsumerStatusBody;
import ${rmq.pkg.protocol}.body.KVTable;
import ${rmq.pkg.protocol}.body.LockBatchRequestBody;
import ${rmq.pkg.protocol}.body.RegisterBrokerBody;
import ${rmq.pkg.protocol}.body.SubscriptionGroupWrapper;
import ${rmq.pkg.protocol}.body.TopicConfigSerializeWrapper;
import ${rmq.pkg.protocol}.body.UnlockBatchRequestBody;
import ${rmq.pkg.protocol}.heartbeat.HeartbeatData;
import ${rmq.pkg.protocol}.route.TopicRouteData;
import ${rmq.pkg.common}.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * The kinds of body of this line (broker and name server 4.9.7 or 5.3.3) and
 * the exact call each makes, with the null-body guard of its handler where it
 * has one (README.md, "Kinds"). A null decoder marks a kind that the line does
 * not read. Shared by both lines: a template whose placeholders (the
 * packages that moved between 4.9.7 and 5.3.3, the line and its version) the
 * build fills per profile (pom.xml); the calls whose API differs are in class
 * Line of src/line4 or src/line5.
 */
final class Kinds {
    static final int LINE = ${rmq.line};
    static final String VERSION = "${rmq.version}";

    private Kinds() {
    }

    static Map<String, Decoder> table() {
        Map<String, Decoder> m = new LinkedHashMap<>();
        // Broker, requests from clients and tools.
        m.put("HeartbeatData", b -> HeartbeatData.decode(b, HeartbeatData.class));
        m.put("LockBatchRequestBody", b -> LockBatchRequestBody.decode(b, LockBatchRequestBody.class));
        m.put("UnlockBatchRequestBody", b -> UnlockBatchRequestBody.decode(b, UnlockBatchRequestBody.class));
        m.put("CheckClientRequestBody", b -> CheckClientRequestBody.decode(b, CheckClientRequestBody.class));
        m.put("SubscriptionGroupConfig", b -> RemotingSerializable.decode(b, SubscriptionGroupConfig.class));
        m.put("SubscriptionGroupList", Line.SUBSCRIPTION_GROUP_LIST);
        // Name server, requests from brokers.
        m.put("RegisterBrokerBody", b -> registerBrokerBody(b, false));
        m.put("RegisterBrokerBodyCompressed", b -> registerBrokerBody(b, true));
        m.put("TopicConfigSerializeWrapper", Kinds::oldRegisterBroker);
        m.put("TopicRouteData", b -> TopicRouteData.decode(b, TopicRouteData.class));
        m.put("DataVersion", b -> DataVersion.decode(b, DataVersion.class));
        // Answers the Java broker reads from a client, a name server or a master.
        m.put("GetConsumerStatusBody", b -> b == null ? null : GetConsumerStatusBody.decode(b, GetConsumerStatusBody.class));
        m.put("KVTable", b -> b == null ? null : KVTable.decode(b, KVTable.class));
        m.put("ConsumerOffsetSerializeWrapper", b -> ConsumerOffsetSerializeWrapper.decode(b, ConsumerOffsetSerializeWrapper.class));
        m.put("SubscriptionGroupWrapper", b -> SubscriptionGroupWrapper.decode(b, SubscriptionGroupWrapper.class));
        m.put("TopicConfigAndMappingSerializeWrapper", Line.TOPIC_CONFIG_AND_MAPPING_SERIALIZE_WRAPPER);
        m.put("ClusterInfo", b -> ClusterInfo.decode(b, ClusterInfo.class));
        m.put("GetBrokerMemberGroupResponseBody", Line.GET_BROKER_MEMBER_GROUP_RESPONSE_BODY);
        // Every frame: the JSON header.
        m.put("RemotingCommand", Kinds::header);
        return m;
    }

    /**
     * DefaultRequestProcessor.registerBrokerWithFilterServer (4.9.7),
     * extractRegisterBrokerBodyFromRequest (5.3.3).
     */
    private static RegisterBrokerBody registerBrokerBody(byte[] b, boolean compressed) throws Exception {
        if (b == null) {
            RegisterBrokerBody body = new RegisterBrokerBody();
            zero(body.getTopicConfigSerializeWrapper().getDataVersion());
            return body;
        }
        return Line.decodeRegisterBrokerBody(b, compressed);
    }

    /**
     * DefaultRequestProcessor.registerBroker (4.9.7),
     * extractRegisterTopicConfigFromRequest (5.3.3): brokers older than V3_0_11.
     */
    private static TopicConfigSerializeWrapper oldRegisterBroker(byte[] b) {
        if (b == null) {
            TopicConfigSerializeWrapper w = new TopicConfigSerializeWrapper();
            zero(w.getDataVersion());
            return w;
        }
        return TopicConfigSerializeWrapper.decode(b, TopicConfigSerializeWrapper.class);
    }

    /** The handlers' DataVersion of a null body: counter, timestamp (and 5.x stateVersion) 0. */
    private static void zero(DataVersion v) {
        v.setCounter(new AtomicLong(0));
        v.setTimestamp(0L);
        Line.zeroStateVersion(v);
    }

    /** RemotingCommand.headerDecode, JSON case; a header is never null. */
    private static RemotingCommand header(byte[] b) {
        Counter.reset(RemotingCommand.class);
        RemotingCommand cmd = RemotingSerializable.decode(b == null ? new byte[0] : b, RemotingCommand.class);
        cmd.setSerializeTypeCurrentRPC(SerializeType.JSON);
        return cmd;
    }
}
