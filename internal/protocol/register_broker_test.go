package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func want533Topics() map[string]TopicConfig {
	return map[string]TopicConfig{
		"TopicTest": {TopicName: "TopicTest", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicFilterType: SingleTag, Attributes: map[string]string{}},
		"TBW102":    {TopicName: "TBW102", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 7, TopicFilterType: SingleTag, Attributes: map[string]string{}},
		"UnitTopic": {TopicName: "UnitTopic", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicFilterType: SingleTag,
			TopicSysFlag: 3, Order: true, Attributes: map[string]string{"message.type": "FIFO"}},
	}
}

var want533Mapping = map[string]TopicQueueMappingInfo{"StaticTopic": {Topic: "StaticTopic", Scope: MetadataScopeGlobal,
	TotalQueues: 8, Bname: "broker-a", Epoch: 5, CurrIDMap: map[int32]int32{0: 0, 1: 1}}}

// RegisterBrokerBody.encode() of a 5.3.3 broker: the wrapper is a
// TopicConfigAndMappingSerializeWrapper whose topicQueueMappingDetailMap
// holds fastjson's bare Integer keys ({0:[...]}), not standard JSON.
func TestDecodeRegisterBody533JSON(t *testing.T) {
	b, err := DecodeRegisterBrokerBody(fixture(t, "register_body_533.json"), false, VersionV5_3_3)
	require.NoError(t, err)
	w := b.TopicConfigSerializeWrapper
	assert.Equal(t, DataVersion{StateVersion: 2, Timestamp: 1700000000000, Counter: 3}, w.DataVersion)
	assert.Equal(t, want533Topics(), w.TopicConfigTable)
	assert.Equal(t, want533Mapping, w.TopicQueueMappingInfoMap)
	assert.Equal(t, []string{"192.168.1.10:40000"}, b.FilterServerList)
	require.NotNil(t, w.MappingDataVersion)
}

// RegisterBrokerBody.encode(true) of a 5.3.3 broker: topicSysFlag and
// order are not carried by TopicConfig.encode(), so they read as 0/false.
func TestDecodeRegisterBody533Compressed(t *testing.T) {
	b, err := DecodeRegisterBrokerBody(fixture(t, "register_body_533.zlib"), true, VersionV5_3_3)
	require.NoError(t, err)
	w := b.TopicConfigSerializeWrapper
	want := want533Topics()
	unit := want["UnitTopic"]
	unit.TopicSysFlag, unit.Order = 0, false
	want["UnitTopic"] = unit
	assert.Equal(t, want, w.TopicConfigTable)
	assert.Equal(t, DataVersion{StateVersion: 2, Timestamp: 1700000000000, Counter: 3}, w.DataVersion)
	assert.Equal(t, want533Mapping, w.TopicQueueMappingInfoMap)
	assert.Equal(t, []string{"192.168.1.10:40000"}, b.FilterServerList)
}

func TestDecodeRegisterBody498(t *testing.T) {
	want := map[string]TopicConfig{
		"TopicTest": {TopicName: "TopicTest", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicFilterType: SingleTag},
		"UnitTopic": {TopicName: "UnitTopic", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6, TopicFilterType: SingleTag, TopicSysFlag: 3, Order: true},
	}
	b, err := DecodeRegisterBrokerBody(fixture(t, "register_body_498.json"), false, VersionV4_9_8)
	require.NoError(t, err)
	assert.Equal(t, want, b.TopicConfigSerializeWrapper.TopicConfigTable)
	assert.Equal(t, []string{}, b.FilterServerList)
	assert.Equal(t, DataVersion{Timestamp: 1700000000000, Counter: 3}, b.TopicConfigSerializeWrapper.DataVersion)

	b, err = DecodeRegisterBrokerBody(fixture(t, "register_body_498.zlib"), true, VersionV4_9_8)
	require.NoError(t, err)
	unit := want["UnitTopic"]
	unit.TopicSysFlag, unit.Order = 0, false
	want["UnitTopic"] = unit
	assert.Equal(t, want, b.TopicConfigSerializeWrapper.TopicConfigTable)

	w, err := DecodeTopicConfigSerializeWrapper(fixture(t, "topic_config_wrapper_498.json"))
	require.NoError(t, err)
	assert.Len(t, w.TopicConfigTable, 2)
	assert.Nil(t, w.MappingDataVersion)
}

