package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.compat.Transactions.Outcome;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * broker-a crashes (SIGKILL: ref-servers.sh restart-broker a --kill) while half messages wait for
 * their producer's answer, and starts again on the same store. The half messages survive the
 * crash: the restarted broker checks them with the producer group, and exactly the transactions
 * that commit are delivered. It restarts broker-a, so it runs after the other tests but before
 * StoreHandoverTest, BrokerRestartTest and BrokerUnregisterTest.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Order(Integer.MAX_VALUE - 3)
class TransactionBrokerKillTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    /**
     * Three transactions of each kind (commit, rollback, UNKNOW then checked to commit, UNKNOW then
     * checked to roll back) are sent; the producer's checkLocalTransaction answers UNKNOW ("still
     * running") until broker-a has been killed and is back. Then the committed and check-committed
     * ones are all delivered (the kill may cost a duplicate: at least once), every UNKNOW one is
     * checked and answered, and no rolled back one is delivered.
     */
    @Test
    @Timeout(400)
    void halfMessagesSurviveABrokerCrashAndTheirCheckBacksDecideThem() throws Exception {
        String topic = Clients.newTopic("tx_crash", 4);
        String group = Clients.unique("txpg");
        Received received = new Received();
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setHeartbeatBrokerInterval(1000); // the restarted broker learns the subscription from a heartbeat
        c.subscribe(topic, "*");
        c.registerMessageListener(received.concurrently("c1"));
        c.start();
        cleanups.add(c::shutdown);
        Transactions.Listener listener = new Transactions.Listener(Transactions::outcomeProperty);
        listener.holdChecks = true;
        TransactionMQProducer producer = Transactions.producer(group, listener);
        cleanups.add(producer::shutdown);

        Map<String, Outcome> sent = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            for (Outcome o : Outcome.values()) {
                String body = "crash " + i + " " + o + " of " + topic;
                Transactions.send(producer, Transactions.message(topic, body, "crash-" + i + "-" + o, o));
                sent.put(body, o);
            }
        }
        RefServers.killAndRestartBroker("a", 300);
        int heldChecks = listener.checkCount();
        listener.holdChecks = false;

        List<String> commits = new ArrayList<>();
        List<String> checkCommits = new ArrayList<>();
        List<String> checkRollbacks = new ArrayList<>();
        sent.forEach((b, o) -> {
            if (o.commits()) {
                commits.add(b);
            }
            if (o == Outcome.CHECK_COMMIT) {
                checkCommits.add(b);
            } else if (o == Outcome.CHECK_ROLLBACK) {
                checkRollbacks.add(b);
            }
        });
        received.awaitAll(Duration.ofSeconds(180), commits);
        Eventually.eventually(Duration.ofSeconds(120), "every UNKNOW transaction checked and answered", () -> {
            listener.assertAnswered(checkCommits, LocalTransactionState.COMMIT_MESSAGE);
            listener.assertAnswered(checkRollbacks, LocalTransactionState.ROLLBACK_MESSAGE);
            return null;
        });
        received.assertOnly(commits);
        assertEquals(new HashSet<>(commits), received.bodies(), "delivered transactions");
        long duplicates = received.counts().values().stream().mapToLong(n -> n - 1).sum();
        System.out.printf("TransactionBrokerKillTest: %d transactions, %d committed delivered (%d duplicate "
                + "deliveries), %d check-backs answered UNKNOW before the restart, %d in all%n", sent.size(),
            commits.size(), duplicates, heldChecks, listener.checkCount());
    }
}
