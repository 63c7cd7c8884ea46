package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestConsumeStatsFastjsonForm(t *testing.T) {
	s := &ConsumeStats{OffsetTable: map[MessageQueue]OffsetWrapper{
		{Topic: "T", BrokerName: "b", QueueID: 1}: {BrokerOffset: 5, ConsumerOffset: 4, LastTimestamp: 9},
		{Topic: "T", BrokerName: "b", QueueID: 0}: {BrokerOffset: 2, ConsumerOffset: 2},
	}}
	assert.Equal(t, `{"consumeTps":0.0,"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{"brokerOffset":2,"consumerOffset":2,"lastTimestamp":0},`+
		`{"brokerName":"b","queueId":1,"topic":"T"}:{"brokerOffset":5,"consumerOffset":4,"lastTimestamp":9}}}`, string(s.AppendJSON(nil, Line4)))
	s.ConsumeTps = 1.5
	assert.Contains(t, string(s.AppendJSON(nil, Line5)), `"consumeTps":1.5,`)
	assert.Contains(t, string(s.AppendJSON(nil, Line5)), `"lastTimestamp":9,"pullOffset":0}`)
}
