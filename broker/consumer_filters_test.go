package broker

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
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
	stale.SetExt("subVersion", "200")
	assert.Equal(t, int32(remoting.SubscriptionNotLatest), invoke(t, cl, b.Addr(), stale).Code)

	require.NoError(t, b.Close())
	w, _, err := configfile.Dir{Path: dir + "/store/config"}.LoadConsumerFilters()
	require.NoError(t, err)
	f := w.FilterDataByTopic["TS"].GroupFilterData["GS"]
	assert.Equal(t, "a > 5 AND color = 'red'", f.Expression)
	assert.Equal(t, "SQL92", f.ExpressionType)
	assert.Equal(t, int64(100), f.ClientVersion)
	require.NotNil(t, f.BloomFilterData, "Java ignores every filter of a file with one without bloom data")
	assert.Equal(t, int32(112), f.BloomFilterData.BitNum)
	assert.Len(t, f.BloomFilterData.BitPos, 3)
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

// filterTableAt opens the filter table of the config directory dir with
// the default broker config and the clock.
func filterTableAt(t *testing.T, dir string, c *conf.BrokerConfigs, clock *testclock.Clock) *filterTable {
	t.Helper()
	ft, err := newFilterTable(configfile.Dir{Path: dir, Line: protocol.Line4}, newLiveSettings(c), zaptest.NewLogger(t), clock.Now)
	require.NoError(t, err)
	return ft
}

// defaultBrokerConfig is the broker configs of testConfigs.
func defaultBrokerConfig(t *testing.T) *conf.BrokerConfigs {
	return testConfigs(t.TempDir(), "")
}

// sqlSub is an SQL92 subscription to topic.
func sqlSub(topic, expr string, version int64) subscriptionData {
	return subscriptionData{Topic: topic, SubString: expr, ExpressionType: expressionTypeSQL92, SubVersion: version}
}

// filterData returns the registered data of group's filter of topic.
func filterData(t *testing.T, ft *filterTable, topic, group string) protocol.ConsumerFilterData {
	t.Helper()
	f, ok := ft.get(topic, group)
	require.True(t, ok, "a filter of %s on %s", group, topic)
	return f.data
}

// writeFilterFile writes consumerFilter.json into dir.
func writeFilterFile(t *testing.T, dir, text string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, configfile.ConsumerFilterFile), []byte(text), 0o644))
}

// readFilterFile reads consumerFilter.json from dir.
func readFilterFile(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, configfile.ConsumerFilterFile))
	require.NoError(t, err)
	return string(data)
}

// The file of a new filter carries its bloom data, as Java writes it:
// "g#T" with the defaults (f 20, n 32: k 3, m 112) is [90,68,28].
func TestFilterFileHasJavasBloomData(t *testing.T) {
	dir, clock := t.TempDir(), testclock.New()
	ft := filterTableAt(t, dir, defaultBrokerConfig(t), clock)
	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 5)})
	ft.persist()
	assert.Equal(t, `{
	"filterDataByTopic":{
		"T":{
			"groupFilterData":{
				"g":{
					"bloomFilterData":{
						"bitNum":112,
						"bitPos":[90,68,28]
					},
					"bornTime":1700000000000,
					"clientVersion":5,
					"consumerGroup":"g",
					"dead":false,
					"deadTime":0,
					"expression":"a > 1",
					"expressionType":"SQL92",
					"topic":"T"
				}
			},
			"topic":"T"
		}
	}
}`, readFilterFile(t, dir))
}

