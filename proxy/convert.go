package proxy

// A broker's message as a gRPC Message (GrpcConverter.buildMessage):
// the properties the SDKs read as system properties, the others as user
// properties; the receipt handle is the POP_CK property.

import (
	"crypto/md5"
	"encoding/hex"
	"net"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/store"
)

// toMessage converts a popped record whose properties were read into
// props (POP_CK holds its receipt handle).
func toMessage(rec *store.Record, props map[string]string) *apiv2.Message {
	sp := &apiv2.SystemProperties{}
	if tag, ok := props[propTags]; ok {
		sp.Tag = &tag
	}
	if keys, ok := props[propKeys]; ok {
		sp.Keys = strings.Split(keys, keySeparator)
	}
	sp.MessageId = props[propUniqKey]
	if sp.MessageId == "" {
		sp.MessageId = rec.MsgID()
	}
	sum := md5.Sum(rec.Body)
	sp.BodyDigest = &apiv2.Digest{Type: apiv2.DigestType_MD5, Checksum: strings.ToUpper(hex.EncodeToString(sum[:]))}
	sp.BodyEncoding = apiv2.Encoding_IDENTITY
	if rec.SysFlag&sysFlagCompressed != 0 {
		sp.BodyEncoding = apiv2.Encoding_GZIP
	}
	sp.MessageType = messageTypeOfProps(props)
	sp.BornTimestamp = timestamppb.New(time.UnixMilli(rec.BornTimestamp))
	if h := props[propBornHost]; strings.TrimSpace(h) != "" {
		sp.BornHost = h
	} else {
		sp.BornHost = hostString(rec.BornHost.String())
	}
	sp.StoreTimestamp = timestamppb.New(time.UnixMilli(rec.StoreTimestamp))
	sp.StoreHost = rec.StoreHost.String()
	if s, ok := props[propTimerDelaySec]; ok {
		n, _ := strconv.ParseInt(s, 10, 64)
		sp.DeliveryTimestamp = timestamppb.New(time.Now().Add(time.Duration(n) * time.Second))
	} else if s, ok := props[propTimerDeliverMs]; ok {
		n, _ := strconv.ParseInt(s, 10, 64)
		sp.DeliveryTimestamp = timestamppb.New(time.UnixMilli(n))
	}
	if g, ok := props[propShardingKey]; ok {
		sp.MessageGroup = &g
	}
	if h, ok := props[propPopCK]; ok {
		sp.ReceiptHandle = &h
	}
	sp.QueueId = rec.QueueID
	sp.QueueOffset = &rec.QueueOffset
	sp.DeliveryAttempt = proto32(rec.ReconsumeTimes + 1)
	if t, ok := props[propTraceContext]; ok {
		sp.TraceContext = &t
	}
	if t, m := props[propDLQOriginTopic], props[propDLQOriginMsgID]; t != "" && m != "" {
		sp.DeadLetterQueue = &apiv2.DeadLetterQueue{Topic: t, MessageId: m}
	}
	user := map[string]string{}
	for k, v := range props {
		if !systemProperty[k] {
			user[k] = v
		}
	}
	return &apiv2.Message{Topic: &apiv2.Resource{Name: rec.Topic}, UserProperties: user, SystemProperties: sp, Body: rec.Body}
}

// messageTypeOfProps is the message type the properties say.
func messageTypeOfProps(props map[string]string) apiv2.MessageType {
	switch {
	case props[propTranPrepared] == "true":
		return apiv2.MessageType_TRANSACTION
	case props[propDelayLevel] != "" || props[propTimerDeliverMs] != "" || props[propTimerDelaySec] != "":
		return apiv2.MessageType_DELAY
	case props[propShardingKey] != "":
		return apiv2.MessageType_FIFO
	}
	return apiv2.MessageType_NORMAL
}

// hostString is a host:port without the brackets Go puts around IPv6.
func hostString(hp string) string {
	host, port, err := net.SplitHostPort(hp)
	if err != nil {
		return hp
	}
	return host + ":" + port
}

func proto32(v int32) *int32 { return &v }
