// Writes the 5.3.3 body fixtures of internal/protocol/testdata/ (*_533.*)
// with the real RocketMQ 5.3.3 classes (rocketmq-common, rocketmq-remoting
// and rocketmq-namesrv 5.3.3 from Maven Central, fastjson 1.2.83). Run by
// compat/bodygen/gen.sh (profile rmq5):
//
//   java -cp target/line5/classes:<classpath> org.rmqgo.bodygen.BodyGen <dir> [file...]
//
// writes the fixtures to <dir>; each further file (a Go-written route, or a
// register body ending in .zlib) is decoded by Java and printed, to prove
// Java reads what Go writes. Every value is fixed, so a rerun writes the
// same bytes.
package org.rmqgo.bodygen;

import com.alibaba.fastjson.serializer.SerializerFeature;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.*;
import java.util.concurrent.*;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.namesrv.kvconfig.KVConfigSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.body.*;
import org.apache.rocketmq.remoting.protocol.route.*;
import org.apache.rocketmq.remoting.protocol.statictopic.*;

public class BodyGen {
    static String dir;

    static void write(String name, byte[] data) throws Exception {
        Files.write(Paths.get(dir, name), data);
    }

    static TopicRouteData route(String orderConf) {
        TopicRouteData r = new TopicRouteData();
        HashMap<Long, String> a = new HashMap<>();
        a.put(0L, "192.168.1.10:10911");
        a.put(1L, "192.168.1.11:10911");
        r.getBrokerDatas().add(new BrokerData("DefaultCluster", "broker-a", a));
        HashMap<Long, String> b = new HashMap<>();
        b.put(0L, "192.168.1.12:10911");
        r.getBrokerDatas().add(new BrokerData("DefaultCluster", "broker-b", b));
        for (String n : new String[] {"broker-a", "broker-b"}) {
            QueueData q = new QueueData();
            q.setBrokerName(n);
            q.setPerm(6);
            q.setReadQueueNums(4);
            q.setWriteQueueNums(4);
            r.getQueueDatas().add(q);
        }
        r.setOrderTopicConf(orderConf);
        return r;
    }

    static byte[] standard(TopicRouteData r) {
        return r.encode(SerializerFeature.BrowserCompatible, SerializerFeature.QuoteFieldNames,
            SerializerFeature.SkipTransientField, SerializerFeature.MapSortField);
    }

    static TopicConfig topic(String name, int perm, int sysFlag, boolean order) {
        TopicConfig c = new TopicConfig(name, 4, 4, perm);
        c.setTopicSysFlag(sysFlag);
        c.setOrder(order);
        return c;
    }

    static RegisterBrokerBody registerBody() {
        RegisterBrokerBody body = new RegisterBrokerBody();
        TopicConfigAndMappingSerializeWrapper w = body.getTopicConfigSerializeWrapper();
        DataVersion v = new DataVersion();
        v.setTimestamp(1700000000000L);
        v.setCounter(new java.util.concurrent.atomic.AtomicLong(3));
        v.setStateVersion(2);
        w.setDataVersion(v);
        // The wrapper's mappingDataVersion is a new DataVersion(), stamped with
        // the clock. The fixture keeps the stamp of its first run (2026-12-02,
        // when this code ran as a loose file with no pinned value), so a rerun
        // writes the same bytes. Only the uncompressed body carries it.
        DataVersion mv = new DataVersion();
        mv.setTimestamp(1796219222136L);
        w.setMappingDataVersion(mv);
        w.getTopicConfigTable().put("TopicTest", topic("TopicTest", 6, 0, false));
        w.getTopicConfigTable().put("TBW102", topic("TBW102", 7, 0, false));
        TopicConfig unit = topic("UnitTopic", 6, 3, true);
        unit.getAttributes().put("message.type", "FIFO");
        w.getTopicConfigTable().put("UnitTopic", unit);
        TopicQueueMappingInfo info = new TopicQueueMappingInfo("StaticTopic", 8, "broker-a", 5L);
        info.getCurrIdMap().put(0, 0);
        info.getCurrIdMap().put(1, 1);
        w.getTopicQueueMappingInfoMap().put("StaticTopic", info);
        TopicQueueMappingDetail detail = new TopicQueueMappingDetail("StaticTopic", 8, "broker-a", 5L);
        detail.getHostedQueues().put(0, new ArrayList<>(Collections.singletonList(
            new LogicQueueMappingItem(0, 0, "broker-a", 0, 0, -1, -1, -1))));
        w.getTopicQueueMappingDetailMap().put("StaticTopic", detail);
        body.getFilterServerList().add("192.168.1.10:40000");
        return body;
    }

    public static void main(String[] args) throws Exception {
        dir = args[0];
        write("route_standard_533.json", standard(route(null)));
        write("route_default_533.json", route(null).encode());
        String odd = "broker-a:4;\u00e9/\u4e2d\ud83d\ude00\u0001\u007f\u2028\"\\\t";
        write("route_escape_standard_533.json", standard(route(odd)));
        write("route_escape_default_533.json", route(odd).encode());

        ClusterInfo ci = new ClusterInfo();
        HashMap<String, BrokerData> bt = new HashMap<>();
        bt.put("broker-a", route(null).getBrokerDatas().get(0));
        ci.setBrokerAddrTable(bt);
        HashMap<String, Set<String>> ct = new HashMap<>();
        ct.put("DefaultCluster", new HashSet<>(Collections.singleton("broker-a")));
        ci.setClusterAddrTable(ct);
        write("cluster_info_533.json", ci.encode());

        RegisterBrokerBody body = registerBody();
        write("register_body_533.json", body.encode());
        write("register_body_533.zlib", body.encode(true));

        TopicList tl = new TopicList();
        tl.getTopicList().add("DefaultCluster");
        tl.setBrokerAddr("192.168.1.10:10911");
        write("topic_list_533.json", tl.encode());

        KVConfigSerializeWrapper kv = new KVConfigSerializeWrapper();
        HashMap<String, HashMap<String, String>> table = new HashMap<>();
        HashMap<String, String> order = new HashMap<>();
        order.put("TopicTest", "broker-a:4");
        table.put("ORDER_TOPIC_CONFIG", order);
        kv.setConfigTable(table);
        write("kvconfig_533.json", kv.toJson(false).getBytes("UTF-8"));

        BrokerMemberGroup g = new BrokerMemberGroup("DefaultCluster", "broker-a");
        g.getBrokerAddrs().put(0L, "192.168.1.10:10911");
        GetBrokerMemberGroupResponseBody gb = new GetBrokerMemberGroupResponseBody();
        gb.setBrokerMemberGroup(g);
        write("member_group_533.json", gb.encode());

        // Decode what Go encodes, to prove Java reads it.
        for (String f : args.length > 1 ? Arrays.copyOfRange(args, 1, args.length) : new String[0]) {
            byte[] data = Files.readAllBytes(Paths.get(f));
            if (f.endsWith(".zlib")) {
                RegisterBrokerBody rb = RegisterBrokerBody.decode(data, true, MQVersion.Version.V5_3_3);
                System.out.println(f + " -> " + rb.getTopicConfigSerializeWrapper().getTopicConfigTable()
                    + " " + rb.getTopicConfigSerializeWrapper().getTopicQueueMappingInfoMap().keySet()
                    + " " + rb.getFilterServerList() + " " + rb.getTopicConfigSerializeWrapper().getDataVersion());
            } else {
                TopicRouteData rd = TopicRouteData.decode(data, TopicRouteData.class);
                System.out.println(f + " -> " + rd);
            }
        }
    }
}
