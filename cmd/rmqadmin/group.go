package main

// Consumer group commands (tools/command/consumer):
//
//   - updateSubGroup -b ADDR | -c CLUSTER, -g GROUP [-s -m -d -q -r -i -w
//     -a] (5.x -o): UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200), body the
//     SubscriptionGroupConfig of the line; prints "create subscription group
//     to ADDR success." and the config's toString.
//   - deleteSubGroup -b ADDR | -c CLUSTER, -g GROUP [-r]: DELETE_SUBSCRIPTIONGROUP
//     (207, header groupName and removeOffset, 5.x cleanOffset); with -c
//     also the group's %RETRY% and %DLQ% topics, printed on 4.x only.
//   - consumerProgress -g GROUP: GET_CONSUME_STATS (208, header
//     consumerGroup) from each master of the %RETRY%GROUP route, merged;
//     4.x's and 5.x's tables (5.x adds #Inflight).
//
// Differences from Java: consumerProgress without -g (every group, with
// its connections) and -s (client IPs) are not here; updateSubGroup -p
// (5.x retry policy JSON) and --attributes are refused.

import (
	"fmt"
	"strconv"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func updateSubGroupOptions(line protocol.Line) []option {
	opts := []option{
		{short: "b", long: "brokerAddr", hasArg: true, desc: "create subscription group to which broker"},
		{short: "c", long: "clusterName", hasArg: true, desc: "create subscription group to which cluster"},
		{short: "g", long: "groupName", hasArg: true, required: true, desc: "consumer group name"},
		{short: "s", long: "consumeEnable", hasArg: true, desc: "consume enable"},
		{short: "m", long: "consumeFromMinEnable", hasArg: true, desc: "from min offset"},
		{short: "d", long: "consumeBroadcastEnable", hasArg: true, desc: "broadcast"},
		{short: "q", long: "retryQueueNums", hasArg: true, desc: "retry queue nums"},
		{short: "r", long: "retryMaxTimes", hasArg: true, desc: "retry max times"},
		{short: "i", long: "brokerId", hasArg: true, desc: "consumer from which broker id"},
		{short: "w", long: "whichBrokerWhenConsumeSlowly", hasArg: true, desc: "which broker id when consume slowly"},
		{short: "a", long: "notifyConsumerIdsChanged", hasArg: true, desc: "notify consumerId changed"},
	}
	if line >= protocol.Line5 {
		opts = append(opts,
			option{short: "o", long: "consumeMessageOrderly", hasArg: true, desc: "consume message orderly"},
			option{short: "p", long: "groupRetryPolicy", hasArg: true, desc: "the json string of retry policy ( exp: " +
				`{"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max":7200000,"multiplier":2}} ` +
				`{"type":"CUSTOMIZED","customizedRetryPolicy":{"next":[1000,5000,10000]}} )`},
			option{long: "attributes", hasArg: true, desc: "attribute(+a=b,+c=d,-e)"})
	}
	return opts
}

// groupFromOptions is the SubscriptionGroupConfig updateSubGroup builds:
// Java's defaults, but broadcast and from-min off.
func groupFromOptions(c cmdLine) (protocol.SubscriptionGroupConfig, error) {
	g := protocol.NewSubscriptionGroupConfig(c.get("g"))
	g.ConsumeBroadcastEnable, g.ConsumeFromMinEnable = false, false
	bools := []struct {
		key string
		dst *bool
	}{{"s", &g.ConsumeEnable}, {"m", &g.ConsumeFromMinEnable}, {"d", &g.ConsumeBroadcastEnable},
		{"a", &g.NotifyConsumerIDsChangedEnable}, {"o", &g.ConsumeMessageOrderly}}
	for _, f := range bools {
		if c.has(f.key) {
			*f.dst = javaBool(c.get(f.key))
		}
	}
	var err error
	for _, f := range []struct {
		key string
		dst *int32
	}{{"q", &g.RetryQueueNums}, {"r", &g.RetryMaxTimes}} {
		if c.has(f.key) {
			if *f.dst, err = javaInt(c.get(f.key)); err != nil {
				return g, err
			}
		}
	}
	for _, f := range []struct {
		key string
		dst *int64
	}{{"i", &g.BrokerID}, {"w", &g.WhichBrokerWhenConsumeSlowly}} {
		if c.has(f.key) {
			if *f.dst, err = javaLong(c.get(f.key)); err != nil {
				return g, err
			}
		}
	}
	return g, nil
}

func runUpdateSubGroup(a *admin, c cmdLine, e env) error {
	if c.has("p") || c.has("attributes") {
		return fmt.Errorf("updateSubGroup -p and --attributes are not in this mqadmin: use Apache RocketMQ's rocketmq-tools")
	}
	g, err := groupFromOptions(c)
	if err != nil {
		return err
	}
	addrs, ok, err := targetAddrs(a, c)
	if err != nil || !ok {
		return err
	}
	body := g.AppendJSON(nil, e.line)
	for _, addr := range addrs {
		if _, err := a.broker(addr, remoting.UpdateAndCreateSubscriptiongroup, nil, body); err != nil {
			if c.has("b") {
				return err
			}
			fmt.Fprintln(e.stderr, err) // Java prints the stack trace and goes on
			continue
		}
		fmt.Fprintf(e.stdout, "create subscription group to %s success.\n", addr)
	}
	fmt.Fprint(e.stdout, g.JavaString(e.line))
	return nil
}

// targetAddrs is -b's broker or the masters of -c's cluster; ok is false
// when neither was given (Java then prints the usage; so does the caller's
// error).
func targetAddrs(a *admin, c cmdLine) ([]string, bool, error) {
	if c.has("b") {
		return []string{c.get("b")}, true, nil
	}
	if !c.has("c") {
		return nil, false, fmt.Errorf("one of -b (broker address) or -c (cluster name) is needed")
	}
	addrs, err := a.masterAddrs(c.get("c"))
	return addrs, err == nil, err
}

func deleteSubGroupOptions(protocol.Line) []option {
	return []option{
		{short: "b", long: "brokerAddr", hasArg: true, desc: "delete subscription group from which broker"},
		{short: "c", long: "clusterName", hasArg: true, desc: "delete subscription group from which cluster"},
		{short: "g", long: "groupName", hasArg: true, required: true, desc: "subscription group name"},
		{short: "r", long: "removeOffset", hasArg: true, desc: "remove offset"},
	}
}

func runDeleteSubGroup(a *admin, c cmdLine, e env) error {
	group := c.get("g")
	flag := "removeOffset"
	if e.line >= protocol.Line5 {
		flag = "cleanOffset"
	}
	h := map[string]string{"groupName": group, flag: strconv.FormatBool(javaBool(c.get("r")))}
	addrs, ok, err := targetAddrs(a, c)
	if err != nil || !ok {
		return err
	}
	for _, addr := range addrs {
		if _, err := a.broker(addr, remoting.DeleteSubscriptiongroup, h, nil); err != nil {
			return err
		}
		if c.has("b") {
			fmt.Fprintf(e.stdout, "delete subscription group [%s] from broker [%s] success.\n", group, addr)
			return nil
		}
		fmt.Fprintf(e.stdout, "delete subscription group [%s] from broker [%s] in cluster [%s] success.\n", group, addr, c.get("c"))
	}
	print := e.line < protocol.Line5
	for _, prefix := range []string{retryGroupTopicPrefix, dlqGroupTopicPrefix} {
		if err := deleteTopic(a, c.get("c"), prefix+group, e, print); err != nil {
			fmt.Fprintln(e.stderr, err) // Java prints the stack trace and goes on
			break
		}
	}
	return nil
}

func consumerProgressOptions(line protocol.Line) []option {
	opts := []option{
		{short: "g", long: "groupName", hasArg: true, desc: "consumer group name"},
		{short: "s", long: "showClientIP", hasArg: true, desc: "Show Client IP per Queue"},
	}
	if line >= protocol.Line5 {
		opts = append(opts,
			option{short: "t", long: "topicName", hasArg: true, desc: "topic name"},
			option{short: "c", long: "cluster", hasArg: true, desc: "Cluster name or lmq parent topic, lmq is used to find the route."})
	}
	return opts
}

func runConsumerProgress(a *admin, c cmdLine, e env) error {
	if !c.has("g") || javaBool(c.get("s")) || c.has("t") {
		return fmt.Errorf("consumerProgress without -g, or with -s true or -t, is not in this mqadmin: use Apache RocketMQ's rocketmq-tools")
	}
	stats, err := examineConsumeStats(a, c.get("g"), e.line)
	if err != nil {
		return err
	}
	if e.line >= protocol.Line5 {
		printProgress5(e, stats)
	} else {
		printProgress4(e, stats)
	}
	return nil
}

// examineConsumeStats asks each master of the group's retry topic route
// for the group's offsets and merges them (TPS added up). 4.x fails on an
// empty result as Java's does.
func examineConsumeStats(a *admin, group string, line protocol.Line) (*protocol.ConsumeStats, error) {
	route, err := a.route(retryGroupTopicPrefix + group)
	if err != nil {
		return nil, err
	}
	all := &protocol.ConsumeStats{OffsetTable: map[protocol.MessageQueue]protocol.OffsetWrapper{}}
	for _, addr := range routeMasters(route) {
		resp, err := a.broker(addr, remoting.GetConsumeStats, map[string]string{"consumerGroup": group}, nil)
		if err != nil {
			return nil, err
		}
		s, err := protocol.DecodeConsumeStats(resp.Body)
		if err != nil {
			return nil, err
		}
		for q, w := range s.OffsetTable {
			all.OffsetTable[q] = w
		}
		all.ConsumeTps += s.ConsumeTps
	}
	if len(all.OffsetTable) == 0 && line < protocol.Line5 {
		return nil, &clientError{code: consumerNotOnline, desc: "Not found the consumer group consume stats, because return offset table is empty, maybe the consumer not consume any message"}
	}
	return all, nil
}

// lastTime is a queue's last consume time as consumerProgress prints it.
func lastTime(ms int64) string {
	if ms == 0 {
		return "N/A"
	}
	return formatDate(ms)
}

func printProgress4(e env, s *protocol.ConsumeStats) {
	fmt.Fprintf(e.stdout, "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s  %s\n",
		"#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#LastTime")
	var total int64
	for _, q := range sortedQueues(s.OffsetTable) {
		w := s.OffsetTable[q]
		diff := w.BrokerOffset - w.ConsumerOffset
		total += diff
		fmt.Fprintf(e.stdout, "%-64s  %-32s  %-4d  %-20d  %-20d  %-20d  %s\n", frontStringAtLeast(q.Topic, 64),
			frontStringAtLeast(q.BrokerName, 32), q.QueueID, w.BrokerOffset, w.ConsumerOffset, diff, lastTime(w.LastTimestamp))
	}
	fmt.Fprintf(e.stdout, "\nConsume TPS: %s\nDiff Total: %d\n", javaFixed(s.ConsumeTps, 2), total)
}

func printProgress5(e env, s *protocol.ConsumeStats) {
	fmt.Fprintf(e.stdout, "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s%s\n",
		"#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#Inflight", "#LastTime")
	var total, inflightTotal int64
	for _, q := range sortedQueues(s.OffsetTable) {
		w := s.OffsetTable[q]
		diff, inflight := w.BrokerOffset-w.ConsumerOffset, w.PullOffset-w.ConsumerOffset
		total += diff
		inflightTotal += inflight
		fmt.Fprintf(e.stdout, "%-64s  %-32s  %-4d  %-20d  %-20d  %-20d %-20d %s\n", frontStringAtLeast(q.Topic, 64),
			frontStringAtLeast(q.BrokerName, 32), q.QueueID, w.BrokerOffset, w.ConsumerOffset, diff, inflight, lastTime(w.LastTimestamp))
	}
	fmt.Fprintf(e.stdout, "\nConsume TPS: %s\nConsume Diff Total: %d\nConsume Inflight Total: %d\n", javaFixed(s.ConsumeTps, 2), total, inflightTotal)
}

// javaLong is Long.parseLong with Java's NumberFormatException text.
func javaLong(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("java.lang.NumberFormatException: For input string: %q", s)
	}
	return v, nil
}
