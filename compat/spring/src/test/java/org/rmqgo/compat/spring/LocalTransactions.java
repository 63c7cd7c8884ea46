package org.rmqgo.compat.spring;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.spring.annotation.RocketMQTransactionListener;
import org.apache.rocketmq.spring.core.RocketMQLocalTransactionListener;
import org.apache.rocketmq.spring.core.RocketMQLocalTransactionState;
import org.springframework.messaging.Message;

/**
 * The application's local transactions, decided by the body's prefix:
 * "commit-" commits at once, "rollback-" rolls back at once, "check-"
 * answers UNKNOWN and commits when the broker asks back
 * (CHECK_TRANSACTION_STATE). It records which bodies were asked back.
 */
@RocketMQTransactionListener
public class LocalTransactions implements RocketMQLocalTransactionListener {
    private final Set<String> checked = ConcurrentHashMap.newKeySet();

    @Override
    public RocketMQLocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        String body = body(msg);
        if (body.startsWith("commit-")) {
            return RocketMQLocalTransactionState.COMMIT;
        }
        if (body.startsWith("rollback-")) {
            return RocketMQLocalTransactionState.ROLLBACK;
        }
        return RocketMQLocalTransactionState.UNKNOWN;
    }

    @Override
    public RocketMQLocalTransactionState checkLocalTransaction(Message msg) {
        String body = body(msg);
        checked.add(body);
        return body.startsWith("rollback-") ? RocketMQLocalTransactionState.ROLLBACK
            : RocketMQLocalTransactionState.COMMIT;
    }

    boolean wasChecked(String body) {
        return checked.contains(body);
    }

    private static String body(Message<?> msg) {
        Object payload = msg.getPayload();
        return payload instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(payload);
    }
}
