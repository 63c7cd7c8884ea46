package org.rmqgo.testsupport;

/**
 * One send that a {@link SyncSender} saw answered SEND_OK: the key and body it sent, what the
 * producer was told (message id = UNIQ_KEY, offset message id, broker name, queue, queue offset),
 * the store host decoded from the offset message id ("?" when it does not decode), when the send
 * began and when its answer came (System.currentTimeMillis). The tools turn it into their own
 * record for their acked.tsv (hatool's Ack and CtlAck, ctlha's ControllerHa.Ack).
 */
public record SendOk(String key, String body, String msgId, String offsetMsgId, String brokerName, String storeAddr,
                     int queueId, long queueOffset, long sentAt, long ackAt) {
}
