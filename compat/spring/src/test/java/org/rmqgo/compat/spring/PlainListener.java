package org.rmqgo.compat.spring;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.DependsOn;
import org.springframework.stereotype.Service;

/** A concurrent push consumer on the plain topic (every tag), the starter's default mode. */
@Service
@DependsOn("compatTopics")
@RocketMQMessageListener(topic = "${compat.topic.plain}", consumerGroup = "${compat.group.plain}")
public class PlainListener implements RocketMQListener<MessageExt> {
    private final Inbox inbox;

    public PlainListener(Inbox inbox) {
        this.inbox = inbox;
    }

    @Override
    public void onMessage(MessageExt message) {
        inbox.record(message);
    }
}
