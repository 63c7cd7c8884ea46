package controller

// Events: what a write request changes, replicated through the Raft log
// and applied on every controller (docs/reference/controller.md §4.3).
//
// One Raft log entry holds the events of one request, each as Java's
// ListEventSerializer lays them out, with the JSON Java's
// FastJsonSerializer writes for the event class:
//
//	entry := { [short eventTypeId][int jsonLength][JSON] }...   big-endian
//
//	id  EventType                 JSON (fastjson: keys sorted, nulls left out)
//	 1  ALTER_SYNC_STATE_SET_EVENT {"brokerName","eventType","newSyncStateSet":[..]}
//	 2  APPLY_BROKER_ID_EVENT      {"brokerAddress","brokerName","clusterName","eventType",
//	                                "newBrokerId","registerCheckCode"}
//	 3  ELECT_MASTER_EVENT         {"brokerName","eventType","newMasterBrokerId"?,"newMasterElected"}
//	 5  CLEAN_BROKER_DATA_EVENT    {"brokerIdSetToClean"?:[..],"brokerName","eventType"}
//	 6  UPDATE_BROKER_ADDRESS      {"brokerAddress","brokerId","brokerName","clusterName","eventType"}
//
// (4, READ_EVENT, is never written.) Reading ignores eventType: the id
// says the kind. Java's DLedger controllers write one entry per event,
// [short id][JSON]; an rmqgo log is read by rmqgo controllers only.

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// eventKind is EventType's id.
type eventKind int16

const (
	eventAlterSyncStateSet   eventKind = 1
	eventApplyBrokerID       eventKind = 2
	eventElectMaster         eventKind = 3
	eventCleanBrokerData     eventKind = 5
	eventUpdateBrokerAddress eventKind = 6
)

var eventNames = map[eventKind]string{
	eventAlterSyncStateSet:   "ALTER_SYNC_STATE_SET_EVENT",
	eventApplyBrokerID:       "APPLY_BROKER_ID_EVENT",
	eventElectMaster:         "ELECT_MASTER_EVENT",
	eventCleanBrokerData:     "CLEAN_BROKER_DATA_EVENT",
	eventUpdateBrokerAddress: "UPDATE_BROKER_ADDRESS",
}

// event is any of the five; which fields count depends on kind:
//
//	alter:  brokerName, ids (the new set)
//	apply:  clusterName, brokerName, brokerID (newBrokerId), brokerAddress, checkCode
//	elect:  brokerName, elected, brokerID (newMasterBrokerId; 0 is null)
//	clean:  brokerName, ids (nil or empty: the whole set)
//	update: clusterName, brokerName, brokerID, brokerAddress
type event struct {
	kind                     eventKind
	clusterName, brokerName  string
	brokerAddress, checkCode string
	brokerID                 int64
	elected                  bool
	ids                      []int64
}

// appendJSON writes the event as Java's FastJsonSerializer does.
func (e event) appendJSON(dst []byte) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	switch e.kind {
	case eventAlterSyncStateSet:
		dst = fastjson.AppendStringField(dst, "brokerName", e.brokerName, st)
		dst = fastjson.AppendStringField(dst, "eventType", eventNames[e.kind], st)
		dst = appendIDs(fastjson.AppendField(dst, "newSyncStateSet"), e.ids)
	case eventApplyBrokerID:
		dst = fastjson.AppendStringField(dst, "brokerAddress", e.brokerAddress, st)
		dst = fastjson.AppendStringField(dst, "brokerName", e.brokerName, st)
		dst = fastjson.AppendStringField(dst, "clusterName", e.clusterName, st)
		dst = fastjson.AppendStringField(dst, "eventType", eventNames[e.kind], st)
		dst = fastjson.AppendIntField(dst, "newBrokerId", e.brokerID, st)
		dst = fastjson.AppendStringField(dst, "registerCheckCode", e.checkCode, st)
	case eventElectMaster:
		dst = fastjson.AppendStringField(dst, "brokerName", e.brokerName, st)
		dst = fastjson.AppendStringField(dst, "eventType", eventNames[e.kind], st)
		if e.brokerID != 0 {
			dst = fastjson.AppendIntField(dst, "newMasterBrokerId", e.brokerID, st)
		}
		dst = fastjson.AppendBoolField(dst, "newMasterElected", e.elected)
	case eventCleanBrokerData:
		if e.ids != nil {
			dst = appendIDs(fastjson.AppendField(dst, "brokerIdSetToClean"), e.ids)
		}
		dst = fastjson.AppendStringField(dst, "brokerName", e.brokerName, st)
		dst = fastjson.AppendStringField(dst, "eventType", eventNames[e.kind], st)
	case eventUpdateBrokerAddress:
		dst = fastjson.AppendStringField(dst, "brokerAddress", e.brokerAddress, st)
		dst = fastjson.AppendIntField(dst, "brokerId", e.brokerID, st)
		dst = fastjson.AppendStringField(dst, "brokerName", e.brokerName, st)
		dst = fastjson.AppendStringField(dst, "clusterName", e.clusterName, st)
		dst = fastjson.AppendStringField(dst, "eventType", eventNames[e.kind], st)
	}
	return append(dst, '}')
}

func appendIDs(dst []byte, ids []int64) []byte {
	dst = append(dst, '[')
	for _, id := range sortedIDs(ids) {
		dst = fastjson.AppendLong(fastjson.Comma(dst), id, fastjson.Fastjson)
	}
	return append(dst, ']')
}

// readEvent reads the JSON of an event of the given kind.
func readEvent(kind eventKind, data []byte) (event, error) {
	e := event{kind: kind}
	if _, known := eventNames[kind]; !known {
		return e, fmt.Errorf("controller: unknown event type %d", kind)
	}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) error {
			var err error
			switch key {
			case "brokername":
				e.brokerName, err = r.Str()
			case "clustername":
				e.clusterName, err = r.Str()
			case "brokeraddress":
				e.brokerAddress, err = r.Str()
			case "registercheckcode":
				e.checkCode, err = r.Str()
			case "newbrokerid", "newmasterbrokerid", "brokerid":
				e.brokerID, err = r.Long()
			case "newmasterelected":
				e.elected, err = r.Bool()
			case "newsyncstateset", "brokeridsettoclean":
				e.ids, err = r.LongList()
			default:
				err = r.Skip()
			}
			return err
		})
	})
	return e, err
}

// encodeEntry lays out the events of one request as one log entry.
func encodeEntry(events []event) []byte {
	var out []byte
	for _, e := range events {
		out = binary.BigEndian.AppendUint16(out, uint16(e.kind))
		at := len(out)
		out = append(out, 0, 0, 0, 0)
		out = e.appendJSON(out)
		binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	}
	return out
}

var errShortEntry = errors.New("controller: log entry cut short")

// decodeEntry reads the events of one log entry.
func decodeEntry(data []byte) ([]event, error) {
	var events []event
	for len(data) > 0 {
		if len(data) < 6 {
			return events, errShortEntry
		}
		kind := eventKind(int16(binary.BigEndian.Uint16(data)))
		n := int(binary.BigEndian.Uint32(data[2:]))
		if n < 0 || len(data)-6 < n {
			return events, errShortEntry
		}
		e, err := readEvent(kind, data[6:6+n])
		if err != nil {
			return events, err
		}
		events = append(events, e)
		data = data[6+n:]
	}
	return events, nil
}
