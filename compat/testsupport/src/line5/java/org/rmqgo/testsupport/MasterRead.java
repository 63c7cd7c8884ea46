package org.rmqgo.testsupport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.impl.CommunicationMode;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.impl.consumer.PullResultExt;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;

/**
 * Reads acknowledged messages back from one broker address (the current master, as the controller
 * names it) by queue and queue offset: PULL_MESSAGE (non-suspending, subscription "*") from each
 * ack's queue offset, batches of 32. An ack counts as read back when the message at its queue
 * offset has its message id (UNIQ_KEY), its key and its body. Attempts repeat every 500 ms for the
 * acks not yet found until the deadline passed (the master may not have dispatched the last
 * messages to its consume queues yet); another message at an ack's offset is final.
 *
 * <p>Used by compat/hatool's ControllerKill (controller-kill.sh) and compat/ctlha's ControllerHa
 * (controller-ha-suite.sh); 5.x classes only (compat/testsupport/src/line5/java).
 */
public final class MasterRead {
    /** What an ack must have at its queue offset. */
    public interface Acked {
        String key();

        String msgId();

        int queueId();

        long queueOffset();
    }

    private final MQClientAPIImpl api;
    private final String topic;
    private final String group;
    private final String brokerName;
    private final UnaryOperator<String> bodyOfKey;

    /** Pulls of topic on brokerName as group; bodyOfKey gives the body each key was sent with. */
    public MasterRead(MQClientAPIImpl api, String topic, String group, String brokerName, UnaryOperator<String> bodyOfKey) {
        this.api = api;
        this.topic = topic;
        this.group = group;
        this.brokerName = brokerName;
        this.bodyOfKey = bodyOfKey;
    }

    /** missing: acks not read back; wrongAtOffset: of those, how many had another message at their offset. */
    public record Result<A>(List<A> missing, int wrongAtOffset, int attempts, String lastError, long pulls) {
    }

    /** Reads acks back from addr, retrying the missing ones until deadlineMs from now. */
    public <A extends Acked> Result<A> check(String addr, List<A> acks, long deadlineMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + deadlineMs;
        List<A> left = new ArrayList<>(acks);
        String lastError = null;
        long pulls = 0;
        int wrong = 0;
        for (int attempt = 1; ; attempt++) {
            Map<Integer, List<A>> byQueue = new TreeMap<>();
            for (A a : left) {
                byQueue.computeIfAbsent(a.queueId(), q -> new ArrayList<>()).add(a);
            }
            List<A> still = new ArrayList<>();
            wrong = 0;
            for (Map.Entry<Integer, List<A>> e : byQueue.entrySet()) {
                List<A> list = e.getValue();
                list.sort(Comparator.comparingLong(Acked::queueOffset));
                int i = 0;
                while (i < list.size()) {
                    long off = list.get(i).queueOffset();
                    PullResult pr;
                    try {
                        pr = pull(addr, e.getKey(), off);
                        pulls++;
                    } catch (Exception ex) {
                        lastError = ex.getClass().getSimpleName() + ": " + Text.firstLine(ex.getMessage());
                        still.addAll(list.subList(i, list.size()));
                        break;
                    }
                    if (pr.getPullStatus() != PullStatus.FOUND || pr.getMsgFoundList() == null || pr.getMsgFoundList().isEmpty()) {
                        lastError = "queue " + e.getKey() + " offset " + off + ": " + pr.getPullStatus() + " (min "
                            + pr.getMinOffset() + ", max " + pr.getMaxOffset() + ")";
                        still.add(list.get(i));
                        i++;
                        continue;
                    }
                    Map<Long, MessageExt> got = new HashMap<>();
                    for (MessageExt m : pr.getMsgFoundList()) {
                        got.put(m.getQueueOffset(), m);
                    }
                    long next = Math.max(pr.getNextBeginOffset(), off + 1);
                    while (i < list.size() && list.get(i).queueOffset() < next) {
                        A a = list.get(i);
                        MessageExt m = got.get(a.queueOffset());
                        if (!matches(a, m)) {
                            still.add(a);
                            if (m != null) {
                                wrong++;
                            }
                        }
                        i++;
                    }
                }
            }
            left = still;
            // Another message at an ack's offset is final; only acks whose offset was empty are retried.
            if (left.isEmpty() || wrong == left.size() || System.currentTimeMillis() >= deadline) {
                return new Result<>(left, wrong, attempt, lastError, pulls);
            }
            Thread.sleep(500);
        }
    }

    private boolean matches(Acked a, MessageExt m) {
        if (m == null) {
            return false;
        }
        String uniq = m.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        return a.msgId().equals(uniq) && a.key().equals(m.getKeys())
            && bodyOfKey.apply(a.key()).equals(new String(m.getBody(), StandardCharsets.UTF_8));
    }

    private PullResult pull(String addr, int queueId, long offset) throws Exception {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(topic);
        h.setQueueId(queueId);
        h.setQueueOffset(offset);
        h.setMaxMsgNums(32);
        h.setSysFlag(PullSysFlag.buildSysFlag(false, false, true, false));
        h.setCommitOffset(0L);
        h.setSuspendTimeoutMillis(0L);
        h.setSubscription("*");
        h.setSubVersion(0L);
        h.setExpressionType("TAG");
        h.setBrokerName(brokerName);
        PullResult r = api.pullMessage(addr, h, 10000, CommunicationMode.SYNC, null);
        if (r instanceof PullResultExt ext && r.getPullStatus() == PullStatus.FOUND && ext.getMessageBinary() != null) {
            List<MessageExt> msgs = MessageDecoder.decodesBatch(ByteBuffer.wrap(ext.getMessageBinary()), true, true, true);
            return new PullResult(r.getPullStatus(), r.getNextBeginOffset(), r.getMinOffset(), r.getMaxOffset(), msgs);
        }
        return r;
    }
}
