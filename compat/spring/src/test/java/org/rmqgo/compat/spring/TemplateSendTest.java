package org.rmqgo.compat.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.support.RocketMQHeaders;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;
import org.springframework.messaging.support.MessageBuilder;

/**
 * RocketMQTemplate's sends (syncSend, asyncSend, sendOneWay, a "topic:tag"
 * destination with a KEYS header, a delay level) all reach a concurrent
 * @RocketMQMessageListener, with their tag, keys and delay.
 */
class TemplateSendTest extends SpringStarterTestBase {
    private static final int COUNT = 5;
    private static final String TOPIC = RunNames.PLAIN_TOPIC;

    @Test
    void syncSendArrives() throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            String body = unique("sync");
            SendResult r = template.syncSend(TOPIC, body);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            assertNotNull(r.getMsgId());
            bodies.add(body);
        }
        Eventually.eventually("every syncSend message arrives", () -> {
            inbox.assertArrived(TOPIC, bodies);
            return true;
        });
    }

    @Test
    void asyncSendCallsBackAndArrives() throws Exception {
        Map<String, Object> outcomes = new ConcurrentHashMap<>();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            String body = unique("async");
            bodies.add(body);
            template.asyncSend(TOPIC, body, new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    outcomes.put(body, result);
                }

                @Override
                public void onException(Throwable e) {
                    outcomes.put(body, e);
                }
            });
        }
        Eventually.eventually("every asyncSend calls back", () -> {
            assertEquals(COUNT, outcomes.size(), outcomes.toString());
            return true;
        });
        for (Object outcome : outcomes.values()) {
            assertTrue(outcome instanceof SendResult r && r.getSendStatus() == SendStatus.SEND_OK,
                "asyncSend failed: " + outcome);
        }
        Eventually.eventually("every asyncSend message arrives", () -> {
            inbox.assertArrived(TOPIC, bodies);
            return true;
        });
    }

    @Test
    void sendOneWayArrives() throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            String body = unique("oneway");
            template.sendOneWay(TOPIC, body);
            bodies.add(body);
        }
        Eventually.eventually("every sendOneWay message arrives", () -> {
            inbox.assertArrived(TOPIC, bodies);
            return true;
        });
    }

    @Test
    void tagDestinationAndKeysHeaderArrive() throws Exception {
        String body = unique("tagged");
        String key = unique("key");
        SendResult r = template.syncSend(TOPIC + ":TagX",
            MessageBuilder.withPayload(body).setHeader(RocketMQHeaders.KEYS, key).build());
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        MessageExt got = Eventually.eventually("the tagged message arrives",
            () -> inbox.find(TOPIC, body).orElseThrow());
        assertEquals("TagX", got.getTags());
        assertEquals(key, got.getKeys());
        assertEquals(r.getMsgId(), got.getMsgId());
    }

    @Test
    void delayLevelSendArrivesAfterItsDelay() throws Exception {
        String body = unique("delay");
        long before = System.currentTimeMillis();
        SendResult r = template.syncSend(TOPIC, MessageBuilder.withPayload(body).build(), 10_000, 1);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        MessageExt got = Eventually.eventually("the delayed message arrives",
            () -> inbox.find(TOPIC, body).orElseThrow());
        long heldMillis = inbox.arrivedAt(body) - before;
        assertEquals("1", got.getProperty("DELAY"), "the delay level it was sent with");
        // Level 1 is 1 s; a broker that ignored the level would deliver within a few ms.
        // Only a loose lower bound: the message was held, not delivered at once.
        assertTrue(heldMillis >= 500, "a delay-level-1 message arrived " + heldMillis + " ms after the send");
    }
}
