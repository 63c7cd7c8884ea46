package protocol

import (
	"encoding/base64"
	"errors"
	"strings"
)

// The recall handle (5.x, RecallMessageHandle.HandleV1): what a single
// send of a timer message is answered with (SendMessageResponseHeader's
// recallHandle, the gRPC SendResultEntry's recall_handle) and what
// RECALL_MESSAGE (the gRPC RecallMessage) takes back to cancel it. Five
// fields joined by one space, then base64url with '=' padding
// (java.util.Base64.getUrlEncoder) (wire format: do not change):
//
//	v1 <topic> <brokerName> <timestamp> <messageId>
//	v1 TopicA broker-a 1700000005001 7F00000100002A9F0000000000000000
//	-> djEgVG9waWNBIGJyb2tlci1hIDE3MDAwMDAwMDUwMDEgN0YwMDAwMDEwMDAwMkE5RjAwMDAwMDAwMDAwMDAwMDA=
//
// topic is the message's real topic, timestamp its TIMER_OUT_MS (its
// slot, rounded down to the timer's precision) plus one, so that the
// recall's own delivery time rounds down to the same slot; messageId is
// its UNIQ_KEY.
//
// Decoding is RecallMessageHandle.decodeHandle: Java's URL-safe decoder
// (padding optional, but complete when present; no other character, not
// even a line break), the text split at each space with the empty fields
// at the end dropped (String.split), the first field "v1" and at least
// five fields (the ones past the fifth ignored). The decoded bytes are
// kept as they are (Java makes a String of them, malformed UTF-8 becoming
// U+FFFD). Difference from Java: a handle of spaces only, which Java's
// decodeHandle fails on with an ArrayIndexOutOfBoundsException (a
// SYSTEM_ERROR naming it from the broker), is refused as any other.

// RecallHandleVersion is the handle's first field.
const RecallHandleVersion = "v1"

// ErrRecallHandle is a handle decodeHandle refuses; its text is Java's
// DecoderException message, which the broker and the proxy answer with.
var ErrRecallHandle = errors.New("recall handle is invalid")

// RecallHandle is a decoded handle (HandleV1).
type RecallHandle struct {
	Topic      string
	BrokerName string
	// Timestamp is the text of the timestamp field (the broker reads it
	// as a number, -1 when it is not one).
	Timestamp string
	MessageID string
}

// Encode is HandleV1.buildHandle (the fields are not checked, as Java
// does not check them).
func (h RecallHandle) Encode() string {
	raw := strings.Join([]string{RecallHandleVersion, h.Topic, h.BrokerName, h.Timestamp, h.MessageID}, " ")
	return base64.URLEncoding.EncodeToString([]byte(raw))
}

// DecodeRecallHandle is RecallMessageHandle.decodeHandle.
func DecodeRecallHandle(s string) (RecallHandle, error) {
	if s == "" {
		return RecallHandle{}, ErrRecallHandle
	}
	raw, err := decodeJavaURLBase64(s)
	if err != nil {
		return RecallHandle{}, ErrRecallHandle
	}
	items := javaSplit(string(raw), ' ')
	if len(items) < 5 || items[0] != RecallHandleVersion {
		return RecallHandle{}, ErrRecallHandle
	}
	return RecallHandle{Topic: items[1], BrokerName: items[2], Timestamp: items[3], MessageID: items[4]}, nil
}

// decodeJavaURLBase64 is Base64.getUrlDecoder().decode: the padding may
// be left out; Go's decoders would also skip line breaks, which Java
// refuses.
func decodeJavaURLBase64(s string) ([]byte, error) {
	if strings.ContainsAny(s, "\r\n") {
		return nil, ErrRecallHandle
	}
	if strings.HasSuffix(s, "=") {
		return base64.URLEncoding.DecodeString(s)
	}
	return base64.RawURLEncoding.DecodeString(s)
}

// javaSplit is String.split of a one-character pattern: the empty fields
// at the end are dropped ("" itself splits into one empty field).
func javaSplit(s string, sep byte) []string {
	items := strings.Split(s, string(sep))
	if s == "" {
		return items
	}
	for len(items) > 0 && items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	return items
}
