package org.rmqgo.compat;

import java.util.Set;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * What differs between the client lines, 5.3.3 flavour (profile rmq5). The
 * twin in src/line4/java has the same methods.
 */
final class Line {
    static final String CLIENT_LINE = "5";

    private Line() {
    }

    /** 5.3.3 orders the three-argument form (addrs, clusterName, topic): the reverse of 4.9.8. */
    static void deleteTopicInNameServer(DefaultMQAdminExt admin, Set<String> namesrvAddrs, String cluster, String topic)
        throws Exception {
        admin.deleteTopicInNameServer(namesrvAddrs, cluster, topic);
    }
}