func TestCompressedRoundTrip(t *testing.T) {
	for _, version := range []int32{VersionV4_9_8, VersionV5_3_3} {
		b := &RegisterBrokerBody{FilterServerList: []string{}}
		b.TopicConfigSerializeWrapper.DataVersion = DataVersion{Counter: 9, Timestamp: 1700000000001}
		b.TopicConfigSerializeWrapper.TopicConfigTable = map[string]TopicConfig{"T": NewTopicConfig("T")}
		if version >= VersionV5_0_0 {
			b.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = want533Mapping
		}
		data, err := b.EncodeCompressed(version)
		require.NoError(t, err)
		back, err := DecodeRegisterBrokerBody(data, true, version)
		require.NoError(t, err)
		assert.Equal(t, b, back)
	}
}

func TestRegisterBodyJSONRoundTrip(t *testing.T) {
	b, err := DecodeRegisterBrokerBody(fixture(t, "register_body_533.json"), false, VersionV5_3_3)
	require.NoError(t, err)
	back, err := DecodeRegisterBrokerBody(b.AppendJSON(nil), false, VersionV5_3_3)
	require.NoError(t, err)
	assert.Equal(t, b, back)
}

func TestCompressedBodyErrors(t *testing.T) {
	_, err := DecodeRegisterBrokerBody([]byte("not zlib"), true, VersionV4_9_8)
	assert.ErrorIs(t, err, ErrMalformedBody)
	good := fixture(t, "register_body_498.zlib")
	_, err = DecodeRegisterBrokerBody(good[:len(good)/2], true, VersionV4_9_8)
	assert.ErrorIs(t, err, ErrMalformedBody)
	// A 4.9.8 body read as a 5.x one lacks the mapping count.
	_, err = DecodeRegisterBrokerBody(good, true, VersionV5_3_3)
	assert.ErrorIs(t, err, ErrMalformedBody)
}

func TestTopicConfigLine(t *testing.T) {
	c := NewTopicConfig("T")
	assert.Equal(t, "T 16 16 6 SINGLE_TAG", string(c.AppendLine(nil, false)))
	assert.Equal(t, "T 16 16 6 SINGLE_TAG ", string(c.AppendLine(nil, true)))
	c.Attributes = map[string]string{"+a": "b"}
	assert.Equal(t, `T 16 16 6 SINGLE_TAG {"+a":"b"}`, string(c.AppendLine(nil, true)))
	back, err := ParseTopicConfigLine(`T 16 16 6 SINGLE_TAG {"+a":"b"}`)
	require.NoError(t, err)
	assert.Equal(t, c, back)
	_, err = ParseTopicConfigLine("T 16 16 6")
	assert.ErrorIs(t, err, ErrMalformedBody)
	_, err = ParseTopicConfigLine("T x 16 6 SINGLE_TAG")
	assert.ErrorIs(t, err, ErrMalformedBody)
	_, err = ParseTopicConfigLine("T 1 1 6 NO_SUCH_TYPE")
	assert.ErrorIs(t, err, ErrMalformedBody)
	back, err = ParseTopicConfigLine("T 1 1 6 MULTI_TAG {broken")
	require.NoError(t, err)
	assert.Nil(t, back.Attributes)
}

func TestBodyCRC32IsUtilAllCrc32(t *testing.T) {
	// UtilAll.crc32 clears the sign bit of java.util.zip.CRC32.
	assert.Equal(t, int32(0x3610a686&0x7FFFFFFF), BodyCRC32([]byte("hello")))
	assert.Equal(t, int32(0), BodyCRC32(nil))
}

func TestRegisterBrokerResult(t *testing.T) {
	r := &RegisterBrokerResult{MasterAddr: "10.0.0.1:10911", HAServerAddr: "10.0.0.1:10912"}
	h := r.Header()
	assert.Equal(t, map[string]string{"masterAddr": "10.0.0.1:10911", "haServerAddr": "10.0.0.1:10912"}, h)
	back, err := DecodeRegisterBrokerResult(h, []byte(`{"table":{"T":"broker-a:4"}}`))
	require.NoError(t, err)
	assert.Equal(t, "broker-a:4", back.KVTable.Table["T"])
	assert.Empty(t, (&RegisterBrokerResult{}).Header())
}

func TestDataVersion(t *testing.T) {
	v, err := DecodeDataVersion([]byte(`{"counter":3,"timestamp":1700000000000}`))
	require.NoError(t, err)
	assert.Equal(t, DataVersion{Counter: 3, Timestamp: 1700000000000}, v)
	assert.Equal(t, `{"counter":3,"stateVersion":0,"timestamp":1700000000000}`, string(v.AppendJSON(nil)))
}
