package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.rmqgo.compat.GrpcClients.closing;
import static org.rmqgo.compat.GrpcClients.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.apis.ClientException;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.FilterExpressionType;
import org.apache.rocketmq.client.apis.consumer.PushConsumer;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.Message;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.SendReceipt;
import org.apache.rocketmq.client.apis.producer.Transaction;
import org.apache.rocketmq.client.apis.producer.TransactionResolution;
import org.apache.rocketmq.client.java.exception.BadRequestException;
import org.apache.rocketmq.client.java.exception.NotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.compat.GrpcClients.Deliveries;
import org.rmqgo.compat.GrpcClients.Delivery;
import org.rmqgo.testsupport.Eventually;

/**
 * The 5.x gRPC client (rocketmq-client-java 5.0.8) through the proxy inside broker-a, local mode
 * (ref-servers.sh PROXY=1, as `mqbroker --enable-proxy`): sends, a SimpleConsumer and a
 * PushConsumer, FIFO, delivery timestamps, transactions with check-back, tag and SQL92 filters, and
 * the answers to bad input. Each test has its own topic (with the message.type attribute 5.x checks)
 * and group, made with the remoting admin. The receive, ack and change-invisible cycle of the
 * SimpleConsumer and the dead letter queue are in GrpcSimpleConsumerTest.
 *
 * "Nothing else arrives" is shown with a sentinel sent last on a topic of one queue, never with a
 * wait: the proxy pops a queue in order, so a message that should not come would have come before it.
 */
