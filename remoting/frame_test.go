package remoting

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// routeRequest is the GET_ROUTEINFO_BY_TOPIC request of docs/reference/protocol.md 1.5.
func routeRequest(st SerializeType) *Command {
	return &Command{Code: 105, Language: LanguageJava, LanguageKnown: true, Version: 409, Opaque: 7,
		ExtFields: FieldsOf(map[string]string{"topic": "TopicTest"}), SerializeType: st}
}

func TestBinaryHeaderMatchesJavaBytes(t *testing.T) {
	want := "0000002d" + "01000029" + "0069" + "00" + "0199" + "00000007" + "00000000" + "00000000" +
		"00000014" + "0005746f706963" + "00000009546f70696354657374"
	got, err := routeRequest(SerializeRocketMQ).AppendFrame(nil)
	require.NoError(t, err)
	assert.Equal(t, want, hex.EncodeToString(got))
}

func TestJSONHeaderMatchesJavaBytes(t *testing.T) {
	header := `{"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":409}`
	got, err := routeRequest(SerializeJSON).AppendFrame(nil)
	require.NoError(t, err)
	require.Len(t, header, 131)
	assert.Equal(t, "0000008700000083", hex.EncodeToString(got[:8]))
	assert.Equal(t, header, string(got[8:]))

	resp := &Command{Code: 0, Language: LanguageJava, LanguageKnown: true, Version: 409, Opaque: 7, Flag: FlagResponse,
		Body: []byte(`{"topicList":["TopicTest"]}`)}
	got, err = resp.AppendFrame(nil)
	require.NoError(t, err)
	assert.Equal(t, "0000007e0000005f", hex.EncodeToString(got[:8]))
	assert.Equal(t, `{"code":0,"flag":1,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":409}`, string(got[8:8+95]))
}

func TestRoundTripBothEncodings(t *testing.T) {
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		in := &Command{Code: 310, Language: LanguageJava, LanguageKnown: true, Version: 409, Opaque: -5, Flag: FlagOneway,
			Remark: "héllo \"quoted\"\n\x01", HasRemark: true, SerializeType: st,
			ExtFields: FieldsOf(map[string]string{"a": "group", "i": "UNIQ_KEY\x01AC11\x02TAGS\x01TagA\x02", "k": "false"}),
			Body:      []byte("body bytes")}
		frame, err := in.AppendFrame(nil)
		require.NoError(t, err)
		out, n, err := DecodeFrame(frame, MaxFrameLength)
		require.NoError(t, err, st)
		assert.Equal(t, len(frame), n)
		assert.Equal(t, in, out, st)
	}
}

func TestJSONHeaderToleratesJavaAndGoPeers(t *testing.T) {
	cases := map[string]func(*testing.T, *Command){
		// rocketmq-client-go: empty remark and extFields always present.
		`{"code":105,"language":"GO","version":317,"opaque":3,"flag":0,"remark":"","extFields":{}}`: func(t *testing.T, c *Command) {
			assert.Equal(t, int32(105), c.Code)
			assert.True(t, c.HasRemark)
			assert.Equal(t, "", c.Remark)
			assert.NotNil(t, c.ExtFields)
			assert.Equal(t, "GO", c.Language.String())
		},
		// Numbers and booleans in extFields become strings; keys match in any case.
		`{"CODE":11,"extFields":{"queueId":3,"commitOffset":-1,"b":true,"n":null},"Opaque":9,"unknown":[1,2]}`: func(t *testing.T, c *Command) {
			assert.Equal(t, int32(11), c.Code)
			assert.Equal(t, int32(9), c.Opaque)
			assert.Equal(t, map[string]string{"queueId": "3", "commitOffset": "-1", "b": "true"}, c.ExtFields.Map())
			assert.Equal(t, int32(0), c.Version, "a missing version decodes as 0")
		},
		`{"code":1,"language":"COBOL"}`: func(t *testing.T, c *Command) {
			assert.False(t, c.LanguageKnown)
		},
		// fastjson reads an enum from its ordinal too.
		`{"code":1,"language":9}`: func(t *testing.T, c *Command) {
			assert.True(t, c.LanguageKnown)
			assert.Equal(t, LanguageGo, c.Language)
		},
	}
	for header, check := range cases {
		frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(header)))
		frame = binary.BigEndian.AppendUint32(frame, uint32(len(header)))
		frame = append(frame, header...)
		cmd, _, err := DecodeFrame(frame, MaxFrameLength)
		require.NoError(t, err, header)
		check(t, cmd)
	}
}

