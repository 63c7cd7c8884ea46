package protocol

import (
	"errors"
	"fmt"
	"time"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// HeartbeatData is the HEART_BEAT body a client sends every 30 s
// (wire format: do not change):
//
//	{"clientID":"ip@pid","consumerDataSet":[{ConsumerData}],"producerDataSet":[{"groupName":"p"}]}
//
// Java writes it with fastjson; other clients write their own shapes
// (the Go client writes codeSet as strings, C++ clients write subVersion
// as a string), and the broker reads them all as fastjson does: see
// DecodeHeartbeatData.
type HeartbeatData struct {
	ClientID        string         `json:"clientID"`
	ConsumerDataSet []ConsumerData `json:"consumerDataSet"`
	ProducerDataSet []ProducerData `json:"producerDataSet"`
}

// ProducerData names a producer group of a heartbeat.
type ProducerData struct {
	GroupName string `json:"groupName"`
}

// ConsumerData is one consumer group of a heartbeat:
//
//	{"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","groupName":"g",
//	 "messageModel":"CLUSTERING","subscriptionDataSet":[{SubscriptionData}],"unitMode":false}
//
// The three enums hold Java's constant names ("" for null); a client may
// send an enum by its ordinal, which the reader turns into the name.
type ConsumerData struct {
	ConsumeFromWhere    string             `json:"consumeFromWhere"`
	ConsumeType         string             `json:"consumeType"`
	GroupName           string             `json:"groupName"`
	MessageModel        string             `json:"messageModel"`
	SubscriptionDataSet []SubscriptionData `json:"subscriptionDataSet"`
	UnitMode            bool               `json:"unitMode"`
}

// SubscriptionData is one topic a consumer subscribes, with its tag
// expression split into tags and their String.hashCode values:
//
//	{"classFilterMode":false,"codeSet":[2598919],"expressionType":"TAG","subString":"TagA || TagB",
//	 "subVersion":1700000000000,"tagsSet":["TagA","TagB"],"topic":"T"}
type SubscriptionData struct {
	ClassFilterMode bool     `json:"classFilterMode"`
	CodeSet         []int32  `json:"codeSet"`
	ExpressionType  string   `json:"expressionType"`
	SubString       string   `json:"subString"`
	SubVersion      int64    `json:"subVersion"`
	TagsSet         []string `json:"tagsSet"`
	Topic           string   `json:"topic"`
}

// The constants of the heartbeat's enums in declaration order, so that an
// ordinal finds its name as fastjson's EnumDeserializer finds it (wire
// values: do not change the order).
var (
	// ConsumeTypes is ConsumeType (CONSUME_POP is 5.x's).
	ConsumeTypes = []string{"CONSUME_ACTIVELY", "CONSUME_PASSIVELY", "CONSUME_POP"}
	// MessageModels is MessageModel.
	MessageModels = []string{"BROADCASTING", "CLUSTERING"}
	// ConsumeFromWheres is ConsumeFromWhere, deprecated constants included.
	ConsumeFromWheres = []string{"CONSUME_FROM_LAST_OFFSET", "CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST",
		"CONSUME_FROM_MIN_OFFSET", "CONSUME_FROM_MAX_OFFSET", "CONSUME_FROM_FIRST_OFFSET", "CONSUME_FROM_TIMESTAMP"}
)

// ElementError is one element of a body's collection that could not be
// read: the rest of the body was read without it.
type ElementError struct {
	// Field is the collection's property, e.g. "consumerDataSet".
	Field string
	// Index is the element's position in it.
	Index int
	// Group is the element's group name, when it was read before the
	// failure.
	Group string
	// Err is what went wrong.
	Err error
}

func (e *ElementError) Error() string {
	if e.Group != "" {
		return fmt.Sprintf("%s[%d] (group %s): %v", e.Field, e.Index, e.Group, e.Err)
	}
	return fmt.Sprintf("%s[%d]: %v", e.Field, e.Index, e.Err)
}

func (e *ElementError) Unwrap() error { return e.Err }

// DecodeHeartbeatData reads a HEART_BEAT body as fastjson reads it into
// Java's HeartbeatData (see the package doc for what it accepts).
//
// Where Java fails the whole heartbeat because one group's data cannot be
// read, this reader leaves that group out and goes on: it returns the
// groups it could read together with an error that joins one
// *ElementError per group left out. Only a body that is not JSON at all
// returns a nil HeartbeatData. So err == nil exactly when fastjson reads
// the body.
func DecodeHeartbeatData(data []byte) (*HeartbeatData, error) {
	hb := &HeartbeatData{}
	var bad []error
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "clientid":
			hb.ClientID, err = r.Str()
		case "consumerdataset":
			hb.ConsumerDataSet, bad, err = readTolerantList(r, "consumerDataSet", readConsumerData, bad)
		case "producerdataset":
			hb.ProducerDataSet, bad, err = readTolerantList(r, "producerDataSet", readProducerData, bad)
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return hb, errors.Join(bad...)
}

// groupNamed is an element that knows its group name, so that an element
// left out can be named in the log.
type groupNamed interface{ groupName() string }

func (c ConsumerData) groupName() string { return c.GroupName }
func (p ProducerData) groupName() string { return p.GroupName }

// readTolerantList reads a Set of beans as readList does (collections.go),
// leaving out (and adding to bad) each element that is well-formed JSON
// but cannot be read as T; a syntax error fails the whole list. The
// elements Java reads as null are left out silently: Java's broker fails
// the whole heartbeat on them.
func readTolerantList[T groupNamed](r *fastjson.Reader, field string, one func(*fastjson.Reader) (T, error), bad []error) ([]T, []error, error) {
	if r.Null() {
		return nil, bad, nil
	}
	list := []T{}
	i := 0
	readOne := func() error {
		defer func() { i++ }()
		if skipNullElement(r) {
			return nil
		}
		var v T
		failed, err := r.Try(func() (err error) {
			v, err = one(r)
			return err
		})
		if failed != nil {
			bad = append(bad, &ElementError{Field: field, Index: i, Group: v.groupName(), Err: failed})
		} else if err == nil {
			list = append(list, v)
		}
		return err
	}
	if r.Peek() == '{' {
		return list, bad, readOne()
	}
	return list, bad, r.Array(readOne)
}

func readProducerData(r *fastjson.Reader) (ProducerData, error) {
	var p ProducerData
	err := r.Object(func(key string) (err error) {
		if key == "groupname" {
			p.GroupName, err = r.Str()
			return err
		}
		return r.Skip()
	})
	return p, err
}

func readConsumerData(r *fastjson.Reader) (ConsumerData, error) {
	var c ConsumerData
	err := r.Object(func(key string) (err error) {
		switch key {
		case "groupname":
			c.GroupName, err = r.Str()
		case "consumetype":
			c.ConsumeType, err = r.Enum(ConsumeTypes)
		case "messagemodel":
			c.MessageModel, err = r.Enum(MessageModels)
		case "consumefromwhere":
			c.ConsumeFromWhere, err = r.Enum(ConsumeFromWheres)
		case "subscriptiondataset":
			c.SubscriptionDataSet, err = readList(r, readSubscriptionData)
		case "unitmode":
			c.UnitMode, err = r.BoolOr(c.UnitMode)
		default:
			err = r.Skip()
		}
		return err
	})
	return c, err
}

// readSubscriptionData reads SubscriptionData with Java's defaults: a TAG
// expression, versioned now.
func readSubscriptionData(r *fastjson.Reader) (SubscriptionData, error) {
	s := SubscriptionData{ExpressionType: "TAG", SubVersion: time.Now().UnixMilli()}
	if r.Null() {
		return s, nil
	}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "topic":
			s.Topic, err = r.Str()
		case "substring":
			s.SubString, err = r.Str()
		case "expressiontype":
			s.ExpressionType, err = r.Str()
		case "tagsset":
			s.TagsSet, err = r.StringList()
		case "codeset":
			s.CodeSet, err = r.IntList()
		case "subversion":
			s.SubVersion, err = r.LongOr(s.SubVersion)
		case "classfiltermode":
			s.ClassFilterMode, err = r.BoolOr(s.ClassFilterMode)
		default:
			err = r.Skip()
		}
		return err
	})
	return s, err
}
