package org.rmqgo.hatool;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.rmqgo.testsupport.Args;
import org.rmqgo.testsupport.ControllerView;
import org.rmqgo.testsupport.MasterRead;
import org.rmqgo.testsupport.SendOk;
import org.rmqgo.testsupport.SyncSender;
import org.rmqgo.testsupport.Text;

/**
 * The client side of compat/controller-kill.sh: a controller-mode broker set (one controller, N
 * brokers of broker-a started by compat/controller-suite.sh) under synchronous sends, its master
 * SIGKILLed (modes kill and control) or SIGSTOPped (mode stop) at a random moment, ROUNDS times.
 *
 * <pre>
 *   ControllerKill -mode kill|control|stop -n namesrv -controller addr -brokers addr1,addr2[,...]
 *                  -suite controller-suite.sh -runDir dir [-b broker-a] [-t ControllerKillTopic]
 *                  [-rounds 100] [-w senders 4] [-s bodySize 128] [-killMinMs 200] [-killMaxMs 2000]
 *                  [-seed n] [-out dir .] [-label text] [-electMs 30000] [-resumeMs 1000]
 *                  [-resumeWithinMs 30000] [-rejoinMs 180000] [-checkMs 30000] [-checkEachRound true]
 *                  [-staleSenders 1] [-afterContMs 5000] [-writableMs 60000] [-untilLoss true]
 * </pre>
 *
 * <p>Before the rounds: the controller must name a master and have all N brokers alive in the
 * SyncStateSet; the tool prints each broker's ack settings (GET_BROKER_CONFIG), creates the topic on
 * the master (4 queues) and waits until every slave has copied it.
 *
 * <p>A kill/control round: (1) a master and a full SyncStateSet; (2) {@code -w} sender threads
 * (one producer, pollNameServerInterval 1000, no retries) record every SEND_OK; (3) a random
 * delay, uniform in [killMinMs, killMaxMs] after the round's first ack, then {@code controller-suite.sh
 * kill-broker i} on the broker the controller names master; (4) the controller must name a new
 * master with master epoch + 1 within electMs; (5) sends must be acknowledged by the new master
 * within resumeWithinMs, then the senders run resumeMs more and stop; (6) (checkEachRound) the
 * round's acks are read back from the new master; (7) {@code start-broker i}: the killed broker
 * must come back as a slave and the SyncStateSet must hold all N again within rejoinMs.
 *
 * <p>A control round is a kill round; with -untilLoss (the default) the rounds end after the
 * first one whose read-back missed an ack.
 *
 * <p>A stop round: as above, but the master gets SIGSTOP (it stays frozen, its connections open)
 * and, besides the senders, {@code -staleSenders} threads of a second producer whose route is only
 * refreshed every 120 s (so it keeps sending to the old master's address); once the new master
 * acknowledges sends the old master gets SIGCONT, the senders run afterContMs more. No SEND_OK may
 * come from the old master's address after the election (after the last controller poll that still
 * named the old master epoch); the old master must rejoin as a slave and the SyncStateSet fill
 * up again.
 *
 * <p>At the end every ack of every round is read back from the current master ({@link
 * MasterRead}, compat/testsupport): the message at its queue and queue offset must have its message id, key and body.
 * Outputs in -out: acked.tsv, lost.tsv, late.tsv (stop mode: acks from the old master after the
 * election), servers.log (the commands' output). Prints a line per round and
 * {@code controller-kill[ control| stop] LABEL: rounds R, acked A, lost L, time T s}. Exit codes:
 * kill and stop: 0 when nothing acknowledged was lost (and, stop, no late ack), 1 when something
 * was or the servers failed a must (no new master, no rejoin, sends never resumed), 2 on a harness
 * error; control: 0 when a loss was seen, 1 when none was, 2 when the servers failed a must or on
 * a harness error.
 */
