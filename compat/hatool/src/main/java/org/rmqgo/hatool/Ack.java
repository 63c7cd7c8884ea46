package org.rmqgo.hatool;

import org.rmqgo.testsupport.SendOk;

/**
 * One message of compat/ha-kill.sh (HaKill) whose synchronous send returned SEND_OK: what the
 * producer was told (the message id, which is the UNIQ_KEY property, the queue and the queue
 * offset) and what it sent (key, body); SlaveCheck reads it back from the slave.
 */
record Ack(int round, String key, String msgId, String offsetMsgId, String brokerName, int queueId,
           long queueOffset, String body) {

    /** The ack of round r made of a SyncSender's SendOk. */
    static Ack of(int round, SendOk s) {
        return new Ack(round, s.key(), s.msgId(), s.offsetMsgId(), s.brokerName(), s.queueId(), s.queueOffset(), s.body());
    }

    /** One tab-separated line: round, key, msgId, offsetMsgId, brokerName, queueId, queueOffset. */
    String tsv() {
        return round + "\t" + key + "\t" + msgId + "\t" + offsetMsgId + "\t" + brokerName + "\t" + queueId + "\t" + queueOffset;
    }
}
