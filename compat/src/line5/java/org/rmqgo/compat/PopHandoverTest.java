package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The store handed over with POPs in flight: broker-a is restarted as the other implementation
 * (COMPAT_HANDOVER_IMPL, as StoreHandoverTest; unset, as itself, which is the run against the Java
 * reference) while popped messages are neither acked nor back yet, and then back again, with POPs
 * in flight once more. Each way, what was acked before the restart, and what was acked after it
 * with the handle the other broker gave, never comes back; what was not acked comes back once its
 * invisible time is over (the checkpoints in the revive topic, their timer entries and the revive
 * offsets read by the other broker), with its reconsume times one higher.
 *
 * "Never comes back" is shown with sentinels, as in PopTest: a message of the same checkpoint left
 * un-acked comes back from the same revive, so when it is back the acked ones would have been.
 *
 * There and back covers both directions in one run, so the run with the Java broker and our broker
 * as the other (BROKER_IMPL=java, COMPAT_HANDOVER_IMPL=go, which makes the same two switches the
 * other way round as the run with ours) leaves it out to save its two minutes
 * (-Dcompat.popHandover.always=true runs it there too).
 */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
@Order(Integer.MAX_VALUE - 5)
class PopHandoverTest extends PopFixture {
    private static final String OTHER = System.getenv().getOrDefault("COMPAT_HANDOVER_IMPL", "");
    /** Long enough for a restart and an ack after it. */
    private static final long INVISIBLE_MS = 45_000;

    @Test
    @Timeout(600)
    void unackedPopsComeBackAndAckedOnesDoNotAcrossTheHandoverAndBack() throws Exception {
        Assumptions.assumeFalse("java".equals(System.getenv("BROKER_IMPL")) && !OTHER.isEmpty()
                && !Boolean.getBoolean("compat.popHandover.always"),
            "the run with our broker makes the same switches the other way round");
        String topic = Clients.newTopic("pophandover", 1);
        String group = Clients.unique("GID_pophandover");
        sendKeyed(topic, 8, 1, "pophandover");
        Clients.awaitQueued(topic, 8);

        Map<String, MessageExt> first = popUntil(topic, group, 8, INVISIBLE_MS);
        Set<String> back = acrossARestart(first, group, OTHER, 3, 2);
        Map<String, MessageExt> second = popUntil(topic, group, back.size(), INVISIBLE_MS);
        assertEquals(back, second.keySet(), "msgIds back after the switch to the other broker (acked ones must not)");
        second.values().forEach(m -> assertEquals(1, m.getReconsumeTimes(), "reconsumeTimes of " + m.getKeys()));

        Set<String> backAgain = acrossARestart(second, group, "", 1, 1);
        Map<String, MessageExt> third = popUntil(topic, group, backAgain.size(), INVISIBLE_MS);
        assertEquals(backAgain, third.keySet(), "msgIds back after the switch back (acked ones must not)");
        for (MessageExt m : third.values()) {
            assertEquals(2, m.getReconsumeTimes(), "reconsumeTimes of " + m.getKeys());
            assertAcked(m, group);
        }
    }

    /**
     * Acks ackedBefore of the popped messages, restarts broker-a as impl, acks ackedAfter more with
     * their old handles, and returns the msgIds left un-acked (the sentinels among them).
     */
    private Set<String> acrossARestart(Map<String, MessageExt> popped, String group, String impl, int ackedBefore,
        int ackedAfter) throws Exception {
        Set<String> sentinels = sentinels(popped.values());
        List<MessageExt> others = new ArrayList<>(popped.values().stream()
            .filter(m -> !sentinels.contains(m.getMsgId()))
            .sorted(Comparator.comparingLong(MessageExt::getQueueOffset)).toList());
        List<MessageExt> before = others.subList(0, Math.min(ackedBefore, others.size()));
        List<MessageExt> after = others.subList(before.size(), Math.min(before.size() + ackedAfter, others.size()));
        for (MessageExt m : before) {
            assertAcked(m, group);
        }
        RefServers.restartBroker("a", impl, 300);
        for (MessageExt m : after) {
            assertAcked(m, group);
        }
        Set<String> left = new TreeSet<>(popped.keySet());
        before.forEach(m -> left.remove(m.getMsgId()));
        after.forEach(m -> left.remove(m.getMsgId()));
        return left;
    }

    private void assertAcked(MessageExt m, String group) throws Exception {
        RemotingCommand r = ack(m, group);
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "ack of " + m.getKeys() + ": " + r.getRemark());
    }
}
