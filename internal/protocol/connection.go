package protocol

import (
	"slices"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// Connection is one client connection as the admin codes describe it
// (body.Connection).
//
// JSON (wire format: do not change); language is the LanguageCode name:
//
//	{"clientAddr":"127.0.0.1:54321","clientId":"10.0.0.1@123","language":"JAVA","version":413}
//
// An empty string is left out, as fastjson leaves out null.
type Connection struct {
	ClientID   string
	ClientAddr string
	Language   string
	Version    int32
}

func (c *Connection) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "clientAddr", c.ClientAddr, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "clientId", c.ClientID, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "language", c.Language, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "version", int64(c.Version), fastjson.Fastjson)
	return append(dst, '}')
}

// appendConnectionSet writes connections sorted by client id and address
// (Java writes its HashSet in hash order; readers do not care).
func appendConnectionSet(dst []byte, set []Connection) []byte {
	sorted := slices.Clone(set)
	slices.SortFunc(sorted, func(a, b Connection) int {
		if c := strings.Compare(a.ClientID, b.ClientID); c != 0 {
			return c
		}
		return strings.Compare(a.ClientAddr, b.ClientAddr)
	})
	dst = append(fastjson.AppendField(dst, "connectionSet"), '[')
	for i := range sorted {
		dst = sorted[i].appendJSON(fastjson.Comma(dst))
	}
	return append(dst, ']')
}

// ConsumerConnection is the body of GET_CONSUMER_CONNECTION_LIST: the
// connections of an online consumer group, the subscriptions they share
// and how the group consumes.
//
// JSON (wire format: do not change); an empty enum name is left out:
//
//	{"connectionSet":[{Connection}],"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY",
//	 "messageModel":"CLUSTERING","subscriptionTable":{"T":{SubscriptionData}}}
type ConsumerConnection struct {
	ConnectionSet     []Connection
	SubscriptionTable map[string]SubscriptionData
	ConsumeType       string
	MessageModel      string
	ConsumeFromWhere  string
}

// AppendJSON appends the fastjson form (both lines).
func (c *ConsumerConnection) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = appendConnectionSet(dst, c.ConnectionSet)
	for _, f := range [...]struct{ name, value string }{
		{"consumeFromWhere", c.ConsumeFromWhere}, {"consumeType", c.ConsumeType}, {"messageModel", c.MessageModel},
	} {
		if f.value != "" {
			dst = fastjson.AppendStringField(dst, f.name, f.value, fastjson.Fastjson)
		}
	}
	dst = append(fastjson.AppendField(dst, "subscriptionTable"), '{')
	for _, topic := range fastjson.SortedKeys(c.SubscriptionTable) {
		s := c.SubscriptionTable[topic]
		dst = s.AppendJSON(fastjson.AppendStringKey(dst, topic, fastjson.Fastjson))
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

// ProducerConnection is the body of GET_PRODUCER_CONNECTION_LIST.
//
// JSON (wire format: do not change):
//
//	{"connectionSet":[{Connection}]}
type ProducerConnection struct {
	ConnectionSet []Connection
}

// AppendJSON appends the fastjson form (both lines).
func (p *ProducerConnection) AppendJSON(dst []byte) []byte {
	return append(appendConnectionSet(append(dst, '{'), p.ConnectionSet), '}')
}

// AppendJSON appends the fastjson form of a SubscriptionData (both lines):
// properties in alphabetical order, nil sets as [], empty strings left out
// (Java's null), filterClassSource never (it is not serialized).
func (s *SubscriptionData) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendBoolField(dst, "classFilterMode", s.ClassFilterMode)
	dst = append(fastjson.AppendField(dst, "codeSet"), '[')
	for _, c := range s.CodeSet {
		dst = fastjson.AppendLong(fastjson.Comma(dst), int64(c), fastjson.Fastjson)
	}
	dst = append(dst, ']')
	dst = fastjson.AppendOptionalStringField(dst, "expressionType", s.ExpressionType, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "subString", s.SubString, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "subVersion", s.SubVersion, fastjson.Fastjson)
	tags := s.TagsSet
	if tags == nil {
		tags = []string{}
	}
	dst = fastjson.AppendStringArray(fastjson.AppendField(dst, "tagsSet"), tags, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "topic", s.Topic, fastjson.Fastjson)
	return append(dst, '}')
}
