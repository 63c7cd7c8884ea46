package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.rmqgo.compat.GrpcClients.closing;
import static org.rmqgo.compat.GrpcClients.message;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

/**
 * The proxy's remoting port (remotingListenPort; docs/reference/proxy-remoting.md), with the 5.x
 * remoting clients taking it for their name server, as with `mqproxy` in cluster mode
 * (ref-servers.sh PROXY=cluster): its route names the proxy for every broker, and sends, pushes
 * (concurrently, with a retry through CONSUMER_SEND_MSG_BACK; orderly, through LOCK_BATCH_MQ), lite
 * pulls, committed offsets and transactions with their check-back all pass through it; the group's
 * consumers are listed by the proxy. With the proxy in the broker (PROXY=1, local mode) the port's
 * route names every broker at the gRPC port, as Java's local proxy answers. In both modes a gRPC
 * client whose endpoint is the remoting port is served (HTTP/2 on that port goes to the gRPC server).
 *
 * Through Java's proxy a transaction commits on the broker's check-back only (it drops the
 * producer's own END_TRANSACTION, proxy-remoting.md §5.1); the test asserts what both give: the
 * committed and the checked messages arrive, the rolled-back one never.
 */
@Tag("grpc")
class ProxyRemotingTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    private static boolean clusterMode() {
        return "cluster".equals(Env.optional("PROXY", "0"));
    }

    private static String proxyRemoting() {
        return Env.required("PROXY_REMOTING_ADDR");
    }

    private static String port(String addr) {
        return addr.substring(addr.lastIndexOf(':') + 1);
    }

    /** An admin whose name server is the proxy's remoting port. */
    private DefaultMQAdminExt proxyAdmin() throws Exception {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(Clients.unique("proxy_admin"));
        admin.setNamesrvAddr(proxyRemoting());
        admin.setInstanceName(Clients.unique("proxy_admin"));
        admin.start();
        cleanups.add(admin::shutdown);
        return admin;
    }

    private DefaultMQProducer producer() throws Exception {
        DefaultMQProducer p = new DefaultMQProducer(Clients.unique("pg_proxy"));
        p.setNamesrvAddr(proxyRemoting());
        p.setInstanceName(Clients.unique("proxy_producer"));
        p.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        p.start();
        cleanups.add(p::shutdown);
        return p;
    }

    private DefaultMQPushConsumer pushConsumer(String group, String topic) throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(proxyRemoting());
        c.setInstanceName(Clients.unique("proxy_consumer"));
        c.setPersistConsumerOffsetInterval(1000);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        return c;
    }

    private static String body(MessageExt m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(60)
    void theRouteNamesTheProxyForEveryBroker() throws Exception {
        String topic = GrpcClients.newTopic("proxy_rem_route", 4, "NORMAL");
        TopicRouteData route = Eventually.eventually("the route of " + topic + " through the proxy",
            () -> proxyAdmin().examineTopicRouteInfo(topic));
        TopicRouteData direct = Clients.admin().examineTopicRouteInfo(topic);
        assertEquals(direct.getQueueDatas(), route.getQueueDatas(), "queue data as the name server's");
        String expectedPort = clusterMode() ? port(proxyRemoting()) : port(Env.proxyAddr());
        for (BrokerData bd : route.getBrokerDatas()) {
            assertFalse(bd.getBrokerAddrs().isEmpty(), "addresses of " + bd.getBrokerName());
            bd.getBrokerAddrs().forEach((id, addr) ->
                assertEquals(expectedPort, port(addr), bd.getBrokerName() + " broker " + id + " at " + addr));
        }
    }

    @Test
    @Timeout(120)
    void aGrpcClientIsServedOnTheRemotingPort() throws Exception {
        String topic = GrpcClients.newTopic("proxy_rem_grpc", 2, "NORMAL");
        String group = GrpcClients.newGroup("GID_proxy_rem_grpc");
        ClientConfiguration config = ClientConfiguration.newBuilder().setEndpoints(proxyRemoting())
            .enableSsl(false).setRequestTimeout(Duration.ofSeconds(15)).build();
        SimpleConsumer consumer = GrpcClients.simpleConsumer(config, group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));
        Producer producer = GrpcClients.PROVIDER.newProducerBuilder().setClientConfiguration(config)
            .setTopics(topic).build();
        cleanups.add(closing(producer));
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            String b = "grpc over the remoting port " + i;
            producer.send(message(topic, b, "TagG").build());
            sent.add(b);
        }
        Set<String> got = new HashSet<>();
        GrpcClients.receiveUntil(consumer, GrpcClients.MIN_INVISIBLE, Duration.ofSeconds(60), "the 10 messages",
            d -> {
                got.add(GrpcClients.body(d.msg()));
                consumer.ack(d.msg());
            }, ds -> got.containsAll(sent));
        assertEquals(sent, got);
    }

    @Test
    @Timeout(180)
    void sendPushRetryAndCommittedOffsetsThroughTheProxy() throws Exception {
        assumeTrue(clusterMode(), "remoting clients use a local proxy's broker port, not its remoting port");
        String topic = GrpcClients.newTopic("proxy_rem_push", 4, "NORMAL");
        String group = Clients.unique("cg_proxy_rem_push");
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> retried = new ConcurrentLinkedQueue<>();
        DefaultMQPushConsumer consumer = pushConsumer(group, topic);
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                String b = body(m);
                int n = attempts.merge(b, 1, Integer::sum);
                if (b.endsWith(" 7") && n == 1) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER; // sent back, delivered again
                }
                if (n > 1) {
                    retried.add(b + " reconsumeTimes=" + m.getReconsumeTimes());
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cleanups.add(consumer::shutdown);

        DefaultMQProducer producer = producer();
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            String b = "through the proxy " + i;
            SendResult r = producer.send(new Message(topic, "TagP", b.getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, r.getSendStatus());
            sent.add(b);
        }
        Eventually.eventually(Duration.ofSeconds(120), "every message consumed, the one failed once again", () -> {
            assertEquals(sent, attempts.keySet());
            assertEquals(List.of("through the proxy 7 reconsumeTimes=1"), new ArrayList<>(retried));
            return null;
        });
        Clients.awaitCommittedToEnd(group, topic);

        ConsumerConnection cc = proxyAdmin().examineConsumerConnectionInfo(group, proxyRemoting());
        assertEquals(1, cc.getConnectionSet().size(), "the proxy lists the group's consumer");
        assertEquals(consumer.getDefaultMQPushConsumerImpl().getmQClientFactory().getClientId(),
            cc.getConnectionSet().iterator().next().getClientId());
        assertTrue(cc.getSubscriptionTable().containsKey(topic), "subscriptions: " + cc.getSubscriptionTable());
    }

    @Test
    @Timeout(180)
    void anOrderlyConsumerKeepsEachQueuesOrderThroughTheProxy() throws Exception {
        assumeTrue(clusterMode(), "remoting clients use a local proxy's broker port, not its remoting port");
        String topic = GrpcClients.newTopic("proxy_rem_order", 2, "NORMAL");
        String group = Clients.unique("cg_proxy_rem_order");
        Map<Integer, List<Integer>> seen = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = pushConsumer(group, topic);
        consumer.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                seen.computeIfAbsent(m.getQueueId(), q -> new ArrayList<>())
                    .add(Integer.parseInt(body(m).substring(body(m).lastIndexOf(' ') + 1)));
            }
            return ConsumeOrderlyStatus.SUCCESS;
        });
        consumer.start();
        cleanups.add(consumer::shutdown);

        DefaultMQProducer producer = producer();
        for (int i = 0; i < 40; i++) {
            Message m = new Message(topic, "TagO", ("in order " + i).getBytes(StandardCharsets.UTF_8));
            assertEquals(SendStatus.SEND_OK, producer.send(m, Clients.BY_QUEUE_ID, i % 2).getSendStatus());
        }
        Eventually.eventually(Duration.ofSeconds(120), "40 messages consumed in order", () -> {
            List<Integer> even = new ArrayList<>();
            List<Integer> odd = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                (i % 2 == 0 ? even : odd).add(i);
            }
            assertEquals(even, seen.get(0), "queue 0");
            assertEquals(odd, seen.get(1), "queue 1");
            return null;
        });
        assertTrue(consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().values()
            .stream().allMatch(pq -> pq.isLocked()), "every queue locked at the broker through the proxy");
    }

    @Test
    @Timeout(120)
    void aLitePullConsumerPullsThroughTheProxy() throws Exception {
        assumeTrue(clusterMode(), "remoting clients use a local proxy's broker port, not its remoting port");
        String topic = GrpcClients.newTopic("proxy_rem_lite", 2, "NORMAL");
        DefaultMQProducer producer = producer();
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            String b = "lite " + i;
            producer.send(new Message(topic, "TagL", b.getBytes(StandardCharsets.UTF_8)));
            sent.add(b);
        }
        DefaultLitePullConsumer lite = new DefaultLitePullConsumer(Clients.unique("cg_proxy_rem_lite"));
        lite.setNamesrvAddr(proxyRemoting());
        lite.setInstanceName(Clients.unique("proxy_lite"));
        lite.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        lite.subscribe(topic, "*");
        lite.start();
        cleanups.add(lite::shutdown);
        Set<String> got = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!got.containsAll(sent) && System.nanoTime() < deadline) {
            for (MessageExt m : lite.poll(2000)) {
                got.add(body(m));
            }
        }
        assertEquals(sent, got);
    }

    @Test
    @Timeout(180)
    void transactionsCommitThroughTheProxyAndItsCheckBack() throws Exception {
        assumeTrue(clusterMode(), "remoting clients use a local proxy's broker port, not its remoting port");
        String topic = GrpcClients.newTopic("proxy_rem_tx", 2, "TRANSACTION");
        Map<String, LocalTransactionState> decide = Map.of("commit", LocalTransactionState.COMMIT_MESSAGE,
            "rollback", LocalTransactionState.ROLLBACK_MESSAGE, "unknown", LocalTransactionState.UNKNOW);
        ConcurrentLinkedQueue<String> checked = new ConcurrentLinkedQueue<>();
        TransactionMQProducer producer = new TransactionMQProducer(Clients.unique("pg_proxy_rem_tx"));
        producer.setNamesrvAddr(proxyRemoting());
        producer.setInstanceName(Clients.unique("proxy_tx"));
        producer.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return decide.get(new String(msg.getBody(), StandardCharsets.UTF_8));
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                String b = body(msg);
                checked.add(b);
                // the proxy may also relay a check of a decided message (Java's drops the first
                // END_TRANSACTION): answer each as its local transaction ended
                return "unknown".equals(b) ? LocalTransactionState.COMMIT_MESSAGE : decide.get(b);
            }
        });
        producer.start();
        cleanups.add(producer::shutdown);

        String group = Clients.unique("cg_proxy_rem_tx");
        ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        DefaultMQPushConsumer consumer = Clients.pushConsumer(group);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> received.add(body(m)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cleanups.add(consumer::shutdown);

        for (String b : List.of("commit", "rollback", "unknown")) {
            SendResult r = producer.sendMessageInTransaction(new Message(topic, "TagT", b.getBytes(StandardCharsets.UTF_8)), null);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), b);
        }
        Eventually.eventually(Duration.ofSeconds(150), "the committed and the checked message delivered", () -> {
            assertTrue(received.containsAll(List.of("commit", "unknown")), "received " + received);
            return null;
        });
        assertTrue(checked.contains("unknown"), "the unknown transaction was checked back: " + checked);
        assertFalse(received.contains("rollback"), "the rolled-back message was delivered: " + received);
        assertEquals(2, received.size(), "each committed message once: " + received);
    }
}
