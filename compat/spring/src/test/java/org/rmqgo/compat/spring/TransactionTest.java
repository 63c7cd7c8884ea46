package org.rmqgo.compat.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.messaging.support.MessageBuilder;

/**
 * sendMessageInTransaction with a @RocketMQTransactionListener: a committed
 * message arrives, a rolled-back one never does, and an UNKNOWN one is asked
 * back by the broker (CHECK_TRANSACTION_STATE), committed then, and arrives.
 */
class TransactionTest extends SpringStarterTestBase {
    private static final String TOPIC = RunNames.TX_TOPIC;
    /** The broker checks a half message once it is 6 s old (transactionTimeOut), every second. */
    private static final Duration CHECK_WAIT = Duration.ofSeconds(60);

    @Autowired
    LocalTransactions local;

    @Test
    void commitArrivesRollbackNeverCheckCommits() throws Exception {
        String rollback = unique("rollback");
        String commit = unique("commit");
        String check = unique("check");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, send(rollback));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, send(commit));
        assertEquals(LocalTransactionState.UNKNOW, send(check));

        Eventually.eventually("the committed message arrives", () -> {
            inbox.assertArrived(TOPIC, List.of(commit));
            return true;
        });
        Eventually.eventually(CHECK_WAIT, "the broker asks back about the UNKNOWN one, which then arrives", () -> {
            assertTrue(local.wasChecked(check), "not asked back yet");
            inbox.assertArrived(TOPIC, List.of(check));
            return true;
        });
        assertFalse(inbox.bodies(TOPIC).contains(rollback), "the rolled-back message arrived");
        assertFalse(local.wasChecked(commit), "the broker asked back about a committed message");
    }

    private LocalTransactionState send(String body) {
        TransactionSendResult r = template.sendMessageInTransaction(TOPIC,
            MessageBuilder.withPayload(body).build(), null);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        return r.getLocalTransactionState();
    }
}