@Tag("grpc")
class GrpcClientTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    // ---------------------------------------------------------------------------------------------
    // Producer and SimpleConsumer

    @Test
    void syncAndAsyncSendsWithKeysAndTagsReachASimpleConsumerOnceWithTheirMessageIds() throws Exception {
        String topic = GrpcClients.newTopic("grpc_send", 4, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_send");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));

        Map<String, Message> sent = new LinkedHashMap<>();
        Map<String, String> idByBody = new HashMap<>();
        for (int i = 0; i < 10; i++) {
            Message m = numbered(topic, "sync", i);
            SendReceipt r = producer.send(m);
            sent.put(body(m), m);
            idByBody.put(body(m), r.getMessageId().toString());
        }
        Map<String, CompletableFuture<SendReceipt>> pending = new LinkedHashMap<>();
        for (int i = 10; i < 20; i++) {
            Message m = numbered(topic, "async", i);
            pending.put(body(m), producer.sendAsync(m));
            sent.put(body(m), m);
        }
        for (Map.Entry<String, CompletableFuture<SendReceipt>> e : pending.entrySet()) {
            idByBody.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS).getMessageId().toString());
        }
        assertEquals(20, new HashSet<>(idByBody.values()).size(), "distinct message ids: " + idByBody);

        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));
        Set<String> seen = new HashSet<>();
        List<Delivery> got = GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(60),
            "the 20 messages", d -> {
                if (!seen.add(d.id())) {
                    fail("received twice: " + d.id() + " \"" + d.body() + "\"");
                }
                consumer.ack(d.msg());
            }, ds -> ds.size() >= 20);
        assertEquals(20, got.size(), "received: " + GrpcClients.describe(got));
        for (Delivery d : got) {
            MessageView v = d.msg();
            Message m = sent.get(d.body());
            assertTrue(m != null, "not sent: " + d.body());
            assertEquals(idByBody.get(d.body()), d.id(), "message id of \"" + d.body() + "\" (its send receipt's)");
            assertEquals(topic, v.getTopic(), "topic of " + d.body());
            assertEquals(m.getTag(), v.getTag(), "tag of " + d.body());
            assertEquals(new TreeSet<>(m.getKeys()), new TreeSet<>(v.getKeys()), "keys of " + d.body());
            assertEquals(m.getProperties().get("seq"), v.getProperties().get("seq"), "property seq of " + d.body());
            assertEquals(1, v.getDeliveryAttempt(), "delivery attempt of " + d.body());
            assertEquals(Optional.empty(), v.getMessageGroup(), "message group of " + d.body());
            assertEquals(Optional.empty(), v.getDeliveryTimestamp(), "delivery timestamp of " + d.body());
            assertTrue(v.getBornTimestamp() > 0 && v.getBornTimestamp() <= d.at(), "born timestamp of " + d.body());
            assertFalse(v.getBornHost().isEmpty(), "born host of " + d.body());
        }
    }

    /**
     * The client's default configuration has TLS on: a proxy with tlsTestModeEnable (Java's default)
     * serves TLS and plaintext on the same gRPC port, with a certificate the client does not check.
     */
    @Test
    void aClientWithTlsOnSendsAndReceivesOnTheSamePort() throws Exception {
        String topic = GrpcClients.newTopic("grpc_tls", 1, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_tls");
        Producer producer = GrpcClients.PROVIDER.newProducerBuilder().setClientConfiguration(GrpcClients.config(true))
            .setTopics(topic).build();
        cleanups.add(closing(producer));
        String id = producer.send(message(topic, "over TLS to " + topic, "TagT", "tls-1").build())
            .getMessageId().toString();
        SimpleConsumer consumer = GrpcClients.simpleConsumer(GrpcClients.config(true), group, topic,
            FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));
        List<Delivery> got = GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(60),
            "the message sent over TLS", d -> consumer.ack(d.msg()), ds -> !ds.isEmpty());
        assertEquals(List.of(id), got.stream().map(Delivery::id).toList(), "received");
        assertEquals("over TLS to " + topic, got.get(0).body());
    }

    // ---------------------------------------------------------------------------------------------
    // PushConsumer

    @Test
    void aPushConsumerGetsEveryMessageOnce() throws Exception {
        String topic = GrpcClients.newTopic("grpc_push", 4, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_push");
        Deliveries deliveries = new Deliveries();
        PushConsumer consumer = GrpcClients.pushConsumer(group, topic, FilterExpression.SUB_ALL, deliveries);
        cleanups.add(closing(consumer));
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        Map<String, String> bodyById = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            Message m = numbered(topic, "push", i);
            bodyById.put(producer.send(m).getMessageId().toString(), body(m));
        }
        Eventually.eventually(Duration.ofSeconds(60), "the 20 messages pushed", () -> {
            assertEquals(bodyById.keySet(), deliveries.list().stream().map(Delivery::id).collect(Collectors.toSet()));
            return null;
        });
        List<Delivery> all = deliveries.list();
        assertEquals(20, all.size(), "deliveries: " + GrpcClients.describe(all));
        for (Delivery d : all) {
            assertEquals(bodyById.get(d.id()), d.body(), "body of " + d.id());
            assertEquals(1, d.msg().getDeliveryAttempt(), "delivery attempt of " + d.body());
            assertEquals(topic, d.msg().getTopic());
        }
    }

    @Test
    void aMessageTheListenerFailsComesBackWithDeliveryAttemptTwo() throws Exception {
        String topic = GrpcClients.newTopic("grpc_pushfail", 2, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_pushfail");
        Deliveries deliveries = new Deliveries(m -> m.getKeys().contains("fail") && m.getDeliveryAttempt() == 1
            ? ConsumeResult.FAILURE : ConsumeResult.SUCCESS);
        PushConsumer consumer = GrpcClients.pushConsumer(group, topic, FilterExpression.SUB_ALL, deliveries);
        cleanups.add(closing(consumer));
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        Map<String, String> failing = new LinkedHashMap<>();
        Map<String, String> fine = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            boolean fail = i % 2 == 0;
            Message m = message(topic, (fail ? "failed once " : "fine ") + i + " of " + topic, "TagA",
                fail ? "fail" : "fine", "n" + i).build();
            (fail ? failing : fine).put(producer.send(m).getMessageId().toString(), body(m));
        }
        Eventually.eventually(Duration.ofSeconds(90), "each failed message delivered again and the rest once", () -> {
            for (String id : failing.keySet()) {
                assertEquals(2, deliveries.of(id).size(), "deliveries of " + failing.get(id));
            }
            for (String id : fine.keySet()) {
                assertEquals(1, deliveries.of(id).size(), "deliveries of " + fine.get(id));
            }
            return null;
        });
        for (String id : failing.keySet()) {
            List<Delivery> ds = deliveries.of(id);
            assertEquals(List.of(1, 2), ds.stream().map(d -> d.msg().getDeliveryAttempt()).toList(),
                "delivery attempts of " + failing.get(id));
            for (Delivery d : ds) {
                assertEquals(failing.get(id), d.body(), "body of a delivery of " + id);
                assertTrue(d.msg().getKeys().contains("fail"), "keys of a delivery of " + failing.get(id));
                assertEquals(2, d.msg().getKeys().size(), "keys of a delivery of " + failing.get(id));
            }
        }
        for (String id : fine.keySet()) {
            assertEquals(1, deliveries.of(id).get(0).msg().getDeliveryAttempt(), "delivery attempt of " + fine.get(id));
        }
        assertEquals(6, deliveries.list().size(), "deliveries: " + GrpcClients.describe(deliveries.list()));
    }

    // ---------------------------------------------------------------------------------------------
    // FIFO

    @Test
    void fifoMessagesArriveInOrderPerMessageGroup() throws Exception {
        String topic = GrpcClients.newTopic("grpc_fifo", 4, "FIFO");
        String group = GrpcClients.newGroup("GID_grpc_fifo", true, 16);
        Deliveries deliveries = new Deliveries();
        PushConsumer consumer = GrpcClients.pushConsumer(group, topic, FilterExpression.SUB_ALL, deliveries);
        cleanups.add(closing(consumer));
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        Map<String, List<String>> sentByGroup = new LinkedHashMap<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            String messageGroup = "order-" + (i % 3);
            String body = "fifo " + i + " of " + messageGroup + " of " + topic;
            Message m = message(topic, body, "TagF", "fifo-" + i).setMessageGroup(messageGroup).build();
            ids.add(producer.send(m).getMessageId().toString());
            sentByGroup.computeIfAbsent(messageGroup, k -> new ArrayList<>()).add(body);
        }
        Eventually.eventually(Duration.ofSeconds(90), "the 30 FIFO messages pushed", () -> {
            assertEquals(ids, deliveries.list().stream().map(Delivery::id).collect(Collectors.toSet()));
            return null;
        });
        Map<String, List<String>> gotByGroup = new LinkedHashMap<>();
        for (Delivery d : deliveries.list()) {
            String g = d.msg().getMessageGroup().orElseThrow(() -> new AssertionError("no message group: " + d.body()));
            gotByGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(d.body());
            assertEquals(1, d.msg().getDeliveryAttempt(), "delivery attempt of " + d.body());
        }
        assertEquals(sentByGroup, gotByGroup, "bodies per message group, in the order they came");
    }

    // ---------------------------------------------------------------------------------------------
    // Delivery timestamp

    /** The broker's timer rounds the delivery time down to its second (timerPrecisionMs 1000). */
    @Test
    void aMessageWithADeliveryTimestampIsNotReceivedBeforeIt() throws Exception {
        String topic = GrpcClients.newTopic("grpc_delay", 2, "DELAY");
        String group = GrpcClients.newGroup("GID_grpc_delay");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));
        long deliverAt = System.currentTimeMillis() + 5_000;
        String body = "delayed of " + topic;
        String id = producer.send(message(topic, body, "TagD", "delay-1").setDeliveryTimestamp(deliverAt).build())
            .getMessageId().toString();
        List<Delivery> got = GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(60),
            "the delayed message", d -> consumer.ack(d.msg()), ds -> !ds.isEmpty());
        assertEquals(List.of(id), got.stream().map(Delivery::id).toList(), "received");
        Delivery d = got.get(0);
        assertEquals(body, d.body());
        assertEquals(Optional.of(deliverAt), d.msg().getDeliveryTimestamp(), "delivery timestamp");
        assertTrue(d.at() >= deliverAt - 1000, "received " + (deliverAt - d.at()) + " ms before its delivery timestamp");
        System.out.printf("GrpcClientTest: the delayed message came %d ms after its delivery timestamp%n",
            d.at() - deliverAt);
    }

    // ---------------------------------------------------------------------------------------------
    // Transactions

    @Test
    @Timeout(180)
    void aCommitArrivesARollbackNeverAndAnUnendedOneIsResolvedByTheChecker() throws Exception {
        String topic = GrpcClients.newTopic("grpc_tx", 2, "TRANSACTION");
        String group = GrpcClients.newGroup("GID_grpc_tx");
        ConcurrentLinkedQueue<String> checked = new ConcurrentLinkedQueue<>();
        Producer producer = GrpcClients.transactionalProducer(v -> {
            String key = v.getKeys().iterator().next();
            checked.add(key);
            return key.equals("tx-rollback") ? TransactionResolution.ROLLBACK : TransactionResolution.COMMIT;
        }, topic);
        cleanups.add(closing(producer));
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));

        Transaction t1 = producer.beginTransaction();
        String committed = producer.send(message(topic, "committed of " + topic, "TagX", "tx-commit").build(), t1)
            .getMessageId().toString();
        t1.commit();
        Transaction t2 = producer.beginTransaction();
        String rolledBack = producer.send(message(topic, "rolled back of " + topic, "TagX", "tx-rollback").build(), t2)
            .getMessageId().toString();
        t2.rollback();
        Transaction t3 = producer.beginTransaction();
        String unended = producer.send(message(topic, "unended of " + topic, "TagX", "tx-unknown").build(), t3)
            .getMessageId().toString();
        // t3 is neither committed nor rolled back: the broker asks the producer (transactionTimeOut 6 s,
        // transactionCheckInterval 1 s in ref-servers.sh), the checker answers COMMIT.

        Set<String> ids = new HashSet<>();
        GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(120),
            "the committed message and the one the checker committed", d -> {
                if (d.id().equals(rolledBack)) {
                    fail("the rolled back message arrived: " + d.body());
                }
                if (!ids.add(d.id())) {
                    fail("received twice: " + d.body());
                }
                consumer.ack(d.msg());
            }, ds -> ids.containsAll(List.of(committed, unended)));
        assertEquals(Set.of(committed, unended), ids, "received");
        assertTrue(checked.contains("tx-unknown"), "the checker was asked about the unended message: " + checked);
        assertFalse(checked.contains("tx-commit"), "the checker was asked about the committed message: " + checked);
        // The rollback's op was written before the check-back of t3 (6 s later) made the third one visible:
        // the topic holds the two, the rolled back message never went there.
        long queued = 0;
        for (var w : Clients.admin().examineTopicStats(topic).getOffsetTable().values()) {
            queued += w.getMaxOffset() - w.getMinOffset();
        }
        assertEquals(2, queued, "messages in the queues of " + topic);
        System.out.println("GrpcClientTest: transaction check-backs asked about " + checked);
    }

    // ---------------------------------------------------------------------------------------------
    // Filters

    @Test
    void aTagFilterReceivesOnlyMatchingTags() throws Exception {
        String topic = GrpcClients.newTopic("grpc_tag", 1, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_tag");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        String[] tags = {"TagA", "TagC", "TagB", null, "TagC", "TagAB", "TagB", "TagA"};
        Set<String> wanted = new HashSet<>();
        for (int i = 0; i < tags.length; i++) {
            String body = "tag " + tags[i] + " " + i + " of " + topic;
            String id = producer.send(message(topic, body, tags[i], "tag-" + i).build()).getMessageId().toString();
            if ("TagA".equals(tags[i]) || "TagB".equals(tags[i])) {
                wanted.add(id);
            }
        }
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic,
            new FilterExpression("TagA||TagB", FilterExpressionType.TAG));
        cleanups.add(closing(consumer));
        assertOnlyThese(consumer, wanted, "TagA||TagB");
    }

    @Test
    void aSql92FilterReceivesOnlyMatchingProperties() throws Exception {
        String topic = GrpcClients.newTopic("grpc_sql", 1, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_sql");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        Set<String> wanted = new HashSet<>();
        for (int i = 0; i <= 10; i++) {
            String color = i % 2 == 0 ? "red" : "blue";
            String body = "sql a=" + i + " " + color + " of " + topic;
            String id = producer.send(message(topic, body, "TagS", "sql-" + i).addProperty("a", Integer.toString(i))
                .addProperty("color", color).build()).getMessageId().toString();
            if (i > 5 && color.equals("red")) {
                wanted.add(id); // 6, 8 and 10, the last sent
            }
        }
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic,
            new FilterExpression("a > 5 AND color = 'red'", FilterExpressionType.SQL92));
        cleanups.add(closing(consumer));
        assertOnlyThese(consumer, wanted, "a > 5 AND color = 'red'");
    }

    /** Receives until every wanted message came (the last sent is one of them); fails on any other. */
    private static void assertOnlyThese(SimpleConsumer consumer, Set<String> wanted, String filter) throws Exception {
        Set<String> got = new HashSet<>();
        GrpcClients.receiveUntil(consumer, Duration.ofSeconds(30), Duration.ofSeconds(60), "the messages " + filter
            + " selects", d -> {
                if (!wanted.contains(d.id())) {
                    fail(filter + " let through \"" + d.body() + "\" (tag " + d.msg().getTag() + ", properties "
                        + d.msg().getProperties() + ")");
                }
                if (!got.add(d.id())) {
                    fail("received twice: " + d.body());
                }
                consumer.ack(d.msg());
            }, ds -> got.containsAll(wanted));
        assertEquals(wanted, got, "received");
    }

    // ---------------------------------------------------------------------------------------------
    // Bad input: what the 5.3.3 proxy answers

    /** The route of a topic that does not exist: NotFoundException, Code.TOPIC_NOT_FOUND (40402). */
    @Test
    void sendingToATopicThatDoesNotExistFailsWithTopicNotFound() throws Exception {
        Producer producer = GrpcClients.producer();
        cleanups.add(closing(producer));
        String topic = Clients.unique("grpc_missing");
        ClientException e = assertThrows(ClientException.class,
            () -> producer.send(message(topic, "to nowhere", "TagA", "missing-1").build()));
        System.out.println("GrpcClientTest: send to a missing topic: " + e.getClass().getName() + ": " + e.getMessage());
        assertInstanceOf(NotFoundException.class, e, "exception: " + e);
        assertEquals(40402, GrpcClients.responseCode(e), "response code in " + e.getMessage());
    }

    /**
     * A message of another type than the topic's message.type: the route lists the types the topic
     * accepts and the client refuses before it sends (Settings.publishing.validate_message_type).
     */
    @Test
    void aFifoMessageToANormalTopicIsRefusedByTheRoutesAcceptedTypes() throws Exception {
        String topic = GrpcClients.newTopic("grpc_mistyped", 1, "NORMAL");
        Producer producer = GrpcClients.producer(topic);
        cleanups.add(closing(producer));
        Exception e = assertThrows(Exception.class, () -> producer.send(message(topic, "fifo to a normal topic",
            "TagA", "mistyped-1").setMessageGroup("g").build()));
        System.out.println("GrpcClientTest: FIFO message to a NORMAL topic: " + e.getClass().getName() + ": "
            + e.getMessage() + (e.getCause() != null ? " / cause " + e.getCause() : ""));
        Throwable cause = e instanceof IllegalArgumentException ? e : e.getCause();
        assertInstanceOf(IllegalArgumentException.class, cause, "exception: " + e);
        assertTrue(cause.getMessage().contains("acceptMessageTypes=[NORMAL]"), cause.getMessage());
        assertTrue(cause.getMessage().contains("actualMessageType=FIFO"), cause.getMessage());
    }

    /** An invisible duration under the proxy's minInvisibleTimeMillsForRecv (10 s): Code.ILLEGAL_INVISIBLE_TIME. */
    @Test
    void aReceiveWithAnInvisibleDurationUnderTenSecondsIsABadRequest() throws Exception {
        String topic = GrpcClients.newTopic("grpc_badinvisible", 1, "NORMAL");
        String group = GrpcClients.newGroup("GID_grpc_badinvisible");
        SimpleConsumer consumer = GrpcClients.simpleConsumer(group, topic, FilterExpression.SUB_ALL);
        cleanups.add(closing(consumer));
        ClientException e = assertThrows(ClientException.class, () -> consumer.receive(1, Duration.ofSeconds(1)));
        System.out.println("GrpcClientTest: receive with 1 s invisible: " + e.getClass().getName() + ": " + e.getMessage());
        assertInstanceOf(BadRequestException.class, e, "exception: " + e);
        assertEquals(40011, GrpcClients.responseCode(e), "response code in " + e.getMessage());
    }

    // ---------------------------------------------------------------------------------------------

    private static Message numbered(String topic, String how, int i) {
        return message(topic, how + " " + i + " of " + topic, i % 2 == 0 ? "TagA" : "TagB", "key-" + i, "k2-" + i)
            .addProperty("seq", Integer.toString(i)).build();
    }

    private static String body(Message m) {
        java.nio.ByteBuffer b = m.getBody().duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
