package org.rmqgo.compat.spring;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.common.message.MessageExt;
import org.springframework.stereotype.Component;

/**
 * What the @RocketMQMessageListener beans received, per topic, in the order
 * their onMessage calls ran.
 */
@Component
public class Inbox {
    private final Map<String, List<MessageExt>> byTopic = new ConcurrentHashMap<>();
    private final Map<String, Long> firstArrival = new ConcurrentHashMap<>();

    void record(MessageExt msg) {
        firstArrival.putIfAbsent(body(msg), System.currentTimeMillis());
        List<MessageExt> list = byTopic.computeIfAbsent(msg.getTopic(), t -> new ArrayList<>());
        synchronized (list) {
            list.add(msg);
        }
    }

    /** A copy of what arrived on topic so far. */
    List<MessageExt> received(String topic) {
        List<MessageExt> list = byTopic.getOrDefault(topic, List.of());
        synchronized (list) {
            return new ArrayList<>(list);
        }
    }

    /** When (System.currentTimeMillis) a listener first got the message with this body. */
    long arrivedAt(String body) {
        return firstArrival.get(body);
    }

    List<String> bodies(String topic) {
        return received(topic).stream().map(Inbox::body).toList();
    }

    Optional<MessageExt> find(String topic, String body) {
        return received(topic).stream().filter(m -> body.equals(body(m))).findFirst();
    }

    /** Fails unless every one of bodies has arrived on topic. */
    void assertArrived(String topic, Collection<String> bodies) {
        List<String> got = bodies(topic);
        List<String> missing = bodies.stream().filter(b -> !got.contains(b)).toList();
        if (!missing.isEmpty()) {
            throw new AssertionError(missing.size() + " of " + bodies.size() + " not received on "
                + topic + ", e.g. " + missing.get(0));
        }
    }

    static String body(MessageExt msg) {
        return new String(msg.getBody(), StandardCharsets.UTF_8);
    }
}
