package org.rmqgo.compat;

import java.util.List;
import java.util.Map;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The ACL 1.0 admin calls, 5.3.3 flavour (profile rmq5): the 5.3.3 DefaultMQAdminExt has none of
 * them (ACL 1.0 and its request codes 50-54 were removed in 5.3.3, RIP-77), so every method throws.
 * Twin of src/line4/java/.../AclLine.java.
 */
final class AclLine {
    static final boolean HAS_ACL1_ADMIN = false;

    private AclLine() {
    }

    static void createAndUpdatePlainAccessConfig(DefaultMQAdminExt admin, String addr, String accessKey,
        String secretKey, String whiteRemoteAddress, boolean isAdmin, String defaultTopicPerm,
        String defaultGroupPerm, List<String> topicPerms, List<String> groupPerms) {
        throw none();
    }

    static void deletePlainAccessConfig(DefaultMQAdminExt admin, String addr, String accessKey) {
        throw none();
    }

    static void updateGlobalWhiteAddrConfig(DefaultMQAdminExt admin, String addr, String addrs) {
        throw none();
    }

    static Map<String, Object> examineBrokerClusterAclVersionInfo(DefaultMQAdminExt admin, String addr) {
        throw none();
    }

    private static UnsupportedOperationException none() {
        return new UnsupportedOperationException("the 5.3.3 DefaultMQAdminExt has no ACL 1.0 calls");
    }
}
