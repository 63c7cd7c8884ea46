package org.rmqgo.hatool;

import org.rmqgo.testsupport.MasterRead;
import org.rmqgo.testsupport.SendOk;

/**
 * One SEND_OK of compat/controller-kill.sh (ControllerKill): what the producer was told (message id
 * = UNIQ_KEY, offset message id, the broker that stored it = the store host of the offset message id,
 * queue, queue offset), the key it sent (the body follows from the key: SyncSender.body),
 * when the send began and when its answer came (System.currentTimeMillis), and whether a stale-route
 * sender (stop mode) sent it.
 */
record CtlAck(int round, String key, String msgId, String offsetMsgId, String storeAddr, int queueId,
              long queueOffset, long sentAt, long ackAt, boolean stale) implements MasterRead.Acked {

    /** The ack of round r made of a SyncSender's SendOk; stale when a stale-route sender sent it. */
    static CtlAck of(int round, SendOk s, boolean stale) {
        return new CtlAck(round, s.key(), s.msgId(), s.offsetMsgId(), s.storeAddr(), s.queueId(), s.queueOffset(), s.sentAt(),
            s.ackAt(), stale);
    }

    /** round, key, msgId, offsetMsgId, storeAddr, queueId, queueOffset, sentAt, ackAt, stale (tab-separated). */
    String tsv() {
        return round + "\t" + key + "\t" + msgId + "\t" + offsetMsgId + "\t" + storeAddr + "\t" + queueId + "\t"
            + queueOffset + "\t" + sentAt + "\t" + ackAt + "\t" + (stale ? "stale" : "-");
    }

    /** The inverse of {@link #tsv()}. */
    static CtlAck parse(String line) {
        String[] f = line.split("\t");
        return new CtlAck(Integer.parseInt(f[0]), f[1], f[2], f[3], f[4], Integer.parseInt(f[5]), Long.parseLong(f[6]),
            Long.parseLong(f[7]), Long.parseLong(f[8]), f[9].equals("stale"));
    }
}
