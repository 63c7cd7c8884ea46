package org.rmqgo.compat;

import java.util.Set;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * What differs between the client lines, 4.9.8 flavour (profile rmq4, the
 * default). The twin in src/line5/java has the same methods.
 */
final class Line {
    static final String CLIENT_LINE = "4";

    private Line() {
    }

    /** 4.9.8 orders the arguments (addrs, topic, clusterName). */
    static void deleteTopicInNameServer(DefaultMQAdminExt admin, Set<String> namesrvAddrs, String cluster, String topic)
        throws Exception {
        admin.deleteTopicInNameServer(namesrvAddrs, topic, cluster);
    }
}
