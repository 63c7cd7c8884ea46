package org.rmqgo.hatool;

/**
 * One message whose synchronous send returned SEND_OK: what the producer was told (the message id,
 * which is the UNIQ_KEY property, the queue and the queue offset) and what it sent (key, body).
 */
record Ack(int round, String key, String msgId, String offsetMsgId, String brokerName, int queueId,
           long queueOffset, String body) {

    /** One tab-separated line: round, key, msgId, offsetMsgId, brokerName, queueId, queueOffset. */
    String tsv() {
        return round + "\t" + key + "\t" + msgId + "\t" + offsetMsgId + "\t" + brokerName + "\t" + queueId + "\t" + queueOffset;
    }
}