public final class ControllerKill {
    private final Args args;
    private final Path out;
    private final String mode;
    private final String name;
    private final String label;
    private final String namesrv;
    private final String controller;
    private final String brokerName;
    private final List<String> brokers;
    private final String topic;
    private final int bodySize;
    private final int senders;
    private DefaultMQAdminExt admin;
    private DefaultMQProducer producer;
    private MasterRead reader;
    private ControllerView view;
    /** Acks recorded so far (all of them are in out/acked.tsv, which the final read streams). */
    private long acked;
    private final List<Long> electMs = new ArrayList<>();
    private final List<Long> resumeMs = new ArrayList<>();
    private final List<Long> rejoinMs = new ArrayList<>();
    private long roundLost;
    private long late;
    private int masterChanges;
    private String stoppedPid;

    private ControllerKill(Args args) {
        this.args = args;
        this.out = Path.of(args.get("out", "."));
        this.mode = args.get("mode", "kill");
        this.name = mode.equals("kill") ? "controller-kill" : "controller-kill " + mode;
        this.label = args.get("label", "");
        this.namesrv = args.required("n");
        this.controller = args.required("controller");
        this.brokerName = args.get("b", "broker-a");
        this.brokers = Arrays.asList(args.required("brokers").split(","));
        this.topic = args.get("t", "ControllerKillTopic");
        this.bodySize = args.getInt("s", 128);
        this.senders = args.getInt("w", 4);
    }

    public static void main(String[] argv) throws Exception {
        ControllerKill k = new ControllerKill(Args.parse(argv));
        int rc;
        try {
            rc = k.run();
        } catch (Throwable t) {
            System.out.println(k.name + " " + k.label + ": harness error: " + t);
            t.printStackTrace(System.out);
            rc = 2;
        } finally {
            k.cont();
        }
        System.exit(rc);
    }

    private int run() throws Exception {
        if (!List.of("kill", "control", "stop").contains(mode)) {
            throw new HaKill.HarnessError("-mode must be kill, control or stop, not " + mode);
        }
        int rounds = args.getInt("rounds", 100);
        long seed = args.getLong("seed", System.nanoTime());
        Files.createDirectories(out);
        for (String f : List.of("acked.tsv", "lost.tsv", "late.tsv")) {
            Files.deleteIfExists(out.resolve(f));
        }
        System.out.printf("%s %s: %d rounds, %d brokers %s, topic %s, %d senders%s, body %d B, %s after %d..%d ms, seed %d%n",
            name, label, rounds, brokers.size(), brokers, topic, senders,
            mode.equals("stop") ? " + " + args.getInt("staleSenders", 1) + " stale-route" : "", bodySize,
            mode.equals("stop") ? "SIGSTOP" : "SIGKILL", args.getLong("killMinMs", 200), args.getLong("killMaxMs", 2000), seed);

        admin = new DefaultMQAdminExt(5000);
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName("ctlkill-admin-" + System.nanoTime());
        admin.start();
        producer = producer("ctlkill_producer", 1000);
        MQClientAPIImpl api = admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
        reader = new MasterRead(api, topic, "ctlkill_reader", brokerName, k -> SyncSender.body(k, bodySize));
        view = new ControllerView(admin, brokerName);
        Random random = new Random(seed);
        long begin = System.currentTimeMillis();
        int done = 0;
        String failure = null;
        try {
            Snap s = waitFull(args.getLong("rejoinMs", 180000), null, "before round 1");
            System.out.println("controller: " + s);
            printConfigs();
            createTopic(s);
            boolean untilLoss = mode.equals("control") && Boolean.parseBoolean(args.get("untilLoss", "true"));
            for (int r = 1; r <= rounds; r++) {
                if (mode.equals("stop")) {
                    roundStop(r, rounds, random);
                } else {
                    roundKill(r, rounds, random);
                }
                done++;
                if (untilLoss && roundLost > 0) {
                    System.out.println("control: a loss seen in round " + r + "; no more rounds (-untilLoss)");
                    break;
                }
            }
        } catch (Failure f) {
            failure = f.getMessage();
            System.out.println(name + " " + label + ": FAILED in round " + (done + 1) + ": " + failure);
            cont();
        } catch (HaKill.HarnessError e) {
            System.out.println(name + " " + label + ": harness error in round " + (done + 1) + ": " + e.getMessage());
            cont();
            summary(done, -1, begin);
            shutdown();
            return 2;
        }

        long lost = finalCheck(failure != null);
        summary(done, lost, begin);
        shutdown();
        if (mode.equals("control")) {
            if (failure != null) {
                return 2;
            }
            if (lost > 0) {
                System.out.println(name + " " + label + ": the control saw the loss it must see (lost " + lost + ")");
                return 0;
            }
            System.out.println(name + " " + label + ": the control saw NO loss in " + done + " rounds: the test could not tell a lossy setup apart");
            return 1;
        }
        return failure == null && lost == 0 && late == 0 ? 0 : 1;
    }

