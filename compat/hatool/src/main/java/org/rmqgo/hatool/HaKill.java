package org.rmqgo.hatool;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.rmqgo.testsupport.Args;
import org.rmqgo.testsupport.SendOk;
import org.rmqgo.testsupport.SyncSender;

/**
 * The client side of compat/ha-kill.sh: ROUNDS times in a row, a stream of synchronous sends to a
 * SYNC_MASTER (+ SYNC_FLUSH) with a slave, the master SIGKILLed at a random moment of it, and every
 * message the producer saw acknowledged (SEND_OK) read back from the slave by a pull consumer
 * while the master is down; then the master is started again for the next round.
 *
 * <pre>
 *   HaKill -n namesrv -slave addr -kill CMD -start CMD [-t topic HaKillTopic] [-rounds 100] [-w senders 4]
 *          [-s bodySize 128] [-killMinMs 200] [-killMaxMs 2000] [-seed n] [-out dir .] [-label text]
 *          [-checkMs 30000] [-writableMs 180000] [-slaveTopicMs 60000]
 * </pre>
 *
 * <p>Before the rounds, one send creates the topic on the master (autoCreateTopicEnable) and
 * {@link SlaveTopic} waits until the slave has it too: a broker answers a pull for a topic it does
 * not know with TOPIC_NOT_EXIST, and a slave learns topics from its master only every 10 s.
 *
 * <p>A round: (1) send one message until it is answered SEND_OK (the master is up and its slave
 * attached; SLAVE_NOT_AVAILABLE and errors before that are retried), which is the round's first
 * ack; (2) start the senders; (3) after a random delay, uniform in [killMinMs, killMaxMs] (the
 * Random of -seed), run -kill (sh -c; it must return once the master is gone); (4) stop the
 * senders (each finishes its send in flight: an answer read before the connection broke is still
 * an ack); (5) {@link SlaveCheck}; (6) run -start (sh -c; it must return once the master is up).
 *
 * <p>Prints a line per round and a summary; writes every ack to out/acked.tsv and every ack not
 * found on the slave to out/lost.tsv; the commands' output goes to out/servers.log. Exits 0 when
 * nothing acknowledged was lost, 1 when something was, 2 on a harness error (a command failed,
 * the master never became writable). The senders are compat/testsupport's SyncSender, shared with
 * ControllerKill and compat/ctlha.
 */
public final class HaKill {
    private final Args args;
    private final Path out;
    private final String label;

    private HaKill(Args args) {
        this.args = args;
        this.out = Path.of(args.get("out", "."));
        this.label = args.get("label", "");
    }

    public static void main(String[] argv) throws Exception {
        HaKill k = new HaKill(Args.parse(argv));
        System.exit(k.run());
    }

    private int run() throws Exception {
        String namesrv = args.required("n");
        String topic = args.get("t", "HaKillTopic");
        int rounds = args.getInt("rounds", 100);
        long seed = args.getLong("seed", System.nanoTime());
        Files.createDirectories(out);
        Files.deleteIfExists(out.resolve("acked.tsv"));
        Files.deleteIfExists(out.resolve("lost.tsv"));
        System.out.printf("ha-kill %s: %d rounds, topic %s, %d senders, body %d B, kill after %d..%d ms, seed %d%n", label, rounds,
            topic, args.getInt("w", 4), args.getInt("s", 128), args.getLong("killMinMs", 200), args.getLong("killMaxMs", 2000), seed);

        DefaultMQProducer producer = new DefaultMQProducer("hakill_producer");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("hakill-producer-" + System.nanoTime());
        producer.setRetryTimesWhenSendFailed(0);
        producer.setSendMsgTimeout(3000);
        producer.start();
        SlaveCheck check = new SlaveCheck(namesrv, "hakill_check", topic);
        Random random = new Random(seed);
        long begin = System.currentTimeMillis();
        try {
            new SlaveTopic(producer, topic, args.required("slave"), args.getLong("slaveTopicMs", 60000)).ensure(() -> firstAck(sender(producer, topic, 16), 0));
        } catch (HarnessError e) {
            System.out.println("ha-kill " + label + ": harness error before round 1: " + e.getMessage());
            producer.shutdown();
            return 2;
        }
        long acked = 0;
        long lost = 0;
        int done = 0;
        try {
            for (int r = 1; r <= rounds; r++) {
                long[] got = round(producer, check, topic, r, rounds, random);
                acked += got[0];
                lost += got[1];
                done++;
            }
        } catch (HarnessError e) {
            System.out.println("ha-kill " + label + ": harness error in round " + (done + 1) + ": " + e.getMessage());
            summary(done, acked, lost, begin);
            producer.shutdown();
            return 2;
        }
        summary(done, acked, lost, begin);
        producer.shutdown();
        return lost == 0 ? 0 : 1;
    }

