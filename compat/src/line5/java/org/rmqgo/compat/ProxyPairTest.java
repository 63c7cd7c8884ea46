package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.body.Connection;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

/**
 * Two proxies in cluster mode in front of one broker, as behind a load balancer
 * (proxy-pair-suite.sh: ref-servers.sh PROXY=cluster with PROXY2_IMPL): the proxies share their
 * consumers through DefaultHeartBeatSyncerTopic (the HeartbeatSyncer), so a group with a push
 * consumer on each proxy's remoting port is one group: each proxy lists both consumers, they
 * split the topic's queues, and every message sent is consumed exactly once.
 */
@Tag("grpc")
class ProxyPairTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    private DefaultMQPushConsumer consumer(String group, String topic, String namesrv, Map<String, AtomicInteger> seen)
        throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(Clients.unique("pair_consumer"));
        c.setPersistConsumerOffsetInterval(1000);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                seen.computeIfAbsent(new String(m.getBody(), StandardCharsets.UTF_8), k -> new AtomicInteger())
                    .incrementAndGet();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        cleanups.add(c::shutdown);
        return c;
    }

    private DefaultMQAdminExt admin(String namesrv) throws Exception {
        DefaultMQAdminExt a = new DefaultMQAdminExt(Clients.unique("pair_admin"));
        a.setNamesrvAddr(namesrv);
        a.setInstanceName(Clients.unique("pair_admin"));
        a.start();
        cleanups.add(a::shutdown);
        return a;
    }

    private static Set<String> clientIds(ConsumerConnection cc) {
        Set<String> ids = new HashSet<>();
        for (Connection c : cc.getConnectionSet()) {
            ids.add(c.getClientId());
        }
        return ids;
    }

    @Test
    @Timeout(240)
    void consumersOnTwoProxiesAreOneGroup() throws Exception {
        String second = Env.optional("PROXY2_REMOTING_ADDR", "");
        assumeTrue(!second.isEmpty(), "a second proxy (proxy-pair-suite.sh)");
        String first = Env.required("PROXY_REMOTING_ADDR");
        String topic = GrpcClients.newTopic("proxy_pair", 4, "NORMAL");
        String group = Clients.unique("cg_proxy_pair");
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        DefaultMQPushConsumer one = consumer(group, topic, first, seen);
        DefaultMQPushConsumer two = consumer(group, topic, second, seen);
        Set<String> both = Set.of(one.getDefaultMQPushConsumerImpl().getmQClientFactory().getClientId(),
            two.getDefaultMQPushConsumerImpl().getmQClientFactory().getClientId());

        for (String proxy : List.of(first, second)) {
            DefaultMQAdminExt admin = admin(proxy);
            Eventually.eventually(Duration.ofSeconds(120), "the proxy at " + proxy + " lists both consumers", () -> {
                assertEquals(both, clientIds(admin.examineConsumerConnectionInfo(group, proxy)));
                return null;
            });
        }
        Eventually.eventually(Duration.ofSeconds(90), "the consumers split the 4 queues", () -> {
            Set<MessageQueue> a = Clients.heldQueues(one, topic);
            Set<MessageQueue> b = Clients.heldQueues(two, topic);
            assertEquals(2, a.size(), "queues of the first: " + a);
            assertEquals(2, b.size(), "queues of the second: " + b);
            Set<MessageQueue> all = new HashSet<>(a);
            all.addAll(b);
            assertEquals(4, all.size(), "disjoint: " + a + " " + b);
            return null;
        });

        DefaultMQProducer producer = new DefaultMQProducer(Clients.unique("pg_pair"));
        producer.setNamesrvAddr(first);
        producer.setInstanceName(Clients.unique("pair_producer"));
        producer.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        producer.start();
        cleanups.add(producer::shutdown);
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            String b = "pair " + i;
            producer.send(new Message(topic, "TagP", b.getBytes(StandardCharsets.UTF_8)));
            sent.add(b);
        }
        Eventually.eventually(Duration.ofSeconds(60), "every message consumed", () -> {
            assertEquals(sent, seen.keySet());
            return null;
        });
        Clients.awaitCommittedToEnd(group, topic);
        seen.forEach((b, n) -> assertEquals(1, n.get(), b + " consumed " + n.get() + " times"));
    }
}
