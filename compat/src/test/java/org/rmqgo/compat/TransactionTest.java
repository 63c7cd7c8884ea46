package org.rmqgo.compat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.compat.Transactions.Outcome;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactional messages (TransactionMQProducer, as in the seed notes): the broker keeps the half
 * message from consumers until the producer commits it, drops it on rollback, and asks the
 * producer group (check-back) about a half message that stays undecided for transactionTimeOut
 * (6 s); the answer is honoured, also when it comes from another producer of the group after the
 * first one died. The servers check every second (transactionCheckInterval=1000 in the broker.conf
 * that ref-servers.sh writes).
 */
class TransactionTest {
    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanup() throws Exception {
        Clients.runAll(cleanups);
    }

    private DefaultMQPushConsumer consumer(String topic, Received into) throws Exception {
        DefaultMQPushConsumer c = Clients.pushConsumer(Clients.unique("cg"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener(into.concurrently("c1"));
        c.start();
        cleanups.add(c::shutdown);
        return c;
    }

    private static long deliveries(Received r, String body) {
        return r.deliveries().stream().filter(d -> d.body().equals(body)).count();
    }

    /** What a consumer of a committed transactional message gets: the message as sent. */
    static void assertCommittedIntact(Message sent, TransactionSendResult r, String group, MessageExt got) {
        String what = Received.body(got);
        assertEquals(sent.getTopic(), got.getTopic(), "topic of " + what);
        assertArrayEquals(sent.getBody(), got.getBody(), "body of " + what);
        assertEquals(sent.getTags(), got.getTags(), "tags of " + what);
        assertEquals(sent.getKeys(), got.getKeys(), "keys of " + what);
        assertEquals(sent.getUserProperty(Transactions.OUTCOME), got.getUserProperty(Transactions.OUTCOME),
            "user property of " + what);
        assertEquals(sent.getUserProperty("u_body_len"), got.getUserProperty("u_body_len"), "user property of " + what);
        assertEquals(r.getMsgId(), got.getMsgId(), "msgId of " + what + " (its UNIQ_KEY)");
        assertEquals(r.getMessageQueue().getQueueId(), got.getQueueId(), "queue of " + what);
        // The client marks the half message TRAN_MSG=true and PGROUP=<producer group>; the broker
        // keeps both on the committed message. It also keeps the REAL_TOPIC and REAL_QID it parked
        // the half message with: the Java broker clears them from the properties map only after it
        // has serialised them into the committed record.
        assertEquals("true", got.getProperty("TRAN_MSG"), "TRAN_MSG of " + what + ": " + got.getProperties());
        assertEquals(group, got.getProperty("PGROUP"), "PGROUP of " + what);
        assertEquals(sent.getTopic(), got.getProperty("REAL_TOPIC"), "REAL_TOPIC of " + what);
        assertEquals(Integer.toString(got.getQueueId()), got.getProperty("REAL_QID"), "REAL_QID of " + what);
    }

    /**
     * What checkLocalTransaction gets: the half message as sent, under its real topic, with the
     * transactionId executeLocalTransaction saw (the seed notes' listener looks its note up by it).
     */
    static void assertCheckIntact(Message sent, TransactionSendResult r, MessageExt checked) {
        String what = Received.body(checked);
        assertEquals(sent.getTopic(), checked.getTopic(), "topic of the check-back for " + what);
        assertArrayEquals(sent.getBody(), checked.getBody(), "body of the check-back for " + what);
        assertEquals(sent.getTags(), checked.getTags(), "tags of the check-back for " + what);
        assertEquals(sent.getKeys(), checked.getKeys(), "keys of the check-back for " + what);
        assertEquals(sent.getUserProperty(Transactions.OUTCOME), checked.getUserProperty(Transactions.OUTCOME),
            "user property of the check-back for " + what);
        assertEquals(r.getMsgId(), checked.getTransactionId(), "transactionId of the check-back for " + what);
        assertEquals(r.getMsgId(), checked.getProperty("UNIQ_KEY"), "UNIQ_KEY of the check-back for " + what);
    }

    /**
     * The four ways a transaction ends, as a user of the seed notes' listener sees them:
     * executeLocalTransaction answers COMMIT (delivered once), ROLLBACK (never delivered), or UNKNOW
     * and the check-back 6-7 s later answers COMMIT (delivered) or ROLLBACK (never delivered). (The
     * 5.3.3 broker writes its "done" records in batches every 3 s, so with checks every second it
     * may ask about, and commit, a check-committed transaction twice: at least once, then.)
     * checkLocalTransaction is asked only about the UNKNOW ones, with the message as sent and the
     * transactionId that the send returned. "Never delivered" is read once both check-backs were
     * answered and the last half message, committed by its check-back, arrived: the broker checks
     * its half messages in the order they came, so by then it has decided every earlier one.
     */
    @Test
    @Timeout(120)
    void commitIsDeliveredOnceRollbackNeverAndAnUnknownOneAsTheCheckBackAnswers() throws Exception {
        String topic = Clients.newTopic("tx", 4);
        String group = Clients.unique("txpg");
        Received received = new Received();
        consumer(topic, received);
        Transactions.Listener listener = new Transactions.Listener(Transactions::outcomeProperty);
        TransactionMQProducer producer = Transactions.producer(group, listener);
        cleanups.add(producer::shutdown);

        Map<Outcome, String> bodyOf = new LinkedHashMap<>();
        Map<String, Message> sent = new LinkedHashMap<>();
        Map<String, TransactionSendResult> results = new LinkedHashMap<>();
        // The check-committed one last: its delivery means every earlier one was decided.
        for (Outcome o : List.of(Outcome.COMMIT, Outcome.ROLLBACK, Outcome.CHECK_ROLLBACK, Outcome.CHECK_COMMIT)) {
            String body = "tx " + o + " of " + topic;
            Message m = Transactions.message(topic, body, "key-" + o, o);
            results.put(body, Transactions.send(producer, m));
            sent.put(body, m);
            bodyOf.put(o, body);
        }
        assertEquals(sent.keySet(), listener.executed.keySet(), "executeLocalTransaction ran for each");
        results.forEach((b, r) -> assertEquals(r.getMsgId(), listener.executed.get(b),
            "the transactionId executeLocalTransaction saw for " + b + " is the msgId (UNIQ_KEY)"));
        List<String> committed = List.of(bodyOf.get(Outcome.COMMIT), bodyOf.get(Outcome.CHECK_COMMIT));

        received.awaitAll(committed);
        Eventually.eventually(Duration.ofSeconds(60), "both UNKNOW transactions checked", () -> {
            listener.assertAnswered(List.of(bodyOf.get(Outcome.CHECK_ROLLBACK)), LocalTransactionState.ROLLBACK_MESSAGE);
            listener.assertAnswered(List.of(bodyOf.get(Outcome.CHECK_COMMIT)), LocalTransactionState.COMMIT_MESSAGE);
            return null;
        });
        received.assertOnly(committed);
        assertEquals(1, deliveries(received, bodyOf.get(Outcome.COMMIT)), "deliveries of the committed one");
        for (String b : committed) {
            MessageExt got = received.firstByBody().get(b);
            assertCommittedIntact(sent.get(b), results.get(b), group, got);
            System.out.println("TransactionTest: committed " + b + " delivered " + deliveries(received, b)
                + " time(s), with properties " + got.getProperties());
        }
        assertTrue(listener.checksOf(bodyOf.get(Outcome.COMMIT)).isEmpty(), "a committed transaction was checked");
        assertTrue(listener.checksOf(bodyOf.get(Outcome.ROLLBACK)).isEmpty(), "a rolled back transaction was checked");
        for (Outcome o : List.of(Outcome.CHECK_COMMIT, Outcome.CHECK_ROLLBACK)) {
            String b = bodyOf.get(o);
            var checks = listener.checksOf(b);
            assertCheckIntact(sent.get(b), results.get(b), checks.get(0).msg());
            System.out.println("TransactionTest: " + checks.size() + " check-back(s) for " + b + ", first with properties "
                + checks.get(0).msg().getProperties());
        }
    }

    /**
     * A producer dies between its half messages and their commit: a separate JVM sends two half
     * messages whose local transaction commits and two that roll back, answers UNKNOW for all four,
     * and is killed (SIGKILL). A new producer of the same group starts; the broker checks the half
     * messages with it, it answers from its "database" (the message), and exactly the committed
     * ones are delivered. The new producer first carries on with a transaction of its own: a
     * producer that has sent nothing has no route, so it sends no heartbeat to broker-a and the
     * broker has nobody to ask (the 5.3.3 client; the 4.9.8 one also heartbeats to the brokers of
     * TBW102).
     */
    @Test
    @Timeout(180)
    void aProducerKilledBeforeItsCommitIsReplacedAndTheNewOnesCheckBackAnswersAreHonoured() throws Exception {
        String topic = Clients.newTopic("tx_killed", 4);
        String group = Clients.unique("txpg");
        Received received = new Received();
        consumer(topic, received);

        Path errLog = Path.of(Env.runDir(), "half-sender-" + group + ".log");
        Process child = HalfSender.start(group, topic, errLog);
        cleanups.add(child::destroyForcibly);
        Map<String, Outcome> sent = HalfSender.awaitSent(child, errLog);
        child.destroyForcibly();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the half sender JVM did not die");

        Transactions.Listener listener = new Transactions.Listener(Transactions::outcomeProperty);
        TransactionMQProducer restarted = Transactions.producer(group, listener);
        cleanups.add(restarted::shutdown);
        List<String> commits = new ArrayList<>();
        List<String> rollbacks = new ArrayList<>();
        sent.forEach((b, o) -> (o.commits() ? commits : rollbacks).add(b));
        String next = "after the restart of " + topic;
        Transactions.send(restarted, Transactions.message(topic, next, "next", Outcome.COMMIT));
        commits.add(next);

        received.awaitAll(commits);
        Eventually.eventually(Duration.ofSeconds(60), "the new producer is asked about every half message", () -> {
            listener.assertAnswered(rollbacks, LocalTransactionState.ROLLBACK_MESSAGE);
            listener.assertAnswered(commits.subList(0, 2), LocalTransactionState.COMMIT_MESSAGE);
            return null;
        });
        received.assertOnly(commits);
        for (MessageExt got : received.firstByBody().values()) {
            assertEquals(group, got.getProperty("PGROUP"), "PGROUP of " + Received.body(got));
            assertEquals(topic, got.getTopic());
        }
    }

    /**
     * The producer of aProducerKilledBeforeItsCommit... in a JVM of its own: args group, topic. Sends
     * two CHECK_COMMIT and two CHECK_ROLLBACK transactions (its listener answers UNKNOW to
     * everything), prints "SENT <outcome> <body>" for each and then "READY", and waits to be killed.
     */
    static final class HalfSender {
        private HalfSender() {
        }

        public static void main(String[] args) throws Exception {
            String group = args[0];
            String topic = args[1];
            TransactionMQProducer p = new TransactionMQProducer(group);
            p.setNamesrvAddr(Env.namesrvAddr());
            p.setInstanceName(Clients.unique("half_sender"));
            p.setSendMsgTimeout(Clients.SEND_TIMEOUT_MILLIS);
            p.setTransactionListener(new org.apache.rocketmq.client.producer.TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                    return LocalTransactionState.UNKNOW;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                    return LocalTransactionState.UNKNOW;
                }
            });
            p.start();
            Outcome[] outcomes = {Outcome.CHECK_COMMIT, Outcome.CHECK_ROLLBACK, Outcome.CHECK_COMMIT,
                Outcome.CHECK_ROLLBACK};
            for (int i = 0; i < outcomes.length; i++) {
                String body = "killed " + i + " " + outcomes[i] + " of " + topic;
                Transactions.send(p, Transactions.message(topic, body, "killed-" + i, outcomes[i]));
                System.out.println("SENT " + outcomes[i] + " " + body);
            }
            System.out.println("READY");
            System.out.flush();
            new CountDownLatch(1).await();
        }

        /** Starts main in a new JVM with this JVM's classpath and client settings; stderr to errLog. */
        static Process start(String group, String topic, Path errLog) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", System.getProperty("java.class.path")));
            for (String prop : List.of("user.home", "rocketmq.client.logRoot", "rocketmq.log.root",
                "rocketmq.client.logUseSlf4j", "rocketmq.client.logLevel")) {
                String v = System.getProperty(prop);
                if (v != null) {
                    cmd.add("-D" + prop + "=" + v);
                }
            }
            cmd.addAll(List.of(HalfSender.class.getName(), group, topic));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.redirectError(errLog.toFile());
            return pb.start();
        }

