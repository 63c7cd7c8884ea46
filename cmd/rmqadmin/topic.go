package main

// Topic commands (tools/command/topic):
//
//   - updateTopic -b ADDR | -c CLUSTER, -t TOPIC [-r 8] [-w 8] [-p 6]
//     [-o false] [-u] [-s] (5.x -a attributes): UPDATE_AND_CREATE_TOPIC (17)
//     to the broker or each master of the cluster; prints "create topic to
//     ADDR success." and TopicConfig.toString (4.x without a newline).
//   - deleteTopic -c CLUSTER -t TOPIC: DELETE_TOPIC_IN_BROKER (215) to each
//     master, DELETE_TOPIC_IN_NAMESRV (216, 5.x with clusterName) to each
//     name server.
//   - topicList [-c]: GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206); -c adds the
//     cluster (route) and consumer groups (QUERY_TOPIC_CONSUME_BY_WHO, 300).
//   - topicRoute -t TOPIC [-l]: GET_ROUTEINFO_BY_TOPIC (105) as fastjson's
//     pretty JSON, or -l's table.
//   - topicStatus -t TOPIC: GET_TOPIC_STATS_INFO (202) from each master of
//     the route (5.x -c: of the cluster's route); 5.x adds "Topic Put TPS".
//   - topicClusterList -t TOPIC: the clusters of the topic's brokers.
//
// Differences from Java: a cluster's masters are visited in name order
// (Java: HashSet order); updateTopic -o true (order conf, a KV config of the
// name server) is refused.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// queryTopicConsumeByWho is QUERY_TOPIC_CONSUME_BY_WHO (wire value: do not change).
const queryTopicConsumeByWho remoting.RequestCode = 300

func updateTopicOptions(line protocol.Line) []option {
	opts := []option{
		{short: "b", long: "brokerAddr", hasArg: true, desc: "create topic to which broker", group: "target"},
		{short: "c", long: "clusterName", hasArg: true, desc: "create topic to which cluster", group: "target"},
		{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"},
		{short: "r", long: "readQueueNums", hasArg: true, desc: "set read queue nums"},
		{short: "w", long: "writeQueueNums", hasArg: true, desc: "set write queue nums"},
		{short: "p", long: "perm", hasArg: true, desc: "set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]"},
		{short: "o", long: "order", hasArg: true, desc: "set topic's order(true|false)"},
		{short: "u", long: "unit", hasArg: true, desc: "is unit topic (true|false)"},
		{short: "s", long: "hasUnitSub", hasArg: true, desc: "has unit sub (true|false)"},
	}
	if line >= protocol.Line5 {
		opts = append(opts, option{short: "a", long: "attributes", hasArg: true, desc: "attribute(+a=b,+c=d,-e)"})
	}
	return opts
}

// topicFromOptions is the TopicConfig updateTopic builds: 8 and 8 queues
// unless -r/-w say otherwise.
func topicFromOptions(c cmdLine, line protocol.Line) (protocol.TopicConfig, error) {
	tc := protocol.NewTopicConfig(c.get("t"))
	tc.ReadQueueNums, tc.WriteQueueNums = 8, 8
	var err error
	ints := []struct {
		key string
		dst *int32
	}{{"r", &tc.ReadQueueNums}, {"w", &tc.WriteQueueNums}, {"p", &tc.Perm}}
	for _, f := range ints {
		if c.has(f.key) {
			if *f.dst, err = javaInt(c.get(f.key)); err != nil {
				return tc, err
			}
		}
	}
	if javaBool(c.get("u")) {
		tc.TopicSysFlag |= 1 // TopicSysFlag.FLAG_UNIT
	}
	if javaBool(c.get("s")) {
		tc.TopicSysFlag |= 1 << 1 // FLAG_UNIT_SUB
	}
	tc.Order = javaBool(c.get("o"))
	if line >= protocol.Line5 {
		tc.Attributes = map[string]string{}
	}
	return tc, nil
}

func runUpdateTopic(a *admin, c cmdLine, e env) error {
	tc, err := topicFromOptions(c, e.line)
	if err != nil {
		return err
	}
	if tc.Order {
		return fmt.Errorf("updateTopic -o true (the name server's order conf) is not in this mqadmin: use Apache RocketMQ's rocketmq-tools")
	}
	attrs := ""
	if e.line >= protocol.Line5 && c.has("a") {
		attrs = c.get("a")
	}
	addrs := []string{c.get("b")}
	if !c.has("b") {
		if addrs, err = a.masterAddrs(c.get("c")); err != nil {
			return err
		}
	}
	for _, addr := range addrs {
		if _, err := a.broker(addr, remoting.UpdateAndCreateTopic, createTopicHeader(tc, attrs, e.line), nil); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "create topic to %s success.\n", addr)
	}
	fmt.Fprint(e.stdout, tc.JavaString(e.line))
	if e.line >= protocol.Line5 {
		fmt.Fprintln(e.stdout)
	}
	return nil
}

