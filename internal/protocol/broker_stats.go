package protocol

import (
	"fmt"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// BrokerStatsItem is one window of a statistic: the sum of its values,
// the values per second and the average value per call.
type BrokerStatsItem struct {
	Sum   int64
	Tps   float64
	Avgpt float64
}

// appendJSON appends the fastjson form: {"avgpt":0.0,"sum":0,"tps":0.0}.
func (it BrokerStatsItem) appendJSON(dst []byte) []byte {
	dst = fastjson.AppendField(append(dst, '{'), "avgpt")
	dst = fastjson.AppendJavaDouble(dst, it.Avgpt)
	dst = fastjson.AppendIntField(dst, "sum", it.Sum, fastjson.Fastjson)
	dst = fastjson.AppendJavaDouble(fastjson.AppendField(dst, "tps"), it.Tps)
	return append(dst, '}')
}

// BrokerStatsData is the body of VIEW_BROKER_STATS_DATA: one statistic
// over the last minute, hour and day.
//
// JSON (wire format: do not change):
//
//	{"statsDay":{"avgpt":1.0,"sum":3,"tps":0.0},"statsHour":{...},"statsMinute":{...}}
type BrokerStatsData struct {
	StatsMinute, StatsHour, StatsDay BrokerStatsItem
}

// AppendJSON appends the fastjson form.
func (d *BrokerStatsData) AppendJSON(dst []byte) []byte {
	dst = d.StatsDay.appendJSON(fastjson.AppendField(append(dst, '{'), "statsDay"))
	dst = d.StatsHour.appendJSON(fastjson.AppendField(dst, "statsHour"))
	dst = d.StatsMinute.appendJSON(fastjson.AppendField(dst, "statsMinute"))
	return append(dst, '}')
}

// GroupConsumeStats is one entry of ConsumeStatsList: a group and its
// ConsumeStats, one per topic.
type GroupConsumeStats struct {
	Group string
	Stats []ConsumeStats
}

// ConsumeStatsList is the body of GET_BROKER_CONSUME_STATS: every
// group's ConsumeStats on one broker and their total lag. 5.x adds
// totalInflightDiff.
//
// JSON (wire format: do not change), one single-key map per group:
//
//	{"brokerAddr":"10.0.0.1:10911","consumeStatsList":[{"g":[{ConsumeStats},...]},...],"totalDiff":3[,"totalInflightDiff":0]}
type ConsumeStatsList struct {
	BrokerAddr        string
	Groups            []GroupConsumeStats
	TotalDiff         int64
	TotalInflightDiff int64
}

// AppendJSON appends the fastjson form of line.
func (l *ConsumeStatsList) AppendJSON(dst []byte, line Line) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendStringField(dst, "brokerAddr", l.BrokerAddr, fastjson.Fastjson)
	dst = append(fastjson.AppendField(dst, "consumeStatsList"), '[')
	for _, g := range l.Groups {
		dst = fastjson.AppendString(append(fastjson.Comma(dst), '{'), g.Group, fastjson.Fastjson)
		dst = append(dst, ':', '[')
		for i := range g.Stats {
			dst = g.Stats[i].AppendJSON(fastjson.Comma(dst), line)
		}
		dst = append(dst, ']', '}')
	}
	dst = append(dst, ']')
	dst = fastjson.AppendIntField(dst, "totalDiff", l.TotalDiff, fastjson.Fastjson)
	if line >= Line5 {
		dst = fastjson.AppendIntField(dst, "totalInflightDiff", l.TotalInflightDiff, fastjson.Fastjson)
	}
	return append(dst, '}')
}

// TotalDiff is ConsumeStats.computeTotalDiff: the sum over the queues of
// broker offset minus consumer offset.
func (s *ConsumeStats) TotalDiff() int64 {
	var n int64
	for _, w := range s.OffsetTable {
		n += w.BrokerOffset - w.ConsumerOffset
	}
	return n
}

// InflightDiff is ConsumeStats.computeInflightTotalDiff: the sum over the
// queues of pull offset minus consumer offset.
func (s *ConsumeStats) InflightDiff() int64 {
	var n int64
	for _, w := range s.OffsetTable {
		n += w.PullOffset - w.ConsumerOffset
	}
	return n
}

// QueueTimeSpan is one queue's times in QUERY_CONSUME_TIME_SPAN: the
// store times of its first and last message and of the group's last
// consumed one, and how long the next message has waited.
type QueueTimeSpan struct {
	Queue                                  MessageQueue
	MinTimeStamp, MaxTimeStamp, ConsumedAt int64
	DelayTime                              int64
}

// QueryConsumeTimeSpanBody is the body of QUERY_CONSUME_TIME_SPAN.
//
// JSON (wire format: do not change); the *Str fields are Java getters
// (UtilAll.formatDate "yyyy-MM-dd#HH:mm:ss:SSS" in the broker's zone):
//
//	{"consumeTimeSpanSet":[{"consumeTimeStamp":1,"consumeTimeStampStr":"...","delayTime":0,
//	  "maxTimeStamp":1,"maxTimeStampStr":"...","messageQueue":{MessageQueue},
//	  "minTimeStamp":1,"minTimeStampStr":"..."},...]}
type QueryConsumeTimeSpanBody struct {
	Spans []QueueTimeSpan
}

