package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/remoting"
)

// sqlHeartbeat registers group as a consumer of topic with an SQL92
// subscription of that version.
func sqlHeartbeat(t *testing.T, group, topic, expr string, version int64) *remoting.Command {
	hb := heartbeatData{ClientID: "c1", ConsumerDataSet: []consumerData{{
		GroupName: group, ConsumeType: consumePassively, MessageModel: modelClustering, ConsumeFromWhere: "CONSUME_FROM_FIRST_OFFSET",
		SubscriptionDataSet: []subscriptionData{{Topic: topic, SubString: expr, ExpressionType: expressionTypeSQL92, SubVersion: version}},
	}}}
	body, err := jsonAPI.Marshal(hb)
	require.NoError(t, err)
	return withBody(remoting.NewRequest(remoting.HeartBeat, nil), body)
}

func checkConfigRequest(t *testing.T, group, topic, expr string) *remoting.Command {
	body, err := jsonAPI.Marshal(map[string]any{"group": group, "subscriptionData": subscriptionData{Topic: topic, SubString: expr, ExpressionType: expressionTypeSQL92}})
	require.NoError(t, err)
	return withBody(remoting.NewRequest(remoting.CheckClientConfig, nil), body)
}

// With enablePropertyFilter a group subscribed with SQL92 pulls only the
// messages whose properties satisfy the expression; a bad expression is
// refused when the consumer starts; the filter is kept in
// consumerFilter.json.
func TestSQL92SubscriptionFiltersByProperties(t *testing.T) {
	dir := t.TempDir()
	c := testConfigs(dir, "")
	c.Broker.EnablePropertyFilter = true
	b := startBroker(t, c, nil)
	cl := newClient(t, nil)

	resp := invoke(t, cl, b.Addr(), checkConfigRequest(t, "GS", "TS", "a >"))
	assert.Equal(t, int32(remoting.SubscriptionParseFailed), resp.Code)
	assert.Contains(t, resp.Remark, "org.apache.rocketmq.filter.parser.ParseException: ")
	resp = invoke(t, cl, b.Addr(), checkConfigRequest(t, "GS", "TS", "a > 5 AND color = 'red'"))
	assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)

	for _, p := range []map[string]string{{"a": "3", "color": "red"}, {"a": "7", "color": "red"}, {"color": "red"}, {"a": "9", "color": "blue"}, {"a": "8", "color": "red"}} {
		body := []byte("a=" + p["a"] + " color=" + p["color"])
		require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), withBody(sendRequest("TS", 0, nil, p), body)).Code)
	}
	dispatched(t, b)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), sqlHeartbeat(t, "GS", "TS", "a > 5 AND color = 'red'", 100)).Code)

	resp = invoke(t, cl, b.Addr(), pullRequest("GS", "TS", 0, 0, "", 0, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var got []string
	for _, r := range decodeRecords(t, resp.Body) {
		got = append(got, string(r.Body))
	}
	assert.Equal(t, []string{"a=7 color=red", "a=8 color=red"}, got)
	assert.Equal(t, "5", resp.ExtString("nextBeginOffset"))

	stale := pullRequest("GS", "TS", 0, 0, "", 0, 0)
	stale.ExtFields["subVersion"] = "200"
	assert.Equal(t, int32(remoting.SubscriptionNotLatest), invoke(t, cl, b.Addr(), stale).Code)

	require.NoError(t, b.Close())
	w, _, err := configfile.Dir{Path: dir + "/store/config"}.LoadConsumerFilters()
	require.NoError(t, err)
	f := w.FilterDataByTopic["TS"].GroupFilterData["GS"]
	assert.Equal(t, "a > 5 AND color = 'red'", f.Expression)
	assert.Equal(t, "SQL92", f.ExpressionType)
	assert.Equal(t, int64(100), f.ClientVersion)
}

// Without enablePropertyFilter (the default) an SQL92 subscription is
// refused, never served unfiltered.
func TestSQL92NeedsEnablePropertyFilter(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), checkConfigRequest(t, "GS", "TS", "a > 5"))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "The broker does not support consumer to filter message by SQL92", resp.Remark)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), withBody(sendRequest("TS", 0, nil, nil), []byte("x"))).Code)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), sqlHeartbeat(t, "GS", "TS", "a > 5", 100)).Code)
	resp = invoke(t, cl, b.Addr(), pullRequest("GS", "TS", 0, 0, "", 0, 0))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
}
