package org.rmqgo.compat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.PlainAccessConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The ACL 1.0 admin calls of DefaultMQAdminExt, 4.9.8 flavour (profile rmq4). The 5.3.3 client has
 * none of them (ACL 1.0 was removed from 5.3.3); its twin in src/line5/java says so.
 */
final class AclLine {
    static final boolean HAS_ACL1_ADMIN = true;

    private AclLine() {
    }

    /** createAndUpdatePlainAccessConfig: UPDATE_AND_CREATE_ACL_CONFIG (50) to addr. */
    static void createAndUpdatePlainAccessConfig(DefaultMQAdminExt admin, String addr, String accessKey,
        String secretKey, String whiteRemoteAddress, boolean isAdmin, String defaultTopicPerm,
        String defaultGroupPerm, List<String> topicPerms, List<String> groupPerms) throws Exception {
        PlainAccessConfig c = new PlainAccessConfig();
        c.setAccessKey(accessKey);
        c.setSecretKey(secretKey);
        c.setWhiteRemoteAddress(whiteRemoteAddress);
        c.setAdmin(isAdmin);
        c.setDefaultTopicPerm(defaultTopicPerm);
        c.setDefaultGroupPerm(defaultGroupPerm);
        c.setTopicPerms(topicPerms);
        c.setGroupPerms(groupPerms);
        admin.createAndUpdatePlainAccessConfig(addr, c);
    }

    /** deletePlainAccessConfig: DELETE_ACL_CONFIG (51). */
    static void deletePlainAccessConfig(DefaultMQAdminExt admin, String addr, String accessKey) throws Exception {
        admin.deletePlainAccessConfig(addr, accessKey);
    }

    /** updateGlobalWhiteAddrConfig: UPDATE_GLOBAL_WHITE_ADDRS_CONFIG (53), addresses comma-separated. */
    static void updateGlobalWhiteAddrConfig(DefaultMQAdminExt admin, String addr, String addrs) throws Exception {
        admin.updateGlobalWhiteAddrConfig(addr, addrs);
    }

    /**
     * examineBrokerClusterAclVersionInfo: GET_BROKER_CLUSTER_ACL_INFO (52) to addr, as a map:
     * brokerName, brokerAddr, clusterName, counter and timestamp (aclConfigDataVersion), files (the
     * keys of allAclConfigDataVersion) and fileCounters (their counters).
     */
    static Map<String, Object> examineBrokerClusterAclVersionInfo(DefaultMQAdminExt admin, String addr)
        throws Exception {
        var info = admin.examineBrokerClusterAclVersionInfo(addr);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("brokerName", info.getBrokerName());
        m.put("brokerAddr", info.getBrokerAddr());
        m.put("clusterName", info.getClusterName());
        m.put("counter", info.getAclConfigDataVersion().getCounter().get());
        m.put("timestamp", info.getAclConfigDataVersion().getTimestamp());
        m.put("files", List.copyOf(info.getAllAclConfigDataVersion().keySet()));
        Map<String, Long> counters = new LinkedHashMap<>();
        info.getAllAclConfigDataVersion().forEach((k, v) -> counters.put(k, v.getCounter().get()));
        m.put("fileCounters", counters);
        return m;
    }
}
