package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
)

// createTopic sends UPDATE_AND_CREATE_TOPIC for topic with 4 queues and
// the attributes modification string (none when empty).
func createTopic(t *testing.T, c *remoting.Client, b *Broker, topic, attributes string) *remoting.Command {
	t.Helper()
	h := map[string]string{"topic": topic, "defaultTopic": TopicAutoCreate, "readQueueNums": "4", "writeQueueNums": "4",
		"perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"}
	if attributes != "" {
		h["attributes"] = attributes
	}
	return invoke(t, c, b.Addr(), remoting.NewRequest(remoting.UpdateAndCreateTopic, h))
}

// A 5.x topic's attributes: set at creation, changed, deleted, each
// check answered with 5.3.3's code and text; BatchCQ and COMPACTION are
// refused here; a 4.x broker ignores the header.
func TestLine5TopicAttributesAreAlteredAsJavaAlters(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	attrs := func(topic string) map[string]string {
		tc, ok := b.topics.get(topic)
		require.True(t, ok, topic)
		return tc.Attributes
	}
	ok := func(topic, mod string) {
		t.Helper()
		resp := createTopic(t, c, b, topic, mod)
		require.Equal(t, int32(remoting.Success), resp.Code, "%s %q: %s", topic, mod, resp.Remark)
	}
	ok("TA", "+message.type=FIFO,+queue.type=SimpleCQ")
	assert.Equal(t, map[string]string{"message.type": "FIFO", "queue.type": "SimpleCQ"}, attrs("TA"))
	ok("TA", "+message.type=NORMAL,+reserve.time=72")
	assert.Equal(t, map[string]string{"message.type": "NORMAL", "queue.type": "SimpleCQ", "reserve.time": "72"}, attrs("TA"))
	ok("TA", "")
	assert.Equal(t, map[string]string{"message.type": "NORMAL", "queue.type": "SimpleCQ", "reserve.time": "72"}, attrs("TA"), "kept")
	ok("TA", "-reserve.time")
	assert.Equal(t, map[string]string{"message.type": "NORMAL", "queue.type": "SimpleCQ"}, attrs("TA"))
	ok("TN", "")
	assert.Equal(t, map[string]string{}, attrs("TN"))

	for _, tc := range []struct {
		topic, mod string
		code       remoting.ResponseCode
		remark     string
	}{
		{"TA", "+queue.type=SimpleCQ", remoting.SystemError, "attempt to update an unchangeable attribute. key: queue.type"},
		{"TA", "-cleanup.policy", remoting.SystemError, "attempt to delete a nonexistent key: cleanup.policy"},
		{"TB", "+message.type=BAD", remoting.SystemError, "value is not in set: [UNSPECIFIED, TRANSACTION, FIFO, MIXED, DELAY, NORMAL]"},
		{"TB", "+queue.type=BAD", remoting.SystemError, "value is not in set: [SimpleCQ, BatchCQ]"},
		{"TB", "+cleanup.policy=BAD", remoting.SystemError, "value is not in set: [DELETE, COMPACTION]"},
		{"TB", "+message.type=MIXED", remoting.InvalidParameter, "MIXED message type is not supported."},
		{"TB", "+reserve.time=x", remoting.SystemError, `For input string: "x"`},
		{"TB", "+reserve.time=-2", remoting.SystemError, "value is not in range(-1, 9223372036854775807)"},
		{"TB", "+foo=1", remoting.SystemError, "unsupported key: foo"},
		{"TB", "-message.type", remoting.SystemError, "only add attribute is supported while creating topic. key: message.type"},
		{"TB", "message.type=FIFO", remoting.SystemError, "add/alter attribute format is wrong: message.type"},
		{"TB", "message.type", remoting.SystemError, "delete attribute format is wrong: message.type"},
		{"TB", "+message.type=", remoting.SystemError, "Index 1 out of bounds for length 1"},
		{"TB", "+queue.type=BatchCQ", remoting.SystemError, "queue.type=BatchCQ is not supported by this broker: it writes simple consume queues only"},
		{"TB", "+cleanup.policy=COMPACTION", remoting.SystemError, "cleanup.policy=COMPACTION is not supported by this broker: it keeps no compacted topics"},
	} {
		resp := createTopic(t, c, b, tc.topic, tc.mod)
		assert.Equal(t, int32(tc.code), resp.Code, tc.mod)
		assert.Equal(t, tc.remark, resp.Remark, tc.mod)
	}
	_, made := b.topics.get("TB")
	assert.False(t, made, "no refused topic is made")
	assert.Equal(t, map[string]string{"message.type": "NORMAL", "queue.type": "SimpleCQ"}, attrs("TA"), "refused changes change nothing")

	four := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	resp := createTopic(t, c, four, "T4", "+message.type=BAD")
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	tc, _ := four.topics.get("T4")
	assert.Empty(t, tc.Attributes, "4.x has no attributes")
}

func TestParseAttributeModificationIsJavas(t *testing.T) {
	m, err := parseAttributeModification("+a=1,-b,+c=2=3,")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"+a": "1", "-b": "", "+c": "2"}, m)
	_, err = parseAttributeModification("+a=1,+a=2")
	assert.EqualError(t, err, "key duplication: +a")
	_, err = parseAttributeModification("+a=1,,-b")
	assert.EqualError(t, err, "delete attribute format is wrong: ")
	_, err = parseAttributeModification("=")
	assert.EqualError(t, err, "Index 0 out of bounds for length 0")
}
