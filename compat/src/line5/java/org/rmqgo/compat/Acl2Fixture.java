package org.rmqgo.compat;

import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.body.AclInfo;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.rmqgo.testsupport.Eventually;

/**
 * What the ACL 2.0 tests set up on broker-a as the super user of acl2-suite.sh (acl2Root): NORMAL
 * topics the name server routes, groups, and users each allowed some actions on some resources.
 */
final class Acl2Fixture {
    private Acl2Fixture() {
    }

    /** An admin signed as the super user. */
    static DefaultMQAdminExt rootAdmin() throws Exception {
        return Acl.admin(Acl.hook(Acl2Test.SUPER, Acl2Test.SUPER_PW));
    }

    /** A topic of 2 queues with message.type NORMAL (what the proxy checks), once routed. */
    static void normalTopic(DefaultMQAdminExt admin, String topic) throws Exception {
        TopicConfig tc = Clients.topicConfig(topic, 2, 2);
        tc.setAttributes(Map.of("+message.type", "NORMAL"));
        admin.createAndUpdateTopicConfig(Env.brokerAddr(), tc);
        Eventually.eventually("route of " + topic, () -> admin.examineTopicRouteInfo(topic));
    }

    static void group(DefaultMQAdminExt admin, String group) throws Exception {
        SubscriptionGroupConfig g = new SubscriptionGroupConfig();
        g.setGroupName(group);
        admin.createAndUpdateSubscriptionGroupConfig(Env.brokerAddr(), g);
    }

    static void user(DefaultMQAdminExt admin, String user, String password) throws Exception {
        admin.createUser(Env.brokerAddr(), user, password, null);
    }

    /** An ACL entry: user may do actions (Pub, Sub, ...) on resources (Topic:T, Group:G). */
    static void allow(DefaultMQAdminExt admin, String user, List<String> resources, List<String> actions) throws Exception {
        admin.createAcl(Env.brokerAddr(), AclInfo.of("User:" + user, resources, actions, null, "Allow"));
    }
}
