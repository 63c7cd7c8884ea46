package remoting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJavaFramesRoundTrip decodes every frame the Java 4.9.8 classes wrote
// (testdata/frames, see its README), checks what a Java peer put in it, and
// re-encodes it: our bytes must decode to the same command. Byte equality
// is not expected, since Java writes extFields in HashMap order and we sort.
func TestJavaFramesRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../testdata/frames/*.bin")
	require.NoError(t, err)
	require.NotEmpty(t, files, "testdata/frames holds the Java frames")
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		cmd, n, err := DecodeFrame(data, MaxFrameLength)
		require.NoError(t, err, file)
		assert.Equal(t, len(data), n, "%s: one whole frame", file)
		assert.Equal(t, int32(409), cmd.Version, file)
		assert.Equal(t, LanguageJava, cmd.Language, file)
		wantType := SerializeJSON
		if strings.HasSuffix(file, ".rocketmq.bin") {
			wantType = SerializeRocketMQ
		}
		assert.Equal(t, wantType, cmd.SerializeType, file)

		again, err := cmd.AppendFrame(nil)
		require.NoError(t, err, file)
		back, _, err := DecodeFrame(again, MaxFrameLength)
		require.NoError(t, err, file)
		cmd.ExtFields.sort() // Java's HashMap order in; sorted by key out
		assert.Equal(t, cmd, back, file)
	}
}

func TestJavaFramesContent(t *testing.T) {
	read := func(name string) *Command {
		data, err := os.ReadFile(filepath.Join("../testdata/frames", name))
		require.NoError(t, err)
		cmd, _, err := DecodeFrame(data, MaxFrameLength)
		require.NoError(t, err, name)
		return cmd
	}
	for _, enc := range []string{"json", "rocketmq"} {
		req := read("get_routeinfo_by_topic_request." + enc + ".bin")
		assert.Equal(t, int32(GetRouteinfoByTopic), req.Code)
		assert.Equal(t, "TopicTest", req.ExtString("topic"))
		assert.Equal(t, int32(7), req.Opaque)
		assert.False(t, req.IsResponse())

		send := read("send_message_v2_request." + enc + ".bin")
		assert.Equal(t, int32(SendMessageV2), send.Code)
		assert.Equal(t, "please_rename_unique_group_name", send.ExtString("a"))
		assert.Equal(t, "TopicTest", send.ExtString("b"))
		assert.Contains(t, send.ExtString("i"), "UNIQ_KEY\x017F000001109218B4AAC2136C4A000000")
		assert.Equal(t, []byte("Hello RocketMQ 0"), send.Body)

		oneway := read("update_consumer_offset_oneway_request." + enc + ".bin")
		assert.True(t, oneway.IsOneway())

		ns := read("request_code_not_supported_response." + enc + ".bin")
		assert.True(t, ns.IsResponse())
		assert.Equal(t, int32(RequestCodeNotSupported), ns.Code)
		assert.Equal(t, " request type 351 not supported", ns.Remark)

		pull := read("pull_message_response." + enc + ".bin")
		n, err := pull.ExtInt64("nextBeginOffset")
		require.NoError(t, err)
		assert.Positive(t, n)
		assert.Len(t, pull.Body, 432, "two 216-byte stored messages")
	}
}

// TestNotSupportedMatchesJava compares our framework answer with the one the
// Java server built.
func TestNotSupportedMatchesJava(t *testing.T) {
	data, err := os.ReadFile("../testdata/frames/request_code_not_supported_response.json.bin")
	require.NoError(t, err)
	java, _, err := DecodeFrame(data, MaxFrameLength)
	require.NoError(t, err)
	req := &Command{Code: 351, Opaque: java.Opaque}
	ours := NotSupported(&Request{Cmd: req})
	ours.Flag |= FlagResponse
	assert.Equal(t, java.Code, ours.Code)
	assert.Equal(t, java.Remark, ours.Remark)
	assert.Equal(t, java.Flag, ours.Flag)
}