// Only a newer subVersion changes a filter: with the same expression it
// keeps its bornTime and takes the version, with another it is born
// again; one that does not compile removes it. TAG subscriptions, empty
// expressions and new expressions that do not compile register nothing.
func TestFilterRegisterRules(t *testing.T) {
	clock := testclock.New()
	ft := filterTableAt(t, t.TempDir(), defaultBrokerConfig(t), clock)
	born := clock.Now().UnixMilli()
	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 10)})
	want := protocol.ConsumerFilterData{ConsumerGroup: "g", Topic: "T", Expression: "a > 1", ExpressionType: "SQL92", BornTime: born,
		BloomFilterData: &protocol.BloomFilterData{BitPos: []int32{90, 68, 28}, BitNum: 112}, ClientVersion: 10}
	assert.Equal(t, want, filterData(t, ft, "T", "g"))

	clock.Advance(time.Second)
	ft.register("g", []subscriptionData{sqlSub("T", "a > 2", 10)})
	ft.register("g", []subscriptionData{sqlSub("T", "a > 3", 9)})
	assert.Equal(t, want, filterData(t, ft, "T", "g"), "the same or an older version changes nothing")

	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 11)})
	want.ClientVersion = 11
	assert.Equal(t, want, filterData(t, ft, "T", "g"), "a newer version of the same filter keeps bornTime")

	ft.register("g", []subscriptionData{sqlSub("T", "a > 2", 12)})
	want.Expression, want.ClientVersion, want.BornTime = "a > 2", 12, clock.Now().UnixMilli()
	assert.Equal(t, want, filterData(t, ft, "T", "g"), "a new expression is a new filter")
	f, _ := ft.get("T", "g")
	assert.False(t, f.expr.Match(func(string) (string, bool) { return "2", true }))
	assert.True(t, f.expr.Match(func(string) (string, bool) { return "3", true }))

	ft.register("g", []subscriptionData{sqlSub("T", "a >", 13)})
	_, ok := ft.get("T", "g")
	assert.False(t, ok, "a newer expression that does not compile removes the filter")

	ft.register("g", []subscriptionData{
		sqlSub("T", "a >", 14),
		{Topic: "T2", SubString: "*", ExpressionType: expressionTypeTag, SubVersion: 14},
		{Topic: "T3", SubString: "*", SubVersion: 14},
		sqlSub("T4", "", 14),
	})
	assert.Empty(t, ft.wrapperLocked().FilterDataByTopic)
}

// A dead filter comes back (deadTime 0) with the same version, or with a
// newer version of the same filter; an older version leaves it dead.
func TestFilterReAlive(t *testing.T) {
	clock := testclock.New()
	ft := filterTableAt(t, t.TempDir(), defaultBrokerConfig(t), clock)
	born := clock.Now().UnixMilli()
	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 10)})
	clock.Advance(time.Second)
	ft.unregister("g")
	d := filterData(t, ft, "T", "g")
	assert.Equal(t, born+1000, d.DeadTime)
	assert.True(t, d.IsDead())

	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 9)})
	d = filterData(t, ft, "T", "g")
	assert.True(t, d.IsDead(), "an older version leaves it dead")
	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 10)})
	d = filterData(t, ft, "T", "g")
	assert.Equal(t, int64(0), d.DeadTime, "the same version brings it back")
	assert.Equal(t, born, d.BornTime)

	ft.unregister("g")
	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 11)})
	d = filterData(t, ft, "T", "g")
	assert.Equal(t, int64(0), d.DeadTime, "a newer version of the same filter brings it back")
	assert.Equal(t, int64(11), d.ClientVersion)
	assert.Equal(t, born, d.BornTime)
}

// A group's heartbeat without one of its filtered topics makes that
// filter dead; other groups' filters stay alive.
func TestFilterOfATopicLeftOutOfAHeartbeatDies(t *testing.T) {
	clock := testclock.New()
	ft := filterTableAt(t, t.TempDir(), defaultBrokerConfig(t), clock)
	ft.register("g", []subscriptionData{sqlSub("T1", "a > 1", 1), sqlSub("T2", "b > 1", 1)})
	ft.register("h", []subscriptionData{sqlSub("T2", "b > 1", 1)})
	clock.Advance(time.Second)
	ft.register("g", []subscriptionData{sqlSub("T1", "a > 1", 1), {Topic: "T3", SubString: "*", ExpressionType: expressionTypeTag}})
	assert.Equal(t, int64(0), filterData(t, ft, "T1", "g").DeadTime)
	assert.Equal(t, clock.Now().UnixMilli(), filterData(t, ft, "T2", "g").DeadTime)
	assert.Equal(t, int64(0), filterData(t, ft, "T2", "h").DeadTime)

	clock.Advance(time.Second)
	ft.register("g", nil)
	assert.Equal(t, clock.Now().UnixMilli(), filterData(t, ft, "T1", "g").DeadTime)
	assert.Equal(t, clock.Now().Add(-time.Second).UnixMilli(), filterData(t, ft, "T2", "g").DeadTime, "a dead filter keeps its deadTime")
}