// createTopicHeader is CreateTopicRequestHeader.
func createTopicHeader(tc protocol.TopicConfig, attrs string, line protocol.Line) map[string]string {
	h := map[string]string{
		"topic":           tc.TopicName,
		"defaultTopic":    defaultTopic,
		"readQueueNums":   strconv.Itoa(int(tc.ReadQueueNums)),
		"writeQueueNums":  strconv.Itoa(int(tc.WriteQueueNums)),
		"perm":            strconv.Itoa(int(tc.Perm)),
		"topicFilterType": string(tc.TopicFilterType),
		"topicSysFlag":    strconv.Itoa(int(tc.TopicSysFlag)),
		"order":           strconv.FormatBool(tc.Order),
	}
	if line >= protocol.Line5 {
		h["attributes"] = attrs
	}
	return h
}

func deleteTopicOptions(protocol.Line) []option {
	return []option{
		{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"},
		{short: "c", long: "clusterName", hasArg: true, required: true, desc: "delete topic from which cluster"},
	}
}

func runDeleteTopic(a *admin, c cmdLine, e env) error {
	return deleteTopic(a, c.get("c"), c.get("t"), e, true)
}

// deleteTopic is DeleteTopicSubCommand.deleteTopic (print false: 5.x's
// silent MQAdminExt.deleteTopic).
func deleteTopic(a *admin, cluster, topic string, e env, print bool) error {
	masters, err := a.masterAddrs(cluster)
	if err != nil {
		return err
	}
	for _, addr := range masters {
		if _, err := a.broker(addr, remoting.DeleteTopicInBroker, map[string]string{"topic": topic}, nil); err != nil {
			return err
		}
	}
	if print {
		fmt.Fprintf(e.stdout, "delete topic [%s] from cluster [%s] success.\n", topic, cluster)
	}
	h := map[string]string{"topic": topic}
	if e.line >= protocol.Line5 {
		h["clusterName"] = cluster
	}
	for _, ns := range a.namesrvs {
		if _, err := a.broker(ns, remoting.DeleteTopicInNamesrv, h, nil); err != nil {
			return err
		}
	}
	if print {
		fmt.Fprintf(e.stdout, "delete topic [%s] from NameServer success.\n", topic)
	}
	return nil
}

func topicListOptions(protocol.Line) []option {
	return []option{{short: "c", long: "clusterModel", desc: "clusterModel"}}
}

func runTopicList(a *admin, c cmdLine, e env) error {
	resp, err := a.namesrv(remoting.GetAllTopicListFromNameserver, nil)
	if err != nil {
		return err
	}
	list, err := protocol.DecodeTopicList(resp.Body)
	if err != nil {
		return err
	}
	if !c.has("c") {
		for _, t := range list.TopicList {
			fmt.Fprintf(e.stdout, "%s\n", t)
		}
		return nil
	}
	ci, err := a.clusterInfo()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%-20s  %-48s  %-48s\n", "#Cluster Name", "#Topic", "#Consumer Group")
	for _, t := range list.TopicList {
		if strings.HasPrefix(t, retryGroupTopicPrefix) || strings.HasPrefix(t, dlqGroupTopicPrefix) {
			continue
		}
		cluster, groups := topicClusterAndGroups(a, ci, t)
		for _, g := range groups {
			fmt.Fprintf(e.stdout, "%-20s  %-64s  %-64s\n", frontStringAtLeast(cluster, 20), frontStringAtLeast(t, 64), frontStringAtLeast(g, 64))
		}
	}
	return nil
}

// topicClusterAndGroups is topicList -c's row data: the cluster of the
// topic's first broker ("null" when none holds it, "" when the route
// fails) and its consumer groups (one "" when none).
func topicClusterAndGroups(a *admin, ci *protocol.ClusterInfo, topic string) (string, []string) {
	cluster := ""
	var groups []string
	if route, err := a.route(topic); err == nil && len(route.BrokerDatas) > 0 {
		cluster = "null"
		if cl, ok := clusterOfBroker(ci, route.BrokerDatas[0].BrokerName); ok {
			cluster = cl
		}
		groups = consumeByWho(a, route, topic)
	}
	if len(groups) == 0 {
		groups = []string{""}
	}
	return cluster, groups
}

// consumeByWho is queryTopicConsumeByWho: the first master that answers.
func consumeByWho(a *admin, route *protocol.TopicRouteData, topic string) []string {
	for _, addr := range routeMasters(route) {
		resp, err := a.broker(addr, queryTopicConsumeByWho, map[string]string{"topic": topic}, nil)
		if err != nil {
			continue
		}
		if l, err := protocol.DecodeGroupList(resp.Body); err == nil {
			return l.GroupList
		}
	}
	return nil
}

// clusterOfBroker is the cluster whose broker names hold name.
func clusterOfBroker(ci *protocol.ClusterInfo, name string) (string, bool) {
	clusters := make([]string, 0, len(ci.ClusterAddrTable))
	for cl := range ci.ClusterAddrTable {
		clusters = append(clusters, cl)
	}
	sort.Strings(clusters)
	for _, cl := range clusters {
		for _, b := range ci.ClusterAddrTable[cl] {
			if b == name {
				return cl, true
			}
		}
	}
	return "", false
}

func topicRouteOptions(protocol.Line) []option {
	return []option{
		{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"},
		{short: "l", long: "list", desc: "Use list format to print data"},
	}
}

func runTopicRoute(a *admin, c cmdLine, e env) error {
	route, err := a.route(c.get("t"))
	if err != nil {
		return err
	}
	if c.has("l") {
		printRouteList(e, route)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s\n", prettyRoute(route, e.line))
	return nil
}

// prettyRoute is TopicRouteData.toJson(true): fastjson's pretty format,
// tabs, a map with number keys opening on its first entry.
func prettyRoute(r *protocol.TopicRouteData, line protocol.Line) string {
	var b []byte
	b = append(b, "{\n"...)
	if r.OrderTopicConf != "" {
		b = fastjson.AppendString(append(b, "\t\"orderTopicConf\":"...), r.OrderTopicConf, fastjson.Fastjson)
		b = append(b, ",\n"...)
	}
	b = append(b, "\t\"brokerDatas\":"...)
	b = prettyList(b, len(r.BrokerDatas), func(b []byte, i int) []byte { return prettyBrokerData(b, &r.BrokerDatas[i], line) })
	b = append(b, ",\n\t\"filterServerTable\":"...)
	b = prettyFilterServers(b, r.FilterServerTable)
	b = append(b, ",\n\t\"queueDatas\":"...)
	b = prettyList(b, len(r.QueueDatas), func(b []byte, i int) []byte { return prettyQueueData(b, &r.QueueDatas[i]) })
	return string(append(b, "\n}"...))
}

// prettyList writes a list of beans at depth 1.
func prettyList(b []byte, n int, elem func([]byte, int) []byte) []byte {
	if n == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(append(b, "\n\t\t{\n"...), i)
		b = append(b, "\n\t\t}"...)
	}
	return append(b, "\n\t]"...)
}

func prettyBrokerData(b []byte, d *protocol.BrokerData, line protocol.Line) []byte {
	b = append(b, "\t\t\t\"brokerAddrs\":{"...)
	for i, ba := range sortedAddrs(d.BrokerAddrs) {
		if i > 0 {
			b = append(b, ',')
		}
		b = fastjson.AppendString(append(strconv.AppendInt(b, ba.ID, 10), ':'), ba.Addr, fastjson.Fastjson)
	}
	b = append(b, "\n\t\t\t},\n\t\t\t\"brokerName\":"...)
	b = fastjson.AppendString(b, d.BrokerName, fastjson.Fastjson)
	b = fastjson.AppendString(append(b, ",\n\t\t\t\"cluster\":"...), d.Cluster, fastjson.Fastjson)
	if line >= protocol.Line5 {
		b = strconv.AppendBool(append(b, ",\n\t\t\t\"enableActingMaster\":"...), d.EnableActingMaster)
		if d.ZoneName != "" {
			b = fastjson.AppendString(append(b, ",\n\t\t\t\"zoneName\":"...), d.ZoneName, fastjson.Fastjson)
		}
	}
	return b
}

func prettyQueueData(b []byte, q *protocol.QueueData) []byte {
	b = fastjson.AppendString(append(b, "\t\t\t\"brokerName\":"...), q.BrokerName, fastjson.Fastjson)
	fields := []struct {
		name string
		v    int32
	}{{"perm", q.Perm}, {"readQueueNums", q.ReadQueueNums}, {"topicSysFlag", q.TopicSysFlag}, {"writeQueueNums", q.WriteQueueNums}}
	for _, f := range fields {
		b = strconv.AppendInt(append(b, ",\n\t\t\t\""+f.name+"\":"...), int64(f.v), 10)
	}
	return b
}

// prettyFilterServers writes the filter server table ({} when empty).
func prettyFilterServers(b []byte, m map[string][]string) []byte {
	if len(m) == 0 {
		return append(b, "{}"...)
	}
	b = append(b, '{')
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = fastjson.AppendString(append(b, "\n\t\t"...), k, fastjson.Fastjson)
		b = fastjson.AppendStringArray(append(b, ':'), m[k], fastjson.Fastjson)
	}
	return append(b, "\n\t}"...)
}

// printRouteList is topicRoute -l's table.
func printRouteList(e env, r *protocol.TopicRouteData) {
	const format = "%-45s %-32s %-50s %-10s %-11s %-5s\n"
	byName := map[string]protocol.QueueData{}
	for _, q := range r.QueueDatas {
		byName[q.BrokerName] = q
	}
	brokers := append([]protocol.BrokerData(nil), r.BrokerDatas...)
	sort.Slice(brokers, func(i, j int) bool { return brokers[i].BrokerName < brokers[j].BrokerName })
	fmt.Fprintf(e.stdout, format, "#ClusterName", "#BrokerName", "#BrokerAddrs", "#ReadQueue", "#WriteQueue", "#Perm")
	totalRead, totalWrite := 0, 0
	for _, b := range brokers {
		q := byName[b.BrokerName]
		totalRead += int(q.ReadQueueNums)
		totalWrite += int(q.WriteQueueNums)
		fmt.Fprintf(e.stdout, format, b.Cluster, b.BrokerName, javaAddrMap(b.BrokerAddrs), strconv.Itoa(int(q.ReadQueueNums)),
			strconv.Itoa(int(q.WriteQueueNums)), strconv.Itoa(int(q.Perm)))
	}
	fmt.Fprintf(e.stdout, "%s\n", strings.Repeat("-", 158))
	fmt.Fprintf(e.stdout, format, "Total:", strconv.Itoa(len(byName)), "", strconv.Itoa(totalRead), strconv.Itoa(totalWrite), "")
}

// javaAddrMap is HashMap<Long,String>.toString: {0=10.0.0.1:10911}.
func javaAddrMap(addrs protocol.BrokerAddrs) string {
	parts := make([]string, 0, len(addrs))
	for _, ba := range sortedAddrs(addrs) {
		parts = append(parts, strconv.FormatInt(ba.ID, 10)+"="+ba.Addr)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func topicStatusOptions(line protocol.Line) []option {
	opts := []option{{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"}}
	if line >= protocol.Line5 {
		opts = append(opts, option{short: "c", long: "cluster", hasArg: true, desc: "cluster name or lmq parent topic, lmq is used to find the route."})
	}
	return opts
}

func runTopicStatus(a *admin, c cmdLine, e env) error {
	routeTopic := c.get("t")
	if c.has("c") {
		routeTopic = c.get("c") // 5.x: the brokers of the cluster (or lmq parent topic)
	}
	stats, err := examineTopicStats(a, c.get("t"), routeTopic)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%-32s  %-4s  %-20s  %-20s    %s\n", "#Broker Name", "#QID", "#Min Offset", "#Max Offset", "#Last Updated")
	for _, q := range sortedQueues(stats.OffsetTable) {
		o := stats.OffsetTable[q]
		human := ""
		if o.LastUpdateTimestamp > 0 {
			human = humanString2(o.LastUpdateTimestamp)
		}
		fmt.Fprintf(e.stdout, "%-32s  %-4d  %-20d  %-20d    %s\n", frontStringAtLeast(q.BrokerName, 32), q.QueueID, o.MinOffset, o.MaxOffset, human)
	}
	if e.line >= protocol.Line5 {
		fmt.Fprintf(e.stdout, "\nTopic Put TPS: %s\n", javaDouble(stats.TopicPutTps))
	}
	return nil
}

// examineTopicStats asks each master of routeTopic's route for topic's
// queues and merges the answers (put TPS added up when routeTopic is the
// topic; 5.x's -c leaves it 0).
func examineTopicStats(a *admin, topic, routeTopic string) (*protocol.TopicStatsTable, error) {
	route, err := a.route(routeTopic)
	if err != nil {
		return nil, err
	}
	all := &protocol.TopicStatsTable{OffsetTable: map[protocol.MessageQueue]protocol.TopicOffset{}}
	for _, addr := range routeMasters(route) {
		resp, err := a.broker(addr, remoting.GetTopicStatsInfo, map[string]string{"topic": topic}, nil)
		if err != nil {
			return nil, err
		}
		t, err := protocol.DecodeTopicStatsTable(resp.Body)
		if err != nil {
			return nil, err
		}
		for q, o := range t.OffsetTable {
			all.OffsetTable[q] = o
		}
		if routeTopic == topic {
			all.TopicPutTps += t.TopicPutTps
		}
	}
	return all, nil
}

// sortedQueues is MessageQueue.compareTo's order: topic, broker, queue id.
func sortedQueues[V any](m map[protocol.MessageQueue]V) []protocol.MessageQueue {
	qs := make([]protocol.MessageQueue, 0, len(m))
	for q := range m {
		qs = append(qs, q)
	}
	sort.Slice(qs, func(i, j int) bool {
		a, b := qs[i], qs[j]
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		if a.BrokerName != b.BrokerName {
			return a.BrokerName < b.BrokerName
		}
		return a.QueueID < b.QueueID
	})
	return qs
}

func topicClusterOptions(protocol.Line) []option {
	return []option{{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"}}
}

// runTopicClusterList is TopicClusterSubCommand: the clusters of the
// brokers in the topic's route, one a line.
func runTopicClusterList(a *admin, c cmdLine, e env) error {
	ci, err := a.clusterInfo()
	if err != nil {
		return err
	}
	route, err := a.route(c.get("t"))
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, b := range route.BrokerDatas {
		if cl, ok := clusterOfBroker(ci, b.BrokerName); ok && !seen[cl] {
			seen[cl] = true
			fmt.Fprintf(e.stdout, "%s\n", cl)
		}
	}
	return nil
}

// javaInt is Integer.parseInt with mqadmin's NumberFormatException text.
func javaInt(s string) (int32, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("java.lang.NumberFormatException: For input string: %q", s)
	}
	return int32(v), nil
}

// javaBool is Boolean.parseBoolean: "true" in any case.
func javaBool(s string) bool { return strings.EqualFold(s, "true") }
