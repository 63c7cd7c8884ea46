package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Transactional messages as the seed notes (docs/seeds.md, "RocketMQ事务消息") use them: a
 * TransactionMQProducer whose TransactionListener runs the local transaction after the half message
 * is stored (executeLocalTransaction) and answers the broker's check-back (checkLocalTransaction)
 * from what it noted by transactionId, or, when it has no note (a restarted producer), from its
 * "database": here the message itself says how its transaction ends.
 */
final class Transactions {
    private Transactions() {
    }

    /** How a test transaction ends. */
    enum Outcome {
        /** executeLocalTransaction answers COMMIT_MESSAGE. */
        COMMIT(LocalTransactionState.COMMIT_MESSAGE, LocalTransactionState.COMMIT_MESSAGE),
        /** executeLocalTransaction answers ROLLBACK_MESSAGE. */
        ROLLBACK(LocalTransactionState.ROLLBACK_MESSAGE, LocalTransactionState.ROLLBACK_MESSAGE),
        /** executeLocalTransaction answers UNKNOW; the check-back answers COMMIT_MESSAGE. */
        CHECK_COMMIT(LocalTransactionState.UNKNOW, LocalTransactionState.COMMIT_MESSAGE),
        /** executeLocalTransaction answers UNKNOW; the check-back answers ROLLBACK_MESSAGE. */
        CHECK_ROLLBACK(LocalTransactionState.UNKNOW, LocalTransactionState.ROLLBACK_MESSAGE);

        final LocalTransactionState executed;
        final LocalTransactionState checked;

        Outcome(LocalTransactionState executed, LocalTransactionState checked) {
            this.executed = executed;
            this.checked = checked;
        }

        boolean commits() {
            return checked == LocalTransactionState.COMMIT_MESSAGE;
        }

        boolean needsCheck() {
            return executed == LocalTransactionState.UNKNOW;
        }
    }

    /** The user property that carries a test message's outcome (its row in the "database"). */
    static final String OUTCOME = "u_outcome";

    /** The outcome a message carries in its OUTCOME property. */
    static Outcome outcomeProperty(Message m) {
        return Outcome.valueOf(m.getProperty(OUTCOME));
    }

    /** One check-back as checkLocalTransaction saw it, and what it answered. */
    record Check(MessageExt msg, LocalTransactionState answer) {
    }

    /**
     * The seed notes' TransactionListenerImpl: executeLocalTransaction notes the transaction's final
     * state by msg.getTransactionId() and answers it, or UNKNOW for the CHECK_ outcomes;
     * checkLocalTransaction answers the note, or (no note: another producer of the group sent it)
     * what outcomeOf finds. While holdChecks is set it answers UNKNOW (the local transaction is still
     * running). It records what it saw; the tests assert on that, never inside the listener.
     */
    static final class Listener implements TransactionListener {
        private final Function<Message, Outcome> outcomeOf;
        private final Map<String, LocalTransactionState> localTrans = new ConcurrentHashMap<>();
        /** The transactionId executeLocalTransaction saw, by body. */
        final Map<String, String> executed = new ConcurrentHashMap<>();
        /** Every check-back, by body, in arrival order. */
        final Map<String, ConcurrentLinkedQueue<Check>> checks = new ConcurrentHashMap<>();
        volatile boolean holdChecks;

        Listener(Function<Message, Outcome> outcomeOf) {
            this.outcomeOf = outcomeOf;
        }

        @Override
        public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
            Outcome o = outcomeOf.apply(msg);
            localTrans.put(msg.getTransactionId(), o.checked);
            executed.put(body(msg), String.valueOf(msg.getTransactionId()));
            return o.executed;
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt msg) {
            LocalTransactionState answer;
            if (holdChecks) {
                answer = LocalTransactionState.UNKNOW;
            } else {
                answer = localTrans.get(msg.getTransactionId());
                if (answer == null) {
                    answer = outcomeOf.apply(msg).checked;
                }
            }
            checks.computeIfAbsent(body(msg), b -> new ConcurrentLinkedQueue<>()).add(new Check(msg, answer));
            return answer;
        }

        /** The check-backs for body so far. */
        List<Check> checksOf(String body) {
            var q = checks.get(body);
            return q == null ? List.of() : new ArrayList<>(q);
        }

        /** True when some check-back for body was answered with state. */
        boolean answered(String body, LocalTransactionState state) {
            return checksOf(body).stream().anyMatch(c -> c.answer() == state);
        }

        int checkCount() {
            return checks.values().stream().mapToInt(ConcurrentLinkedQueue::size).sum();
        }

        /** Fails, naming them, when some of bodies have no check-back answered with state. */
        void assertAnswered(Iterable<String> bodies, LocalTransactionState state) {
            Set<String> missing = new TreeSet<>();
            for (String b : bodies) {
                if (!answered(b, state)) {
                    missing.add(b);
                }
            }
            if (!missing.isEmpty()) {
                throw new AssertionError(missing.size() + " transactions not yet checked and answered " + state
                    + ", e.g. " + Received.first(missing, 5));
            }
        }
    }

    /**
     * A started TransactionMQProducer of group. It sends a heartbeat every second (default 30 s): a
     * broker only asks a producer group it has a live connection for, so after a broker restart the
     * check-backs start with the group's first heartbeat.
     */
    static TransactionMQProducer producer(String group, TransactionListener listener) throws MQClientException {
        TransactionMQProducer p = new TransactionMQProducer(group);
        p.setNamesrvAddr(Env.namesrvAddr());
        p.setInstanceName(Clients.unique("txproducer"));
        p.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
        p.setHeartbeatBrokerInterval(1000);
        p.setTransactionListener(listener);
        p.start();
        return p;
    }

    /** A message whose OUTCOME property is o, with tags, two keys and a user property. */
    static Message message(String topic, String body, String key, Outcome o) {
        Message m = new Message(topic, "TagTx", body.getBytes(StandardCharsets.UTF_8));
        m.setKeys(List.of(key, "tx-key"));
        m.putUserProperty(OUTCOME, o.name());
        m.putUserProperty("u_body_len", Integer.toString(body.length()));
        return m;
    }

    /** sendMessageInTransaction; asserts the half message was stored (SEND_OK). */
    static TransactionSendResult send(TransactionMQProducer p, Message m) throws MQClientException {
        TransactionSendResult r = p.sendMessageInTransaction(m, null);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        return r;
    }

    static String body(Message m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }
}
