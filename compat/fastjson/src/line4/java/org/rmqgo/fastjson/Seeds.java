package org.rmqgo.fastjson;

import org.apache.rocketmq.common.protocol.body.RegisterBrokerBody;

/**
 * The seeds of line 4 (rocketmq-common/-remoting 4.9.7) whose build differs
 * by line; the rows of both lines are listed in class Bodies (src/shared).
 * 4.9.7 has no heartbeat V2, no onlyThisBroker, no group retry policy, no
 * SubscriptionGroupList, TopicConfigAndMappingSerializeWrapper or
 * BrokerMemberGroup: those rows are null here, and Bodies leaves them out.
 */
final class Seeds {
    static final String REGISTER_BROKER_BODY_FROM = "BrokerOuterAPI.registerBroker: requestBody.encode(false)";

    private Seeds() {
    }

    static RegisterBrokerBody registerBrokerBody() {
        RegisterBrokerBody b = new RegisterBrokerBody();
        b.setTopicConfigSerializeWrapper(Bodies.topicConfigWrapper());
        return b;
    }

    static byte[] heartbeatV2(boolean withoutSub) {
        return null;
    }

    static byte[] lockOnlyThisBroker() {
        return null;
    }

    static byte[] retryPolicyGroupConfig() {
        return null;
    }

    static byte[] groupList() {
        return null;
    }

    static byte[] topicConfigAndMappingSerializeWrapper() {
        return null;
    }

    static byte[] brokerMemberGroup() {
        return null;
    }
}
