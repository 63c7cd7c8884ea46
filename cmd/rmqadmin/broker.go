package main

// Cluster and broker commands (tools/command/cluster, tools/command/broker):
//
//   - clusterList [-m] [-i SECONDS] (5.x -c CLUSTER): GET_BROKER_CLUSTER_INFO
//     (106) from the name server, GET_BROKER_RUNTIME_INFO (28) from every
//     broker; 4.x's and 5.x's tables (5.x adds timer progress, ack pool and
//     #ACTIVATED).
//   - brokerStatus -b ADDR | -c CLUSTER: GET_BROKER_RUNTIME_INFO, keys
//     sorted, "%-32s: %s" (with -c the address first).
//   - getBrokerConfig -b ADDR | -c CLUSTER: GET_BROKER_CONFIG (26), body
//     the broker's properties text, "%-50s=  %s".
//   - updateBrokerConfig -b ADDR | -c CLUSTER, -k KEY -v VALUE (5.x -a
//     true: slaves too): UPDATE_BROKER_CONFIG (25), body "key=value\n".
//
// Differences from Java: brokers are visited in name then id order (Java:
// hash order); getBrokerConfig prints the keys in the broker's order (Java:
// the hash order of a java.util.Properties).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func clusterListOptions(line protocol.Line) []option {
	opts := []option{
		{short: "m", long: "moreStats", desc: "Print more stats"},
		{short: "i", long: "interval", hasArg: true, desc: "specify intervals numbers, it is in seconds"},
	}
	if line >= protocol.Line5 {
		opts = append(opts, option{short: "c", long: "clusterName", hasArg: true, desc: "which cluster"})
	}
	return opts
}

func runClusterList(a *admin, c cmdLine, e env) error {
	interval := time.Duration(0)
	if c.has("i") {
		secs, err := javaLong(c.get("i"))
		if err != nil {
			return err
		}
		interval = time.Duration(secs) * time.Second
	}
	for i := 0; ; i++ {
		if i > 0 {
			time.Sleep(interval)
		}
		ci, err := a.clusterInfo()
		if err != nil {
			return err
		}
		clusters := clusterNames(ci, c.get("c"))
		switch {
		case c.has("m"):
			printClusterMoreStats(a, e, ci, clusters)
		case e.line >= protocol.Line5:
			printClusterBase5(a, e, ci, clusters)
		default:
			printClusterBase4(a, e, ci, clusters)
		}
		if interval == 0 {
			return nil
		}
	}
}

