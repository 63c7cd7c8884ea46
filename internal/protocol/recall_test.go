package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The handles and answers below are what 5.3.3's RecallMessageHandle
// (rocketmq-common 5.3.3, in jshell) builds and decodes.

func TestRecallHandleIsBuiltAsJavaBuildsIt(t *testing.T) {
	h := RecallHandle{Topic: "TopicA", BrokerName: "broker-a", Timestamp: "1700000005001", MessageID: "7F00000100002A9F0000000000000000"}
	const want = "djEgVG9waWNBIGJyb2tlci1hIDE3MDAwMDAwMDUwMDEgN0YwMDAwMDEwMDAwMkE5RjAwMDAwMDAwMDAwMDAwMDA="
	assert.Equal(t, want, h.Encode())
	got, err := DecodeRecallHandle(want)
	require.NoError(t, err)
	assert.Equal(t, h, got)

	// the URL-safe alphabet ('-' and '_', never '+' or '/') and the padding
	odd := RecallHandle{Topic: "t?>", BrokerName: "b~", Timestamp: "1", MessageID: "??>"}
	assert.Equal(t, "djEgdD8-IGJ-IDEgPz8-", odd.Encode())
	got, err = DecodeRecallHandle(odd.Encode())
	require.NoError(t, err)
	assert.Equal(t, odd, got)
}

func TestRecallHandleIsDecodedAsJavaDecodesIt(t *testing.T) {
	for _, c := range []struct {
		handle string
		want   *RecallHandle // nil: "recall handle is invalid"
	}{
		{"", nil},
		{"YQ", nil},   // "a": one field
		{"YQ=", nil},  // incomplete padding
		{"YQ==", nil}, // complete padding, still one field
		{"djEgYSBiIGMgZA", &RecallHandle{"a", "b", "c", "d"}},   // no padding
		{"djEgYSBiIGMgZA==", &RecallHandle{"a", "b", "c", "d"}}, // padding
		{"djEgYSBiIGMgZCBl", &RecallHandle{"a", "b", "c", "d"}}, // a sixth field, ignored
		{"djEgYSBiIGMg", nil}, // "v1 a b c ": the trailing empty field dropped
		{"djEgYSBiIGMgZCA=", &RecallHandle{"a", "b", "c", "d"}}, // "v1 a b c d "
		{"djEgIGEgYiBj", &RecallHandle{"", "a", "b", "c"}},      // "v1  a b c": an empty topic
		{"dj+g", nil},               // '+' is not URL-safe
		{"djEgYSBi\nIGMgZA==", nil}, // no line breaks
		{RecallHandle{"a", "b", "c", "d"}.Encode() + "YQ==", nil}, // nothing after the padding
		{"djIgYSBiIGMgZA==", nil},                                 // "v2 a b c d"
	} {
		got, err := DecodeRecallHandle(c.handle)
		if c.want == nil {
			assert.ErrorIs(t, err, ErrRecallHandle, "%q", c.handle)
			assert.EqualError(t, err, "recall handle is invalid")
			continue
		}
		require.NoError(t, err, "%q", c.handle)
		assert.Equal(t, *c.want, got, "%q", c.handle)
	}
}