    private void shutdown() {
        producer.shutdown();
        admin.shutdown();
    }

    private void summary(int rounds, long lost, long begin) {
        String extra = mode.equals("stop") ? ", old-master acks after the election " + late : "";
        System.out.printf("elections %s ms; sends resumed after %s ms; rejoined (SyncStateSet full) after %s ms%s%n",
            stats(electMs), stats(resumeMs), stats(rejoinMs), masterChanges > 0 ? "; master changed at a rejoin " + masterChanges + " times" : "");
        System.out.printf("%s %s: rounds %d, acked %d, lost %s%s, time %.1f s%n", name, label, rounds, acked,
            lost < 0 ? "?" : String.valueOf(lost), extra, (System.currentTimeMillis() - begin) / 1000.0);
    }

    private static String stats(List<Long> v) {
        if (v.isEmpty()) {
            return "-";
        }
        List<Long> s = new ArrayList<>(v);
        Collections.sort(s);
        return "min " + s.get(0) + " / median " + s.get(s.size() / 2) + " / max " + s.get(s.size() - 1);
    }

    // ---------------------------------------------------------------------------------------------
    // rounds

    private void roundKill(int r, int rounds, Random random) throws Exception {
        Snap before = waitFull(args.getLong("rejoinMs", 180000), null, "before round " + r);
        int idx = index(before.masterAddr);
        RoundSenders st = new RoundSenders(producer, topic, r, bodySize, "s", false);
        long t0 = System.currentTimeMillis();
        st.start(senders);
        CtlAck first;
        try {
            first = waitFirstAck(st, t0);
        } catch (Failure f) {
            st.stop();
            throw f;
        }
        long delay = delay(random);
        sleepUntil(first.ackAt() + delay);
        int atKill = st.ackCount();
        long killAt = System.currentTimeMillis();
        suite("kill-broker", idx);
        long goneAt = System.currentTimeMillis();
        Election el;
        CtlAck resumed;
        try {
            el = waitElection(before, killAt, args.getLong("electMs", 30000));
            resumed = waitResume(st, el, args.getLong("resumeWithinMs", 30000));
            Thread.sleep(args.getLong("resumeMs", 1000));
        } finally {
            st.stop();
            record(st.acks());
        }
        List<CtlAck> acks = st.acks();
        String lost = check(r, acks, el.now.masterAddr);
        Snap down = snap();
        long startAt = System.currentTimeMillis();
        suite("start-broker", idx);
        long upAt = System.currentTimeMillis();
        Snap after;
        try {
            after = waitFull(args.getLong("rejoinMs", 180000), el.now.masterId, "after restarting broker-" + idx);
        } catch (Failure f) {
            System.out.printf("round %d/%d: acked %d; master %s (id %d, epoch %d) killed; new master %s (id %d, epoch %d) after %d ms;"
                    + " %s; before the restart the controller said: %s; broker-%d restarted in %d ms; NO FULL SyncStateSet%n",
                r, rounds, acks.size(), before.masterAddr, before.masterId, before.masterEpoch, el.now.masterAddr, el.now.masterId,
                el.now.masterEpoch, el.seenAt - killAt, lost, down, idx, upAt - startAt);
            throw f;
        }
        long fullAt = System.currentTimeMillis();
        rejoinMs.add(fullAt - startAt);
        System.out.printf("round %d/%d: acked %d (%d at the kill, %d ms after the first ack, %d ms into the stream); master %s (id %d, epoch %d) killed"
                + " (gone in %d ms); new master %s (id %d, epoch %d, SyncStateSet %s) after %d ms; new master acked again after %d ms; %s;"
                + " not-OK %d, failed sends %d%s; before the restart the controller said: %s; broker-%d restarted in %d ms,"
                + " SyncStateSet full after %d ms%s%n",
            r, rounds, acks.size(), atKill, delay, killAt - t0, before.masterAddr, before.masterId, before.masterEpoch, goneAt - killAt,
            el.now.masterAddr, el.now.masterId, el.now.masterEpoch, el.now.inSync, el.seenAt - killAt, resumed.ackAt() - killAt, lost,
            st.notOk(), st.failed(), st.samples(), down, idx, upAt - startAt, fullAt - startAt,
            after.masterId.equals(el.now.masterId) ? "" : "; MASTER CHANGED to " + after.masterAddr);
    }