// clusterNames is the clusters to print: only is 5.x's -c.
func clusterNames(ci *protocol.ClusterInfo, only string) []string {
	if only != "" {
		return []string{only}
	}
	names := make([]string, 0, len(ci.ClusterAddrTable))
	for n := range ci.ClusterAddrTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// brokerRow is one broker address of a cluster.
type brokerRow struct {
	cluster, name string
	id            int64
	addr          string
}

// brokerRows is every address of the clusters' brokers, by cluster, name
// and id.
func brokerRows(ci *protocol.ClusterInfo, clusters []string) []brokerRow {
	var rows []brokerRow
	for _, cl := range clusters {
		brokers, _ := clusterBrokers(ci, cl)
		for _, b := range brokers {
			for _, ba := range sortedAddrs(b.BrokerAddrs) {
				rows = append(rows, brokerRow{cl, b.BrokerName, ba.ID, ba.Addr})
			}
		}
	}
	return rows
}

// runtimeStats is fetchBrokerRuntimeStats: the broker's KV table.
func (a *admin) runtimeStats(addr string) (map[string]string, error) {
	resp, err := a.broker(addr, remoting.GetBrokerRuntimeInfo, nil, nil)
	if err != nil {
		return nil, err
	}
	t, err := protocol.DecodeKVTable(resp.Body)
	if err != nil {
		return nil, err
	}
	return t.Table, nil
}

// kv reads a runtime stat as Java's Map.get under %s: "null" when absent.
type kv map[string]string

func (m kv) get(k string) string { v, ok := m[k]; return orNull(v, ok) }

// firstDouble is Double.parseDouble of the first word of a TPS stat.
func firstDouble(s string) float64 {
	v, _ := strconv.ParseFloat(strings.Fields(s + " 0")[0], 64)
	return v
}

// hoursAndSpace are clusterList's #Hour (since the earliest message) and
// #SPACE (the commit log disk's used ratio).
func hoursAndSpace(stats map[string]string) (string, string) {
	hour, space := 0.0, 0.0
	if ts, err := strconv.ParseInt(stats["earliestMessageTimeStamp"], 10, 64); err == nil {
		hour = float64(time.Now().UnixMilli()-ts) / 1000.0 / 60.0 / 60.0
	}
	if r, err := strconv.ParseFloat(stats["commitLogDiskRatio"], 64); err == nil {
		space = r
	}
	return javaFixed(hour, 2), javaFixed(space, 4)
}

func printClusterBase4(a *admin, e env, ci *protocol.ClusterInfo, clusters []string) {
	const format = "%-16s  %-22s  %-4s  %-22s %-16s %19s %19s %10s %5s %6s\n"
	fmt.Fprintf(e.stdout, format, "#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Version", "#InTPS(LOAD)", "#OutTPS(LOAD)", "#PCWait(ms)", "#Hour", "#SPACE")
	for _, r := range brokerRows(ci, clusters) {
		stats, err := a.runtimeStats(r.addr)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
		}
		m := kv(stats)
		hour, space := hoursAndSpace(stats)
		fmt.Fprintf(e.stdout, format, r.cluster, r.name, strconv.FormatInt(r.id, 10), r.addr, m.get("brokerVersionDesc"),
			fmt.Sprintf("%9s(%s,%sms)", javaFixed(firstDouble(stats["putTps"]), 2), m.get("sendThreadPoolQueueSize"), m.get("sendThreadPoolQueueHeadWaitTimeMills")),
			fmt.Sprintf("%9s(%s,%sms)", javaFixed(firstDouble(stats["getTransferedTps"]), 2), m.get("pullThreadPoolQueueSize"), m.get("pullThreadPoolQueueHeadWaitTimeMills")),
			m.get("pageCacheLockTimeMills"), hour, space)
	}
}

func printClusterBase5(a *admin, e env, ci *protocol.ClusterInfo, clusters []string) {
	fmt.Fprintf(e.stdout, "%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %-11s  %-12s  %-8s  %-10s\n",
		"#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Version", "#InTPS(LOAD)", "#OutTPS(LOAD)", "#Timer(Progress)", "#PCWait(ms)", "#Hour", "#SPACE", "#ACTIVATED")
	for _, r := range brokerRows(ci, clusters) {
		stats, err := a.runtimeStats(r.addr)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
		}
		m := kv(stats)
		ackSize, ackWait := "N", "N"
		if v, ok := stats["ackThreadPoolQueueSize"]; ok {
			ackSize = v
		}
		if v, ok := stats["ackThreadPoolQueueHeadWaitTimeMills"]; ok {
			ackWait = v
		}
		hour, space := hoursAndSpace(stats)
		fmt.Fprintf(e.stdout, "%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %11s  %-12s  %-8s  %10s\n",
			r.cluster, r.name, strconv.FormatInt(r.id, 10), r.addr, m.get("brokerVersionDesc"),
			fmt.Sprintf("%9s(%s,%sms)", javaFixed(firstDouble(stats["putTps"]), 2), m.get("sendThreadPoolQueueSize"), m.get("sendThreadPoolQueueHeadWaitTimeMills")),
			fmt.Sprintf("%9s(%s,%sms|%s,%sms)", javaFixed(firstDouble(stats["getTransferredTps"]), 2), m.get("pullThreadPoolQueueSize"), m.get("pullThreadPoolQueueHeadWaitTimeMills"), ackSize, ackWait),
			timerProgress(stats), m.get("pageCacheLockTimeMills"), hour, space, strconv.FormatBool(javaBool(stats["brokerActive"])))
	}
}

