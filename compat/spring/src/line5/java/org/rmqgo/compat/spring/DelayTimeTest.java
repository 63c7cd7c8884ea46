package org.rmqgo.compat.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

/**
 * Line 5 only (starter 2.3.x): syncSendDelayTimeSeconds, a 5.x timer
 * message (property TIMER_DELAY_SEC), is held by the broker and then
 * reaches the plain topic's listener.
 */
class DelayTimeTest extends SpringStarterTestBase {
    private static final String TOPIC = RunNames.PLAIN_TOPIC;

    @Test
    void delayTimeSecondsArrivesAfterItsDelay() throws Exception {
        String body = unique("timer");
        long before = System.currentTimeMillis();
        SendResult r = template.syncSendDelayTimeSeconds(TOPIC, body, 2);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        Eventually.eventually("the timer message arrives", () -> inbox.find(TOPIC, body).orElseThrow());
        long heldMillis = inbox.arrivedAt(body) - before;
        // 2 s; a broker that ignored the timer would deliver within a few ms.
        // Only a loose lower bound: the message was held, not delivered at once.
        assertTrue(heldMillis >= 1000, "a 2 s timer message arrived " + heldMillis + " ms after the send");
    }
}
