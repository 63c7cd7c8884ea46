package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

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
	dst = fastjson.AppendOptionalStringField(dst, "brokerAddr", l.BrokerAddr, fastjson.Fastjson)
	list := l.TopicList
	if list == nil {
		list = []string{}
	}
	dst = fastjson.AppendStringArray(fastjson.AppendField(dst, "topicList"), list, fastjson.Fastjson)
	return append(dst, '}')
}

// DecodeTopicList parses a TopicList body.
func DecodeTopicList(data []byte) (*TopicList, error) {
	l := &TopicList{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			switch key {
			case "topiclist":
				l.TopicList, err = r.StringList()
			case "brokeraddr":
				l.BrokerAddr, err = r.Str()
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}
