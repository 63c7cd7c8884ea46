package org.rmqgo.compat.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.support.RocketMQHeaders;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;
import org.springframework.messaging.support.MessageBuilder;

/**
 * A listener with selectorExpression = "TagA || TagC" gets every TagA and
 * TagC message, with its tag and KEYS header, and no TagB message. All go
 * to one queue (syncSendOrderly, one hash key), TagB first, so that by the
 * time the last TagA/TagC message arrives the TagB ones have been passed
 * over by the consumer.
 */
class TagSelectorTest extends SpringStarterTestBase {
    private static final String TOPIC = RunNames.TAG_TOPIC;
    private static final int PER_TAG = 3;

    @Test
    void onlySelectedTagsArriveWithTheirKeys() throws Exception {
        String hashKey = unique("tags");
        List<String> unwanted = send("TagB", hashKey).keySet().stream().toList();
        Map<String, String> wantedKeys = new LinkedHashMap<>();
        for (int i = 0; i < PER_TAG; i++) {
            wantedKeys.putAll(send("TagA", hashKey, 1));
            wantedKeys.putAll(send("TagC", hashKey, 1));
        }
        Eventually.eventually("every TagA and TagC message arrives", () -> {
            inbox.assertArrived(TOPIC, wantedKeys.keySet());
            return true;
        });
        for (Map.Entry<String, String> e : wantedKeys.entrySet()) {
            MessageExt got = inbox.find(TOPIC, e.getKey()).orElseThrow();
            assertEquals(e.getKey().substring(0, 4), got.getTags(), e.getKey());
            assertEquals(e.getValue(), got.getKeys(), e.getKey());
        }
        List<String> got = inbox.bodies(TOPIC);
        List<String> leaked = new ArrayList<>(unwanted);
        leaked.retainAll(got);
        assertTrue(leaked.isEmpty(), "TagB messages reached the TagA || TagC listener: " + leaked);
    }

    private Map<String, String> send(String tag, String hashKey) {
        return send(tag, hashKey, PER_TAG);
    }

    /** Sends n messages of tag to one queue; returns body -> KEYS header. */
    private Map<String, String> send(String tag, String hashKey, int n) {
        Map<String, String> sent = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String body = tag + "-" + unique("body");
            String key = unique("key-" + tag);
            SendResult r = template.syncSendOrderly(TOPIC + ":" + tag,
                MessageBuilder.withPayload(body).setHeader(RocketMQHeaders.KEYS, key).build(), hashKey);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            sent.put(body, key);
        }
        return sent;
    }
}
