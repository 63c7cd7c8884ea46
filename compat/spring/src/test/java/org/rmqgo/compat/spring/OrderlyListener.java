package org.rmqgo.compat.spring;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.annotation.ConsumeMode;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.DependsOn;
import org.springframework.stereotype.Service;

/** An orderly push consumer: one queue at a time, in queue order (queue locks on the broker). */
@Service
@DependsOn("compatTopics")
@RocketMQMessageListener(topic = "${compat.topic.orderly}", consumerGroup = "${compat.group.orderly}",
    consumeMode = ConsumeMode.ORDERLY)
public class OrderlyListener implements RocketMQListener<MessageExt> {
    private final Inbox inbox;

    public OrderlyListener(Inbox inbox) {
        this.inbox = inbox;
    }

    @Override
    public void onMessage(MessageExt message) {
        inbox.record(message);
    }
}
