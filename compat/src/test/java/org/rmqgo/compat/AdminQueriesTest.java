package org.rmqgo.compat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin queries of mqadmin and the dashboard that the other tests leave out: the broker's
 * runtime info (GET_BROKER_RUNTIME_INFO, 28, what brokerStatus, clusterList and rocketmq-exporter
 * parse), a consumer's running info (GET_CONSUMER_RUNNING_INFO, 307, which the broker asks the
 * client for), a topic's config (5.x GET_TOPIC_CONFIG, 351; the 4.9.8 tools read the whole topic
 * table instead) and a message by its unique key (queryMsgByUniqueKey).
 */
class AdminQueriesTest {
    /** Every key a Java 4.9.7 broker's runtime info has. */
    private static final List<String> KEYS_4 = List.of("EndTransactionQueueSize",
        "EndTransactionThreadPoolQueueCapacity", "bootTimestamp", "brokerVersion", "brokerVersionDesc",
        "commitLogDirCapacity", "commitLogDiskRatio", "commitLogDiskRatio_<path>", "commitLogMaxOffset",
        "commitLogMinOffset", "consumeQueueDiskRatio", "dispatchBehindBytes", "dispatchMaxBuffer",
        "earliestMessageTimeStamp", "getFoundTps", "getMessageEntireTimeMax", "getMissTps", "getTotalTps",
        "getTransferedTps", "msgGetTotalTodayMorning", "msgGetTotalTodayNow", "msgGetTotalYesterdayMorning",
        "msgPutTotalTodayMorning", "msgPutTotalTodayNow", "msgPutTotalYesterdayMorning", "pageCacheLockTimeMills",
        "pullThreadPoolQueueCapacity", "pullThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueSize",
        "putLatency99", "putLatency999", "putMessageAverageSize", "putMessageDistributeTime",
        "putMessageEntireTimeMax", "putMessageFailedTimes", "putMessageSizeTotal", "putMessageTimesTotal", "putTps",
        "queryThreadPoolQueueCapacity", "queryThreadPoolQueueHeadWaitTimeMills", "queryThreadPoolQueueSize",
        "remainHowManyDataToFlush", "remainTransientStoreBufferNumbs", "runtime", "sendThreadPoolQueueCapacity",
        "sendThreadPoolQueueHeadWaitTimeMills", "sendThreadPoolQueueSize", "startAcceptSendRequestTimeStamp");
    /** Every key a Java 5.3.3 broker's runtime info has. */
    private static final List<String> KEYS_5 = List.of(
        "EndTransactionQueueSize", "EndTransactionThreadPoolQueueCapacity", "ackThreadPoolQueueCapacity",
        "ackThreadPoolQueueHeadWaitTimeMills", "ackThreadPoolQueueSize", "bootTimestamp", "brokerActive",
        "brokerVersion", "brokerVersionDesc", "commitLogDirCapacity", "commitLogDiskRatio",
        "commitLogDiskRatio_<path>", "commitLogMaxOffset", "commitLogMinOffset", "consumeQueueDiskRatio",
        "dispatchBehindBytes", "dispatchMaxBuffer", "earliestMessageTimeStamp", "getFoundTps",
        "getMessageEntireTimeMax", "getMissTps", "getTotalTps", "getTransferredTps",
        "litePullThreadPoolQueueCapacity", "litePullThreadPoolQueueHeadWaitTimeMills", "litePullThreadPoolQueueSize",
        "msgGetTotalTodayMorning", "msgGetTotalTodayNow", "msgGetTotalYesterdayMorning", "msgPutTotalTodayMorning",
        "msgPutTotalTodayNow", "msgPutTotalYesterdayMorning", "pageCacheLockTimeMills",
        "pullThreadPoolQueueCapacity", "pullThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueSize",
        "putLatency99", "putLatency999", "putMessageAverageSize", "putMessageDistributeTime",
        "putMessageEntireTimeMax", "putMessageFailedTimes", "putMessageSizeTotal", "putMessageTimesTotal", "putTps",
        "queryThreadPoolQueueCapacity", "queryThreadPoolQueueHeadWaitTimeMills", "queryThreadPoolQueueSize",
        "remainHowManyDataToFlush", "remainTransientStoreBufferNumbs", "runtime", "sendThreadPoolQueueCapacity",
        "sendThreadPoolQueueHeadWaitTimeMills", "sendThreadPoolQueueSize", "startAcceptSendRequestTimeStamp",
        "timerCongestNum", "timerDequeueTps", "timerEnqueueTps", "timerOffsetBehind", "timerReadBehind");
    /** Runtime-info keys whose values are Java longs on both lines. */
    private static final List<String> LONG_KEYS = List.of("msgPutTotalTodayNow", "msgPutTotalTodayMorning",
        "msgPutTotalYesterdayMorning", "msgGetTotalTodayNow", "msgGetTotalTodayMorning",
        "msgGetTotalYesterdayMorning", "bootTimestamp", "brokerVersion", "earliestMessageTimeStamp",
        "startAcceptSendRequestTimeStamp", "commitLogMinOffset", "commitLogMaxOffset", "dispatchMaxBuffer",
        "getMessageEntireTimeMax", "putMessageEntireTimeMax", "putMessageTimesTotal", "putMessageSizeTotal",
        "dispatchBehindBytes", "pageCacheLockTimeMills", "sendThreadPoolQueueSize", "sendThreadPoolQueueCapacity",
        "pullThreadPoolQueueSize", "pullThreadPoolQueueCapacity", "queryThreadPoolQueueSize",
        "queryThreadPoolQueueCapacity", "sendThreadPoolQueueHeadWaitTimeMills",
        "pullThreadPoolQueueHeadWaitTimeMills", "queryThreadPoolQueueHeadWaitTimeMills",
        "EndTransactionQueueSize", "EndTransactionThreadPoolQueueCapacity");
    /**
     * Runtime-info keys holding the rates over 10 s, 60 s and 600 s: each a Java double, or empty
     * while the broker has not run that long.
     */
    private static final List<String> TPS_KEYS = List.of("putTps", "getFoundTps", "getMissTps", "getTotalTps");

