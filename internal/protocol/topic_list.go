package protocol

// TopicList is the body of the name server's topic list codes (206, 224,
// 304, 311-313) and of the broker's 305.
//
// JSON (wire format: do not change):
//
//	{"topicList":["%RETRY%group1","TopicTest"]}
//	{"brokerAddr":"10.0.0.1:10911","topicList":["broker-a","DefaultCluster"]}
type TopicList struct {
	TopicList  []string
	BrokerAddr string
}

// AppendJSON appends the fastjson form; brokerAddr only when set.
func (l *TopicList) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = appendOptionalStringField(dst, "brokerAddr", l.BrokerAddr, Fastjson)
	list := l.TopicList
	if list == nil {
		list = []string{}
	}
	dst = appendStringArray(appendField(dst, "topicList"), list, Fastjson)
	return append(dst, '}')
}

// DecodeTopicList parses a TopicList body.
func DecodeTopicList(data []byte) (*TopicList, error) {
	l := &TopicList{}
	err := decodeJSON(data, func(r *jsonReader) error {
		return r.object(func(key string) (err error) {
			switch property(key) {
			case "topiclist":
				l.TopicList, err = r.stringList()
			case "brokeraddr":
				l.BrokerAddr, err = r.str()
			default:
				err = r.skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}