// timerProgress is 5.x clusterList's #Timer(Progress):
// readBehind-offsetBehind(congest/10000 w, enqueue TPS, dequeue TPS); the
// fields read before a missing one are kept, as Java's try block does.
func timerProgress(stats map[string]string) string {
	var longs [3]int64
	var floats [2]float64
	parse := func() {
		for i, k := range []string{"timerReadBehind", "timerOffsetBehind", "timerCongestNum"} {
			v, err := strconv.ParseInt(stats[k], 10, 64)
			if err != nil {
				return
			}
			longs[i] = v
		}
		for i, k := range []string{"timerEnqueueTps", "timerDequeueTps"} {
			v, err := strconv.ParseFloat(stats[k], 32)
			if err != nil {
				return
			}
			floats[i] = javaFloat(float32(v))
		}
	}
	parse()
	return fmt.Sprintf("%d-%d(%sw, %s, %s)", longs[0], longs[1], javaFixed(javaFloat(float32(longs[2])/10000.0), 1),
		javaFixed(floats[0], 1), javaFixed(floats[1], 1))
}

// javaFloat is the double Java's Formatter formats for a float (the
// float's shortest decimal).
func javaFloat(f float32) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return v
}

func printClusterMoreStats(a *admin, e env, ci *protocol.ClusterInfo, clusters []string) {
	fmt.Fprintf(e.stdout, "%-16s  %-32s %14s %14s %14s %14s\n", "#Cluster Name", "#Broker Name", "#InTotalYest", "#OutTotalYest", "#InTotalToday", "#OutTotalToday")
	for _, r := range brokerRows(ci, clusters) {
		var in, out, inToday, outToday int64
		if stats, err := a.runtimeStats(r.addr); err == nil {
			n := func(k string) int64 { v, _ := strconv.ParseInt(stats[k], 10, 64); return v }
			in = n("msgPutTotalTodayMorning") - n("msgPutTotalYesterdayMorning")
			out = n("msgGetTotalTodayMorning") - n("msgGetTotalYesterdayMorning")
			inToday = n("msgPutTotalTodayNow") - n("msgPutTotalTodayMorning")
			outToday = n("msgGetTotalTodayNow") - n("msgGetTotalTodayMorning")
		}
		fmt.Fprintf(e.stdout, "%-16s  %-32s %14d %14d %14d %14d\n", r.cluster, r.name, in, out, inToday, outToday)
	}
}

// brokerStatusOptions: -b or -c, which 5.x requires (an OptionGroup).
func brokerStatusOptions(line protocol.Line) []option {
	opts := []option{
		{short: "b", long: "brokerAddr", hasArg: true, desc: "Broker address"},
		{short: "c", long: "clusterName", hasArg: true, desc: "which cluster"},
	}
	if line >= protocol.Line5 {
		opts[0].group, opts[1].group = "target", "target"
	}
	return opts
}

func runBrokerStatus(a *admin, c cmdLine, e env) error {
	if c.has("b") {
		return printRuntimeStats(a, e, c.get("b"), false)
	}
	if !c.has("c") {
		return nil // 4.x prints nothing
	}
	addrs, err := a.allAddrs(c.get("c"))
	if err != nil {
		return err
	}
	for _, addr := range addrs {
		if err := printRuntimeStats(a, e, addr, true); err != nil {
			fmt.Fprintln(e.stderr, err)
		}
	}
	return nil
}

// printRuntimeStats prints a broker's runtime stats, keys sorted.
func printRuntimeStats(a *admin, e env, addr string, withAddr bool) error {
	stats, err := a.runtimeStats(addr)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(stats))
	for k := range stats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if withAddr {
			fmt.Fprintf(e.stdout, "%-24s %-32s: %s\n", addr, k, stats[k])
		} else {
			fmt.Fprintf(e.stdout, "%-32s: %s\n", k, stats[k])
		}
	}
	return nil
}

