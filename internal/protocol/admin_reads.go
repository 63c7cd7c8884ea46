package protocol

// Decoders of the admin bodies an admin client (cmd/rmqadmin, Java's
// DefaultMQAdminExt) reads: GET_TOPIC_STATS_INFO, GET_CONSUME_STATS and
// QUERY_TOPIC_CONSUME_BY_WHO. The servers only write them; their shapes
// are drawn beside the types (topic_stats.go, consume_stats.go,
// group_list.go).

import (
	"strconv"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// DecodeTopicStatsTable parses a GET_TOPIC_STATS_INFO body (either line).
func DecodeTopicStatsTable(data []byte) (*TopicStatsTable, error) {
	t := &TopicStatsTable{OffsetTable: map[MessageQueue]TopicOffset{}}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "offsettable":
			return readQueueKeyed(r, func(q MessageQueue) (err error) {
				t.OffsetTable[q], err = readTopicOffset(r)
				return err
			})
		case "topicputtps":
			t.TopicPutTps, err = readDouble(r)
			return err
		}
		return r.Skip()
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// DecodeConsumeStats parses a GET_CONSUME_STATS body (either line).
func DecodeConsumeStats(data []byte) (*ConsumeStats, error) {
	s := &ConsumeStats{OffsetTable: map[MessageQueue]OffsetWrapper{}}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "offsettable":
			return readQueueKeyed(r, func(q MessageQueue) (err error) {
				s.OffsetTable[q], err = readOffsetWrapper(r)
				return err
			})
		case "consumetps":
			s.ConsumeTps, err = readDouble(r)
			return err
		}
		return r.Skip()
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// DecodeGroupList parses a QUERY_TOPIC_CONSUME_BY_WHO body.
func DecodeGroupList(data []byte) (*GroupList, error) {
	l := &GroupList{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		if prop == "grouplist" {
			l.GroupList, err = r.StringList()
			return err
		}
		return r.Skip()
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// readQueueKeyed reads {{MessageQueue}:value,...} (null as empty), one
// call of value per entry, the reader at the entry's value.
func readQueueKeyed(r *fastjson.Reader, value func(MessageQueue) error) error {
	if r.Null() {
		return nil
	}
	return r.BeanKeyMap(func(key string) error {
		q, err := parseMessageQueue(key)
		if err != nil {
			return err
		}
		return value(q)
	})
}

func readTopicOffset(r *fastjson.Reader) (o TopicOffset, err error) {
	err = r.Object(func(key string) (err error) {
		switch key {
		case "minoffset":
			o.MinOffset, err = r.Long()
		case "maxoffset":
			o.MaxOffset, err = r.Long()
		case "lastupdatetimestamp":
			o.LastUpdateTimestamp, err = r.Long()
		default:
			err = r.Skip()
		}
		return err
	})
	return o, err
}

func readOffsetWrapper(r *fastjson.Reader) (w OffsetWrapper, err error) {
	err = r.Object(func(key string) (err error) {
		switch key {
		case "brokeroffset":
			w.BrokerOffset, err = r.Long()
		case "consumeroffset":
			w.ConsumerOffset, err = r.Long()
		case "pulloffset":
			w.PullOffset, err = r.Long()
		case "lasttimestamp":
			w.LastTimestamp, err = r.Long()
		default:
			err = r.Skip()
		}
		return err
	})
	return w, err
}

// readDouble reads a double property (null or "" as 0).
func readDouble(r *fastjson.Reader) (float64, error) {
	text, err := r.Str()
	if err != nil || text == "" {
		return 0, err
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, r.Fail("bad double " + strconv.Quote(text))
	}
	return v, nil
}

// DecodeConsumerConnection parses a GET_CONSUMER_CONNECTION_LIST body.
func DecodeConsumerConnection(data []byte) (*ConsumerConnection, error) {
	c := &ConsumerConnection{SubscriptionTable: map[string]SubscriptionData{}}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "connectionset":
			c.ConnectionSet, err = readList(r, readConnection)
		case "subscriptiontable":
			c.SubscriptionTable, err = readMap(r, readSubscriptionData)
		case "consumetype":
			c.ConsumeType, err = r.Str()
		case "messagemodel":
			c.MessageModel, err = r.Str()
		case "consumefromwhere":
			c.ConsumeFromWhere, err = r.Str()
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func readConnection(r *fastjson.Reader) (Connection, error) {
	var c Connection
	err := r.Object(func(key string) (err error) {
		switch key {
		case "clientid":
			c.ClientID, err = r.Str()
		case "clientaddr":
			c.ClientAddr, err = r.Str()
		case "language":
			c.Language, err = r.Str()
		case "version":
			c.Version, err = r.Int()
		default:
			err = r.Skip()
		}
		return err
	})
	return c, err
}

// DecodeProducerConnection parses a GET_PRODUCER_CONNECTION_LIST body.
func DecodeProducerConnection(data []byte) (*ProducerConnection, error) {
	p := &ProducerConnection{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		if prop == "connectionset" {
			p.ConnectionSet, err = readList(r, readConnection)
			return err
		}
		return r.Skip()
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// DecodeResetOffsetBody parses an INVOKE_BROKER_TO_RESET_OFFSET answer.
func DecodeResetOffsetBody(data []byte) (*ResetOffsetBody, error) {
	b := &ResetOffsetBody{OffsetTable: map[MessageQueue]int64{}}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		if prop == "offsettable" {
			b.OffsetTable, err = readQueueOffsets(r)
			return err
		}
		return r.Skip()
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}
