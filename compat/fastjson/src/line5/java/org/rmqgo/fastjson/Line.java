package org.rmqgo.fastjson;

import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.body.GetBrokerMemberGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupList;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigSerializeWrapper;

/** The decode calls of class Kinds whose API differs by line: line 5 (5.3.3). */
final class Line {
    static final Decoder SUBSCRIPTION_GROUP_LIST =
        b -> SubscriptionGroupList.decode(b, SubscriptionGroupList.class);
    static final Decoder TOPIC_CONFIG_AND_MAPPING_SERIALIZE_WRAPPER =
        b -> TopicConfigSerializeWrapper.decode(b, TopicConfigAndMappingSerializeWrapper.class);
    static final Decoder GET_BROKER_MEMBER_GROUP_RESPONSE_BODY =
        b -> GetBrokerMemberGroupResponseBody.decode(b, GetBrokerMemberGroupResponseBody.class);

    /** A register request from a broker of this line carries this version. */
    private static final MQVersion.Version BROKER_VERSION = MQVersion.Version.V5_3_3;

    private Line() {
    }

    static RegisterBrokerBody decodeRegisterBrokerBody(byte[] b, boolean compressed) throws Exception {
        return RegisterBrokerBody.decode(b, compressed, BROKER_VERSION);
    }

    static void zeroStateVersion(DataVersion v) {
        v.setStateVersion(0L);
    }
}