    private void roundStop(int r, int rounds, Random random) throws Exception {
        Snap before = waitFull(args.getLong("rejoinMs", 180000), null, "before round " + r);
        int idx = index(before.masterAddr);
        String oldAddr = before.masterAddr;
        RoundSenders st = new RoundSenders(producer, topic, r, bodySize, "s", false);
        DefaultMQProducer staleProducer = producer("ctlkill_stale", 120000);
        RoundSenders stale = new RoundSenders(staleProducer, topic, r, bodySize, "x", true);
        long t0 = System.currentTimeMillis();
        st.start(senders);
        stale.start(args.getInt("staleSenders", 1));
        Election el = null;
        CtlAck resumed = null;
        long stopAt = 0;
        long contAt = 0;
        int atStop = 0;
        long delay = 0;
        try {
            CtlAck first = waitFirstAck(st, t0);
            waitFirstAck(stale, t0);
            delay = delay(random);
            sleepUntil(first.ackAt() + delay);
            String pid = suiteOutput("pid", idx).trim();
            atStop = st.ackCount() + stale.ackCount();
            stopAt = System.currentTimeMillis();
            signal("STOP", pid);
            stoppedPid = pid;
            el = waitElection(before, stopAt, args.getLong("electMs", 60000));
            resumed = waitResume(st, el, args.getLong("resumeWithinMs", 30000));
            cont();
            contAt = System.currentTimeMillis();
            Thread.sleep(args.getLong("afterContMs", 5000));
        } finally {
            cont();
            st.stop();
            stale.stop();
            staleProducer.shutdown();
            record(st.acks());
            record(stale.acks());
        }
        List<CtlAck> acks = st.acks();
        acks.addAll(stale.acks());
        List<CtlAck> lateAcks = new ArrayList<>();
        int oldAfterStop = 0;
        for (CtlAck a : acks) {
            if (a.storeAddr().equals(oldAddr) && a.ackAt() > el.lastOldAt) {
                lateAcks.add(a);
            }
            if (a.storeAddr().equals(oldAddr) && a.ackAt() > stopAt) {
                oldAfterStop++;
            }
        }
        late += lateAcks.size();
        append("late.tsv", lateAcks);
        long unknownAddr = acks.stream().filter(a -> a.storeAddr().equals("?")).count();
        String lost = check(r, acks, el.now.masterAddr);
        long contDone = System.currentTimeMillis();
        Snap after = waitFull(args.getLong("rejoinMs", 180000), el.now.masterId, "after SIGCONT to broker-" + idx);
        long fullAt = System.currentTimeMillis();
        rejoinMs.add(fullAt - contAt);
        System.out.printf("round %d/%d: acked %d (%d stale-route; %d at the SIGSTOP, %d ms after the first ack, %d ms into the stream); master %s (id %d,"
                + " epoch %d) stopped; new master %s (id %d, epoch %d, SyncStateSet %s) after %d ms (last poll naming epoch %d at %d ms);"
                + " new master acked after %d ms; SIGCONT at %d ms; old-master acks after the SIGSTOP %d, AFTER THE ELECTION %d%s;"
                + " %s; not-OK %d + %d stale, failed sends %d + %d stale%s%s; SyncStateSet full %d ms after the SIGCONT%s%n",
            r, rounds, acks.size(), stale.ackCount(), atStop, delay, stopAt - t0, oldAddr, before.masterId, before.masterEpoch,
            el.now.masterAddr, el.now.masterId, el.now.masterEpoch, el.now.inSync, el.seenAt - stopAt, before.masterEpoch, el.lastOldAt - stopAt,
            resumed.ackAt() - stopAt, contAt - stopAt, oldAfterStop, lateAcks.size(),
            lateAcks.isEmpty() ? "" : " (e.g. " + lateAcks.get(0).tsv().replace('\t', ' ') + ")", lost,
            st.notOk(), stale.notOk(), st.failed(), stale.failed(), st.samples(), stale.samples(),
            fullAt - contAt, after.masterId.equals(el.now.masterId) ? "" : "; MASTER CHANGED to " + after.masterAddr);
        if (unknownAddr > 0) {
            System.out.println("  " + unknownAddr + " acks had an offset message id without a store address");
        }
    }