// Each write first drops the filters dead for filterDataCleanTimeSpan,
// and the topics left without one.
func TestFilterDeadForTheCleanSpanIsDropped(t *testing.T) {
	dir, clock := t.TempDir(), testclock.New()
	c := defaultBrokerConfig(t)
	require.Equal(t, int64(24*3600*1000), c.Broker.FilterDataCleanTimeSpan)
	ft := filterTableAt(t, dir, c, clock)
	ft.register("g", []subscriptionData{sqlSub("T1", "a > 1", 1), sqlSub("T2", "a > 1", 1)})
	ft.register("h", []subscriptionData{sqlSub("T2", "a > 1", 1)})
	ft.unregister("g")
	clock.Advance(24*time.Hour - time.Millisecond)
	ft.persist()
	assert.Contains(t, readFilterFile(t, dir), `"T1"`)

	clock.Advance(time.Millisecond)
	ft.persist()
	w, err := protocol.DecodeConsumerFilterWrapper([]byte(readFilterFile(t, dir)))
	require.NoError(t, err)
	require.Equal(t, []string{"T2"}, slices.Collect(maps.Keys(w.FilterDataByTopic)), "T1 has no filter left")
	assert.Equal(t, []string{"h"}, slices.Collect(maps.Keys(w.FilterDataByTopic["T2"].GroupFilterData)))
	_, ok := ft.get("T2", "g")
	assert.False(t, ok)
}

// A filter file whose bloom data another bloom filter made (here f 20,
// n 64: m 216) is ignored whole, and the next write empties it; so is
// one with a filter without bloom data.
func TestFilterLoadIgnoresAllWhenTheBloomFilterChanged(t *testing.T) {
	for name, bad := range map[string]string{
		"other bit count":  `"bloomFilterData":{"bitNum":216,"bitPos":[162,52,132]},`,
		"other hash count": `"bloomFilterData":{"bitNum":112,"bitPos":[90,68]},`,
		"no bloom data":    ``,
	} {
		t.Run(name, func(t *testing.T) {
			dir, clock := t.TempDir(), testclock.New()
			writeFilterFile(t, dir, `{"filterDataByTopic":{"T":{"groupFilterData":{
				"g":{"bloomFilterData":{"bitNum":112,"bitPos":[90,68,28]},"bornTime":1,"clientVersion":5,"consumerGroup":"g","deadTime":0,"expression":"a > 1","expressionType":"SQL92","topic":"T"},
				"h":{`+bad+`"bornTime":1,"clientVersion":5,"consumerGroup":"h","deadTime":0,"expression":"a > 1","expressionType":"SQL92","topic":"T"}},"topic":"T"}}}`)
			ft := filterTableAt(t, dir, defaultBrokerConfig(t), clock)
			_, ok := ft.get("T", "g")
			assert.False(t, ok, "the valid filter is ignored too")
			ft.persist()
			assert.Equal(t, "{\n\t\"filterDataByTopic\":{}\n}", readFilterFile(t, dir))
		})
	}
}

