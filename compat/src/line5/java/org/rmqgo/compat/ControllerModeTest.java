package org.rmqgo.compat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.EpochEntry;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.body.EpochEntryCache;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import org.rmqgo.testsupport.ControllerView;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.rmqgo.testsupport.ControllerView.all;
import static org.rmqgo.testsupport.ControllerView.compareCommitLogs;
import static org.rmqgo.testsupport.ControllerView.describe;
import static org.rmqgo.testsupport.ControllerView.epochs;
import static org.rmqgo.testsupport.ControllerView.expectedRoute;
import static org.rmqgo.testsupport.ControllerView.idsByAddr;
import static org.rmqgo.testsupport.ControllerView.inSyncIds;

/**
 * Controller mode (RIP-44) as a user sees it, on the servers compat/controller-suite.sh starts: one
 * controller (CONTROLLER_ADDR) and N brokers of broker set broker-a (BROKER_1_ADDR ... BROKER_N_ADDR,
 * their stores BROKER_i_STORE) with enableControllerMode=true and allAckInSyncStateSet=true.
 *
 * <ol>
 * <li>every broker got a controller id 1..N, exactly one is master, the name server routes it as
 * brokerId 0 and the slaves under their controller ids, and the SyncStateSet grows to all N;</li>
 * <li>the master SIGKILLed while producers send synchronously: the controller elects a new master
 * (master epoch + 1) within 5 s, sends succeed again within 10 s, and every SEND_OK message is read
 * back from the new master at the queue offset its SendResult named;</li>
 * <li>the old master started again comes back as a slave under its controller id, catches up, and
 * its commitlog (and every other slave's) equals the new master's byte for byte.</li>
 * </ol>
 * Tagged "controller": the default runs have no controller. Run by compat/controller-suite.sh; its
 * controller and route queries are ControllerView's (compat/testsupport/src/line5), shared with
 * compat/ctlha's ControllerHa and compat/hatool's ControllerKill.
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Tag("controller")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(900)
class ControllerModeTest {
    private static final Duration ELECTION_WITHIN = Duration.ofSeconds(5);
    private static final Duration SENDS_RESUME_WITHIN = Duration.ofSeconds(10);
    private static final Duration SETTLE = Duration.ofSeconds(120);
    private static final long SCRIPT_SECONDS = 240;
    private static final int PRODUCER_THREADS = 3;
    private static final int QUEUES = 4;

    private record Broker(int index, String addr, Path store) {
    }

    private record Acked(String body, int queueId, long queueOffset, long atNanos) {
    }

    private static DefaultMQAdminExt admin;
    /** The controller's and the name server's view of broker-a (shared with ctlha and hatool). */
    private static ControllerView view;
    private static String controller;
    private static List<Broker> brokers;

    /** What the kill test leaves for the restart test. */
    private static Broker killed;
    private static long killedId;
    private static long newMasterId;
    private static String newMasterAddr;
    private static int newMasterEpoch;

    @BeforeAll
    static void setUp() throws Exception {
        admin = Clients.admin();
        controller = Env.required("CONTROLLER_ADDR");
        view = new ControllerView(admin, Env.brokerName());
        int n = Integer.parseInt(Env.required("CONTROLLER_BROKER_COUNT"));
        brokers = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            brokers.add(new Broker(i, Env.required("BROKER_" + i + "_ADDR"), Path.of(Env.required("BROKER_" + i + "_STORE"))));
        }
        System.out.println("controller: " + Env.optional("CONTROLLER_IMPL", "?") + " at " + controller + ", brokers "
            + Env.optional("CONTROLLER_BROKERS", "?") + " " + brokers);
    }

    // ---------------------------------------------------------------------------------------------
    // helpers

    private static BrokerReplicasInfo.ReplicasInfo replicas() throws Exception {
        BrokerReplicasInfo.ReplicasInfo r = view.replicas(controller);
        assertNotNull(r, "the controller knows no " + Env.brokerName());
        return r;
    }

    private static Set<Long> allIds() {
        Set<Long> s = new TreeSet<>();
        for (long i = 1; i <= brokers.size(); i++) {
            s.add(i);
        }
        return s;
    }

    private static Broker byAddr(String addr) {
        return brokers.stream().filter(b -> b.addr().equals(addr)).findFirst()
            .orElseThrow(() -> new AssertionError("no broker of the run at " + addr + " (" + brokers + ")"));
    }

    /** Polls check until it passes or the deadline (System.nanoTime) is reached. */
    private static <T> T before(long deadlineNanos, String what, java.util.concurrent.Callable<T> check) throws Exception {
        long left = Math.max(0, deadlineNanos - System.nanoTime());
        return Eventually.eventually(Duration.ofNanos(left), what, check);
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    /** controller-suite.sh VERB N (kill-broker, start-broker), through CONTROLLER_SUITE_SCRIPT. */
    private static void script(String verb, int broker) throws IOException, InterruptedException {
        Path runDir = Path.of(Env.runDir());
        Path log = runDir.resolve(verb + "-" + broker + "-" + System.currentTimeMillis() + ".log");
        ProcessBuilder pb = new ProcessBuilder("sh", Env.required("CONTROLLER_SUITE_SCRIPT"), verb, String.valueOf(broker));
        pb.environment().put("RUN_DIR", runDir.toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        if (!p.waitFor(SCRIPT_SECONDS, TimeUnit.SECONDS)) {
            p.destroy();
            fail("controller-suite.sh " + verb + " " + broker + " did not finish within " + SCRIPT_SECONDS + " s:\n"
                + Files.readString(log));
        }
        if (p.exitValue() != 0) {
            fail("controller-suite.sh " + verb + " " + broker + " exited " + p.exitValue() + ":\n" + Files.readString(log));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 1. registration

    @Test
    @Order(1)
    void everyBrokerHasAControllerIdAndOneIsMaster() throws Exception {
        GetMetaDataResponseHeader meta = Eventually.eventually(SETTLE, "the controller is the leader of its group", () -> {
            GetMetaDataResponseHeader h = admin.getControllerMetaData(controller);
            assertTrue(h.isLeader(), "isLeader: " + h);
            return h;
        });
        assertEquals(controller, meta.getControllerLeaderAddress(), "controllerLeaderAddress");
        // DLedger: group1, n0, peers "n0:<addr>;"; jRaft keys: jRaftGroupId, jRaftServerId,
        // peers "<addr>;" (controller-suite.sh's env.sh says which)
        assertEquals(Env.optional("CONTROLLER_LEADER_ID", "n0"), meta.getControllerLeaderId(), "controllerLeaderId");
        assertEquals(Env.optional("CONTROLLER_GROUP", "group1"), meta.getGroup(), "group");
        String peer = Env.optional("CONTROLLER_PEER", "n0:" + controller);
        assertTrue(meta.getPeers().contains(peer), "peers " + meta.getPeers() + " hold " + peer);

        BrokerReplicasInfo.ReplicasInfo r = Eventually.eventually(SETTLE,
            "every broker has a controller id 1.." + brokers.size() + ", one is master, all in the SyncStateSet", () -> {
                BrokerReplicasInfo.ReplicasInfo x = replicas();
                Map<String, Long> ids = idsByAddr(x);
                assertEquals(brokers.stream().map(Broker::addr).collect(Collectors.toCollection(TreeSet::new)), ids.keySet(),
                    "registered addresses; " + describe(x));
                assertEquals(allIds(), new TreeSet<>(ids.values()), "controller ids; " + describe(x));
                assertNotNull(x.getMasterBrokerId(), "a master; " + describe(x));
                assertEquals(ids.get(x.getMasterAddress()), x.getMasterBrokerId(), "master id and address; " + describe(x));
                for (var rep : all(x)) {
                    assertEquals(Boolean.TRUE, rep.getAlive(), "alive: " + rep);
                }
                assertEquals(allIds(), inSyncIds(x), "SyncStateSet; " + describe(x));
                return x;
            });
        System.out.println("controller: registered " + describe(r));
        Map<String, Long> ids = idsByAddr(r);

        // Each broker keeps its controller id in store/brokerIdentity: cluster#brokerName#id, no newline.
        for (Broker b : brokers) {
            String identity = Files.readString(b.store().resolve("brokerIdentity"), StandardCharsets.UTF_8);
            assertEquals(Env.clusterName() + "#" + Env.brokerName() + "#" + ids.get(b.addr()), identity,
                "brokerIdentity of broker " + b.index() + " (" + b.addr() + ")");
        }

        Set<String> live = ids.keySet();
        Map<Long, String> want = expectedRoute(r.getMasterAddress(), ids, live);
        Eventually.eventually(SETTLE, "the name server routes the master as 0 and the slaves by controller id " + want, () -> {
            assertEquals(want, view.routed(), "brokerAddrs of " + Env.brokerName());
            return null;
        });

        // GET_BROKER_EPOCH_CACHE straight to each broker: its role id, and the same epochs everywhere.
        EpochEntryCache master = admin.getBrokerEpochCache(r.getMasterAddress());
        assertEquals(0L, master.getBrokerId(), "the master's epoch cache names role id 0");
        assertEquals(r.getMasterEpoch(), master.getEpochList().get(master.getEpochList().size() - 1).getEpoch(),
            "the master's last epoch is the controller's master epoch: " + master.getEpochList());
        for (Broker b : brokers) {
            if (b.addr().equals(r.getMasterAddress())) {
                continue;
            }
            EpochEntryCache c = admin.getBrokerEpochCache(b.addr());
            assertEquals((long) ids.get(b.addr()), c.getBrokerId(), "slave " + b.addr() + " answers with its controller id");
            assertEquals(Env.brokerName(), c.getBrokerName());
            assertEquals(Env.clusterName(), c.getClusterName());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // 2. what a slave copies from its master (topics, groups, offsets), ready for the switch

    private static final String META_TOPIC = Clients.unique("ctlmeta");
    private static final String META_GROUP = "compat_ctlmeta_group";
    private static final int META_QUEUES = 3;
    private static final int META_RETRIES = 7;

    private static org.apache.rocketmq.client.impl.MQClientAPIImpl clientApi() {
        return admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
    }

    private static long queryOffset(String addr, int queue) throws Exception {
        var h = new org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader();
        h.setConsumerGroup(META_GROUP);
        h.setTopic(META_TOPIC);
        h.setQueueId(queue);
        return clientApi().queryConsumerOffset(addr, h, 3000);
    }

    /** The topic, the group and the offsets made on the master, as read from addr. */
    private static void assertMetadataOn(String addr) throws Exception {
        var tc = admin.examineTopicConfig(addr, META_TOPIC);
        assertNotNull(tc, "topic " + META_TOPIC + " on " + addr);
        assertEquals(META_QUEUES, tc.getReadQueueNums(), "read queues of " + META_TOPIC + " on " + addr);
        assertEquals(META_QUEUES, tc.getWriteQueueNums(), "write queues of " + META_TOPIC + " on " + addr);
        var g = admin.examineSubscriptionGroupConfig(addr, META_GROUP);
        assertNotNull(g, "group " + META_GROUP + " on " + addr);
        assertEquals(META_RETRIES, g.getRetryMaxTimes(), "retryMaxTimes of " + META_GROUP + " on " + addr);
        for (int q = 0; q < META_QUEUES; q++) {
            assertEquals(100 + q, queryOffset(addr, q), "offset of queue " + q + " on " + addr);
        }
    }

    @Test
    @Order(2)
    void topicsGroupsAndOffsetsMadeOnTheMasterReachEverySlave() throws Exception {
        BrokerReplicasInfo.ReplicasInfo r = Eventually.eventually(SETTLE, "a master", () -> {
            BrokerReplicasInfo.ReplicasInfo x = replicas();
            assertNotNull(x.getMasterAddress(), describe(x));
            return x;
        });
        String master = r.getMasterAddress();
        admin.createAndUpdateTopicConfig(master, new org.apache.rocketmq.common.TopicConfig(META_TOPIC, META_QUEUES, META_QUEUES, 6));
        var g = new org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig();
        g.setGroupName(META_GROUP);
        g.setRetryMaxTimes(META_RETRIES);
        admin.createAndUpdateSubscriptionGroupConfig(master, g);
        for (int q = 0; q < META_QUEUES; q++) {
            var h = new org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader();
            h.setConsumerGroup(META_GROUP);
            h.setTopic(META_TOPIC);
            h.setQueueId(q);
            h.setCommitOffset(100L + q);
            clientApi().updateConsumerOffset(master, h, 3000);
        }
        assertMetadataOn(master);
        for (Broker b : brokers) {
            if (!b.addr().equals(master)) {
                Eventually.eventually(Duration.ofSeconds(60), "the slave " + b.addr() + " has the master's topic, group and offsets",
                    () -> {
                        assertMetadataOn(b.addr());
                        return null;
                    });
            }
        }
        System.out.println("controller: " + META_TOPIC + ", " + META_GROUP + " and its offsets reached every slave");
    }

    // ---------------------------------------------------------------------------------------------
    // 3. the master SIGKILLed under load

    @Test
    @Order(3)
    void aKilledMasterIsReplacedAndNoAcknowledgedMessageIsLost() throws Exception {
        BrokerReplicasInfo.ReplicasInfo before = Eventually.eventually(SETTLE, "a master and a full SyncStateSet", () -> {
            BrokerReplicasInfo.ReplicasInfo x = replicas();
            assertNotNull(x.getMasterAddress(), describe(x));
            assertEquals(allIds(), inSyncIds(x), "SyncStateSet; " + describe(x));
            return x;
        });
        String oldMaster = before.getMasterAddress();
        int oldEpoch = before.getMasterEpoch();
        Map<String, Long> ids = idsByAddr(before);

        String topic = Clients.unique("ctl");
        Clients.createTopic(admin, oldMaster, Env.brokerName(), topic, QUEUES, QUEUES);
        // The slaves copy the topic from the master (SlaveSynchronize): whichever is elected must know it.
        for (Broker b : brokers) {
            if (!b.addr().equals(oldMaster)) {
                Eventually.eventually(SETTLE, "slave " + b.addr() + " has topic " + topic, () -> {
                    assertNotNull(admin.examineTopicConfig(b.addr(), topic), "topic config on " + b.addr());
                    return null;
                });
            }
        }

        ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong failures = new AtomicLong(), notOk = new AtomicLong();
        ConcurrentLinkedQueue<String> failureSamples = new ConcurrentLinkedQueue<>();
        List<DefaultMQProducer> producers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < PRODUCER_THREADS; t++) {
            DefaultMQProducer p = new DefaultMQProducer(Clients.unique("ctl_pg"));
            p.setNamesrvAddr(Env.namesrvAddr());
            p.setInstanceName(Clients.unique("ctl_producer"));
            p.setPollNameServerInterval(1000);
            p.setSendMsgTimeout(3000);
            p.start();
            producers.add(p);
            final int thread = t;
            Thread th = new Thread(() -> {
                long seq = 0;
                while (!stop.get()) {
                    String body = "ctl-" + thread + "-" + seq++;
                    Message m = new Message(topic, "TagA", body, body.getBytes(StandardCharsets.UTF_8));
                    try {
                        SendResult r = p.send(m);
                        if (r.getSendStatus() == SendStatus.SEND_OK) {
                            acked.add(new Acked(body, r.getMessageQueue().getQueueId(), r.getQueueOffset(), System.nanoTime()));
                        } else {
                            notOk.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                        if (failureSamples.size() < 5) {
                            failureSamples.add(e.toString().lines().findFirst().orElse(""));
                        }
                        try {
                            Thread.sleep(50); // back off after a failed send; not a wait for anything
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            }, "ctl-producer-" + t);
            th.start();
            threads.add(th);
        }
        try {
            long started = System.nanoTime();
            Eventually.eventually(SETTLE, "300 acknowledged sends over at least 3 s before the kill", () -> {
                assertTrue(acked.size() >= 300 && secondsSince(started) >= 3, acked.size() + " acked after "
                    + secondsSince(started) + " s; failures " + failures + " " + failureSamples);
                return null;
            });

            killed = byAddr(oldMaster);
            killedId = ids.get(oldMaster);
            int ackedBeforeKill = acked.size();
            long killAt = System.nanoTime();
            script("kill-broker", killed.index());
            long goneAt = System.nanoTime();
            System.out.printf("controller: master %s (controller id %d, broker %d) SIGKILLed after %d SEND_OK; gone in %.2f s%n",
                oldMaster, killedId, killed.index(), ackedBeforeKill, secondsSince(killAt) - secondsSince(goneAt));

            BrokerReplicasInfo.ReplicasInfo after = before(killAt + ELECTION_WITHIN.toNanos(),
                "the controller elects a new master with master epoch " + (oldEpoch + 1), () -> {
                    BrokerReplicasInfo.ReplicasInfo x = replicas();
                    assertEquals(oldEpoch + 1, x.getMasterEpoch(), "masterEpoch; " + describe(x));
                    assertNotNull(x.getMasterBrokerId(), "a master; " + describe(x));
                    assertNotEquals(killedId, (long) x.getMasterBrokerId(), "a new master; " + describe(x));
                    return x;
                });
            System.out.printf("controller: new master %s (controller id %d, master epoch %d) %.2f s after the kill%n",
                after.getMasterAddress(), after.getMasterBrokerId(), after.getMasterEpoch(), secondsSince(killAt));
            newMasterId = after.getMasterBrokerId();
            newMasterAddr = after.getMasterAddress();
            newMasterEpoch = after.getMasterEpoch();
            assertEquals(ids.get(newMasterAddr), newMasterId, "the new master's address and id; " + describe(after));

            before(killAt + SENDS_RESUME_WITHIN.toNanos(), "a send succeeds again after the kill", () -> {
                assertTrue(acked.stream().anyMatch(a -> a.atNanos() > goneAt), "no SEND_OK since the kill; failures "
                    + failures + " " + failureSamples);
                return null;
            });
            long firstAfter = acked.stream().mapToLong(Acked::atNanos).filter(t -> t > goneAt).min().orElseThrow();
            System.out.printf("controller: sends resumed %.2f s after the kill%n", (firstAfter - killAt) / 1e9);

            Eventually.eventually(SETTLE, "200 acknowledged sends after the kill", () -> {
                long n = acked.stream().filter(a -> a.atNanos() > goneAt).count();
                assertTrue(n >= 200, n + " acked after the kill");
                return null;
            });
        } finally {
            stop.set(true);
            for (Thread th : threads) {
                th.join(30_000);
            }
            for (DefaultMQProducer p : producers) {
                p.shutdown();
            }
        }
        System.out.println("controller: " + acked.size() + " SEND_OK, " + notOk + " other statuses, " + failures
            + " failed sends " + failureSamples);

        Map<Long, String> want = expectedRoute(newMasterAddr, ids,
            brokers.stream().map(Broker::addr).filter(a -> !a.equals(killed.addr())).collect(Collectors.toSet()));
        Eventually.eventually(SETTLE, "the name server routes the new master as 0 " + want, () -> {
            assertEquals(want, view.routed(), "brokerAddrs of " + Env.brokerName());
            return null;
        });

        // Every SEND_OK message is on the new master at the queue offset its SendResult named.
        Map<String, String> byPosition = new HashMap<>();
        for (Acked a : acked) {
            String other = byPosition.put(a.queueId() + "@" + a.queueOffset(), a.body());
            if (other != null) {
                fail("two SEND_OK at queue " + a.queueId() + " offset " + a.queueOffset() + ": " + other + " and " + a.body());
            }
        }
        Map<String, String> read = new HashMap<>();
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(Clients.unique("ctl_read"));
        consumer.setNamesrvAddr(Env.namesrvAddr());
        consumer.setInstanceName(Clients.unique("ctl_reader"));
        consumer.start();
        try {
            long[] next = new long[QUEUES];
            Eventually.eventually(SETTLE, "every SEND_OK message read back from the new master", () -> {
                for (int q = 0; q < QUEUES; q++) {
                    MessageQueue mq = new MessageQueue(topic, Env.brokerName(), q);
                    while (true) {
                        PullResult pr = consumer.pull(mq, "*", next[q], 256);
                        if (pr.getPullStatus() != PullStatus.FOUND) {
                            break;
                        }
                        for (MessageExt m : pr.getMsgFoundList()) {
                            read.put(q + "@" + m.getQueueOffset(), new String(m.getBody(), StandardCharsets.UTF_8));
                        }
                        next[q] = pr.getNextBeginOffset();
                    }
                }
                List<String> missing = new ArrayList<>();
                for (var e : byPosition.entrySet()) {
                    if (!e.getValue().equals(read.get(e.getKey()))) {
                        missing.add(e.getValue() + " at " + e.getKey() + " (read " + read.get(e.getKey()) + ")");
                    }
                }
                assertTrue(missing.isEmpty(), missing.size() + " of " + byPosition.size() + " SEND_OK messages not read back, e.g. "
                    + missing.subList(0, Math.min(5, missing.size())));
                return null;
            });
        } finally {
            consumer.shutdown();
        }
        System.out.println("controller: read back all " + byPosition.size() + " SEND_OK messages (" + read.size()
            + " messages in the topic)");
        assertMetadataOn(newMasterAddr);
        System.out.println("controller: the new master has " + META_TOPIC + ", " + META_GROUP + " and its offsets");
    }

    // ---------------------------------------------------------------------------------------------
    // 4. the old master back as a slave

    @Test
    @Order(4)
    void theOldMasterComesBackAsASlaveWithTheSameCommitLog() throws Exception {
        assertNotNull(killed, "the kill test ran first");
        script("start-broker", killed.index());

        Map<Long, String> want = new TreeMap<>();
        BrokerReplicasInfo.ReplicasInfo r = Eventually.eventually(SETTLE,
            "the old master is a live replica again under controller id " + killedId + ", the master unchanged", () -> {
                BrokerReplicasInfo.ReplicasInfo x = replicas();
                assertEquals(newMasterId, x.getMasterBrokerId(), "master; " + describe(x));
                assertEquals(newMasterEpoch, x.getMasterEpoch(), "masterEpoch; " + describe(x));
                var rep = all(x).stream()
                    .filter(i -> i.getBrokerAddress().equals(killed.addr())).findFirst().orElse(null);
                assertNotNull(rep, "the old master among the replicas; " + describe(x));
                assertEquals(killedId, (long) rep.getBrokerId(), "its controller id; " + describe(x));
                assertEquals(Boolean.TRUE, rep.getAlive(), "alive; " + describe(x));
                return x;
            });
        Map<String, Long> ids = idsByAddr(r);
        want.putAll(expectedRoute(newMasterAddr, ids, ids.keySet()));
        Eventually.eventually(SETTLE, "the name server routes the old master as slave " + killedId + ": " + want, () -> {
            assertEquals(want, view.routed(), "brokerAddrs of " + Env.brokerName());
            return null;
        });

        // Caught up: every slave ends where the master does, with the master's epochs and its role id.
        Eventually.eventually(SETTLE, "every slave has the master's epochs and max offset", () -> {
            EpochEntryCache m = admin.getBrokerEpochCache(newMasterAddr);
            assertEquals(0L, m.getBrokerId(), "the master's role id");
            EpochEntry last = m.getEpochList().get(m.getEpochList().size() - 1);
            assertEquals(newMasterEpoch, last.getEpoch(), "the master's last epoch: " + m.getEpochList());
            for (Broker b : brokers) {
                if (b.addr().equals(newMasterAddr)) {
                    continue;
                }
                EpochEntryCache s = admin.getBrokerEpochCache(b.addr());
                assertEquals((long) ids.get(b.addr()), s.getBrokerId(), "role id of slave " + b.addr());
                assertEquals(m.getMaxOffset(), s.getMaxOffset(), "max offset of slave " + b.addr() + " vs the master");
                assertEquals(epochs(m), epochs(s), "epochs of slave " + b.addr() + " vs the master");
            }
            return null;
        });
        Eventually.eventually(SETTLE, "the SyncStateSet holds all " + brokers.size() + " again", () -> {
            BrokerReplicasInfo.ReplicasInfo x = replicas();
            assertEquals(allIds(), inSyncIds(x), "SyncStateSet; " + describe(x));
            return null;
        });

        Broker master = byAddr(newMasterAddr);
        long masterMax = admin.getBrokerEpochCache(newMasterAddr).getMaxOffset();
        for (Broker b : brokers) {
            if (b == master) {
                continue;
            }
            long common = Math.min(masterMax, admin.getBrokerEpochCache(b.addr()).getMaxOffset());
            assertTrue(common > 0, "something to compare");
            String diff = compareCommitLogs(master.store().resolve("commitlog"), b.store().resolve("commitlog"), common);
            assertNull(diff, diff);
            System.out.println("controller: commitlog of " + b.addr() + " equals the master's up to " + common);
        }
    }
}
