package org.rmqgo.compat.spring;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.DependsOn;
import org.springframework.stereotype.Service;

/** A concurrent push consumer that subscribes with a tag expression: TagA and TagC only. */
@Service
@DependsOn("compatTopics")
@RocketMQMessageListener(topic = "${compat.topic.tags}", consumerGroup = "${compat.group.tags}",
    selectorExpression = "TagA || TagC")
public class TagListener implements RocketMQListener<MessageExt> {
    private final Inbox inbox;

    public TagListener(Inbox inbox) {
        this.inbox = inbox;
    }

    @Override
    public void onMessage(MessageExt message) {
        inbox.record(message);
    }
}
