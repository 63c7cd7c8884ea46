package org.rmqgo.compat;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The online clients that compat/mqadmin-compare.sh needs for mqadmin's
 * consumerConnection, consumerStatus, producerConnection and
 * consumerProgress: a started producer of one group and a push consumer of
 * another on one topic, sharing one client instance (the 5.3.3 producer
 * alone knows no broker to send its heartbeat to until it sends; the
 * consumer's route gives the shared instance one), kept running until the process gets SIGTERM (a
 * shutdown hook stops both cleanly, which unregisters them).
 *
 * <pre>
 *   java -cp &lt;tools classpath&gt; MqadminClients.java NAMESRV TOPIC CONSUMER_GROUP PRODUCER_GROUP EXPECTED
 * </pre>
 *
 * It is a single self-contained file so that the script can run it with the
 * java launcher's source-file mode on mqadmin's classpath (either line; it
 * uses only calls both lines share). It prints {@code READY} once the
 * consumer has received EXPECTED messages, the broker's consume stats of the
 * group show no lag (the offsets were committed) and list its retry queue,
 * and the broker lists both
 * clients' connections; it prints {@code TIMEOUT ...} and exits 1 when that
 * does not happen within 120 s.
 */
public final class MqadminClients {
    private MqadminClients() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: MqadminClients NAMESRV TOPIC CONSUMER_GROUP PRODUCER_GROUP EXPECTED");
            System.exit(2);
        }
        // Read once when the client classes load: rebalance every 2 s, not 20 s.
        System.setProperty("rocketmq.client.rebalance.waitInterval", "2000");
        String namesrv = args[0], topic = args[1], consumerGroup = args[2], producerGroup = args[3];
        long expected = Long.parseLong(args[4]);

        DefaultMQProducer producer = new DefaultMQProducer(producerGroup);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("mqa");
        producer.start();

        AtomicLong consumed = new AtomicLong();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(consumerGroup);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName("mqa");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPersistConsumerOffsetInterval(1000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            consumed.addAndGet(msgs.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();

        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName("mqa-admin");
        admin.start();

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            admin.shutdown();
            consumer.shutdown();
            producer.shutdown();
        }));

        long deadline = System.currentTimeMillis() + 120_000;
        String waitingFor = "";
        while (System.currentTimeMillis() < deadline) {
            waitingFor = notReady(admin, topic, consumerGroup, producerGroup, consumed.get(), expected);
            if (waitingFor == null) {
                System.out.println("READY consumed=" + consumed.get());
                System.out.flush();
                Thread.currentThread().join(); // until SIGTERM
            }
            Thread.sleep(200);
        }
        System.out.println("TIMEOUT waiting for " + waitingFor);
        System.exit(1);
    }

    /** What is still missing, or null when everything is there. */
    private static String notReady(DefaultMQAdminExt admin, String topic, String consumerGroup,
                                   String producerGroup, long consumed, long expected) {
        if (consumed < expected) {
            return "consumed " + consumed + " of " + expected;
        }
        try {
            var stats = admin.examineConsumeStats(consumerGroup);
            if (stats.getOffsetTable().isEmpty() || stats.computeTotalDiff() != 0) {
                return "consume stats without lag, have diff " + stats.computeTotalDiff();
            }
            // The group's retry queue is in its stats once the client committed an offset there:
            // after the broker answered its first (long-polling) pull of that empty queue.
            String retry = "%RETRY%" + consumerGroup;
            if (stats.getOffsetTable().keySet().stream().noneMatch(mq -> mq.getTopic().equals(retry))) {
                return "the offset of " + retry + " in the consume stats";
            }
            if (admin.examineConsumerConnectionInfo(consumerGroup).getConnectionSet().isEmpty()) {
                return "consumer connection";
            }
            if (admin.examineProducerConnectionInfo(producerGroup, topic).getConnectionSet().isEmpty()) {
                return "producer connection";
            }
        } catch (Exception e) {
            return e.toString();
        }
        return null;
    }
}
