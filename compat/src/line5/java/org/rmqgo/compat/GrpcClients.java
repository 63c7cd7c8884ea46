package org.rmqgo.compat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientConfigurationBuilder;
import org.apache.rocketmq.client.apis.ClientException;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.StaticSessionCredentialsProvider;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.MessageListener;
import org.apache.rocketmq.client.apis.consumer.PushConsumer;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageBuilder;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.ProducerBuilder;
import org.apache.rocketmq.client.apis.producer.TransactionChecker;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.rmqgo.testsupport.Eventually;

/**
 * The 5.x gRPC client (org.apache.rocketmq:rocketmq-client-java 5.0.8) against the proxy inside
 * broker-a (ref-servers.sh PROXY=1) or in front of the brokers in cluster mode (PROXY=cluster,
 * proxy-cluster-suite.sh), at Env.proxyAddr(); topics and groups are made with the remoting admin
 * (DefaultMQAdminExt) on broker-a, as an operator makes them with mqadmin.
 */
final class GrpcClients {
    static final ClientServiceProvider PROVIDER = ClientServiceProvider.loadService();
    /** How long a SimpleConsumer's receive long-polls (the proxy's floor is 5 s). */
    static final Duration AWAIT = Duration.ofSeconds(5);
    /** The shortest invisible duration the 5.3.3 proxy accepts in a receive (minInvisibleTimeMillsForRecv). */
    static final Duration MIN_INVISIBLE = Duration.ofSeconds(10);

    private static final Pattern RESPONSE_CODE = Pattern.compile("response-code=(\\d+)");

    private GrpcClients() {
    }

    /** Plaintext to the proxy's gRPC port. */
    static ClientConfiguration config() {
        return config(false);
    }

    /** sslEnabled true is the client's default (a proxy in tlsTestModeEnable serves TLS and plaintext on one port). */
    static ClientConfiguration config(boolean ssl) {
        return config(ssl, null, null);
    }

    /** Signed with ak/sk (StaticSessionCredentialsProvider) unless ak is null. */
    static ClientConfiguration config(boolean ssl, String ak, String sk) {
        ClientConfigurationBuilder b = ClientConfiguration.newBuilder()
            .setEndpoints(Env.proxyAddr())
            .enableSsl(ssl)
            .setRequestTimeout(Duration.ofSeconds(15));
        if (ak != null) {
            b.setCredentialProvider(new StaticSessionCredentialsProvider(ak, sk));
        }
        return b.build();
    }

    /**
     * Creates a topic of that many queues on broker-a with the 5.x attribute message.type (NORMAL,
     * FIFO, DELAY, TRANSACTION; null: none) and waits for the name server to route it.
     */
    static String newTopic(String prefix, int queues, String messageType) throws Exception {
        String topic = Clients.unique(prefix);
        TopicConfig tc = Clients.topicConfig(topic, queues, queues);
        if (messageType != null) {
            tc.setAttributes(Map.of("+message.type", messageType));
        }
        Clients.admin().createAndUpdateTopicConfig(Env.brokerAddr(), tc);
        Eventually.eventually("route of " + topic + " names " + Env.brokerName(), () -> {
            var route = Clients.admin().examineTopicRouteInfo(topic);
            if (route.getQueueDatas().stream().noneMatch(q -> q.getBrokerName().equals(Env.brokerName()))) {
                throw new AssertionError("no queue data of " + Env.brokerName() + ": " + route);
            }
            return route;
        });
        return topic;
    }

    /**
     * Creates a consumer group on broker-a: fifo is SubscriptionGroupConfig.consumeMessageOrderly
     * (what the proxy gives the client as its subscription's fifo flag), retryMaxTimes + 1 the
     * delivery attempts before the dead letter queue.
     */
    static String newGroup(String prefix, boolean fifo, int retryMaxTimes) throws Exception {
        String group = Clients.unique(prefix);
        SubscriptionGroupConfig g = new SubscriptionGroupConfig();
        g.setGroupName(group);
        g.setConsumeMessageOrderly(fifo);
        g.setRetryMaxTimes(retryMaxTimes);
        Clients.admin().createAndUpdateSubscriptionGroupConfig(Env.brokerAddr(), g);
        return group;
    }

    static String newGroup(String prefix) throws Exception {
        return newGroup(prefix, false, 16);
    }

    static Producer producer(String... topics) throws ClientException {
        return PROVIDER.newProducerBuilder().setClientConfiguration(config()).setTopics(topics).build();
    }

    static Producer transactionalProducer(TransactionChecker checker, String... topics) throws ClientException {
        ProducerBuilder b = PROVIDER.newProducerBuilder().setClientConfiguration(config()).setTopics(topics)
            .setTransactionChecker(checker);
        return b.build();
    }

