package org.rmqgo.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rmqgo.testsupport.Eventually;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SEARCH_OFFSET_BY_TIMESTAMP on a queue whose head retention deleted: a message whose commitlog file
 * is gone is never an answer. Needs a broker that deletes every commitlog file but the newest at
 * once (retention-suite.sh: small files, fileReservedTime=0, every hour a delete hour), so it runs
 * apart from the rest of the suite (tag "retention").
 */
@Tag("retention")
class SearchOffsetRetentionTest extends MessagingFixture {
    private static final int MESSAGES = 120;
    /** retention-suite.sh's mappedFileSizeCommitLog. */
    private static final long COMMITLOG_FILE_SIZE = 131072;

    @Test
    @Timeout(300)
    void searchOffsetNeverAnswersAMessageRetentionDeleted() throws Exception {
        String topic = Clients.newTopic("search_retention", 1);
        MessageQueue mq = new MessageQueue(topic, Env.brokerName(), 0);
        // Random bodies below compressMsgBodyOverHowmuch (4 KiB): what is stored is what is sent, 3 KiB a
        // message, about 40 to a 128 KiB commitlog file.
        byte[] body = new byte[3000];
        new Random(7).nextBytes(body);
        long[] sentAfter = new long[MESSAGES];
        long[] commitLogOffset = new long[MESSAGES];
        long firstSentBefore = System.currentTimeMillis();
        for (int i = 0; i < MESSAGES; i++) {
            SendResult r = producer.send(new Message(topic, "TagA", body), mq);
            assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
            sentAfter[i] = System.currentTimeMillis();
            commitLogOffset[i] = MessageDecoder.decodeMessageId(r.getOffsetMsgId()).getOffset();
            // Distinct store times: the next message is stored at least 10 ms after this one.
            while (System.currentTimeMillis() < sentAfter[i] + 10) {
                Thread.onSpinWait();
            }
        }
        // Retention deletes every commitlog file but the newest: the queue keeps the messages of that file.
        long newestFile = commitLogOffset[MESSAGES - 1] / COMMITLOG_FILE_SIZE;
        int kept0 = MESSAGES - 1;
        while (kept0 > 0 && commitLogOffset[kept0 - 1] / COMMITLOG_FILE_SIZE == newestFile) {
            kept0--;
        }
        assertTrue(kept0 > 1, "the messages fill more than one file: " + Arrays.toString(commitLogOffset));
        long first = kept0;
        var admin = Clients.admin();
        Eventually.eventually(Duration.ofSeconds(240), "retention deletes all but the newest commitlog file", () -> {
            long min = admin.minOffset(mq);
            if (min != first) {
                throw new AssertionError("min offset " + min + ", not yet " + first);
            }
            return min;
        });
        long max = admin.maxOffset(mq);
        assertEquals(MESSAGES, max, "max offset");
        List<MessageExt> kept = pull(mq, first, 3);
        assertEquals(first, kept.get(0).getQueueOffset(), "the first message left is at the min offset");
        long tFirst = kept.get(0).getStoreTimestamp();
        long tSecond = kept.get(1).getStoreTimestamp();
        assertTrue(tSecond - tFirst >= 10, "10 ms between neighbours: " + kept);

        MQClientAPIImpl api = MQClientManager.getInstance().getOrCreateMQClientInstance(admin).getMQClientAPIImpl();
        boolean five = Env.serversAreLine5();
        long last = MESSAGES - 1;
        long[][] cases = {
            // time, 4.x, 5.x LOWER, 5.x UPPER
            {firstSentBefore - 1000, first, first, first},
            {sentAfter[(int) first - 1], first, first, first},
            {tFirst + 1, first, first + 1, first},
            {tSecond, first + 1, first + 1, first + 1},
            {System.currentTimeMillis() + 60_000, last, MESSAGES, last},
        };
        String[] names = {"before every message", "after the last deleted one, before the first kept",
            "just after the first kept", "exactly the second kept", "after the last"};
        for (int i = 0; i < cases.length; i++) {
            long[] c = cases[i];
            String what = names[i] + " (min offset " + first + ")";
            long none = Line.searchOffset(api, Env.brokerAddr(), mq, c[0], null);
            if (!five) {
                assertEquals(c[1], none, what + ", 4.x");
                continue;
            }
            assertEquals(c[2], none, what + ", 5.x without a boundaryType");
            if (Line.CLIENT_LINE.equals("5")) {
                assertEquals(c[2], Line.searchOffset(api, Env.brokerAddr(), mq, c[0], "LOWER"), what + ", 5.x LOWER");
                assertEquals(c[3], Line.searchOffset(api, Env.brokerAddr(), mq, c[0], "UPPER"), what + ", 5.x UPPER");
            }
        }
    }

    /** n messages of mq from offset on. */
    private List<MessageExt> pull(MessageQueue mq, long offset, int n) throws Exception {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(Clients.unique("cg"));
        c.setNamesrvAddr(Env.namesrvAddr());
        c.setInstanceName(Clients.unique("pull"));
        c.start();
        closeLater(c::shutdown);
        PullResult r = c.pull(mq, "*", offset, n);
        assertEquals(PullStatus.FOUND, r.getPullStatus(), "pull from the min offset: " + r);
        List<MessageExt> got = new ArrayList<>(r.getMsgFoundList());
        assertEquals(n, got.size(), "pulled " + got);
        return got;
    }
}