    private static SendResult send(DefaultMQProducer producer, String topic, String key, String body) throws Exception {
        Message m = new Message(topic, "TagA", key, body.getBytes(StandardCharsets.UTF_8));
        SendResult r = producer.send(m);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
        return r;
    }

    @Test
    void brokerRuntimeInfoHasTheKeysMonitoringParses() throws Exception {
        String topic = Clients.newTopic("rt", 2);
        DefaultMQProducer producer = Clients.producer();
        try {
            send(producer, topic, "rt-key", "runtime info");
        } finally {
            producer.shutdown();
        }
        var stats = Eventually.eventually("a put counted", () -> {
            var kv = Clients.admin().fetchBrokerRuntimeStats(Env.brokerAddr());
            assertTrue(Long.parseLong(kv.getTable().get("putMessageTimesTotal")) > 0, "putMessageTimesTotal");
            return kv.getTable();
        });
        Set<String> keys = new TreeSet<>();
        // rmqgo reports the transferred-messages rate under both lines' spellings, for the monitoring
        // tools built against either; the other line's spelling is not Java's and is left out here.
        String otherSpelling = Env.serversAreLine5() ? "getTransferedTps" : "getTransferredTps";
        for (String k : stats.keySet()) {
            if (k.startsWith("scheduleMessageOffset_")) {
                // one per delay level in use, once a delayed message was sent: "<delivered>,<max>"
                assertTrue(stats.get(k).matches("\\d+,\\d+"), k + "=" + stats.get(k));
            } else if (!k.equals(otherSpelling)) {
                // 4.x adds one ratio per store path, keyed by the path
                keys.add(k.startsWith("commitLogDiskRatio_") ? "commitLogDiskRatio_<path>" : k);
            }
        }
        System.out.println("AdminQueriesTest: runtime info keys " + keys);
        assertEquals(new TreeSet<>(Env.serversAreLine5() ? KEYS_5 : KEYS_4), keys, "the keys of the Java broker of the line");
        for (String k : LONG_KEYS) {
            String v = stats.get(k);
            assertNotNull(v, k + " missing");
            assertTrue(v.matches("-?\\d+"), k + "=" + v);
        }
        List<String> rates = new java.util.ArrayList<>(TPS_KEYS);
        rates.add(Env.serversAreLine5() ? "getTransferredTps" : "getTransferedTps"); // 5.x mended the spelling
        for (String k : rates) {
            String v = stats.get(k);
            assertNotNull(v, k + " missing");
            String rate = "(\\d+\\.\\d+(E-?\\d+)?)?";
            assertTrue(v.matches(rate + " " + rate + " " + rate), k + "=" + v);
        }
        for (String k : List.of("commitLogDiskRatio", "consumeQueueDiskRatio", "putMessageAverageSize")) {
            String v = stats.get(k);
            assertNotNull(v, k + " missing");
            Double.parseDouble(v);
        }
        assertTrue(stats.get("brokerVersionDesc").matches("V\\d+_\\d+_\\d+"), "brokerVersionDesc " + stats.get("brokerVersionDesc"));
        assertTrue(stats.get("runtime").matches("\\[ \\d+ days, \\d+ hours, \\d+ minutes, \\d+ seconds \\]"),
            "runtime " + stats.get("runtime"));
        assertTrue(stats.get("commitLogDirCapacity").matches("Total : \\d+\\.\\d [KMGTPE]iB, Free : \\d+\\.\\d [KMGTPE]iB\\."),
            "commitLogDirCapacity " + stats.get("commitLogDirCapacity"));
        assertTrue(stats.get("remainHowManyDataToFlush").matches("\\d+(\\.\\d)? (B|[KMGTPE]iB)"),
            "remainHowManyDataToFlush " + stats.get("remainHowManyDataToFlush"));
    }