// Loaded filters are taken as dead: deadTime 0 becomes 30 s before the
// load, or bornTime when that is later; a deadTime stays.
func TestFilterLoadTakesFiltersAsDead(t *testing.T) {
	dir, clock := t.TempDir(), testclock.New()
	now := clock.Now().UnixMilli()
	entry := func(group string, born, dead int64) string {
		return `"` + group + `":{"bloomFilterData":{"bitNum":112,"bitPos":[1,2,3]},"bornTime":` + itoa(born) + `,"clientVersion":5,"consumerGroup":"` + group +
			`","deadTime":` + itoa(dead) + `,"expression":"a > 1","expressionType":"SQL92","topic":"T"}`
	}
	writeFilterFile(t, dir, `{"filterDataByTopic":{"T":{"groupFilterData":{`+
		entry("old", now-3600_000, 0)+","+entry("young", now-10_000, 0)+","+entry("dead", now-3600_000, now-60_000)+`},"topic":"T"}}}`)
	ft := filterTableAt(t, dir, defaultBrokerConfig(t), clock)
	assert.Equal(t, now-30_000, filterData(t, ft, "T", "old").DeadTime)
	assert.Equal(t, now-10_000, filterData(t, ft, "T", "young").DeadTime)
	assert.Equal(t, now-60_000, filterData(t, ft, "T", "dead").DeadTime)
	for _, g := range []string{"old", "young", "dead"} {
		d := filterData(t, ft, "T", g)
		assert.True(t, d.IsDead(), g)
	}
	ft.persist()
	w, err := protocol.DecodeConsumerFilterWrapper([]byte(readFilterFile(t, dir)))
	require.NoError(t, err)
	assert.Equal(t, now-30_000, w.FilterDataByTopic["T"].GroupFilterData["old"].DeadTime, "the load is written")
}

// Without a bloom filter (parameters Java's broker refuses to start with)
// filters carry no bloom data and loading checks none.
func TestFilterWithoutBloomFilter(t *testing.T) {
	dir, clock := t.TempDir(), testclock.New()
	c := defaultBrokerConfig(t)
	c.Broker.MaxErrorRateOfBloomFilter = 100
	writeFilterFile(t, dir, `{"filterDataByTopic":{"T":{"groupFilterData":{"h":{"bloomFilterData":{"bitNum":8,"bitPos":[1]},"bornTime":1,"clientVersion":5,"consumerGroup":"h","deadTime":2,"expression":"a > 1","expressionType":"SQL92","topic":"T"}},"topic":"T"}}}`)
	ft := filterTableAt(t, dir, c, clock)
	assert.Equal(t, &protocol.BloomFilterData{BitPos: []int32{1}, BitNum: 8}, filterData(t, ft, "T", "h").BloomFilterData)
	ft.register("g", []subscriptionData{sqlSub("T", "a > 1", 1)})
	assert.Nil(t, filterData(t, ft, "T", "g").BloomFilterData)
}

// Through the broker: a heartbeat without the topic kills the group's
// filter, the same subscription again brings it back, and the group's
// last consumer leaving (UNREGISTER_CLIENT, or its connection closing)
// kills it.
func TestBrokerFilterDiesWithItsSubscriptionAndItsGroup(t *testing.T) {
	clock := testclock.New()
	c := testConfigs(t.TempDir(), "")
	c.Broker.EnablePropertyFilter = true
	b := startBroker(t, c, clock.Now)
	cl := newClient(t, nil)
	deadTime := func() int64 { f, ok := b.filters.get("TS", "GS"); require.True(t, ok); return f.data.DeadTime }

	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), sqlHeartbeat(t, "GS", "TS", "a > 5", 100)).Code)
	assert.Equal(t, int64(0), deadTime())
	clock.Advance(time.Second)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), heartbeatRequest(t, "c1", "GS", "TX", "*")).Code)
	assert.Equal(t, clock.Now().UnixMilli(), deadTime(), "a heartbeat without TS")

	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), sqlHeartbeat(t, "GS", "TS", "a > 5", 100)).Code)
	assert.Equal(t, int64(0), deadTime(), "re-alive")
	clock.Advance(time.Second)
	unregister := remoting.NewRequest(remoting.UnregisterClient, map[string]string{"clientID": "c1", "consumerGroup": "GS"})
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), unregister).Code)
	assert.Equal(t, clock.Now().UnixMilli(), deadTime(), "the group's last consumer unregistered")

	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), sqlHeartbeat(t, "GS", "TS", "a > 5", 100)).Code)
	assert.Equal(t, int64(0), deadTime(), "re-alive")
	clock.Advance(time.Second)
	cl.Close()
	eventually(t, func() bool { return deadTime() == clock.Now().UnixMilli() }, "the filter dies with the group's last connection")
}