func getBrokerConfigOptions(protocol.Line) []option {
	return []option{
		{short: "b", long: "brokerAddr", hasArg: true, desc: "get which broker"},
		{short: "c", long: "clusterName", hasArg: true, desc: "get which cluster"},
	}
}

func runGetBrokerConfig(a *admin, c cmdLine, e env) error {
	if c.has("b") {
		addr := c.get("b")
		return printBrokerConfig(a, e, fmt.Sprintf("============%s============\n", addr), addr)
	}
	if !c.has("c") {
		return nil
	}
	ci, err := a.clusterInfo()
	if err != nil {
		return err
	}
	brokers, err := clusterBrokers(ci, c.get("c"))
	if err != nil {
		return err
	}
	for _, b := range brokers {
		master, ok := b.BrokerAddrs.Get(masterID)
		if !ok {
			continue
		}
		if err := printBrokerConfig(a, e, fmt.Sprintf("============Master: %s============\n", master), master); err != nil {
			return err
		}
		for _, ba := range sortedAddrs(b.BrokerAddrs) {
			if ba.ID != masterID {
				prefix := fmt.Sprintf("============My Master: %s=====Slave: %s============\n", master, ba.Addr)
				if err := printBrokerConfig(a, e, prefix, ba.Addr); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// printBrokerConfig is GetBrokerConfigCommand.getAndPrint.
func printBrokerConfig(a *admin, e env, prefix, addr string) error {
	fmt.Fprint(e.stdout, prefix)
	resp, err := a.broker(addr, remoting.GetBrokerConfig, nil, nil)
	if err != nil {
		return err
	}
	props := parseProperties(string(resp.Body))
	if len(props) == 0 {
		fmt.Fprintf(e.stdout, "Broker[%s] has no config property!\n", addr)
		return nil
	}
	for _, p := range props {
		fmt.Fprintf(e.stdout, "%-50s=  %s\n", p[0], p[1])
	}
	fmt.Fprintln(e.stdout)
	return nil
}

// parseProperties reads the "key=value" lines MixAll.properties2String
// writes, in order (blank lines and # comments skipped).
func parseProperties(text string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(strings.TrimRight(line, "\r"), " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i < 0 {
			out = append(out, [2]string{line, ""})
			continue
		}
		out = append(out, [2]string{strings.TrimRight(line[:i], " \t"), strings.TrimLeft(line[i+1:], " \t\f")})
	}
	return out
}

func updateBrokerConfigOptions(line protocol.Line) []option {
	opts := []option{
		{short: "b", long: "brokerAddr", hasArg: true, desc: "update which broker"},
		{short: "c", long: "clusterName", hasArg: true, desc: "update which cluster"},
		{short: "k", long: "key", hasArg: true, required: true, desc: "config key"},
		{short: "v", long: "value", hasArg: true, required: true, desc: "config value"},
	}
	if line >= protocol.Line5 {
		opts = append(opts, option{short: "a", long: "updateAllBroker", hasArg: true, desc: "update all brokers include slave"})
	}
	return opts
}

func runUpdateBrokerConfig(a *admin, c cmdLine, e env) error {
	body := []byte(c.get("k") + "=" + c.get("v") + "\n")
	if c.has("b") {
		addr := c.get("b")
		if _, err := a.broker(addr, remoting.UpdateBrokerConfig, nil, body); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "update broker config success, %s\n", addr)
		return nil
	}
	if !c.has("c") {
		return nil
	}
	addrs, err := a.masterAddrs(c.get("c"))
	if e.line >= protocol.Line5 && javaBool(c.get("a")) {
		addrs, err = a.allAddrs(c.get("c"))
	}
	if err != nil {
		return err
	}
	for _, addr := range addrs {
		if _, err := a.broker(addr, remoting.UpdateBrokerConfig, nil, body); err != nil {
			fmt.Fprintln(e.stderr, err) // Java prints the stack trace and goes on
			continue
		}
		fmt.Fprintf(e.stdout, "update broker config success, %s\n", addr)
	}
	return nil
}