    /** Reads the round's acks back from addr when checkEachRound; a text for the round line. */
    private String check(int r, List<CtlAck> acks, String addr) throws Exception {
        if (!Boolean.parseBoolean(args.get("checkEachRound", "true"))) {
            return "not checked";
        }
        MasterRead.Result<CtlAck> res = reader.check(addr, acks, args.getLong("checkMs", 30000));
        roundLost += res.missing().size();
        return "read back from " + addr + ": LOST " + res.missing().size()
            + (res.wrongAtOffset() > 0 ? " (" + res.wrongAtOffset() + " with another message at their offset)" : "")
            + (res.missing().isEmpty() || res.lastError() == null ? "" : " (last error " + res.lastError() + ")");
    }

    /** Every ack of every round from the current master; the number lost (all of them when no master). */
    private long finalCheck(boolean afterFailure) throws Exception {
        Snap s;
        try {
            s = waitFull(afterFailure ? 20000 : args.getLong("rejoinMs", 180000), null, "before the final read");
        } catch (Failure f) {
            s = snap();
            System.out.println("final read: " + f.getMessage() + "; reading from whatever master there is: " + s);
        }
        if (s == null || s.masterAddr == null || s.masterAddr.isEmpty()) {
            System.out.println("final read: no master to read from; counting all " + acked + " acks as not read back");
            return acked;
        }
        long t = System.currentTimeMillis();
        List<CtlAck> missing = new ArrayList<>();
        long wrong = 0, pulls = 0, total = 0;
        int attempts = 0;
        String lastError = null;
        Path file = out.resolve("acked.tsv");
        if (Files.exists(file)) {
            try (java.io.BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                List<CtlAck> chunk = new ArrayList<>();
                for (String line = in.readLine(); ; line = in.readLine()) {
                    if (line != null) {
                        chunk.add(CtlAck.parse(line));
                    }
                    if (chunk.size() >= 200_000 || (line == null && !chunk.isEmpty())) {
                        MasterRead.Result<CtlAck> res = reader.check(s.masterAddr, chunk, args.getLong("checkMs", 30000));
                        total += chunk.size();
                        missing.addAll(res.missing());
                        wrong += res.wrongAtOffset();
                        pulls += res.pulls();
                        attempts = Math.max(attempts, res.attempts());
                        lastError = res.lastError() == null ? lastError : res.lastError();
                        chunk.clear();
                    }
                    if (line == null) {
                        break;
                    }
                }
            }
        }
        append("lost.tsv", missing);
        System.out.printf("final read from the master %s (id %d, epoch %d): %d of %d acks read back, LOST %d%s in %d ms"
                + " (%d pulls, %d attempts)%s%n", s.masterAddr, s.masterId, s.masterEpoch, total - missing.size(),
            total, missing.size(), wrong > 0 ? " (" + wrong + " with another message at their offset)" : "",
            System.currentTimeMillis() - t, pulls, attempts, missing.isEmpty() || lastError == null ? "" : "; last error " + lastError);
        if (!missing.isEmpty()) {
            Map<Integer, Integer> byRound = new TreeMap<>();
            for (CtlAck a : missing) {
                byRound.merge(a.round(), 1, Integer::sum);
            }
            System.out.println("  lost by round: " + byRound + "; e.g. " + missing.get(0).tsv().replace('\t', ' '));
        }
        if (roundLost != missing.size()) {
            System.out.println("  (the round reads had counted " + roundLost + " lost)");
        }
        if (total != acked) {
            System.out.println("  (acked.tsv has " + total + " acks, the rounds recorded " + acked + ")");
        }
        return missing.size();
    }

