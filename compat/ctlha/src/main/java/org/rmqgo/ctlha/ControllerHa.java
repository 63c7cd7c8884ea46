package org.rmqgo.ctlha;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.EpochEntry;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.body.EpochEntryCache;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.rmqgo.testsupport.Args;
import org.rmqgo.testsupport.ControllerView;
import org.rmqgo.testsupport.MasterRead;
import org.rmqgo.testsupport.SendOk;
import org.rmqgo.testsupport.SyncSender;

import static org.rmqgo.testsupport.ControllerView.all;
import static org.rmqgo.testsupport.ControllerView.compareCommitLogs;
import static org.rmqgo.testsupport.ControllerView.describe;
import static org.rmqgo.testsupport.ControllerView.epochs;
import static org.rmqgo.testsupport.ControllerView.expectedRoute;
import static org.rmqgo.testsupport.ControllerView.idsByAddr;
import static org.rmqgo.testsupport.ControllerView.inSyncIds;

/**
 * The client side of compat/controller-ha-suite.sh: three controllers (one Raft group) and a broker
 * set broker-a of 2 or 3 controller-mode brokers with allAckInSyncStateSet=true, under synchronous
 * sends.
 *
 * <pre>
 *   ControllerHa -scenario leader-and-master|partition -n namesrv -controllers a;b;c -brokers a1,a2[,a3]
 *                -stores s1,s2[,s3] -suite controller-ha-suite.sh -runDir dir -out dir [-b broker-a]
 *                [-label text] [-w 3] [-stale 2] [-s 128] [-electMs 60000] [-partitionElectMs 90000]
 *                [-holdMs 10000] [-afterHealMs 5000] [-rejoinMs 240000]
 * </pre>
 *
 * <p>leader-and-master: SIGKILL to the controller leader and the master in one kill(1) while the
 * senders run; the other controllers must elect a Raft leader and it a new master (master epoch +
 * 1) among the live brokers within electMs; SEND_OK from the new master within electMs; every
 * SEND_OK read back from it; then both start again: the controller must name the leader in its
 * getControllerMetaData, the broker come back as a slave under its controller id, the SyncStateSet
 * fill up, every slave have the master's epochs and max offset and its commitlog equal the master's
 * byte for byte up to the common max offset.
 *
 * <p>partition: besides the senders (route polled every second), {@code -stale} threads of a
 * producer whose route is polled every 10 minutes keep sending to the old master. The master is cut
 * off ({@code suite cut i}); a new master (epoch + 1) must be elected within partitionElectMs and
 * acknowledge sends; the senders go on holdMs; no SEND_OK may come from the old master (the store
 * host of the offset message id) for a send begun after the cut; then {@code suite heal i}, the
 * senders go on afterHealMs; the old master must come back as a slave, the commitlogs match and
 * every SEND_OK be read back from the final master.
 *
 * <p>Writes acked.tsv and servers.log to -out, prints a timeline, and last the line
 * {@code controller-ha <scenario> <label>: ... ok|FAILED (reason)} (also out/summary.txt). Exit 0
 * when ok, 1 when not. The senders, the read-back and the controller queries are shared with
 * compat/hatool and compat/'s ControllerModeTest (compat/testsupport: SyncSender, MasterRead,
 * ControllerView).
 */
public final class ControllerHa {
    private final Args args;
    private final String scenario;
    private final String namesrv;
    private final String brokerName;
    private final List<String> controllers;
    private final List<String> brokers;
    private final List<Path> stores;
    private final Path out;
    private final String label;
    private final int bodySize;
    private final PrintWriter serversLog;
    private final long t0 = System.currentTimeMillis();
    private DefaultMQAdminExt admin;
    private MQClientAPIImpl api;
    private ControllerView view;
    private final Set<String> downControllers = new TreeSet<>();
    private final List<String> facts = new ArrayList<>();
    private final List<Senders> streams = new ArrayList<>();
    private String topic;

    static final class Fail extends Exception {
        Fail(String m) {
            super(m);
        }
    }