func TestBinaryEmptyStringsReadAsAbsent(t *testing.T) {
	in := &Command{Code: 1, ExtFields: FieldsOf(map[string]string{"empty": "", "k": "v"}), SerializeType: SerializeRocketMQ, HasRemark: true}
	frame, err := in.AppendFrame(nil)
	require.NoError(t, err)
	out, _, err := DecodeFrame(frame, MaxFrameLength)
	require.NoError(t, err)
	assert.False(t, out.HasRemark)
	assert.Equal(t, map[string]string{"k": "v"}, out.ExtFields.Map())
}

func TestBinaryCodeIsSixteenBits(t *testing.T) {
	// Java writes codes with writeShort: 200050 travels as 3442.
	in := &Command{Code: 200050, SerializeType: SerializeRocketMQ}
	frame, err := in.AppendFrame(nil)
	require.NoError(t, err)
	out, _, err := DecodeFrame(frame, MaxFrameLength)
	require.NoError(t, err)
	assert.Equal(t, int32(3442), out.Code)
}

func TestShortBufferNeedsMore(t *testing.T) {
	frame, err := routeRequest(SerializeJSON).AppendFrame(nil)
	require.NoError(t, err)
	for i := 0; i < len(frame); i++ {
		_, _, err := DecodeFrame(frame[:i], MaxFrameLength)
		assert.ErrorIs(t, err, ErrNeedMore, "prefix of %d bytes", i)
	}
}

func TestMalformedFramesAreErrors(t *testing.T) {
	cases := map[string][]byte{
		"oversize":             binary.BigEndian.AppendUint32(nil, MaxFrameLength-3),
		"negative length":      {0xff, 0xff, 0xff, 0xff},
		"length below word":    {0, 0, 0, 3, 0, 0, 0},
		"header past frame":    {0, 0, 0, 8, 0, 0, 0, 9, '{', '}', 0, 0},
		"unknown serializer":   {0, 0, 0, 6, 7, 0, 0, 2, '{', '}'},
		"json not object":      {0, 0, 0, 6, 0, 0, 0, 2, '[', ']'},
		"json broken":          {0, 0, 0, 7, 0, 0, 0, 3, '{', '"', 'c'},
		"binary short":         {0, 0, 0, 7, 1, 0, 0, 3, 1, 2, 3},
		"binary remark length": append([]byte{0, 0, 0, 25, 1, 0, 0, 21}, append(make([]byte, 13), 0x7f, 0, 0, 0, 0, 0, 0, 0)...),
	}
	for name, frame := range cases {
		_, _, err := DecodeFrame(frame, MaxFrameLength)
		assert.Error(t, err, name)
		assert.NotErrorIs(t, err, ErrNeedMore, name)
	}
	_, err := FrameLength(binary.BigEndian.AppendUint32(nil, MaxFrameLength-4), MaxFrameLength)
	assert.NoError(t, err, "the largest frame Java accepts")
}

func TestAppendHeaderCountsBody(t *testing.T) {
	c := &Command{Code: 0, Flag: FlagResponse, ExtFields: FieldsOf(map[string]string{"nextBeginOffset": "10"})}
	body := []byte(strings.Repeat("x", 100))
	head, err := c.AppendHeader(nil, len(body))
	require.NoError(t, err)
	out, n, err := DecodeFrame(append(head, body...), MaxFrameLength)
	require.NoError(t, err)
	assert.Equal(t, len(head)+len(body), n)
	assert.Equal(t, body, out.Body)
}

// FuzzDecodeSplit feeds arbitrary bytes to the decoder, whole and split at
// random points as a socket would deliver them; it must never panic, and a
// frame it accepts must decode the same however it was split.
func FuzzDecodeSplit(f *testing.F) {
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		frame, _ := routeRequest(st).AppendFrame(nil)
		f.Add(frame, int64(1))
		f.Add(append(frame, frame[:7]...), int64(2))
	}
	f.Add([]byte{0, 0, 0, 0}, int64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		whole, wholeN, wholeErr := DecodeFrame(data, 1<<20)
		rng := rand.New(rand.NewSource(seed))
		var buf []byte
		for rest := data; len(rest) > 0; {
			k := 1 + rng.Intn(len(rest))
			buf, rest = append(buf, rest[:k]...), rest[k:]
			cmd, n, err := DecodeFrame(buf, 1<<20)
			if err == ErrNeedMore {
				continue
			}
			if err != nil || wholeErr != nil {
				if (err == nil) != (wholeErr == nil) {
					t.Fatalf("split decode err=%v, whole err=%v", err, wholeErr)
				}
				return
			}
			if n != wholeN || cmd.String() != whole.String() {
				t.Fatalf("split decode differs: %v vs %v", cmd, whole)
			}
			return
		}
	})
}
