package org.rmqgo.fastjson;

import org.apache.rocketmq.common.DataVersion;
import org.apache.rocketmq.common.protocol.body.RegisterBrokerBody;

/** The decode calls of class Kinds whose API differs by line: line 4 (4.9.7). */
final class Line {
    /** 5.x-only kinds: 4.9.7 has no such class (the oracle answers UnsupportedKind). */
    static final Decoder SUBSCRIPTION_GROUP_LIST = null;
    static final Decoder TOPIC_CONFIG_AND_MAPPING_SERIALIZE_WRAPPER = null;
    static final Decoder GET_BROKER_MEMBER_GROUP_RESPONSE_BODY = null;

    private Line() {
    }

    static RegisterBrokerBody decodeRegisterBrokerBody(byte[] b, boolean compressed) throws Exception {
        return RegisterBrokerBody.decode(b, compressed);
    }

    /** 4.9.7's DataVersion has no stateVersion. */
    static void zeroStateVersion(DataVersion v) {
    }
}
