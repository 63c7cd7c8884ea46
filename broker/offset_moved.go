package broker

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// offsetMovedEvent writes, as PullMessageProcessor.generateOffsetMovedEvent
// does for a PULL_OFFSET_MOVED answer, a message to OFFSET_MOVED_EVENT queue
// 0 tagged and keyed with the group. Its body is the OffsetMovedEvent
// (wire format: do not change):
//
//	{"consumerGroup":"g","messageQueue":{"brokerName":"b","queueId":0,"topic":"T"},"offsetNew":5,"offsetRequest":10}
//
// 5.3.3 builds the event but never writes it (DefaultPullMessageResultHandler
// no longer calls generateOffsetMovedEvent): line.writesOffsetMovedEvents.
func (s *pullService) offsetMovedEvent(h *pullHeader, offsetNew int64) {
	if !s.line.writesOffsetMovedEvents() {
		return
	}
	group, _ := jsonAPI.Marshal(h.group)
	body := append([]byte(`{"consumerGroup":`), group...)
	body = append(body, `,"messageQueue":`...)
	body = protocol.MessageQueue{Topic: h.topic, BrokerName: s.settings.load().Broker.BrokerName, QueueID: h.queueID}.AppendJSON(body)
	body = append(body, `,"offsetNew":`...)
	body = strconv.AppendInt(body, offsetNew, 10)
	body = append(body, `,"offsetRequest":`...)
	body = strconv.AppendInt(body, h.queueOffset, 10)
	body = append(body, '}')
	// Message.putProperty makes a default HashMap on both lines.
	props := newMsgProps(16)
	props.set(propTags, h.group)
	props.set(propDelayLevel, "0")
	props.set(propKeys, h.group)
	host := s.id.storeHost()
	m := &store.Message{Topic: TopicOffsetMovedEvent, Body: body, Properties: props.encode(s.line),
		BornTimestamp: s.now().UnixMilli(), BornHost: host, StoreHost: host}
	if res := s.store.PutMessage(m); res.Status != store.PutOK {
		s.log.Warn("generateOffsetMovedEvent failed", zap.String("status", res.Status.String()), zap.String("group", h.group))
	}
}
