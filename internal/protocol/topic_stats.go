package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// TopicOffset is the range of one queue of a topic.
type TopicOffset struct {
	MinOffset           int64
	MaxOffset           int64
	LastUpdateTimestamp int64
}

// TopicStatsTable is the body of GET_TOPIC_STATS_INFO: every queue of a
// topic on one broker with its offsets and the store time of its last
// message.
//
// JSON (wire format: do not change); topicPutTps is 5.x's:
//
//	{"offsetTable":{{MessageQueue}:{"lastUpdateTimestamp":1700000000000,"maxOffset":3,"minOffset":0},...}[,"topicPutTps":0.0]}
type TopicStatsTable struct {
	OffsetTable map[MessageQueue]TopicOffset
	TopicPutTps float64
}

// AppendJSON appends the fastjson form of line, queues sorted by topic,
// broker and queue id (Java writes hash order; readers do not care).
func (t *TopicStatsTable) AppendJSON(dst []byte, line Line) []byte {
	dst = append(fastjson.AppendField(append(dst, '{'), "offsetTable"), '{')
	for _, q := range sortedQueues(t.OffsetTable) {
		o := t.OffsetTable[q]
		dst = append(q.AppendJSON(fastjson.Comma(dst)), ':', '{')
		dst = fastjson.AppendIntField(dst, "lastUpdateTimestamp", o.LastUpdateTimestamp, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "maxOffset", o.MaxOffset, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "minOffset", o.MinOffset, fastjson.Fastjson)
		dst = append(dst, '}')
	}
	dst = append(dst, '}')
	if line.v5() {
		dst = fastjson.AppendJavaDouble(fastjson.AppendField(dst, "topicPutTps"), t.TopicPutTps)
	}
	return append(dst, '}')
}