    @Test
    void consumerRunningInfoComesFromTheClient() throws Exception {
        String topic = Clients.newTopic("running", 2);
        String group = Clients.unique("cg_running");
        DefaultMQPushConsumer consumer = Clients.startAcknowledgingConsumer(group, topic, "TagA");
        try {
            String clientId = consumer.buildMQClientId();
            var info = Eventually.eventually(group + " reports both queues", () -> {
                var i = Clients.admin().getConsumerRunningInfo(group, clientId, true);
                for (int q = 0; q < 2; q++) {
                    assertTrue(i.getMqTable().containsKey(new MessageQueue(topic, Env.brokerName(), q)),
                        "queue " + q + " in " + i.getMqTable().keySet());
                }
                return i;
            });
            assertEquals("CONSUME_PASSIVELY", info.getProperties().getProperty("PROP_CONSUME_TYPE"),
                "properties " + info.getProperties());
            assertTrue(info.getSubscriptionSet().stream().anyMatch(s -> s.getTopic().equals(topic)
                && s.getSubString().equals("TagA")), "subscriptions " + info.getSubscriptionSet());
            assertTrue(info.getJstack() != null && info.getJstack().contains("Thread"), "a jstack was asked for");

            Exception offline = assertThrows(Exception.class,
                () -> Clients.admin().getConsumerRunningInfo(group, clientId + "-gone", false));
            assertTrue(String.valueOf(offline.getMessage()).contains("not online"), offline.toString());
        } finally {
            consumer.shutdown();
        }
    }

    @Test
    void topicConfigIsExamined() throws Exception {
        String topic = Clients.unique("tc");
        Clients.createTopic(Clients.admin(), Env.brokerAddr(), Env.brokerName(), topic, 3, 2);
        var tc = Clients.admin().examineTopicConfig(Env.brokerAddr(), topic);
        assertNotNull(tc, topic);
        assertEquals(topic, tc.getTopicName());
        assertEquals(3, tc.getReadQueueNums());
        assertEquals(2, tc.getWriteQueueNums());
        assertEquals(6, tc.getPerm());

        String unknown = Clients.unique("no_such_topic");
        if (Line.CLIENT_LINE.equals("5")) {
            // GET_TOPIC_CONFIG answers TOPIC_NOT_EXIST
            MQBrokerException e = assertThrows(MQBrokerException.class,
                () -> Clients.admin().examineTopicConfig(Env.brokerAddr(), unknown));
            assertEquals(Clients.TOPIC_NOT_EXIST, e.getResponseCode(), e.toString());
        } else {
            assertNull(Clients.admin().examineTopicConfig(Env.brokerAddr(), unknown), "not in the topic table");
        }
    }

    @Test
    void messageIsFoundByItsUniqueKey() throws Exception {
        String topic = Clients.newTopic("uniq", 2);
        DefaultMQProducer producer = Clients.producer();
        SendResult sent;
        try {
            send(producer, topic, "other-key", "another message");
            sent = send(producer, topic, "uniq-key", "found by its unique key");
        } finally {
            producer.shutdown();
        }
        String msgId = sent.getMsgId();
        MessageExt got = Eventually.eventually(msgId + " found", () -> {
            MessageExt m = Clients.admin().viewMessage(topic, msgId);
            assertNotNull(m);
            return m;
        });
        assertEquals(msgId, got.getMsgId());
        assertEquals(topic, got.getTopic());
        assertEquals("uniq-key", got.getKeys());
        assertEquals("found by its unique key", new String(got.getBody(), StandardCharsets.UTF_8));
        assertEquals(sent.getMessageQueue().getQueueId(), got.getQueueId());
        assertEquals(sent.getQueueOffset(), got.getQueueOffset());
        assertFalse(got.getMsgId().equals(sent.getOffsetMsgId()), "the unique key is not the offset id");
    }
}
