package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.AckCallback;
import org.apache.rocketmq.client.consumer.AckResult;
import org.apache.rocketmq.client.consumer.PopCallback;
import org.apache.rocketmq.client.consumer.PopResult;
import org.apache.rocketmq.client.consumer.PopStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.constant.ConsumeInitMode;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.AckMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ChangeInvisibleTimeRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ExtraInfoUtil;
import org.apache.rocketmq.remoting.protocol.header.PollingInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.PollingInfoResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.PopMessageRequestHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the POP test classes share (PopTest, PopHandoverTest): started clients (the admin, a
 * producer, the client API of a started client and a raw remoting client, one set per test class)
 * and the POP_MESSAGE, ACK_MESSAGE, BATCH_ACK_MESSAGE, CHANGE_MESSAGE_INVISIBLETIME and POLLING_INFO
 * calls as the 5.3.3 client makes them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PopFixture {
    /** How long the revive of an un-acked message may take: its invisible time plus the broker's rounds. */
    protected static final Duration REVIVE = Duration.ofSeconds(90);
    /** The POP retry flag of a handle read from the topic itself, and from the POP retry topic (V1). */
    protected static final String NORMAL = "0";
    protected static final String RETRY = "1";

    protected DefaultMQAdminExt admin;
    protected DefaultMQProducer producer;
    /** The client API of a started client: POP_MESSAGE, CHANGE_MESSAGE_INVISIBLETIME, BATCH_ACK as the consumer sends them. */
    protected MQClientAPIImpl api;
    /** For the exact response codes the client API folds into NO_EXIST (ACK) or drops. */
    protected NettyRemotingClient raw;

    @BeforeAll
    void startPopClients() throws Exception {
        admin = Clients.admin();
        producer = Clients.producer();
        api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
        raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
    }

    @AfterAll
    void stopPopClients() {
        if (raw != null) {
            raw.shutdown();
        }
        if (producer != null) {
            producer.shutdown();
        }
    }

    protected Map<String, String> sendKeyed(String topic, int n, int queues, String prefix) throws Exception {
        Map<String, String> sent = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String key = prefix + "-" + i;
            sent.put(key, sendOne(topic, i % queues, key, prefix + " message " + i + " of " + topic));
        }
        return sent;
    }

    protected String sendOne(String topic, int queueId, String key, String body) throws Exception {
        Message m = new Message(topic, "TagA", key, body.getBytes(StandardCharsets.UTF_8));
        assertEquals(SendStatus.SEND_OK, producer.send(m, Clients.BY_QUEUE_ID, queueId).getSendStatus(), "send " + key);
        return body;
    }

    /** POP_MESSAGE as PullAPIWrapper.popAsync sends it, through the client API. */
    protected CompletableFuture<PopResult> pop(String topic, String group, int queueId, int max,
        long invisibleTime, long pollTime, boolean order, String attemptId) throws Exception {
        PopMessageRequestHeader h = new PopMessageRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(topic);
        h.setQueueId(queueId);
        h.setMaxMsgNums(max);
        h.setInvisibleTime(invisibleTime);
        h.setPollTime(pollTime);
        h.setBornTime(System.currentTimeMillis());
        h.setInitMode(ConsumeInitMode.MIN);
        h.setExpType(ExpressionType.TAG);
        h.setExp("*");
        h.setOrder(order);
        h.setAttemptId(attemptId);
        h.setBrokerName(Env.brokerName());
        CompletableFuture<PopResult> f = new CompletableFuture<>();
        api.popMessageAsync(Env.brokerName(), Env.brokerAddr(), h, pollTime + 15_000, new PopCallback() {
            @Override
            public void onSuccess(PopResult popResult) {
                f.complete(popResult);
            }

            @Override
            public void onException(Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    protected PopResult get(CompletableFuture<PopResult> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    /** The messages of a FOUND answer, in the order the broker sent them; fails on anything else. */
    protected List<MessageExt> found(CompletableFuture<PopResult> f, String what) throws Exception {
        PopResult r = get(f);
        assertEquals(PopStatus.FOUND, r.getPopStatus(), what);
        return r.getMsgFoundList();
    }

    /** An answer without messages (a pop that waits for nothing is answered POLLING_TIMEOUT, read as POLLING_NOT_FOUND). */
    protected void assertNotFound(CompletableFuture<PopResult> f, String what) throws Exception {
        PopResult r = get(f);
        assertEquals(PopStatus.POLLING_NOT_FOUND, r.getPopStatus(), what + ": " + r.getMsgFoundList());
    }

    protected void assertPopFails(int code, CompletableFuture<PopResult> f) throws Exception {
        try {
            PopResult r = get(f);
            fail("expected code " + code + ", got " + r);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof MQBrokerException b)) {
                throw e;
            }
            assertEquals(code, b.getResponseCode(), "pop refused: " + b.getErrorMessage());
        }
    }

    /**
     * Pops (no long polling, every queue) until n distinct messages came, by msgId; fails when one
     * comes twice (its invisible time did not hold).
     */
    protected Map<String, MessageExt> popUntil(String topic, String group, int n, long invisibleTime) throws Exception {
        Map<String, MessageExt> got = new LinkedHashMap<>();
        Eventually.eventually(REVIVE, n + " messages popped from " + topic, () -> {
            PopResult r = get(pop(topic, group, -1, 32, invisibleTime, 0, false, null));
            if (r.getPopStatus() == PopStatus.FOUND) {
                for (MessageExt m : r.getMsgFoundList()) {
                    MessageExt was = got.putIfAbsent(m.getMsgId(), m);
                    if (was != null) {
                        fail("popped twice: " + m.getKeys() + " (" + ck(was) + ", then " + ck(m) + ")");
                    }
                }
            }
            assertTrue(got.size() >= n, "popped " + keys(got.values()));
            return null;
        });
        assertEquals(n, got.size(), "more than " + n + " came: " + keys(got.values()));
        return got;
    }

    /** One message per checkpoint (same start offset, pop time, queue, retry flag): the one with the highest offset. */
    protected Set<String> sentinels(Iterable<MessageExt> msgs) {
        Map<String, MessageExt> last = new HashMap<>();
        for (MessageExt m : msgs) {
            String[] h = handle(m);
            String ckKey = ExtraInfoUtil.getRetry(h) + "@" + ExtraInfoUtil.getQueueId(h) + "@"
                + ExtraInfoUtil.getCkQueueOffset(h) + "@" + ExtraInfoUtil.getPopTime(h);
            last.merge(ckKey, m, (x, y) -> x.getQueueOffset() >= y.getQueueOffset() ? x : y);
        }
        return last.values().stream().map(MessageExt::getMsgId).collect(Collectors.toCollection(TreeSet::new));
    }

    protected String ck(MessageExt m) {
        String ck = m.getProperty(MessageConst.PROPERTY_POP_CK);
        assertNotNull(ck, "no POP_CK on " + m.getKeys() + ": " + m);
        return ck;
    }

    protected String[] handle(MessageExt m) {
        String[] h = ExtraInfoUtil.split(ck(m));
        assertEquals(8, h.length, "fields of the handle " + ck(m));
        return h;
    }

    /** ACK_MESSAGE of a popped message as DefaultMQPushConsumerImpl.ackAsync builds it, over the raw client. */
    protected RemotingCommand ack(MessageExt m, String group) throws Exception {
        String[] h = handle(m);
        return ack(ExtraInfoUtil.getRealTopic(h, m.getTopic(), group), group, ExtraInfoUtil.getQueueId(h),
            ExtraInfoUtil.getQueueOffset(h), ck(m));
    }

    protected RemotingCommand ack(String topic, String group, int queueId, long offset, String extraInfo)
        throws Exception {
        AckMessageRequestHeader h = new AckMessageRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(topic);
        h.setQueueId(queueId);
        h.setOffset(offset);
        h.setExtraInfo(extraInfo);
        h.setBrokerName(Env.brokerName());
        return invoke(RemotingCommand.createRequestCommand(RequestCode.ACK_MESSAGE, h));
    }

    protected RemotingCommand changeRaw(String topic, String group, int queueId, long offset, String extraInfo,
        long invisibleTime) throws Exception {
        ChangeInvisibleTimeRequestHeader h = new ChangeInvisibleTimeRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(topic);
        h.setQueueId(queueId);
        h.setOffset(offset);
        h.setExtraInfo(extraInfo);
        h.setInvisibleTime(invisibleTime);
        h.setBrokerName(Env.brokerName());
        return invoke(RemotingCommand.createRequestCommand(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, h));
    }

    /** CHANGE_MESSAGE_INVISIBLETIME as DefaultMQPushConsumerImpl.changePopInvisibleTimeAsync sends it; the client builds the new handle. */
    protected AckResult change(MessageExt m, String group, long invisibleTime) throws Exception {
        String[] x = handle(m);
        ChangeInvisibleTimeRequestHeader h = new ChangeInvisibleTimeRequestHeader();
        h.setTopic(ExtraInfoUtil.getRealTopic(x, m.getTopic(), group));
        h.setQueueId(ExtraInfoUtil.getQueueId(x));
        h.setOffset(ExtraInfoUtil.getQueueOffset(x));
        h.setConsumerGroup(group);
        h.setExtraInfo(ck(m));
        h.setInvisibleTime(invisibleTime);
        h.setBrokerName(ExtraInfoUtil.getBrokerName(x));
        CompletableFuture<AckResult> f = new CompletableFuture<>();
        api.changeInvisibleTimeAsync(ExtraInfoUtil.getBrokerName(x), Env.brokerAddr(), h, 15_000, callback(f));
        return f.get(30, TimeUnit.SECONDS);
    }

    /** BATCH_ACK_MESSAGE of these handles of topic's messages, as the client API groups them. */
    protected AckResult batchAck(String topic, String group, List<String> handles) throws Exception {
        CompletableFuture<AckResult> f = new CompletableFuture<>();
        api.batchAckMessageAsync(Env.brokerAddr(), 15_000, callback(f), topic, group, handles);
        return f.get(30, TimeUnit.SECONDS);
    }

    protected AckCallback callback(CompletableFuture<AckResult> f) {
        return new AckCallback() {
            @Override
            public void onSuccess(AckResult ackResult) {
                f.complete(ackResult);
            }

            @Override
            public void onException(Throwable e) {
                f.completeExceptionally(e);
            }
        };
    }

    /** POLLING_INFO: how many POP requests the broker holds for topic@group@queueId. */
    protected int pollingNum(String topic, String group, int queueId) throws Exception {
        PollingInfoRequestHeader h = new PollingInfoRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(topic);
        h.setQueueId(queueId);
        RemotingCommand r = invoke(RemotingCommand.createRequestCommand(RequestCode.POLLING_INFO, h));
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "POLLING_INFO: " + r.getRemark());
        return ((PollingInfoResponseHeader) r.decodeCommandCustomHeader(PollingInfoResponseHeader.class)).getPollingNum();
    }

    protected RemotingCommand invoke(RemotingCommand request) throws Exception {
        RemotingCommand r = raw.invokeSync(Env.brokerAddr(), request, 15_000);
        assertNotNull(r, "no answer to " + request.getCode());
        return r;
    }

    protected TreeSet<String> keys(Iterable<MessageExt> msgs) {
        TreeSet<String> s = new TreeSet<>();
        msgs.forEach(m -> s.add(m.getKeys()));
        return s;
    }

    /** Keys in the order given. */
    protected List<String> keyList(List<MessageExt> msgs) {
        return msgs.stream().map(MessageExt::getKeys).toList();
    }

    protected List<String> msgIds(List<MessageExt> msgs) {
        return msgs.stream().map(MessageExt::getMsgId).toList();
    }
}
