package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java examples of the seed notes (docs/seeds.md, a Spring application's producer and
 * consumer beans and its send endpoints, and a pull-consumer loop), run the way they are written,
 * each checked the way their user would: the send result, and what the consumer beans print.
 */
class SeedExamplesTest {
    private static final String TAGS = "TagA";
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    /**
     * The producer bean: start, then producer.createTopic("TBW102", topic, 8, 0), which creates the
     * topic with 8 queues on every broker that routes TBW102. Waits until the name server routes it.
     */
    private DefaultMQProducer producerBean(String topic) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(Clients.unique("producerGroup01"));
        producer.setNamesrvAddr(Env.namesrvAddr());
        producer.setInstanceName(Clients.unique("producer"));
        producer.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        producer.start();
        cleanups.add(producer::shutdown);
        Line.createTopicViaProducer(producer, "TBW102", topic, 8, 0);
        var admin = Clients.admin();
        Set<String> tbwBrokers = new HashSet<>();
        admin.examineTopicRouteInfo("TBW102").getQueueDatas().forEach(q -> tbwBrokers.add(q.getBrokerName()));
        Eventually.eventually("route of " + topic + " has 8 queues on " + tbwBrokers, () -> {
            Map<String, Integer> queues = new TreeMap<>();
            for (var q : admin.examineTopicRouteInfo(topic).getQueueDatas()) {
                assertEquals(8, q.getReadQueueNums(), "read queues on " + q.getBrokerName());
                assertEquals(8, q.getWriteQueueNums(), "write queues on " + q.getBrokerName());
                queues.put(q.getBrokerName(), q.getWriteQueueNums());
            }
            assertEquals(tbwBrokers, queues.keySet(), "brokers of " + topic);
            return null;
        });
        return producer;
    }

    /** The plain consumer bean: subscribe "*" (or a tag), a concurrent listener. */
    private Received filterConsumerBean(String topic, String subExpression) throws Exception {
        Received received = new Received();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(Clients.unique("consumerGroup03"));
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("consumer"));
        consumer.subscribe(topic, subExpression);
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            received.add("filterConsumer", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cleanups.add(consumer::shutdown);
        Clients.awaitRebalanced(consumer, topic); // it starts from the last offset: see there
        return received;
    }

    /** The orderly consumer bean: CONSUME_FROM_FIRST_OFFSET, subscribe "*", MessageListenerOrderly. */
    private Received sortConsumerBean(String topic) throws Exception {
        Received received = new Received();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(Clients.unique("consumerGroup02"));
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener(new MessageListenerOrderly() {
            @Override
            public ConsumeOrderlyStatus consumeMessage(List<MessageExt> msgs, ConsumeOrderlyContext context) {
                context.setAutoCommit(true);
                received.add("sortConsumer", msgs);
                return ConsumeOrderlyStatus.SUCCESS;
            }
        });
        consumer.start();
        cleanups.add(consumer::shutdown);
        return received;
    }

    @Test
    void sendEndpointSendsSyncAndTheConsumerBeanGetsIt() throws Exception {
        String topic = Clients.unique("testTopic01");
        DefaultMQProducer producer = producerBean(topic);
        Received received = filterConsumerBean(topic, "*");
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String body = "hello " + i + " 你好 " + topic;
            Message msg = new Message(topic, TAGS, body.getBytes(RemotingHelper.DEFAULT_CHARSET));
            SendResult sendResult = producer.send(msg);
            assertEquals(SendStatus.SEND_OK, sendResult.getSendStatus(), sendResult.toString());
            bodies.add(body);
        }
        received.awaitAll(bodies);
        received.assertOnly(bodies);
        received.firstByBody().values().forEach(m -> assertEquals(TAGS, m.getTags(), "tags"));
    }

    @Test
    void sendAsyncEndpointCallsOnSuccessForEveryMessage() throws Exception {
        String topic = Clients.unique("testTopic01");
        DefaultMQProducer producer = producerBean(topic);
        Received received = filterConsumerBean(topic, "*");
        List<String> bodies = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            String body = "async " + i + " " + topic;
            Message msg = new Message(topic, TAGS, body.getBytes(RemotingHelper.DEFAULT_CHARSET));
            producer.send(msg, new SendCallback() {
                @Override
                public void onSuccess(SendResult sendResult) {
                    if (sendResult.getSendStatus() != SendStatus.SEND_OK) {
                        errors.add(new AssertionError(sendResult.toString()));
                    }
                    done.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    errors.add(e);
                    done.countDown();
                }
            });
            bodies.add(body);
        }
        assertTrue(done.await(60, TimeUnit.SECONDS), "callbacks within 60 s: " + (10 - done.getCount()));
        assertTrue(errors.isEmpty(), "onException / not SEND_OK: " + errors);
        received.awaitAll(bodies);
        received.assertOnly(bodies);
    }

    @Test
    void sendOneWayEndpointDeliversEveryMessage() throws Exception {
        String topic = Clients.unique("testTopic01");
        DefaultMQProducer producer = producerBean(topic);
        Received received = filterConsumerBean(topic, "*");
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String body = "oneway " + i + " " + topic;
            producer.sendOneway(new Message(topic, TAGS, body.getBytes(RemotingHelper.DEFAULT_CHARSET)));
            bodies.add(body);
        }
        received.awaitAll(bodies);
        received.assertOnly(bodies);
    }

    /**
     * sortSend: ten messages body_1..body_10, the selector puts odd i on mqs.get(1) and even i on
     * mqs.get(0); the orderly consumer bean gets each group in send order.
     */
    @Test
    void sortSendEndpointKeepsOddAndEvenInOrderOnTheirQueues() throws Exception {
        String topic = Clients.unique("testTopic01");
        DefaultMQProducer producer = producerBean(topic);
        Received received = sortConsumerBean(topic);
        String body = "sorted " + topic;
        int num = 10;
        List<SendResult> sendResults = new ArrayList<>(num);
        Map<Integer, MessageQueue> chosen = new HashMap<>();
        for (int i = 1; i <= num; i++) {
            Message msg = new Message(topic, TAGS, (body + "_" + i).getBytes());
            sendResults.add(producer.send(msg, new MessageQueueSelector() {
                @Override
                public MessageQueue select(List<MessageQueue> mqs, Message msg, Object arg) {
                    MessageQueue mq = mqs.get((int) arg % 2);
                    chosen.put((int) arg, mq);
                    return mq;
                }
            }, i));
        }
        List<String> odd = new ArrayList<>();
        List<String> even = new ArrayList<>();
        for (int i = 1; i <= num; i++) {
            SendResult r = sendResults.get(i - 1);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            assertEquals(chosen.get(i), r.getMessageQueue(), "queue of message " + i);
            (i % 2 == 0 ? even : odd).add(body + "_" + i);
        }
        assertTrue(!chosen.get(1).equals(chosen.get(2)), "odd and even go to two queues: " + chosen);

        List<String> all = new ArrayList<>(odd);
        all.addAll(even);
        received.awaitAll(all);
        received.assertOnly(all);
        Map<MessageQueue, List<String>> byQueue = new HashMap<>();
        for (var d : received.deliveries()) {
            byQueue.computeIfAbsent(new MessageQueue(topic, d.msg().getBrokerName(), d.msg().getQueueId()),
                q -> new ArrayList<>()).add(d.body());
        }
        assertEquals(odd, byQueue.get(chosen.get(1)), "odd messages on " + chosen.get(1) + ", in order");
        assertEquals(even, byQueue.get(chosen.get(2)), "even messages on " + chosen.get(2) + ", in order");
    }

    /** The seed's utility that splits a list into chunks whose calcSize adds up to at most size. */
    abstract static class ListSplitterBySize<T> implements Iterator<List<T>> {
        private final List<T> list;
        private final int size;
        private int currIndex = 0;

        protected ListSplitterBySize(List<T> list, int size) {
            this.list = list;
            this.size = size;
        }

        @Override
        public boolean hasNext() {
            return currIndex < list.size();
        }

        @Override
        public List<T> next() {
            int startIndex = this.currIndex;
            int tmpSize = 0;
            do {
                tmpSize += calcSize(this.list.get(this.currIndex));
                this.currIndex++;
            } while (tmpSize < size && this.currIndex < list.size());
            if (tmpSize > size) {
                this.currIndex--;
            }
            if (startIndex == this.currIndex) {
                throw new IllegalStateException("cannot split the list: one element alone is over the size");
            }
            return this.list.subList(startIndex, this.currIndex);
        }

        protected abstract int calcSize(T t);
    }

    /** batchSend: the messages in 4 MiB chunks (the seed's calcSize: topic + body + properties + 20). */
    private static List<SendResult> batchSend(DefaultMQProducer producer, List<Message> msgs,
        List<List<Message>> chunks) throws Exception {
        ListSplitterBySize<Message> msgIterator = new ListSplitterBySize<Message>(msgs, 4 * 1024 * 1024) {
            @Override
            protected int calcSize(Message message) {
                int tmpSize = message.getTopic().length() + message.getBody().length;
                Map<String, String> properties = message.getProperties();
                for (Map.Entry<String, String> entry : properties.entrySet()) {
                    tmpSize += entry.getKey().length() + entry.getValue().length();
                }
                tmpSize = tmpSize + 20;
                return tmpSize;
            }
        };
        List<SendResult> results = new ArrayList<>();
        while (msgIterator.hasNext()) {
            List<Message> chunk = msgIterator.next();
            chunks.add(chunk);
            results.add(producer.send(chunk));
        }
        return results;
    }

    @Test
    @Timeout(180)
    void batchSendEndpointSplitsBy4MiBAndEveryMessageArrives() throws Exception {
        String topic = Clients.unique("testTopic01");
        DefaultMQProducer producer = producerBean(topic);
        Map<String, byte[]> bodies = new ConcurrentHashMap<>();
        Received received = new Received();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(Clients.unique("consumerGroup03"));
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("consumer"));
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) { // keep the big bodies out of Received's string form
                bodies.putIfAbsent(m.getKeys(), m.getBody());
            }
            received.add("filterConsumer", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cleanups.add(consumer::shutdown);
        Clients.awaitRebalanced(consumer, topic); // it starts from the last offset: see there

        // The endpoint's list: ten small messages, one chunk.
        List<Message> small = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            small.add(new Message(topic, TAGS, "small_" + i, ("batch " + topic + "_" + i).getBytes()));
        }
        List<SendResult> smallResults = batchSend(producer, small, new ArrayList<>());
        assertEquals(1, smallResults.size(), "chunks of the small list");
        // Ten of 700 KiB: five fit in 4 MiB, so two chunks.
        List<Message> big = new ArrayList<>();
        Map<String, byte[]> bigBodies = new HashMap<>();
        for (int i = 1; i <= 10; i++) {
            byte[] b = new byte[700 * 1024];
            for (int j = 0; j < b.length; j++) {
                b[j] = (byte) ('A' + (i + j) % 26);
            }
            big.add(new Message(topic, TAGS, "big_" + i, b));
            bigBodies.put("big_" + i, b);
        }
        List<List<Message>> bigChunks = new ArrayList<>();
        List<SendResult> bigResults = batchSend(producer, big, bigChunks);
        assertEquals(2, bigResults.size(), "chunks of the big list");
        for (SendResult r : union(smallResults, bigResults)) {
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        }

        Eventually.eventually(Duration.ofSeconds(120), "all 20 batched messages arrive", () -> {
            Set<String> keys = new HashSet<>();
            small.forEach(m -> keys.add(m.getKeys()));
            keys.addAll(bigBodies.keySet());
            assertEquals(keys, bodies.keySet(), "keys received");
            return null;
        });
        for (Message m : small) {
            assertEquals(new String(m.getBody()), new String(bodies.get(m.getKeys())), m.getKeys());
        }
        for (var e : bigBodies.entrySet()) {
            assertTrue(java.util.Arrays.equals(e.getValue(), bodies.get(e.getKey())), e.getKey() + ": body as sent");
        }
        // A chunk is one batch: its messages share the queue its send result names.
        Map<String, MessageExt> byKey = new HashMap<>();
        received.deliveries().forEach(d -> byKey.putIfAbsent(d.msg().getKeys(), d.msg()));
        for (int c = 0; c < bigChunks.size(); c++) {
            MessageQueue mq = bigResults.get(c).getMessageQueue();
            for (Message m : bigChunks.get(c)) {
                MessageExt got = byKey.get(m.getKeys());
                assertEquals(mq, new MessageQueue(topic, got.getBrokerName(), got.getQueueId()),
                    "queue of " + m.getKeys() + " of chunk " + c);
            }
        }
    }

    private static <T> List<T> union(List<T> a, List<T> b) {
        List<T> u = new ArrayList<>(a);
        u.addAll(b);
        return u;
    }

    /** filterSend: message.putUserProperty("a", "1"); the consumer bean subscribes to tagA only. */
    @Test
    void filterSendEndpointCarriesTheUserPropertyAndTheTagConsumerGetsOnlyItsTag() throws Exception {
        String topic = Clients.unique("testTopic01");
        DefaultMQProducer producer = producerBean(topic);
        Received received = filterConsumerBean(topic, "TagA");
        List<String> tagA = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String body = "filter " + i + " " + topic;
            Message message = new Message(topic, i % 2 == 0 ? "TagA" : "TagB", body.getBytes());
            message.putUserProperty("a", "1");
            SendResult sendResult = producer.send(message);
            assertEquals(SendStatus.SEND_OK, sendResult.getSendStatus(), sendResult.toString());
            if (i % 2 == 0) {
                tagA.add(body);
            }
        }
        received.awaitAll(tagA);
        received.assertOnly(tagA);
        for (MessageExt m : received.firstByBody().values()) {
            assertEquals("1", m.getUserProperty("a"), "user property a of " + Received.body(m));
            assertEquals("TagA", m.getTags());
        }
    }

    /**
     * The pull consumer of the notes: fetchSubscribeMessageQueues, then per queue pullBlockIfNotFound
     * from a remembered offset, remembering nextBeginOffset, until NO_NEW_MSG. The last pull of a
     * queue waits on the broker (long polling, about 20 s) before it answers NO_NEW_MSG.
     */
    @Test
    void pullConsumerLoopReadsEveryQueueUntilNoNewMessage() throws Exception {
        String topic = Clients.newTopic("TopicTest", 1);
        DefaultMQProducer producer = Clients.producer();
        cleanups.add(producer::shutdown);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String body = "pull " + i + " " + topic;
            producer.send(new Message(topic, TAGS, body.getBytes(StandardCharsets.UTF_8)));
            sent.add(body);
        }

        Map<MessageQueue, Long> offseTable = new HashMap<>();
        List<String> got = new ArrayList<>();
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(Clients.unique("please_rename_unique_group_name_5"));
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("pull"));
        consumer.start();
        cleanups.add(consumer::shutdown);
        Set<MessageQueue> mqs = consumer.fetchSubscribeMessageQueues(topic);
        for (MessageQueue mq : mqs) {
            SINGLE_MQ:
            while (true) {
                PullResult pullResult = consumer.pullBlockIfNotFound(mq, null, offseTable.getOrDefault(mq, 0L), 32);
                offseTable.put(mq, pullResult.getNextBeginOffset());
                switch (pullResult.getPullStatus()) {
                    case FOUND:
                        for (MessageExt msg : pullResult.getMsgFoundList()) {
                            got.add(new String(msg.getBody(), StandardCharsets.UTF_8));
                        }
                        break;
                    case NO_MATCHED_MSG:
                        break;
                    case NO_NEW_MSG:
                        break SINGLE_MQ;
                    case OFFSET_ILLEGAL:
                    default:
                        throw new AssertionError("unexpected " + pullResult);
                }
            }
        }
        assertEquals(sent, got, "bodies pulled, in order, once each");
        assertEquals(Map.of(mqs.iterator().next(), 40L), offseTable, "remembered offsets");
    }
}