    /** One SEND_OK of stream main or stale; a line of acked.tsv, lost.tsv and late.tsv. */
    record Ack(String stream, String key, String msgId, String offsetMsgId, String storeAddr, int queueId,
               long queueOffset, long sentAt, long ackAt) implements MasterRead.Acked {
        static Ack of(String stream, SendOk s) {
            return s == null ? null : new Ack(stream, s.key(), s.msgId(), s.offsetMsgId(), s.storeAddr(), s.queueId(),
                s.queueOffset(), s.sentAt(), s.ackAt());
        }

        String tsv() {
            return stream + "\t" + key + "\t" + msgId + "\t" + offsetMsgId + "\t" + storeAddr + "\t" + queueId + "\t"
                + queueOffset + "\t" + sentAt + "\t" + ackAt;
        }
    }

    private ControllerHa(Args a) throws IOException {
        this.args = a;
        this.scenario = a.required("scenario");
        this.namesrv = a.required("n");
        this.brokerName = a.get("b", "broker-a");
        this.controllers = Arrays.asList(a.required("controllers").split(";"));
        this.brokers = Arrays.asList(a.required("brokers").split(","));
        this.stores = Arrays.stream(a.required("stores").split(",")).map(Path::of).collect(Collectors.toList());
        this.out = Path.of(a.get("out", "."));
        this.label = a.get("label", "");
        this.bodySize = a.getInt("s", 128);
        Files.createDirectories(out);
        this.serversLog = new PrintWriter(Files.newBufferedWriter(out.resolve("servers.log"), StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
    }

    public static void main(String[] argv) throws Exception {
        ControllerHa t = new ControllerHa(Args.parse(argv));
        int rc = t.run();
        System.exit(rc);
    }

    private int run() {
        String summary;
        boolean ok;
        try {
            admin = new DefaultMQAdminExt(5000);
            admin.setNamesrvAddr(namesrv);
            admin.setInstanceName("ctlha-admin-" + System.nanoTime());
            admin.start();
            api = admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
            view = new ControllerView(admin, brokerName);
            switch (scenario) {
                case "leader-and-master" -> leaderAndMaster();
                case "partition" -> partition();
                default -> throw new IllegalArgumentException("no scenario " + scenario);
            }
            ok = true;
            summary = String.join(", ", facts) + " ok";
        } catch (Fail f) {
            ok = false;
            summary = String.join(", ", facts) + (facts.isEmpty() ? "" : " ") + "FAILED (" + f.getMessage() + ")";
        } catch (Throwable e) {
            ok = false;
            e.printStackTrace(System.out);
            summary = String.join(", ", facts) + (facts.isEmpty() ? "" : " ") + "FAILED (harness: " + e + ")";
        } finally {
            for (Senders s : streams) {
                s.stopQuietly();
            }
            writeAcks();
            if (admin != null) {
                admin.shutdown();
            }
        }
        String line = "controller-ha " + scenario + " " + label + ": " + summary;
        System.out.println(line);
        try {
            Files.writeString(out.resolve("summary.txt"), line + "\n");
        } catch (IOException e) {
            System.out.println("cannot write summary.txt: " + e);
        }
        return ok ? 0 : 1;
    }

    // ---------------------------------------------------------------------------------------------
    // scenario 1

    private void leaderAndMaster() throws Exception {
        long electMs = args.getLong("electMs", 60000);
        State before = prepare();
        Senders main = stream("main", 1000, args.getInt("w", 3));
        waitAcks(main, 300, 3000);

        int ctlIdx = controllers.indexOf(before.leader);
        int brokerIdx = brokers.indexOf(before.masterAddr);
        long killedId = before.masterId;
        say("SIGKILL to controller n%d (%s, the leader) and broker-%d (%s, the master, controller id %d) after %d SEND_OK",
            ctlIdx, before.leader, brokerIdx + 1, before.masterAddr, killedId, main.count());
        long killAt = now();
        script("kill", "controller-" + ctlIdx, "broker-" + (brokerIdx + 1));
        long goneAt = now();
        downControllers.add(before.leader);
        say("both gone %.2f s after the kill", secs(goneAt - killAt));

        String newLeader = until(killAt + electMs, "a new controller leader among the two left", () -> {
            String l = findLeader(false);
            return l != null && !l.equals(before.leader) ? l : null;
        });
        long leaderAt = now();
        say("new controller leader %s %.2f s after the kill", newLeader, secs(leaderAt - killAt));
        facts.add(String.format("new leader n%d %.1f s", controllers.indexOf(newLeader), secs(leaderAt - killAt)));

        BrokerReplicasInfo.ReplicasInfo after = until(killAt + electMs, "a new master (master epoch " + (before.epoch + 1)
            + ") among the surviving brokers", () -> {
                BrokerReplicasInfo.ReplicasInfo r = replicasQuiet(newLeader);
                return r != null && r.getMasterBrokerId() != null && r.getMasterBrokerId() != killedId
                    && r.getMasterEpoch() > before.epoch && r.getMasterAddress() != null && !r.getMasterAddress().isEmpty() ? r : null;
            });
        long masterAt = now();
        say("new master %s (controller id %d, master epoch %d) %.2f s after the kill; %s", after.getMasterAddress(),
            after.getMasterBrokerId(), after.getMasterEpoch(), secs(masterAt - killAt), describe(after));
        if (after.getMasterEpoch() != before.epoch + 1) {
            throw new Fail("master epoch " + after.getMasterEpoch() + " after the election, not " + (before.epoch + 1));
        }
        facts.add(String.format("new master id %d epoch %d %.1f s", after.getMasterBrokerId(), after.getMasterEpoch(),
            secs(masterAt - killAt)));
        String newMaster = after.getMasterAddress();

        Ack first = until(killAt + electMs, "a SEND_OK from the new master " + newMaster,
            () -> main.firstSince(goneAt, newMaster));
        say("sends resumed %.2f s after the kill", secs(first.ackAt() - killAt));
        facts.add(String.format("sends resumed %.1f s", secs(first.ackAt() - killAt)));
        until(now() + 120_000, "200 SEND_OK after the kill", () -> main.countSince(goneAt) >= 200 ? true : null);
        main.stop();
        say("senders stopped: %s", main.describe());

        List<Ack> acks = main.acks();
        checkReadBack(newMaster, acks, "the new master");
        facts.add("acked " + acks.size() + ", lost 0");

        say("starting controller n%d and broker-%d again", ctlIdx, brokerIdx + 1);
        long restartAt = now();
        script("start-controller", String.valueOf(ctlIdx));
        downControllers.remove(before.leader);
        script("start-broker", String.valueOf(brokerIdx + 1));
        long rejoinMs = args.getLong("rejoinMs", 240_000);
        String[] seen = new String[1];
        until(now() + rejoinMs, "the restarted controller n" + ctlIdx + " names the leader", () -> {
            String l = findLeader(true);
            GetMetaDataResponseHeader h = admin.getControllerMetaData(before.leader);
            seen[0] = h.toString();
            return l != null && l.equals(h.getControllerLeaderAddress()) ? true : null;
        });
        String leaderNow = findLeader(true);
        say("controller n%d rejoined %.2f s after its restart: %s", ctlIdx, secs(now() - restartAt), seen[0]);
        facts.add("controller rejoined (leader n" + controllers.indexOf(leaderNow) + ")");

        rejoinAndCompare(leaderNow, before.masterAddr, killedId, after.getMasterBrokerId(), after.getMasterEpoch(), restartAt, true);
    }

    // ---------------------------------------------------------------------------------------------
    // scenario 2

    private void partition() throws Exception {
        long electMs = args.getLong("partitionElectMs", 90_000);
        State before = prepare();
        Senders main = stream("main", 1000, args.getInt("w", 3));
        Senders stale = stream("stale", 600_000, args.getInt("stale", 2));
        waitAcks(main, 300, 3000);
        until(now() + 60_000, "20 SEND_OK of the stale-route senders", () -> stale.count() >= 20 ? true : null);

        int b = brokers.indexOf(before.masterAddr);
        String oldMaster = before.masterAddr;
        long oldId = before.masterId;
        say("cutting broker-%d (%s, the master, controller id %d) off after %d + %d SEND_OK", b + 1, oldMaster, oldId,
            main.count(), stale.count());
        long cutStart = now();
        script("cut", String.valueOf(b + 1));
        long cutAt = now();
        say("cut in %.2f s", secs(cutAt - cutStart));

        BrokerReplicasInfo.ReplicasInfo after = until(cutAt + electMs, "a new master (master epoch " + (before.epoch + 1)
            + ") while the old one is cut off", () -> {
                String l = findLeader(false);
                BrokerReplicasInfo.ReplicasInfo r = l == null ? null : replicasQuiet(l);
                return r != null && r.getMasterBrokerId() != null && r.getMasterBrokerId() != oldId
                    && r.getMasterEpoch() > before.epoch && r.getMasterAddress() != null && !r.getMasterAddress().isEmpty() ? r : null;
            });
        long masterAt = now();
        String newMaster = after.getMasterAddress();
        say("new master %s (controller id %d, master epoch %d) %.2f s after the cut; %s", newMaster,
            after.getMasterBrokerId(), after.getMasterEpoch(), secs(masterAt - cutAt), describe(after));
        if (after.getMasterEpoch() != before.epoch + 1) {
            throw new Fail("master epoch " + after.getMasterEpoch() + " after the election, not " + (before.epoch + 1));
        }
        facts.add(String.format("new master id %d epoch %d %.1f s after the cut", after.getMasterBrokerId(),
            after.getMasterEpoch(), secs(masterAt - cutAt)));

        Ack first = until(now() + 60_000, "a SEND_OK from the new master " + newMaster,
            () -> main.firstSince(cutAt, newMaster));
        say("sends acknowledged by the new master %.2f s after the cut", secs(first.ackAt() - cutAt));
        until(now() + 120_000, "200 SEND_OK from the new master", () -> main.countFrom(newMaster, cutAt) >= 200 ? true : null);
        long holdMs = args.getLong("holdMs", 10_000);
        Thread.sleep(holdMs); // the partition held a while longer with both streams going: the point of the scenario
        EpochEntryCache oldCache = null;
        try {
            oldCache = admin.getBrokerEpochCache(oldMaster);
            say("old master before the heal: role id %d, max offset %d, epochs %s", oldCache.getBrokerId(),
                oldCache.getMaxOffset(), epochs(oldCache));
        } catch (Exception e) {
            say("old master's epoch cache before the heal: %s", e);
        }
        EpochEntryCache newCache = admin.getBrokerEpochCache(newMaster);
        say("new master before the heal: max offset %d, epochs %s", newCache.getMaxOffset(), epochs(newCache));
        long staleAfterCut = stale.failedSince(cutAt) + stale.notOkSince(cutAt);
        say("stale-route senders since the cut: %d SEND_OK, %d failed or not OK (%s)", stale.countSince(cutAt), staleAfterCut,
            stale.describe());

        long healAt = now();
        script("heal", String.valueOf(b + 1));
        say("healed %.2f s after the cut", secs(healAt - cutAt));
        Thread.sleep(args.getLong("afterHealMs", 5000)); // senders go on across the heal
        main.stop();
        stale.stop();
        say("senders stopped: main %s; stale %s", main.describe(), stale.describe());

        List<Ack> all = new ArrayList<>(main.acks());
        all.addAll(stale.acks());
        List<Ack> late = all.stream().filter(a -> a.storeAddr().equals(oldMaster) && a.sentAt() >= cutAt)
            .sorted(Comparator.comparingLong(Ack::sentAt)).collect(Collectors.toList());
        long borderline = all.stream().filter(a -> a.storeAddr().equals(oldMaster) && a.sentAt() < cutAt && a.ackAt() >= cutStart).count();
        long fromOldAfterCut = all.stream().filter(a -> a.storeAddr().equals(oldMaster) && a.ackAt() >= cutAt).count();
        say("SEND_OK from the old master: %d for sends begun after the cut, %d answered after the cut start for sends begun before",
            late.size(), borderline);
        if (!late.isEmpty()) {
            Files.write(out.resolve("late.tsv"), late.stream().map(Ack::tsv).collect(Collectors.toList()));
            throw new Fail("split brain: the old master " + oldMaster + " acknowledged " + late.size()
                + " sends begun after the cut, first " + late.get(0).tsv() + " (late.tsv)");
        }
        facts.add("no SEND_OK from the old master after the cut (" + staleAfterCut + " stale sends refused or timed out, "
            + fromOldAfterCut + " answered after)");

        rejoinAndCompare(findLeader(true), oldMaster, oldId, after.getMasterBrokerId(), after.getMasterEpoch(), healAt,
            args.get("othersMustCatchUp", "false").equals("true"));
        // What the old master wrote alone: past the start of the new epoch on the new master.
        EpochEntryCache m = admin.getBrokerEpochCache(newMaster);
        long newEpochStart = m.getEpochList().stream().filter(e -> e.getEpoch() == after.getMasterEpoch())
            .mapToLong(EpochEntry::getStartOffset).findFirst().orElse(-1);
        if (oldCache != null && newEpochStart >= 0) {
            long alone = oldCache.getMaxOffset() - newEpochStart;
            say("the old master had %d bytes past the new epoch's start offset %d at the heal; its commitlog now equals the master's",
                Math.max(0, alone), newEpochStart);
            facts.add("old master truncated " + Math.max(0, alone) + " bytes");
        }
        checkReadBack(newMaster, all, "the final master");
        facts.add("acked " + all.size() + ", lost 0");
    }

    // ---------------------------------------------------------------------------------------------
    // common steps

    record State(String leader, String masterAddr, long masterId, int epoch, Map<String, Long> ids) {
    }

    /** A leader, a master, every broker alive in the SyncStateSet, the route; then the topic on every broker. */
    private State prepare() throws Exception {
        State s = until(now() + 240_000, "a controller leader, a master and all " + brokers.size()
            + " brokers alive in the SyncStateSet", () -> {
                String l = findLeader(true);
                if (l == null) {
                    return null;
                }
                BrokerReplicasInfo.ReplicasInfo r = replicasQuiet(l);
                if (r == null || r.getMasterBrokerId() == null || r.getMasterAddress() == null) {
                    return null;
                }
                Map<String, Long> ids = idsByAddr(r);
                if (!ids.keySet().equals(new TreeSet<>(brokers)) || inSyncIds(r).size() != brokers.size()) {
                    return null;
                }
                for (var rep : all(r)) {
                    if (!Boolean.TRUE.equals(rep.getAlive())) {
                        return null;
                    }
                }
                return new State(l, r.getMasterAddress(), r.getMasterBrokerId(), r.getMasterEpoch(), ids);
            });
        say("controller leader %s (n%d); %s", s.leader, controllers.indexOf(s.leader), describe(replicasQuiet(s.leader)));
        for (String c : controllers) {
            say("  getControllerMetaData %s: %s", c, admin.getControllerMetaData(c));
        }
        topic = "CtlHa_" + scenario.replace('-', '_') + "_" + Long.toString(System.currentTimeMillis(), 36);
        admin.createAndUpdateTopicConfig(s.masterAddr, new TopicConfig(topic, 4, 4, 6));
        for (String b : brokers) {
            if (!b.equals(s.masterAddr)) {
                until(now() + 120_000, "slave " + b + " has topic " + topic, () -> {
                    try {
                        return admin.examineTopicConfig(b, topic) != null ? true : null;
                    } catch (Exception e) {
                        return null;
                    }
                });
            }
        }
        Map<Long, String> want = expectedRoute(s.masterAddr, s.ids, s.ids.keySet());
        until(now() + 120_000, "the name server routes the master as 0 and the slaves by controller id " + want,
            () -> want.equals(routed()) ? true : null);
        say("topic %s on every broker; route %s", topic, want);
        return s;
    }

    /**
     * After the restart (or the heal): the broker of oldAddr a live slave under oldId, the master unchanged, the
     * route, oldAddr in the SyncStateSet with the master's epochs and max offset, the commitlogs equal up to the
     * common max offset. With others, every other slave must have caught up too and the SyncStateSet be full;
     * without, another slave that has not is only reported (its commitlog must still be a prefix of the master's).
     */
    private void rejoinAndCompare(String leader, String oldAddr, long oldId, long masterId, int masterEpoch, long since,
        boolean others) throws Exception {
        long rejoinMs = args.getLong("rejoinMs", 240_000);
        BrokerReplicasInfo.ReplicasInfo r = until(now() + rejoinMs, "broker " + oldAddr + " a live replica under controller id "
            + oldId + ", the master unchanged (id " + masterId + ", epoch " + masterEpoch + ")", () -> {
                String l = findLeader(true);
                BrokerReplicasInfo.ReplicasInfo x = l == null ? null : replicasQuiet(l);
                if (x == null || x.getMasterBrokerId() == null) {
                    return null;
                }
                if (x.getMasterBrokerId() != masterId || x.getMasterEpoch() != masterEpoch) {
                    throw new Fail("the master changed: " + describe(x));
                }
                var rep = all(x).stream()
                    .filter(i -> i.getBrokerAddress().equals(oldAddr)).findFirst().orElse(null);
                return rep != null && rep.getBrokerId() == oldId && Boolean.TRUE.equals(rep.getAlive()) ? x : null;
            });
        String master = r.getMasterAddress();
        Map<String, Long> ids = idsByAddr(r);
        Map<Long, String> want = expectedRoute(master, ids, ids.keySet());
        until(now() + rejoinMs, "the name server routes " + oldAddr + " as slave " + oldId + ": " + want,
            () -> want.equals(routed()) ? true : null);
        say("%s is a slave again (route %s) %.2f s after its restart/heal", oldAddr, want, secs(now() - since));
        String[] last = new String[1];
        until(now() + rejoinMs, (others ? "every slave has" : oldAddr + " has") + " the master's epochs and max offset, and the"
            + " SyncStateSet holds " + (others ? "all " + brokers.size() : oldAddr), () -> {
                EpochEntryCache m = admin.getBrokerEpochCache(master);
                if (m.getBrokerId() != 0) {
                    last[0] = "master role id " + m.getBrokerId();
                    return null;
                }
                for (String b : brokers) {
                    if (b.equals(master) || (!others && !b.equals(oldAddr))) {
                        continue;
                    }
                    EpochEntryCache c = admin.getBrokerEpochCache(b);
                    if ((long) c.getBrokerId() != (long) ids.get(b) || c.getMaxOffset() != m.getMaxOffset() || !epochs(c).equals(epochs(m))) {
                        last[0] = "slave " + b + ": role id " + c.getBrokerId() + ", max offset " + c.getMaxOffset() + " epochs "
                            + epochs(c) + "; master max offset " + m.getMaxOffset() + " epochs " + epochs(m);
                        return null;
                    }
                }
                BrokerReplicasInfo.ReplicasInfo x = replicasQuiet(findLeader(true));
                if (x == null || (others ? inSyncIds(x).size() != brokers.size() : !inSyncIds(x).contains(oldId))) {
                    last[0] = x == null ? "no replica info" : describe(x);
                    return null;
                }
                return true;
            }, () -> last[0]);
        EpochEntryCache m = admin.getBrokerEpochCache(master);
        double caughtUp = secs(now() - since);
        BrokerReplicasInfo.ReplicasInfo now = replicasQuiet(findLeader(true));
        say("%s caught up: master max offset %d, epochs %s; %s", others ? "all slaves" : oldAddr, m.getMaxOffset(), epochs(m),
            describe(now));
        Map<String, Long> idsNow = now == null ? ids : idsByAddr(now);
        for (String b : brokers) {
            if (others || b.equals(master) || b.equals(oldAddr)) {
                continue;
            }
            EpochEntryCache c = admin.getBrokerEpochCache(b);
            boolean inSync = now != null && inSyncIds(now).contains(idsNow.get(b));
            if (c.getMaxOffset() != m.getMaxOffset() || !inSync || !epochs(c).equals(epochs(m))) {
                String note = String.format("NOTE slave %s (id %d) has not caught up: max offset %d of %d, epochs %s, %s the"
                    + " SyncStateSet", b, idsNow.get(b), c.getMaxOffset(), m.getMaxOffset(), epochs(c), inSync ? "in" : "not in");
                say("%s", note);
                facts.add(note);
            }
        }
        int mi = brokers.indexOf(master);
        for (int i = 0; i < brokers.size(); i++) {
            if (i == mi) {
                continue;
            }
            long common = Math.min(m.getMaxOffset(), admin.getBrokerEpochCache(brokers.get(i)).getMaxOffset());
            if (common <= 0) {
                throw new Fail("nothing to compare on " + brokers.get(i));
            }
            String diff = compareCommitLogs(stores.get(mi).resolve("commitlog"), stores.get(i).resolve("commitlog"), common);
            if (diff != null) {
                throw new Fail(diff);
            }
            say("commitlog of %s equals the master's up to %d", brokers.get(i), common);
        }
        facts.add(String.format("broker rejoined as slave %d and caught up %.1f s after its %s, commitlogs equal", oldId,
            caughtUp, scenario.equals("partition") ? "heal" : "restart"));
    }

    private void checkReadBack(String addr, List<Ack> acks, String what) throws Exception {
        Map<String, Ack> byPos = new HashMap<>();
        for (Ack a : acks) {
            Ack o = byPos.put(a.queueId() + "@" + a.queueOffset(), a);
            if (o != null) {
                throw new Fail("two SEND_OK at queue " + a.queueId() + " offset " + a.queueOffset() + ": " + o.tsv() + " and " + a.tsv());
            }
        }
        MasterRead.Result<Ack> res = new MasterRead(api, topic, "ctlha_read", brokerName, k -> SyncSender.body(k, bodySize))
            .check(addr, acks, 60_000);
        List<Ack> missing = res.missing();
        String lastErr = res.lastError();
        if (!missing.isEmpty()) {
            Files.write(out.resolve("lost.tsv"), missing.stream().map(Ack::tsv).collect(Collectors.toList()));
            throw new Fail(missing.size() + " of " + acks.size() + " SEND_OK not read back from " + what + " " + addr
                + ", e.g. " + missing.get(0).tsv() + " (lost.tsv; last error " + lastErr + ")");
        }
        say("read back all %d SEND_OK from %s %s", acks.size(), what, addr);
    }

    // ---------------------------------------------------------------------------------------------
    // controllers and brokers

    /** The address of the controller that says it leads (of those not down), or null; with agree, all others must name it. */
    private String findLeader(boolean agree) {
        return view.findLeader(controllers, downControllers, agree);
    }

    private BrokerReplicasInfo.ReplicasInfo replicasQuiet(String controller) {
        return view.replicasQuiet(controller);
    }

    private Map<Long, String> routed() {
        try {
            return view.routed();
        } catch (Exception e) {
            return Map.of();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // helpers

    private void script(String... cmd) throws Exception {
        List<String> c = new ArrayList<>(List.of("sh", args.required("suite")));
        c.addAll(Arrays.asList(cmd));
        ProcessBuilder pb = new ProcessBuilder(c);
        pb.environment().put("RUN_DIR", args.required("runDir"));
        pb.redirectErrorStream(true);
        Path log = out.resolve("script-" + System.nanoTime() + ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean done = p.waitFor(300, TimeUnit.SECONDS);
        String text = Files.readString(log);
        Files.deleteIfExists(log);
        serversLog.print("$ " + String.join(" ", c) + "\n" + text);
        serversLog.flush();
        for (String l : text.split("\n")) {
            if (!l.isBlank()) {
                say("  | %s", l);
            }
        }
        if (!done) {
            p.destroy();
            throw new Fail(String.join(" ", cmd) + " did not finish within 300 s");
        }
        if (p.exitValue() != 0) {
            throw new Fail(String.join(" ", cmd) + " exited " + p.exitValue());
        }
    }

    private Senders stream(String name, int pollMs, int threads) throws Exception {
        DefaultMQProducer p = new DefaultMQProducer("ctlha_pg_" + name + "_" + System.nanoTime());
        p.setNamesrvAddr(namesrv);
        p.setInstanceName("ctlha_" + name + "_" + System.nanoTime());
        p.setPollNameServerInterval(pollMs);
        p.setSendMsgTimeout(3000);
        p.setRetryTimesWhenSendFailed(0);
        p.start();
        Senders s = new Senders(name, p, topic, bodySize);
        streams.add(s);
        s.start(threads);
        return s;
    }

    private void waitAcks(Senders s, int n, long minMs) throws Exception {
        long started = now();
        until(now() + 120_000, n + " SEND_OK over at least " + minMs + " ms",
            () -> s.count() >= n && now() - started >= minMs ? true : null, s::describe);
    }

    private <T> T until(long deadline, String what, Callable<T> check) throws Exception {
        return until(deadline, what, check, () -> null);
    }

    private <T> T until(long deadline, String what, Callable<T> check, Callable<String> detail) throws Exception {
        Exception last = null;
        while (true) {
            try {
                T v = check.call();
                if (v != null) {
                    return v;
                }
            } catch (Fail f) {
                throw f;
            } catch (Exception e) {
                last = e;
            }
            if (now() >= deadline) {
                String d = null;
                try {
                    d = detail.call();
                } catch (Exception ignored) {
                    // only a detail
                }
                throw new Fail("no " + what + " in time" + (d != null ? "; " + d : "") + (last != null ? "; last error " + last : ""));
            }
            Thread.sleep(100);
        }
    }

    private void say(String fmt, Object... a) {
        System.out.printf("[%7.2f] %s%n", secs(now() - t0), String.format(fmt, a));
        System.out.flush();
    }

    private void writeAcks() {
        List<String> lines = new ArrayList<>();
        for (Senders s : streams) {
            for (Ack a : s.acks()) {
                lines.add(a.tsv());
            }
        }
        try {
            Files.write(out.resolve("acked.tsv"), lines);
        } catch (IOException e) {
            System.out.println("cannot write acked.tsv: " + e);
        }
    }

    static long now() {
        return System.currentTimeMillis();
    }

    static double secs(long ms) {
        return ms / 1000.0;
    }

    /**
     * A named stream of ControllerHa: a {@link SyncSender} (tag ctlha, keys &lt;name&gt;&lt;i&gt;-&lt;seq&gt;, 50 ms
     * pause after a failed send) on its own producer, its SEND_OKs as {@link Ack}s with the stream's
     * name, and up to 6 kinds of unacknowledged sends counted.
     */
    static final class Senders {
        private final String name;
        private final DefaultMQProducer producer;
        private final SyncSender sender;
        private final Map<String, Integer> samples = new LinkedHashMap<>();
        private boolean stopped;

        Senders(String name, DefaultMQProducer producer, String topic, int bodySize) {
            this.name = name;
            this.producer = producer;
            this.sender = new SyncSender(producer, topic, "ctlha", bodySize, 50).problems(this::sample);
        }

        void start(int n) {
            sender.start(n, name, "ctlha-" + name + "-");
        }

        /** Stops the senders and shuts the producer down; once. */
        synchronized void stop() throws InterruptedException {
            if (stopped) {
                return;
            }
            sender.stop();
            producer.shutdown();
            stopped = true;
        }

        void stopQuietly() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        List<Ack> acks() {
            return sender.acks().stream().map(s -> Ack.of(name, s)).collect(Collectors.toList());
        }

        int count() {
            return sender.ackCount();
        }

        long countSince(long t) {
            return sender.countSince(t, null);
        }

        long countFrom(String addr, long t) {
            return sender.countSince(t, addr);
        }

        Ack firstSince(long t, String addr) {
            return Ack.of(name, sender.firstAckSince(t, addr));
        }

        long failedSince(long t) {
            return sender.failedSince(t);
        }

        long notOkSince(long t) {
            return sender.notOkSince(t);
        }

        String describe() {
            List<SendOk> acks = sender.acks();
            Map<String, Long> byAddr = acks.stream().collect(Collectors.groupingBy(SendOk::storeAddr, TreeMap::new, Collectors.counting()));
            synchronized (samples) {
                return acks.size() + " SEND_OK " + byAddr + ", " + sender.notOk() + " not OK, " + sender.failed() + " failed "
                    + samples;
            }
        }

        private void sample(String s) {
            s = s.replaceAll("\\d+\\(ms\\)", "N(ms)").replaceAll("\\d+ ?ms", "N ms");
            String k = s.length() > 160 ? s.substring(0, 160) : s;
            synchronized (samples) {
                if (samples.containsKey(k) || samples.size() < 6) {
                    samples.merge(k, 1, Integer::sum);
                }
            }
        }
    }
}
