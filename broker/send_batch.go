package broker

import (
	"encoding/binary"
	"net/netip"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// A batch body is the messages as MessageDecoder.encodeMessage writes
// each (wire format: do not change):
//
//	+----------+----------+----------+--------+---------+------+-----------+-------+
//	| total(4) | magic(4) | crc(4)   | flag(4)| bodyLen | body | propLen(2)| props |
//	+----------+----------+----------+--------+---------+------+-----------+-------+
//
// total counts the whole entry; magic and crc are written as 0 by clients.
const batchEntryFixed = 4 + 4 + 4 + 4 + 4 + 2

// batchEntry is one message of a batch body.
type batchEntry struct {
	flag  int32
	body  []byte
	props []byte
}

// decodeBatch splits a batch body; ok is false when it is malformed.
func decodeBatch(body []byte) ([]batchEntry, bool) {
	var out []batchEntry
	for len(body) > 0 {
		if len(body) < batchEntryFixed {
			return nil, false
		}
		flag := int32(binary.BigEndian.Uint32(body[12:]))
		bodyLen := int(int32(binary.BigEndian.Uint32(body[16:])))
		if bodyLen < 0 || 20+bodyLen+2 > len(body) {
			return nil, false
		}
		msg := body[20 : 20+bodyLen]
		rest := body[20+bodyLen:]
		propLen := int(binary.BigEndian.Uint16(rest))
		if 2+propLen > len(rest) {
			return nil, false
		}
		out = append(out, batchEntry{flag: flag, body: msg, props: rest[2 : 2+propLen]})
		body = rest[2+propLen:]
	}
	return out, len(out) > 0
}

// putBatch stores a SEND_BATCH_MESSAGE as CommitLog's batch encoder
// does: every message gets the batch's properties (the header's, plus
// CLUSTER) appended to its own.
func (s *sendService) putBatch(cmd *remoting.Command, h *sendHeader, batchProps *msgProps, queueID int32, bornHost netip.AddrPort, set *settings, o *sendOutcome) (store.PutResult, *failure) {
	if len(h.topic) > topicMaxLength {
		return store.PutResult{}, &failure{remoting.MessageIllegal, "message topic length too long " + itoa(len(h.topic))}
	}
	if isRetryTopic(h.topic) {
		return store.PutResult{}, &failure{remoting.MessageIllegal, "batch request does not support retry group " + h.topic}
	}
	if limit := set.Store.MaxMessageSize; len(cmd.Body) > int(limit) {
		return store.PutResult{Status: store.PutMessageIllegal}, nil
	}
	entries, ok := decodeBatch(cmd.Body)
	if !ok {
		return store.PutResult{Status: store.PutMessageIllegal}, nil
	}
	if v, ok := batchProps.get(propDelayLevel); ok && v != "0" {
		return store.PutResult{Status: store.PutMessageIllegal}, nil
	}
	batchProps.set(propCluster, set.Broker.BrokerClusterName)
	suffix := batchProps.encode(s.line)
	storeHost := s.id.storeHost()
	msgs := make([]store.Message, len(entries))
	for i, e := range entries {
		props := string(e.props)
		if len(props) > 0 && len(suffix) > 0 && props[len(props)-1] != store.PropertySeparator {
			props += string(store.PropertySeparator)
		}
		msgs[i] = store.Message{
			Topic: h.topic, QueueID: queueID, Flag: e.flag, SysFlag: h.sysFlag, Body: e.body,
			Properties: props + suffix, BornTimestamp: h.bornTimestamp, BornHost: bornHost,
			StoreHost: storeHost, ReconsumeTimes: h.reconsumeTimes,
		}
	}
	return s.put(o, h.topic, msgs), nil
}
