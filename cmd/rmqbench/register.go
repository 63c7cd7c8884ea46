package main

// rmqbench register: REGISTER_BROKER (103) replayed to a name server with
// a broker's topic table, as a 4.9.x broker sends it (the uncompressed
// RegisterBrokerBody: compressedRegister is false by default), to time
// what a registration costs the name server:
//
//	rmqbench register -n 127.0.0.1:9876 -b 127.0.0.1:10911 -count 20
//	rmqbench register -n 127.0.0.1:9876 -topics store/config/topics.json -count 20
//
// With -b the table is the one the running broker holds, fetched with
// GET_ALL_TOPIC_CONFIG (21), whose body, the broker's own encoding of
// it, is reported as brokerTableBytes (the broker's register body is that
// plus about 50 bytes of envelope); with -topics it is a topics.json's.
//
// It registers as its own broker (-broker, at -broker-addr, of -cluster)
// so that the real brokers' routes stay as they are, and unregisters at
// the end (the name server also drops a broker whose connection closes). Each call carries a DataVersion other than the
// last one's, so the name server takes every call as a changed topic
// table and rebuilds the broker's queue data (the path a broker's
// registration takes after a topic change), not the unchanged shortcut.
// The calls are sequential; the summary is the load runner's, then a
// key=value line for scripts (bench/scale-bench.sh):
//
//	register: topics=10000 bodyBytes=1480000 brokerTableBytes=1479950 calls=20 failed=0 p50Ms=30.1 p99Ms=45.2

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// registerFlags are the subcommand's settings.
type registerFlags struct {
	namesrv    string
	topics     string
	from       string
	count      int64
	broker     string
	brokerAddr string
	cluster    string
	timeout    time.Duration
}

func (f *registerFlags) parse(args []string, stderr io.Writer) error {
	fs := flagsOf("register", stderr)
	fs.StringVar(&f.namesrv, "n", "127.0.0.1:9876", "name server address (the first of a ';' list)")
	fs.StringVar(&f.topics, "topics", "", "a topics.json (TopicConfigSerializeWrapper) whose table is registered")
	fs.StringVar(&f.from, "b", "", "a broker whose topic table is registered (GET_ALL_TOPIC_CONFIG), instead of -topics")
	fs.Int64Var(&f.count, "count", 20, "registrations")
	fs.StringVar(&f.broker, "broker", "rmqbench-register", "brokerName registered")
	fs.StringVar(&f.brokerAddr, "broker-addr", "127.0.0.1:1", "brokerAddr registered")
	fs.StringVar(&f.cluster, "cluster", "DefaultCluster", "clusterName registered")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "timeout of one call")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (f.topics == "") == (f.from == "") || f.count < 1 {
		return fmt.Errorf("need one of -topics and -b, and a positive -count")
	}
	return nil
}

func runRegister(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f registerFlags
	if err := f.parse(args, stderr); err != nil {
		fmt.Fprintln(stderr, "rmqbench register:", err)
		return 2
	}
	table, err := f.table()
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench register:", err)
		return 1
	}
	bodies, topics, err := registerBodies(table)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench register:", err)
		return 1
	}
	addr := firstAddr(f.namesrv)
	fmt.Fprintf(stdout, "register: %d topics, %d-byte body, %d calls to %s as %s\n", topics, len(bodies[0]), f.count, addr, f.broker)
	var n int
	call := func(c *remoting.Client) (int32, error) {
		body := bodies[n%2]
		n++
		resp, err := c.InvokeTimeout(addr, f.request(body), f.timeout)
		if err != nil {
			return 0, err
		}
		return resp.Code, nil
	}
	r := runCallers(ctx, loadPlan{clients: 1, callers: 1, count: f.count}, call, stdout)
	printSummary(stdout, r)
	f.unregister(addr)
	fmt.Fprintf(stdout, "register: topics=%d bodyBytes=%d brokerTableBytes=%d calls=%d failed=%d p50Ms=%.3f p99Ms=%.3f\n",
		topics, len(bodies[0]), f.tableBytes(table), r.hist.total, r.failures(),
		float64(r.hist.percentile(0.50))/1e6, float64(r.hist.percentile(0.99))/1e6)
	if r.hist.total == 0 || r.failures() > 0 {
		return 1
	}
	return 0
}

// table reads the topics.json of -topics or asks the broker of -b for its
// table (GET_ALL_TOPIC_CONFIG).
func (f *registerFlags) table() ([]byte, error) {
	if f.topics != "" {
		return os.ReadFile(f.topics)
	}
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	resp, err := c.InvokeTimeout(f.from, remoting.NewRequest(remoting.GetAllTopicConfig, nil), f.timeout)
	if err != nil {
		return nil, err
	}
	if resp.Code != int32(remoting.Success) {
		return nil, fmt.Errorf("GET_ALL_TOPIC_CONFIG from %s: %s (%d) %s", f.from, remoting.ResponseCode(resp.Code), resp.Code, resp.Remark)
	}
	return resp.Body, nil
}

// tableBytes is the size of the broker's own encoding of its table (-b),
// 0 for a topics.json.
func (f *registerFlags) tableBytes(table []byte) int {
	if f.from == "" {
		return 0
	}
	return len(table)
}

// registerBodies returns two RegisterBrokerBody encodings of the
// TopicConfigSerializeWrapper JSON data whose DataVersions differ, and the
// number of topics.
func registerBodies(data []byte) ([2][]byte, int, error) {
	var bodies [2][]byte
	w, err := protocol.DecodeTopicConfigSerializeWrapper(data)
	if err != nil {
		return bodies, 0, fmt.Errorf("topic table: %w", err)
	}
	now := time.Now()
	for i := range bodies {
		w.DataVersion.Next(now, 0)
		b := &protocol.RegisterBrokerBody{TopicConfigSerializeWrapper: *w, FilterServerList: []string{}}
		bodies[i] = b.AppendJSON(nil)
	}
	return bodies, len(w.TopicConfigTable), nil
}

// request is a 4.9.8 broker's REGISTER_BROKER carrying body.
func (f *registerFlags) request(body []byte) *remoting.Command {
	req := remoting.NewRequest(remoting.RegisterBroker, map[string]string{
		"brokerAddr": f.brokerAddr, "brokerId": "0", "brokerName": f.broker, "clusterName": f.cluster,
		"haServerAddr": f.brokerAddr, "compressed": "false",
		"bodyCrc32": strconv.FormatInt(int64(protocol.BodyCRC32(body)), 10),
	})
	req.Body = body
	return req
}

// unregister takes the registered broker off the name server.
func (f *registerFlags) unregister(addr string) {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	req := remoting.NewRequest(remoting.UnregisterBroker, map[string]string{
		"brokerAddr": f.brokerAddr, "brokerId": "0", "brokerName": f.broker, "clusterName": f.cluster})
	_, _ = c.InvokeTimeout(addr, req, f.timeout)
}