    // ---------------------------------------------------------------------------------------------
    // controller state

    /** The controller's view of broker-a. */
    record Snap(Long masterId, String masterAddr, int masterEpoch, int sssEpoch, TreeSet<Long> inSync,
                TreeMap<Long, String> addrs, TreeSet<Long> dead) {
        boolean full(int n) {
            return masterId != null && masterAddr != null && !masterAddr.isEmpty() && addrs.size() == n && inSync.size() == n
                && dead.isEmpty();
        }

        @Override
        public String toString() {
            return "master " + masterId + "@" + masterAddr + " epoch " + masterEpoch + ", SyncStateSet " + inSync + " (epoch "
                + sssEpoch + "), replicas " + addrs + (dead.isEmpty() ? "" : ", not alive " + dead);
        }
    }

    private Snap snap() {
        BrokerReplicasInfo.ReplicasInfo r = view.replicasQuiet(controller);
        if (r == null) {
            return null;
        }
        TreeSet<Long> in = new TreeSet<>(ControllerView.inSyncIds(r));
        TreeMap<Long, String> addrs = new TreeMap<>();
        TreeSet<Long> dead = new TreeSet<>();
        for (BrokerReplicasInfo.ReplicaIdentity id : ControllerView.all(r)) {
            addrs.put(id.getBrokerId(), id.getBrokerAddress());
            if (!Boolean.TRUE.equals(id.getAlive())) {
                dead.add(id.getBrokerId());
            }
        }
        return new Snap(r.getMasterBrokerId(), r.getMasterAddress(), r.getMasterEpoch(), r.getSyncStateSetEpoch(), in, addrs, dead);
    }

    /** Waits for a master and all N brokers alive in the SyncStateSet. */
    private Snap waitFull(long ms, Long expectMaster, String when) throws Exception {
        long deadline = System.currentTimeMillis() + ms;
        Snap s = null;
        while (true) {
            s = snap();
            if (s != null && s.full(brokers.size())) {
                if (expectMaster != null && !expectMaster.equals(s.masterId)) {
                    masterChanges++;
                }
                return s;
            }
            if (System.currentTimeMillis() >= deadline) {
                throw new Failure("no master with all " + brokers.size() + " brokers alive in the SyncStateSet within " + ms
                    + " ms " + when + "; the controller says: " + s);
            }
            Thread.sleep(200);
        }
    }

    record Election(Snap now, long seenAt, long lastOldAt) {
    }

    /** Polls the controller until a master other than before's with master epoch before+1. */
    private Election waitElection(Snap before, long since, long ms) throws Exception {
        long deadline = since + ms;
        long lastOld = since;
        Snap s = null;
        while (true) {
            long t = System.currentTimeMillis();
            s = snap();
            if (s != null && s.masterEpoch > before.masterEpoch) {
                if (s.masterEpoch != before.masterEpoch + 1 || s.masterId == null || s.masterId.equals(before.masterId)
                    || s.masterAddr == null || s.masterAddr.isEmpty()) {
                    throw new Failure("after master epoch " + before.masterEpoch + " the controller says: " + s);
                }
                long seen = System.currentTimeMillis();
                electMs.add(seen - since);
                return new Election(s, seen, lastOld);
            }
            if (s != null) {
                lastOld = t;
            }
            if (t >= deadline) {
                throw new Failure("no new master within " + ms + " ms; the controller says: " + s);
            }
            Thread.sleep(20);
        }
    }