    private void summary(int rounds, long acked, long lost, long begin) {
        System.out.printf("ha-kill %s: rounds %d, acked %d, lost %d, time %.1f s%n", label, rounds, acked, lost,
            (System.currentTimeMillis() - begin) / 1000.0);
    }

    /** One round; returns {acked, lost}. */
    private long[] round(DefaultMQProducer producer, SlaveCheck check, String topic, int r, int rounds, Random random)
        throws Exception {
        long t0 = System.currentTimeMillis();
        SyncSender stream = sender(producer, topic, args.getInt("s", 128));
        Ack first = firstAck(stream, r);
        long writable = System.currentTimeMillis();
        long min = args.getLong("killMinMs", 200);
        long max = args.getLong("killMaxMs", 2000);
        long delay = min + (max > min ? (long) (random.nextDouble() * (max - min)) : 0);
        stream.start(args.getInt("w", 4), "r" + r + "-s", "hakill-r" + r + "-s");
        Thread.sleep(delay);
        int ackedAtKill = stream.ackCount() + 1;
        command("kill", args.required("kill"));
        stream.stop();
        List<Ack> acks = new ArrayList<>();
        acks.add(first);
        for (SendOk s : stream.acks()) {
            acks.add(Ack.of(r, s));
        }
        SlaveCheck.Result res = check.check(r, acks, args.getLong("checkMs", 30000));
        record(acks, res.missing());
        long checked = System.currentTimeMillis();
        command("start", args.required("start"));
        System.out.printf("round %d/%d: acked %d (%d when the kill began, killed %d ms into the stream), on the slave %d, LOST %d,"
                + " unacked on the slave %d, not-OK answers %d, failed sends %d; check attempts %d%s; writable after %d ms, master back after %d ms%n",
            r, rounds, acks.size(), ackedAtKill, delay, acks.size() - res.missing().size(), res.missing().size(),
            res.unacked(), stream.notOk(), stream.failed(), res.attempts(),
            res.lastError() == null ? "" : " (last error " + res.lastError() + ")",
            writable - t0, System.currentTimeMillis() - checked);
        return new long[] {acks.size(), res.missing().size()};
    }

    /** The round's senders (tag hakill, 20 ms pause after a failed send). */
    private static SyncSender sender(DefaultMQProducer producer, String topic, int bodySize) {
        return new SyncSender(producer, topic, "hakill", bodySize, 20);
    }

    /** Sends the round's first message until it is acknowledged; the master must become writable in time. */
    private Ack firstAck(SyncSender stream, int r) throws Exception {
        long deadline = System.currentTimeMillis() + args.getLong("writableMs", 180000);
        for (int i = 0; ; i++) {
            try {
                SendOk a = stream.send("r" + r + "-first-" + i);
                if (a != null) {
                    return Ack.of(r, a);
                }
            } catch (Exception e) {
                if (System.currentTimeMillis() >= deadline) {
                    throw new HarnessError("the master did not acknowledge a send within writableMs: " + e);
                }
            }
            if (System.currentTimeMillis() >= deadline) {
                throw new HarnessError("the master did not answer SEND_OK within writableMs");
            }
            Thread.sleep(100);
        }
    }

    private void command(String what, String cmd) throws IOException, InterruptedException {
        File log = out.resolve("servers.log").toFile();
        Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        int rc = p.waitFor();
        if (rc != 0) {
            throw new HarnessError("-" + what + " command exited " + rc + " (see " + log + "): " + cmd);
        }
    }

    private void record(List<Ack> acks, List<Ack> missing) throws IOException {
        append("acked.tsv", acks);
        if (!missing.isEmpty()) {
            append("lost.tsv", missing);
        }
    }

    private void append(String file, List<Ack> acks) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve(file), StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
            for (Ack a : acks) {
                w.println(a.tsv());
            }
        }
    }

    /** A failure of the test's machinery, not a finding about the brokers. */
    static final class HarnessError extends RuntimeException {
        HarnessError(String msg) {
            super(msg);
        }
    }
}
