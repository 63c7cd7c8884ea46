package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.message.MessageRequestMode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.body.MessageRequestModeSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.SetMessageRequestModeRequestBody;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * 5.x's message request modes and server-side rebalance: SET_MESSAGE_REQUEST_MODE (401) as
 * DefaultMQAdminExt sends it (mqadmin setConsumeMode), and GET_ALL_MESSAGE_REQUEST_MODE (402) as a 5.x
 * slave asks for its master's table, read with Java's MessageRequestModeSerializeWrapper: the mode set
 * is the mode answered, and a retry topic or an unknown topic is refused with Java's code and remark;
 * and QUERY_ASSIGNMENT (400), which push consumers with clientRebalance=false ask instead of sharing
 * the queues themselves: two of them get two queues each, and every message once.
 */
class RequestModeTest {
    private static final int NO_PERMISSION = 16;
    private static final int TOPIC_NOT_EXIST = 17;

    private static DefaultMQAdminExt admin;
    private static NettyRemotingClient raw;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
        raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
    }

    @AfterAll
    static void stop() {
        if (raw != null) {
            raw.shutdown();
        }
    }

    /** The broker's whole table, as a slave's syncMessageRequestMode reads it. */
    private static Map<String, ? extends Map<String, SetMessageRequestModeRequestBody>> table() throws Exception {
        RemotingCommand resp = raw.invokeSync(Env.brokerAddr(),
            RemotingCommand.createRequestCommand(RequestCode.GET_ALL_MESSAGE_REQUEST_MODE, null), 15_000);
        assertNotNull(resp, "no answer to GET_ALL_MESSAGE_REQUEST_MODE");
        assertEquals(0, resp.getCode(), resp.getRemark());
        return RemotingSerializable.decode(resp.getBody(), MessageRequestModeSerializeWrapper.class)
            .getMessageRequestModeMap();
    }

    @Test
    void aModeSetIsTheModeAnswered() throws Exception {
        String topic = Clients.newTopic("rm", 4);
        String group = Clients.unique("GID_rm");
        admin.setMessageRequestMode(Env.brokerAddr(), topic, group, MessageRequestMode.POP, 2, 15_000);
        SetMessageRequestModeRequestBody got = table().get(topic).get(group);
        assertNotNull(got, "the mode of " + group + " on " + topic);
        assertEquals(MessageRequestMode.POP, got.getMode());
        assertEquals(2, got.getPopShareQueueNum());
        assertEquals(topic, got.getTopic());
        assertEquals(group, got.getConsumerGroup());

        admin.setMessageRequestMode(Env.brokerAddr(), topic, group, MessageRequestMode.PULL, 0, 15_000);
        assertEquals(MessageRequestMode.PULL, table().get(topic).get(group).getMode(), "set again");
    }

    @Test
    void aRetryTopicOrAnUnknownTopicIsRefused() {
        MQClientException retry = assertThrows(MQClientException.class, () -> admin.setMessageRequestMode(
            Env.brokerAddr(), "%RETRY%GID_rm", "GID_rm", MessageRequestMode.POP, 1, 15_000));
        assertEquals(NO_PERMISSION, retry.getResponseCode());
        assertEquals("retry topic is not allowed to set mode", retry.getErrorMessage());
        String topic = Clients.unique("rm_none");
        MQClientException unknown = assertThrows(MQClientException.class, () -> admin.setMessageRequestMode(
            Env.brokerAddr(), topic, "GID_rm", MessageRequestMode.POP, 1, 15_000));
        assertEquals(TOPIC_NOT_EXIST, unknown.getResponseCode());
        assertEquals("topic[" + topic + "] not exist", unknown.getErrorMessage());
    }

    @Test
    void consumersRebalancedByTheBrokerShareTheQueuesAndGetEveryMessageOnce() throws Exception {
        String topic = Clients.newTopic("rmq", 4);
        String group = Clients.unique("GID_rmq");
        Received received = new Received();
        List<DefaultMQPushConsumer> consumers = new ArrayList<>();
        try {
            for (String name : List.of("c1", "c2")) {
                DefaultMQPushConsumer c = Clients.pushConsumer(group);
                c.setClientRebalance(false);
                c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
                c.subscribe(topic, "*");
                c.registerMessageListener(received.concurrently(name));
                c.start();
                consumers.add(c);
            }
            Eventually.eventually("the broker gave each consumer two queues", () -> {
                Set<MessageQueue> a = Clients.heldQueues(consumers.get(0), topic);
                Set<MessageQueue> b = Clients.heldQueues(consumers.get(1), topic);
                assertEquals(2, a.size(), "c1 holds " + a);
                assertEquals(2, b.size(), "c2 holds " + b);
                assertTrue(a.stream().noneMatch(b::contains), "shared " + a + " and " + b);
                return null;
            });
            DefaultMQProducer producer = Clients.producer();
            List<String> sent = new ArrayList<>();
            try {
                for (int i = 0; i < 20; i++) {
                    String body = "assigned " + i + " of " + topic;
                    Message m = new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8));
                    assertEquals(SendStatus.SEND_OK, producer.send(m, Clients.BY_QUEUE_ID, i % 4).getSendStatus());
                    sent.add(body);
                }
            } finally {
                producer.shutdown();
            }
            received.awaitAll(sent);
            received.assertOnly(sent);
            Set<String> one = received.bodiesOf("c1");
            Set<String> two = received.bodiesOf("c2");
            assertEquals(10, one.size(), "c1's two queues hold ten messages: " + one);
            assertEquals(10, two.size(), "c2's two queues hold ten messages: " + two);
            assertFalse(one.stream().anyMatch(two::contains), "a message reached both consumers");
        } finally {
            for (DefaultMQPushConsumer c : consumers) {
                c.shutdown();
            }
        }
    }
}