        /**
         * Reads the child's "SENT" lines until "READY" (or the end of its output: it died); fails
         * unless READY came within 90 s.
         */
        static Map<String, Outcome> awaitSent(Process child, Path errLog) throws Exception {
            Map<String, Outcome> sent = new ConcurrentHashMap<>();
            CountDownLatch readyOrGone = new CountDownLatch(1);
            boolean[] ready = {false};
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.startsWith("SENT ")) {
                            String[] parts = line.split(" ", 3);
                            sent.put(parts[2], Outcome.valueOf(parts[1]));
                        } else if (line.equals("READY")) {
                            ready[0] = true;
                            readyOrGone.countDown();
                        }
                    }
                } catch (Exception e) {
                    // the child was killed: its stdout ends
                } finally {
                    readyOrGone.countDown();
                }
            }, "compat-half-sender-stdout");
            reader.setDaemon(true);
            reader.start();
            boolean done = readyOrGone.await(90, TimeUnit.SECONDS);
            if (!done || !ready[0]) { // the latch orders the reader's write before this read
                throw new AssertionError("the half sender JVM did not report READY within 90 s (alive: "
                    + child.isAlive() + "); its stderr:\n" + read(errLog));
            }
            assertEquals(4, sent.size(), "half messages the child reported: " + sent);
            return new LinkedHashMap<>(sent);
        }
    }

    private static String read(Path p) throws Exception {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "(none)";
    }
}
