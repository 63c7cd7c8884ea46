package org.rmqgo.compat.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

/**
 * syncSendOrderly puts every message of one hash key on one queue, and a
 * consumeMode = ORDERLY listener receives each key's messages in the order
 * they were sent, from that queue.
 */
class OrderlyTest extends SpringStarterTestBase {
    private static final String TOPIC = RunNames.ORDERLY_TOPIC;
    private static final int KEYS = 4;
    private static final int PER_KEY = 10;

    @Test
    void eachHashKeyArrivesInSendOrder() throws Exception {
        String run = unique("orderly");
        Map<String, Integer> queueOfKey = new HashMap<>();
        List<String> bodies = new ArrayList<>();
        for (int seq = 0; seq < PER_KEY; seq++) {
            for (int k = 0; k < KEYS; k++) {
                String key = run + "-k" + k;
                String body = key + "#" + seq;
                SendResult r = template.syncSendOrderly(TOPIC, body, key);
                assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
                Integer first = queueOfKey.putIfAbsent(key, r.getMessageQueue().getQueueId());
                if (first != null) {
                    assertEquals(first, r.getMessageQueue().getQueueId(), "queue of " + body);
                }
                bodies.add(body);
            }
        }
        Eventually.eventually("every orderly message arrives", () -> {
            inbox.assertArrived(TOPIC, bodies);
            return true;
        });
        List<Integer> expected = IntStream.range(0, PER_KEY).boxed().toList();
        for (Map.Entry<String, Integer> e : queueOfKey.entrySet()) {
            List<Integer> order = new ArrayList<>();
            for (MessageExt m : inbox.received(TOPIC)) {
                String body = Inbox.body(m);
                if (body.startsWith(e.getKey() + "#")) {
                    assertEquals((int) e.getValue(), m.getQueueId(), "queue " + body + " arrived from");
                    order.add(Integer.parseInt(body.substring(body.indexOf('#') + 1)));
                }
            }
            assertEquals(expected, new ArrayList<>(new LinkedHashSet<>(order)), "first-arrival order of " + e.getKey());
            for (int i = 1; i < order.size(); i++) {
                if (order.get(i) < order.get(i - 1)) {
                    throw new AssertionError("out of order for " + e.getKey() + ": " + order);
                }
            }
        }
    }
}
