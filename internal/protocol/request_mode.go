package protocol

import (
	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// The message request modes (5.x, MessageRequestModeManager;
// docs/reference/pop.md §12): whether a group consumes a topic by PULL or
// by POP, set with SET_MESSAGE_REQUEST_MODE and asked for by
// QUERY_ASSIGNMENT (wire and file format: do not change):
//
//	SET_MESSAGE_REQUEST_MODE body (SetMessageRequestModeRequestBody):
//	  {"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}
//	GET_ALL_MESSAGE_REQUEST_MODE body, and config/messageRequestMode.json
//	in fastjson's PrettyFormat (MessageRequestModeSerializeWrapper):
//	  {"messageRequestModeMap":{"T":{"G":{SetMessageRequestModeRequestBody}}}}
//	QUERY_ASSIGNMENT body (QueryAssignmentRequestBody):
//	  {"clientId":"cid","consumerGroup":"G","messageModel":"CLUSTERING","strategyName":"AVG","topic":"T"}
//	its answer (QueryAssignmentResponseBody; {} when no assignment was made):
//	  {"messageQueueAssignments":[{"messageQueue":{"brokerName":"broker-a","queueId":-1,"topic":"T"},"mode":"POP"}]}
//
// mode is PULL or POP (PULL when the body leaves it out); a null mode or
// topic is left out when written, as fastjson does.

// The modes of MessageRequestMode, in ordinal order.
const (
	RequestModePull = "PULL"
	RequestModePop  = "POP"
)

var requestModeNames = []string{RequestModePull, RequestModePop}

// SetMessageRequestModeRequestBody is a group's mode of a topic.
type SetMessageRequestModeRequestBody struct {
	Topic            string // "" = null
	ConsumerGroup    string // "" = null
	Mode             string // PULL or POP; "" = null
	PopShareQueueNum int32
}

// AppendJSON writes the body as fastjson does.
func (b *SetMessageRequestModeRequestBody) AppendJSON(dst []byte) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "consumerGroup", b.ConsumerGroup, st)
	dst = fastjson.AppendOptionalStringField(dst, "mode", b.Mode, st)
	dst = fastjson.AppendIntField(dst, "popShareQueueNum", int64(b.PopShareQueueNum), st)
	dst = fastjson.AppendOptionalStringField(dst, "topic", b.Topic, st)
	return append(dst, '}')
}

// DecodeSetMessageRequestModeRequestBody reads a SET_MESSAGE_REQUEST_MODE
// body as fastjson reads it (mode by name, any case, or by ordinal).
func DecodeSetMessageRequestModeRequestBody(data []byte) (*SetMessageRequestModeRequestBody, error) {
	b := &SetMessageRequestModeRequestBody{Mode: RequestModePull}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) error {
		return b.read(r, prop)
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

func (b *SetMessageRequestModeRequestBody) read(r *fastjson.Reader, prop string) (err error) {
	switch prop {
	case "topic":
		b.Topic, err = r.Str()
	case "consumergroup":
		b.ConsumerGroup, err = r.Str()
	case "mode":
		b.Mode, err = r.Enum(requestModeNames)
	case "popsharequeuenum":
		b.PopShareQueueNum, err = r.Int()
	default:
		err = r.Skip()
	}
	return err
}

func readSetMessageRequestModeRequestBody(r *fastjson.Reader) (SetMessageRequestModeRequestBody, error) {
	b := SetMessageRequestModeRequestBody{Mode: RequestModePull}
	err := r.Object(func(prop string) error { return b.read(r, prop) })
	return b, err
}

// MessageRequestModeWrapper is the table of modes: topic -> group -> mode.
type MessageRequestModeWrapper struct {
	Modes map[string]map[string]SetMessageRequestModeRequestBody
}

// AppendJSON writes the table compact, topics and groups sorted (Java's
// ConcurrentHashMap order is its own; readers take any). The line has
// no part in it: the table is 5.x's alone.
func (w *MessageRequestModeWrapper) AppendJSON(dst []byte, _ Line) []byte {
	dst = append(fastjson.AppendField(append(dst, '{'), "messageRequestModeMap"), '{')
	for _, topic := range fastjson.SortedKeys(w.Modes) {
		dst = append(fastjson.AppendStringKey(dst, topic, fastjson.Fastjson), '{')
		groups := w.Modes[topic]
		for _, group := range fastjson.SortedKeys(groups) {
			b := groups[group]
			dst = b.AppendJSON(fastjson.AppendStringKey(dst, group, fastjson.Fastjson))
		}
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}

// DecodeMessageRequestModeWrapper reads the table (a 402 answer or the
// file); null gives an empty table.
func DecodeMessageRequestModeWrapper(data []byte) (*MessageRequestModeWrapper, error) {
	w := &MessageRequestModeWrapper{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		if prop != "messagerequestmodemap" {
			return r.Skip()
		}
		w.Modes, err = readConcurrentMap(r, func(r *fastjson.Reader) (map[string]SetMessageRequestModeRequestBody, error) {
			return readConcurrentMap(r, readSetMessageRequestModeRequestBody)
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	if w.Modes == nil {
		w.Modes = map[string]map[string]SetMessageRequestModeRequestBody{}
	}
	return w, nil
}

// The message models of MessageModel, in ordinal order.
const (
	MessageModelBroadcasting = "BROADCASTING"
	MessageModelClustering   = "CLUSTERING"
)

var messageModelNames = []string{MessageModelBroadcasting, MessageModelClustering}

// QueryAssignmentRequestBody is a client's QUERY_ASSIGNMENT: which queues
// of the topic it should consume.
type QueryAssignmentRequestBody struct {
	Topic         string
	ConsumerGroup string
	ClientID      string
	StrategyName  string
	MessageModel  string // BROADCASTING or CLUSTERING; "" = null
}

// DecodeQueryAssignmentRequestBody reads a QUERY_ASSIGNMENT body as
// fastjson reads it.
func DecodeQueryAssignmentRequestBody(data []byte) (*QueryAssignmentRequestBody, error) {
	b := &QueryAssignmentRequestBody{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "topic":
			b.Topic, err = r.Str()
		case "consumergroup":
			b.ConsumerGroup, err = r.Str()
		case "clientid":
			b.ClientID, err = r.Str()
		case "strategyname":
			b.StrategyName, err = r.Str()
		case "messagemodel":
			b.MessageModel, err = r.Enum(messageModelNames)
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// MessageQueueAssignment is one queue of a QUERY_ASSIGNMENT answer and
// how to consume it.
type MessageQueueAssignment struct {
	Queue MessageQueue
	Mode  string // PULL or POP
}

// AppendQueryAssignmentResponse writes QueryAssignmentResponseBody: {}
// for nil (no assignment made), else the assignments in their order.
func AppendQueryAssignmentResponse(dst []byte, assignments []MessageQueueAssignment) []byte {
	if assignments == nil {
		return append(dst, '{', '}')
	}
	dst = append(fastjson.AppendField(append(dst, '{'), "messageQueueAssignments"), '[')
	for i, a := range assignments {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = a.Queue.AppendJSON(fastjson.AppendField(append(dst, '{'), "messageQueue"))
		dst = fastjson.AppendOptionalStringField(dst, "mode", a.Mode, fastjson.Fastjson)
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}