    /** The first SEND_OK of the new master after the election was seen. */
    private CtlAck waitResume(RoundSenders st, Election el, long ms) throws Exception {
        long deadline = el.seenAt + ms;
        while (true) {
            CtlAck a = st.firstAckSince(el.lastOldAt, el.now.masterAddr);
            if (a != null) {
                resumeMs.add(a.ackAt() - el.lastOldAt);
                return a;
            }
            if (System.currentTimeMillis() >= deadline) {
                throw new Failure("the new master " + el.now.masterAddr + " acknowledged no send within " + ms + " ms of the election;"
                    + " not-OK " + st.notOk() + ", failed " + st.failed() + st.samples());
            }
            Thread.sleep(20);
        }
    }

    private CtlAck waitFirstAck(RoundSenders st, long t0) throws Exception {
        long deadline = t0 + args.getLong("writableMs", 60000);
        while (true) {
            CtlAck a = st.firstAckSince(t0, null);
            if (a != null) {
                return a;
            }
            if (System.currentTimeMillis() >= deadline) {
                throw new Failure("no SEND_OK within writableMs; not-OK " + st.notOk() + ", failed " + st.failed() + st.samples());
            }
            Thread.sleep(10);
        }
    }

    private int index(String addr) {
        int i = brokers.indexOf(addr);
        if (i < 0) {
            throw new HaKill.HarnessError("the master " + addr + " is none of " + brokers);
        }
        return i + 1;
    }

    private long delay(Random random) {
        long min = args.getLong("killMinMs", 200);
        long max = args.getLong("killMaxMs", 2000);
        return min + (max > min ? (long) (random.nextDouble() * (max - min)) : 0);
    }

