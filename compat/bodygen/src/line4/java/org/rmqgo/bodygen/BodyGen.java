// Writes the 4.9.8 body fixtures of internal/protocol/testdata/ (*_498.*)
// with the real RocketMQ 4.9.8 classes (rocketmq-common and rocketmq-remoting
// 4.9.8 from Maven Central, fastjson 1.2.69_noneautotype). Run by
// compat/bodygen/gen.sh (profile rmq4):
//
//   java -cp target/line4/classes:<classpath> org.rmqgo.bodygen.BodyGen <dir> [file...]
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
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.DataVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.protocol.body.*;
import org.apache.rocketmq.common.protocol.route.*;

public class BodyGen {
    public static void main(String[] args) throws Exception {
        String dir = args[0];
        TopicRouteData r = new TopicRouteData();
        r.setQueueDatas(new ArrayList<>());
        r.setBrokerDatas(new ArrayList<>());
        r.setFilterServerTable(new HashMap<>());
        HashMap<Long, String> a = new HashMap<>();
        a.put(0L, "192.168.1.10:10911");
        a.put(1L, "192.168.1.11:10911");
        r.getBrokerDatas().add(new BrokerData("DefaultCluster", "broker-a", a));
        QueueData q = new QueueData();
        q.setBrokerName("broker-a");
        q.setPerm(6);
        q.setReadQueueNums(4);
        q.setWriteQueueNums(4);
        r.getQueueDatas().add(q);
        Files.write(Paths.get(dir, "route_standard_498.json"), r.encode(SerializerFeature.BrowserCompatible,
            SerializerFeature.QuoteFieldNames, SerializerFeature.SkipTransientField, SerializerFeature.MapSortField));
        Files.write(Paths.get(dir, "route_default_498.json"), r.encode());

        RegisterBrokerBody body = new RegisterBrokerBody();
        TopicConfigSerializeWrapper w = new TopicConfigSerializeWrapper();
        DataVersion v = new DataVersion();
        v.setTimestamp(1700000000000L);
        v.setCounter(new AtomicLong(3));
        w.setDataVersion(v);
        TopicConfig t = new TopicConfig("TopicTest", 4, 4, 6);
        w.getTopicConfigTable().put("TopicTest", t);
        TopicConfig unit = new TopicConfig("UnitTopic", 8, 8, 6);
        unit.setTopicSysFlag(3);
        unit.setOrder(true);
        w.getTopicConfigTable().put("UnitTopic", unit);
        body.setTopicConfigSerializeWrapper(w);
        Files.write(Paths.get(dir, "register_body_498.json"), body.encode());
        Files.write(Paths.get(dir, "register_body_498.zlib"), body.encode(true));
        Files.write(Paths.get(dir, "topic_config_wrapper_498.json"), w.encode());

        for (int i = 1; i < args.length; i++) {
            byte[] data = Files.readAllBytes(Paths.get(args[i]));
            if (args[i].endsWith(".zlib")) {
                RegisterBrokerBody rb = RegisterBrokerBody.decode(data, true);
                System.out.println(args[i] + " -> " + rb.getTopicConfigSerializeWrapper().getTopicConfigTable()
                    + " " + rb.getFilterServerList() + " " + rb.getTopicConfigSerializeWrapper().getDataVersion());
            } else {
                System.out.println(args[i] + " -> " + TopicRouteData.decode(data, TopicRouteData.class));
            }
        }
    }
}
