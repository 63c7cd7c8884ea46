package org.rmqgo.testsupport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.body.EpochEntryCache;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * What the controller-mode tests ask about one broker set through rocketmq-tools 5.x'
 * DefaultMQAdminExt: the controller's replicas (GET_SYNC_STATE_DATA), which controller leads
 * (getControllerMetaData), the name server's route, the brokers' epoch caches, and the commitlogs
 * compared byte for byte. 5.x classes only (compat/testsupport/src/line5/java).
 *
 * <p>Used by compat/src/line5's ControllerModeTest (controller-suite.sh), compat/ctlha's
 * ControllerHa (controller-ha-suite.sh) and compat/hatool's ControllerKill (controller-kill.sh).
 */
public final class ControllerView {
    private final DefaultMQAdminExt admin;
    private final String brokerName;

    public ControllerView(DefaultMQAdminExt admin, String brokerName) {
        this.admin = admin;
        this.brokerName = brokerName;
    }

    /** The controller's replica info of the broker set, or null when it knows none. */
    public BrokerReplicasInfo.ReplicasInfo replicas(String controller) throws Exception {
        return admin.getInSyncStateData(controller, List.of(brokerName)).getReplicasInfoTable().get(brokerName);
    }

    /** As {@link #replicas}, but null on any error too (and for a null controller). */
    public BrokerReplicasInfo.ReplicasInfo replicasQuiet(String controller) {
        if (controller == null) {
            return null;
        }
        try {
            return replicas(controller);
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The address of the controller that says it leads (of those not down), or null; with agree,
     * every other controller asked must name it as its leader.
     */
    public String findLeader(Collection<String> controllers, Set<String> down, boolean agree) {
        String leader = null;
        List<String> named = new ArrayList<>();
        for (String c : controllers) {
            if (down.contains(c)) {
                continue;
            }
            try {
                GetMetaDataResponseHeader h = admin.getControllerMetaData(c);
                if (Boolean.TRUE.equals(h.isLeader())) {
                    leader = c;
                }
                named.add(h.getControllerLeaderAddress());
            } catch (Exception e) {
                named.add(null);
            }
        }
        if (leader == null) {
            return null;
        }
        if (agree) {
            for (String n : named) {
                if (!leader.equals(n)) {
                    return null;
                }
            }
        }
        return leader;
    }

    /** The name server's addresses of the broker set by role id (clusterList); empty when it knows none. */
    public Map<Long, String> routed() throws Exception {
        var bd = admin.examineBrokerClusterInfo().getBrokerAddrTable().get(brokerName);
        return bd == null ? Map.of() : new TreeMap<>(bd.getBrokerAddrs());
    }

    public static String describe(BrokerReplicasInfo.ReplicasInfo r) {
        if (r == null) {
            return "no replica info";
        }
        return "master " + r.getMasterBrokerId() + "@" + r.getMasterAddress() + " masterEpoch " + r.getMasterEpoch()
            + " syncStateSetEpoch " + r.getSyncStateSetEpoch() + " inSync " + r.getInSyncReplicas() + " notInSync "
            + r.getNotInSyncReplicas();
    }

    /** The in-sync then the not-in-sync replicas. */
    public static List<BrokerReplicasInfo.ReplicaIdentity> all(BrokerReplicasInfo.ReplicasInfo r) {
        List<BrokerReplicasInfo.ReplicaIdentity> all = new ArrayList<>();
        if (r.getInSyncReplicas() != null) {
            all.addAll(r.getInSyncReplicas());
        }
        if (r.getNotInSyncReplicas() != null) {
            all.addAll(r.getNotInSyncReplicas());
        }
        return all;
    }

    /** Controller id by broker address, over the in-sync and the not-in-sync replicas. */
    public static Map<String, Long> idsByAddr(BrokerReplicasInfo.ReplicasInfo r) {
        Map<String, Long> m = new TreeMap<>();
        for (var rep : all(r)) {
            m.put(rep.getBrokerAddress(), rep.getBrokerId());
        }
        return m;
    }

    /** The controller ids in the SyncStateSet. */
    public static Set<Long> inSyncIds(BrokerReplicasInfo.ReplicasInfo r) {
        return r.getInSyncReplicas() == null ? Set.of()
            : r.getInSyncReplicas().stream().map(BrokerReplicasInfo.ReplicaIdentity::getBrokerId)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Role id to address as the name server must route the live ones: 0 for the master, the controller id for a slave. */
    public static Map<Long, String> expectedRoute(String masterAddr, Map<String, Long> ids, Collection<String> live) {
        Map<Long, String> m = new TreeMap<>();
        for (var e : ids.entrySet()) {
            if (live.contains(e.getKey())) {
                m.put(e.getKey().equals(masterAddr) ? 0L : e.getValue(), e.getKey());
            }
        }
        return m;
    }

    /** A broker's epochs as "epoch@startOffset". */
    public static List<String> epochs(EpochEntryCache c) {
        return c.getEpochList().stream().map(e -> e.getEpoch() + "@" + e.getStartOffset()).collect(Collectors.toList());
    }

    /** null when the bytes [0, upTo) of the two commitlog folders (files named by their first offset) are equal, else what differs. */
    public static String compareCommitLogs(Path a, Path b, long upTo) throws IOException {
        TreeMap<Long, Path> fa = files(a), fb = files(b);
        long pos = 0;
        while (pos < upTo) {
            var ea = fa.floorEntry(pos);
            var eb = fb.floorEntry(pos);
            if (ea == null || eb == null) {
                Path dir = ea == null ? a : b;
                return "no commitlog file for offset " + pos + " in " + dir + ": " + (ea == null ? fa : fb).keySet();
            }
            long endA = ea.getKey() + Files.size(ea.getValue()), endB = eb.getKey() + Files.size(eb.getValue());
            long end = Math.min(upTo, Math.min(endA, endB));
            if (end <= pos) {
                return "no bytes for offset " + pos + " in " + ea.getValue() + " / " + eb.getValue();
            }
            byte[] x = read(ea.getValue(), pos - ea.getKey(), (int) (end - pos));
            byte[] y = read(eb.getValue(), pos - eb.getKey(), (int) (end - pos));
            int d = Arrays.mismatch(x, y);
            if (d >= 0) {
                return "commitlogs differ at offset " + (pos + d) + ": " + a + " vs " + b + " (compared up to " + upTo + ")";
            }
            pos = end;
        }
        return null;
    }

    private static TreeMap<Long, Path> files(Path dir) throws IOException {
        TreeMap<Long, Path> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().matches("\\d{20}"))
                .forEach(p -> m.put(Long.parseLong(p.getFileName().toString()), p));
        }
        return m;
    }

    private static byte[] read(Path file, long at, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(len);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buf.hasRemaining()) {
                if (ch.read(buf, at + buf.position()) < 0) {
                    throw new IOException(file + " ends before " + (at + len));
                }
            }
        }
        return buf.array();
    }
}