    static SimpleConsumer simpleConsumer(String group, String topic, FilterExpression filter) throws ClientException {
        return simpleConsumer(config(), group, topic, filter);
    }

    static SimpleConsumer simpleConsumer(ClientConfiguration config, String group, String topic,
        FilterExpression filter) throws ClientException {
        return PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(config)
            .setConsumerGroup(group)
            .setAwaitDuration(AWAIT)
            .setSubscriptionExpressions(Map.of(topic, filter))
            .build();
    }

    static PushConsumer pushConsumer(String group, String topic, FilterExpression filter, MessageListener listener)
        throws ClientException {
        return PROVIDER.newPushConsumerBuilder()
            .setClientConfiguration(config())
            .setConsumerGroup(group)
            .setSubscriptionExpressions(Map.of(topic, filter))
            .setConsumptionThreadCount(4)
            .setMessageListener(listener)
            .build();
    }

    /** A message with body, tag (null: none) and keys. */
    static MessageBuilder message(String topic, String body, String tag, String... keys) {
        MessageBuilder b = PROVIDER.newMessageBuilder().setTopic(topic).setBody(body.getBytes(StandardCharsets.UTF_8));
        if (tag != null) {
            b.setTag(tag);
        }
        if (keys.length > 0) {
            b.setKeys(keys);
        }
        return b;
    }

    static String body(MessageView m) {
        ByteBuffer b = m.getBody().duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static String id(MessageView m) {
        return m.getMessageId().toString();
    }

    /**
     * The status code the proxy answered, which the client puts in the exception's message only
     * ("[request-id=..., response-code=40402] ..."); -1 when there is none.
     */
    static int responseCode(ClientException e) {
        Matcher m = RESPONSE_CODE.matcher(String.valueOf(e.getMessage()));
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** One delivery to a listener or a receive: the message and the client's clock when it came. */
    record Delivery(MessageView msg, long at) {
        String id() {
            return GrpcClients.id(msg);
        }

        String body() {
            return GrpcClients.body(msg);
        }
    }

    /** What a push consumer's listener was given, in order; it answers with the given function. */
    static final class Deliveries implements MessageListener {
        interface Answer {
            ConsumeResult answer(MessageView m);
        }

        private final ConcurrentLinkedQueue<Delivery> all = new ConcurrentLinkedQueue<>();
        private final Answer answer;

        Deliveries(Answer answer) {
            this.answer = answer;
        }

        Deliveries() {
            this(m -> ConsumeResult.SUCCESS);
        }

        @Override
        public ConsumeResult consume(MessageView m) {
            all.add(new Delivery(m, System.currentTimeMillis()));
            return answer.answer(m);
        }

        List<Delivery> list() {
            return new ArrayList<>(all);
        }

        List<Delivery> of(String messageId) {
            return all.stream().filter(d -> d.id().equals(messageId)).toList();
        }
    }

    /** Runs the close steps, the last added first (Clients.runAll). */
    static AutoCloseable closing(java.io.Closeable c) {
        return c::close;
    }

    interface Each {
        void accept(Delivery d) throws Exception;
    }

    /**
     * Receives (each receive long-polls up to AWAIT) with that invisible duration until done holds
     * for everything received so far, handing each message to each as it comes (which may fail the
     * test at once); fails when done does not hold within timeout. Returns everything received.
     */
    static List<Delivery> receiveUntil(SimpleConsumer c, Duration invisible, Duration timeout, String what,
        Each each, java.util.function.Predicate<List<Delivery>> done) throws Exception {
        return receiveUntil(c, 32, invisible, timeout, what, each, done);
    }

    /** The same, at most batch messages a receive. */
    static List<Delivery> receiveUntil(SimpleConsumer c, int batch, Duration invisible, Duration timeout, String what,
        Each each, java.util.function.Predicate<List<Delivery>> done) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Delivery> got = new ArrayList<>();
        while (!done.test(got)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what + "; received "
                    + describe(got));
            }
            for (MessageView m : c.receive(batch, invisible)) {
                Delivery d = new Delivery(m, System.currentTimeMillis());
                got.add(d);
                each.accept(d);
            }
        }
        return got;
    }

    /** id, body and delivery attempt of each, for messages. */
    static String describe(List<Delivery> ds) {
        StringBuilder b = new StringBuilder("[");
        for (Delivery d : ds) {
            b.append(b.length() > 1 ? ", " : "").append(d.id()).append(' ').append('"').append(d.body()).append('"')
                .append(" attempt ").append(d.msg().getDeliveryAttempt());
        }
        return b.append(']').toString();
    }
}
