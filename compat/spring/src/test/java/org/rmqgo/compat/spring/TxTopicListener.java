package org.rmqgo.compat.spring;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.DependsOn;
import org.springframework.stereotype.Service;

/** A concurrent push consumer on the transactional topic: sees only committed messages. */
@Service
@DependsOn("compatTopics")
@RocketMQMessageListener(topic = "${compat.topic.tx}", consumerGroup = "${compat.group.tx}")
public class TxTopicListener implements RocketMQListener<MessageExt> {
    private final Inbox inbox;

    public TxTopicListener(Inbox inbox) {
        this.inbox = inbox;
    }

    @Override
    public void onMessage(MessageExt message) {
        inbox.record(message);
    }
}
