package org.rmqgo.fastjson;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.protocol.body.CheckClientRequestBody;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.ConsumerOffsetSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.GetBrokerMemberGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.body.GetConsumerStatusBody;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupList;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupWrapper;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.UnlockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/**
 * The kinds of body of line 5 (broker and name server 5.3.3) and the exact
 * call each makes, with the null-body guard of its handler where it has one
 * (README.md, "Kinds"). A null decoder marks a kind that line 5 does not read.
 */
final class Kinds {
    static final int LINE = 5;

    /** A register request from a broker of this line carries this version. */
    private static final MQVersion.Version BROKER_VERSION = MQVersion.Version.V5_3_3;

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
        m.put("SubscriptionGroupList", b -> SubscriptionGroupList.decode(b, SubscriptionGroupList.class));
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
        m.put("TopicConfigAndMappingSerializeWrapper",
            b -> TopicConfigSerializeWrapper.decode(b, TopicConfigAndMappingSerializeWrapper.class));
        m.put("ClusterInfo", b -> ClusterInfo.decode(b, ClusterInfo.class));
        m.put("GetBrokerMemberGroupResponseBody",
            b -> GetBrokerMemberGroupResponseBody.decode(b, GetBrokerMemberGroupResponseBody.class));
        // Every frame: the JSON header.
        m.put("RemotingCommand", Kinds::header);
        return m;
    }

    /** DefaultRequestProcessor.extractRegisterBrokerBodyFromRequest. */
    private static RegisterBrokerBody registerBrokerBody(byte[] b, boolean compressed) throws Exception {
        if (b == null) {
            RegisterBrokerBody body = new RegisterBrokerBody();
            body.getTopicConfigSerializeWrapper().getDataVersion().setCounter(new AtomicLong(0));
            body.getTopicConfigSerializeWrapper().getDataVersion().setTimestamp(0L);
            body.getTopicConfigSerializeWrapper().getDataVersion().setStateVersion(0L);
            return body;
        }
        return RegisterBrokerBody.decode(b, compressed, BROKER_VERSION);
    }

    /** DefaultRequestProcessor.extractRegisterTopicConfigFromRequest (brokers older than V3_0_11). */
    private static TopicConfigSerializeWrapper oldRegisterBroker(byte[] b) {
        if (b == null) {
            TopicConfigSerializeWrapper w = new TopicConfigSerializeWrapper();
            w.getDataVersion().setCounter(new AtomicLong(0));
            w.getDataVersion().setTimestamp(0L);
            w.getDataVersion().setStateVersion(0L);
            return w;
        }
        return TopicConfigSerializeWrapper.decode(b, TopicConfigSerializeWrapper.class);
    }

    /** RemotingCommand.headerDecode, JSON case; a header is never null. */
    private static RemotingCommand header(byte[] b) {
        Counter.reset(RemotingCommand.class);
        RemotingCommand cmd = RemotingSerializable.decode(b == null ? new byte[0] : b, RemotingCommand.class);
        cmd.setSerializeTypeCurrentRPC(SerializeType.JSON);
        return cmd;
    }
}