    private static void sleepUntil(long t) throws InterruptedException {
        long d = t - System.currentTimeMillis();
        if (d > 0) {
            Thread.sleep(d);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // set-up

    private DefaultMQProducer producer(String group, long pollMs) throws Exception {
        DefaultMQProducer p = new DefaultMQProducer(group);
        p.setNamesrvAddr(namesrv);
        p.setInstanceName(group + "-" + System.nanoTime());
        p.setPollNameServerInterval((int) pollMs);
        p.setRetryTimesWhenSendFailed(0);
        p.setSendMsgTimeout(3000);
        p.start();
        return p;
    }

    private void printConfigs() {
        for (String b : brokers) {
            StringBuilder sb = new StringBuilder("broker " + b + ":");
            try {
                Properties p = admin.getBrokerConfig(b);
                for (String k : List.of("brokerId", "brokerRole", "allAckInSyncStateSet", "inSyncReplicas", "minInSyncReplicas",
                    "flushDiskType", "controllerHeartBeatTimeoutMills", "haMaxTimeSlaveNotCatchup")) {
                    sb.append(' ').append(k).append('=').append(p.getProperty(k));
                }
            } catch (Exception e) {
                sb.append(" GET_BROKER_CONFIG failed: ").append(e.getClass().getSimpleName()).append(": ")
                    .append(Text.firstLine(e.getMessage()));
            }
            System.out.println(sb);
        }
    }

    private void createTopic(Snap s) throws Exception {
        admin.createAndUpdateTopicConfig(s.masterAddr, new TopicConfig(topic, 4, 4, 6));
        long begin = System.currentTimeMillis();
        for (String b : brokers) {
            if (b.equals(s.masterAddr)) {
                continue;
            }
            long deadline = System.currentTimeMillis() + args.getLong("slaveTopicMs", 60000);
            String err = "";
            while (true) {
                try {
                    if (admin.examineTopicConfig(b, topic) != null) {
                        break;
                    }
                } catch (Exception e) {
                    err = " (last error " + Text.firstLine(e.getMessage()) + ")";
                }
                if (System.currentTimeMillis() >= deadline) {
                    throw new Failure("the slave " + b + " did not copy the topic " + topic + " from the master " + s.masterAddr + err);
                }
                Thread.sleep(300);
            }
        }
        System.out.printf("topic %s on the master %s, copied by every slave after %d ms%n", topic, s.masterAddr,
            System.currentTimeMillis() - begin);
    }

    // ---------------------------------------------------------------------------------------------
    // commands

    private String suiteCmd(String verb, int idx) {
        return "RUN_DIR='" + args.required("runDir") + "' sh '" + args.required("suite") + "' " + verb + " " + idx;
    }

    private void suite(String verb, int idx) throws IOException, InterruptedException {
        File log = out.resolve("servers.log").toFile();
        String cmd = suiteCmd(verb, idx);
        Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        int rc = p.waitFor();
        if (rc != 0) {
            throw new HaKill.HarnessError(cmd + " exited " + rc + " (see " + log + ")");
        }
    }

    private String suiteOutput(String verb, int idx) throws IOException, InterruptedException {
        String cmd = suiteCmd(verb, idx);
        Process p = new ProcessBuilder("sh", "-c", cmd).redirectError(ProcessBuilder.Redirect.appendTo(out.resolve("servers.log").toFile())).start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new HaKill.HarnessError(cmd + " exited " + p.exitValue());
        }
        return s;
    }

    private static void signal(String sig, String pid) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("kill", "-" + sig, pid).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new HaKill.HarnessError("kill -" + sig + " " + pid + " exited " + p.exitValue());
        }
    }

    /** SIGCONT to the broker this tool stopped, if any. */
    private void cont() {
        String pid = stoppedPid;
        if (pid == null) {
            return;
        }
        stoppedPid = null;
        try {
            signal("CONT", pid);
        } catch (Exception e) {
            System.out.println("SIGCONT to " + pid + " failed: " + e);
        }
    }

    private void record(List<CtlAck> acks) throws IOException {
        acked += acks.size();
        append("acked.tsv", acks);
    }

    private void append(String file, List<CtlAck> acks) throws IOException {
        if (acks.isEmpty()) {
            return;
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve(file), StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
            for (CtlAck a : acks) {
                w.println(a.tsv());
            }
        }
    }

    /**
     * A round's senders for ControllerKill: a {@link SyncSender} (tag ctlkill, keys r&lt;round&gt;-&lt;tag&gt;&lt;i&gt;-&lt;seq&gt;)
     * whose SEND_OKs become {@link CtlAck}s of the round, and the first two and the last of its
     * unacknowledged sends, with how long after start() they came.
     */
    private static final class RoundSenders {
        private final SyncSender sender;
        private final int round;
        private final String tag;
        private final boolean stale;
        private final ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
        private volatile String last;
        private volatile long startedAt;

        RoundSenders(DefaultMQProducer producer, String topic, int round, int bodySize, String tag, boolean stale) {
            this.sender = new SyncSender(producer, topic, "ctlkill", bodySize, 20).problems(this::sample);
            this.round = round;
            this.tag = tag;
            this.stale = stale;
        }

        void start(int threads) {
            startedAt = System.currentTimeMillis();
            sender.start(threads, "r" + round + "-" + tag, "ctlkill-r" + round + "-" + tag);
        }

        void stop() throws InterruptedException {
            sender.stop();
        }

        List<CtlAck> acks() {
            List<CtlAck> l = new ArrayList<>();
            for (SendOk s : sender.acks()) {
                l.add(CtlAck.of(round, s, stale));
            }
            return l;
        }

        int ackCount() {
            return sender.ackCount();
        }

        /** The first ack answered at or after t by addr (any address when null), or null. */
        CtlAck firstAckSince(long t, String addr) {
            SendOk s = sender.firstAckSince(t, addr);
            return s == null ? null : CtlAck.of(round, s, stale);
        }

        long notOk() {
            return sender.notOk();
        }

        long failed() {
            return sender.failed();
        }

        String samples() {
            return samples.isEmpty() ? "" : " e.g. " + samples + ", last " + last;
        }

        private void sample(String msg) {
            String s = "@" + (System.currentTimeMillis() - startedAt) + "ms " + msg;
            last = s.length() > 240 ? s.substring(0, 240) : s;
            if (samples.size() < 2) {
                samples.add(s.length() > 240 ? s.substring(0, 240) : s);
            }
        }
    }

    /** The servers did not do what they must (no new master, no rejoin, sends never resumed). */
    static final class Failure extends RuntimeException {
        Failure(String msg) {
            super(msg);
        }
    }
}