// AppendJSON appends the fastjson form.
func (b *QueryConsumeTimeSpanBody) AppendJSON(dst []byte) []byte {
	dst = append(fastjson.AppendField(append(dst, '{'), "consumeTimeSpanSet"), '[')
	for _, s := range b.Spans {
		dst = append(fastjson.Comma(dst), '{')
		dst = fastjson.AppendIntField(dst, "consumeTimeStamp", s.ConsumedAt, fastjson.Fastjson)
		dst = fastjson.AppendStringField(dst, "consumeTimeStampStr", javaDate(s.ConsumedAt), fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "delayTime", s.DelayTime, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "maxTimeStamp", s.MaxTimeStamp, fastjson.Fastjson)
		dst = fastjson.AppendStringField(dst, "maxTimeStampStr", javaDate(s.MaxTimeStamp), fastjson.Fastjson)
		dst = s.Queue.AppendJSON(fastjson.AppendField(dst, "messageQueue"))
		dst = fastjson.AppendIntField(dst, "minTimeStamp", s.MinTimeStamp, fastjson.Fastjson)
		dst = fastjson.AppendStringField(dst, "minTimeStampStr", javaDate(s.MinTimeStamp), fastjson.Fastjson)
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}

// javaDate is UtilAll.formatDate(ms, "yyyy-MM-dd#HH:mm:ss:SSS").
func javaDate(ms int64) string {
	t := time.UnixMilli(ms)
	return fmt.Sprintf("%04d-%02d-%02d#%02d:%02d:%02d:%03d", t.Year(), t.Month(), t.Day(),
		t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/int(time.Millisecond))
}

// GetConsumerStatusBody is the body a client answers
// GET_CONSUMER_STATUS_FROM_CLIENT with (messageQueueTable: its offsets)
// and the broker answers INVOKE_BROKER_TO_GET_CONSUMER_STATUS with
// (consumerTable: each client's offsets by client id).
//
// JSON (wire format: do not change):
//
//	{"consumerTable":{"clientId":{{MessageQueue}:5,...}},"messageQueueTable":{{MessageQueue}:5,...}}
type GetConsumerStatusBody struct {
	MessageQueueTable map[MessageQueue]int64
	ConsumerTable     map[string]map[MessageQueue]int64
}

// AppendJSON appends the fastjson form.
func (b *GetConsumerStatusBody) AppendJSON(dst []byte) []byte {
	dst = append(fastjson.AppendField(append(dst, '{'), "consumerTable"), '{')
	for _, id := range fastjson.SortedKeys(b.ConsumerTable) {
		dst = fastjson.AppendString(fastjson.Comma(dst), id, fastjson.Fastjson)
		dst = appendQueueOffsets(append(dst, ':'), b.ConsumerTable[id])
	}
	dst = append(dst, '}')
	dst = appendQueueOffsets(fastjson.AppendField(dst, "messageQueueTable"), b.MessageQueueTable)
	return append(dst, '}')
}

// appendQueueOffsets appends {{MessageQueue}:offset,...}.
func appendQueueOffsets(dst []byte, m map[MessageQueue]int64) []byte {
	dst = append(dst, '{')
	for _, q := range sortedQueues(m) {
		dst = q.AppendJSON(fastjson.Comma(dst))
		dst = fastjson.AppendLong(append(dst, ':'), m[q], fastjson.Fastjson)
	}
	return append(dst, '}')
}

// DecodeGetConsumerStatusBody parses a client's answer.
func DecodeGetConsumerStatusBody(data []byte) (*GetConsumerStatusBody, error) {
	b := &GetConsumerStatusBody{MessageQueueTable: map[MessageQueue]int64{}, ConsumerTable: map[string]map[MessageQueue]int64{}}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			switch key {
			case "messagequeuetable":
				b.MessageQueueTable, err = readQueueOffsets(r)
				return err
			case "consumertable":
				if r.Null() {
					return nil
				}
				return r.Map(func(id string) (err error) {
					b.ConsumerTable[id], err = readQueueOffsets(r)
					return err
				})
			}
			return r.Skip()
		})
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// readQueueOffsets reads {{MessageQueue}:offset,...} (null as empty).
func readQueueOffsets(r *fastjson.Reader) (map[MessageQueue]int64, error) {
	m := map[MessageQueue]int64{}
	if r.Null() {
		return m, nil
	}
	err := r.BeanKeyMap(func(key string) error {
		q, err := parseMessageQueue(key)
		if err != nil {
			return err
		}
		m[q], err = r.Long()
		return err
	})
	return m, err
}

// parseMessageQueue parses a MessageQueue object written as a map key.
func parseMessageQueue(text string) (MessageQueue, error) {
	var q MessageQueue
	if !strings.HasPrefix(text, "{") {
		return q, fmt.Errorf("protocol: message queue key %q is not an object", text)
	}
	err := fastjson.Decode([]byte(text), func(r *fastjson.Reader) (err error) {
		q, err = readMessageQueue(r)
		return err
	})
	return q, err
}
