package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// The topics.json file is a TopicConfigSerializeWrapper (register_broker.go)
// of TopicConfigs (topic_config.go), written per release line
// (on-disk format: do not change):
//
//	4.x: {"dataVersion":{"counter":3,"timestamp":1700000000000},
//	      "topicConfigTable":{"T":{"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":4}}}
//	5.x: {"dataVersion":{"counter":3,"stateVersion":0,"timestamp":1700000000000},
//	      "topicConfigTable":{"T":{"attributes":{},"order":false,...}}}
//
// The file holds the pretty form of this (see PrettyJSON).

// AppendJSONLine appends the fastjson form of line, whatever Attributes
// holds: before Line5 without attributes, from Line5 always with them (a
// nil map as {}, as Java's field initializer makes it).
func (c *TopicConfig) AppendJSONLine(dst []byte, line Line) []byte {
	tc := *c
	switch {
	case !line.v5():
		tc.Attributes = nil
	case tc.Attributes == nil:
		tc.Attributes = map[string]string{}
	}
	return tc.AppendJSON(dst)
}

// AppendJSONLine appends the wrapper in the form of line: the DataVersion
// and every TopicConfig of that line. The 5.x static-topic fields are
// written when MappingDataVersion is set, as AppendJSON does; topics.json
// never has them.
func (w *TopicConfigSerializeWrapper) AppendJSONLine(dst []byte, line Line) []byte {
	return w.appendJSON(dst, line, func(c *TopicConfig, dst []byte) []byte { return c.AppendJSONLine(dst, line) })
}

// appendJSON writes the wrapper with the DataVersion of line and each
// TopicConfig through topic.
func (w *TopicConfigSerializeWrapper) appendJSON(dst []byte, line Line, topic func(*TopicConfig, []byte) []byte) []byte {
	dst = append(dst, '{')
	dst = w.DataVersion.AppendJSONLine(fastjson.AppendField(dst, "dataVersion"), line)
	if w.MappingDataVersion != nil {
		dst = w.MappingDataVersion.AppendJSONLine(fastjson.AppendField(dst, "mappingDataVersion"), line)
	}
	dst = append(fastjson.AppendField(dst, "topicConfigTable"), '{')
	for _, name := range fastjson.SortedKeys(w.TopicConfigTable) {
		c := w.TopicConfigTable[name]
		dst = topic(&c, fastjson.AppendStringKey(dst, name, fastjson.Fastjson))
	}
	dst = append(dst, '}')
	if w.MappingDataVersion != nil {
		dst = append(fastjson.AppendField(dst, "topicQueueMappingDetailMap"), '{', '}')
		dst = append(fastjson.AppendField(dst, "topicQueueMappingInfoMap"), '{')
		for _, topic := range fastjson.SortedKeys(w.TopicQueueMappingInfoMap) {
			m := w.TopicQueueMappingInfoMap[topic]
			dst = m.appendJSON(fastjson.AppendStringKey(dst, topic, fastjson.Fastjson), fastjson.Fastjson)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
