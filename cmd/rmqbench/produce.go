package main

// rmqbench produce: synchronous SEND_MESSAGE_V2 (310) from -w senders, the
// load org.apache.rocketmq.example.benchmark.Producer puts on a broker:
//
//	rmqbench produce -n 127.0.0.1:9876 -t BenchmarkTest -s 128 -w 64 -d 30s
//	rmqbench produce -n 127.0.0.1:9876 -t T -rate 5000 -count 100000
//
// As a Java producer does it: the route of the topic from the name server
// (GET_ROUTEINFO_BY_TOPIC; when there is none, the route of TBW102 with
// every queue count capped at 4, and the broker creates the topic on the
// first send), one HEART_BEAT with the producer group to each master,
// then each send goes to the next write queue in turn. The header is
// SendMessageRequestHeaderV2 with its one-letter keys:
//
//	a producerGroup  b topic  c defaultTopic (TBW102)  d defaultTopicQueueNums (4)
//	e queueId  f sysFlag (0)  g bornTimestamp  h flag (0)  i properties
//	j reconsumeTimes (0)  k unitMode (false)  m batch (false)  n brokerName
//
// The body is -s random alphanumeric bytes (made once, as Java's benchmark
// does) and the properties are UNIQ_KEY (a new id each send) and WAIT=true,
// what `new Message(topic, body)` carries. All senders share one
// connection per broker (-c adds more), as all threads of a Java producer
// do. The route is not refreshed during the run.
//
// Latency is measured from just before the request is written to its
// response. The run ends with a summary line and one JSON line (see
// benchLine).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// produceFlags are rmqbench produce's options.
type produceFlags struct {
	sendFlags
	namesrv string
	topic   string
	group   string
	conns   int
	timeout time.Duration
	binary  bool
}

func (f *produceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.namesrv, "n", "127.0.0.1:9876", "name server address (the first of a ';' list)")
	fs.StringVar(&f.topic, "t", "BenchmarkTest", "topic")
	fs.StringVar(&f.group, "g", "rmqbench_producer", "producer group")
	f.sendFlags.register(fs)
	fs.IntVar(&f.conns, "c", 1, "connections per broker (senders are spread over them)")
	fs.DurationVar(&f.timeout, "timeout", 3*time.Second, "timeout of one send")
	fs.BoolVar(&f.binary, "rocketmq-header", false, "send ROCKETMQ binary headers (as Java's benchmark tools do) instead of JSON")
}

func (f *produceFlags) validate() error {
	switch {
	case f.conns < 1:
		return errors.New("-c must be at least 1")
	case f.body < 0:
		return errors.New("-s must not be negative")
	}
	return f.sendFlags.validate()
}

func runProduce(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("produce", stderr)
	var f produceFlags
	f.register(fs)
	if !parseChecked(fs, args, stderr, f.validate) {
		return 2
	}
	p, err := newProducer(&f, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench produce:", err)
		return 1
	}
	fmt.Fprintf(stdout, "produce: topic=%s body=%dB on %d queues of %v, %d senders over %d connection(s), rate %s\n",
		f.topic, f.body, len(p.queues), brokerAddrs(p.queues), f.senders, f.conns, rateString(f.rate))
	r := runCallers(ctx, loadPlan{clients: f.conns, callers: f.senders, duration: f.duration,
		count: f.count, rate: f.rate, progress: f.progress}, p.send, stdout)
	res := produceResult(&f, r)
	fmt.Fprintln(stdout, res.human())
	printCodes(stdout, r)
	fmt.Fprintln(stdout, res.json())
	if res.Messages == 0 {
		return 1
	}
	return 0
}

func rateString(rate float64) string {
	if rate <= 0 {
		return "unlimited"
	}
	return strconv.FormatFloat(rate, 'f', -1, 64) + " msg/s"
}

// producer is the shared state of the senders.
type producer struct {
	f      *produceFlags
	queues []messageQueue
	body   []byte
	ids    *uniqIDs
	next   atomic.Uint64
	// defaultQueueNums is header d: the queue count the broker gives the
	// topic if it creates it.
	defaultQueueNums string
}

// newProducer looks the route up and heartbeats the brokers.
func newProducer(f *produceFlags, out io.Writer) (*producer, error) {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	w := &wire{client: c, timeout: f.timeout, serialize: serializeType(f.binary)}
	ns := firstAddr(f.namesrv)
	route, err := w.lookupRoute(ns, f.topic)
	limit := int32(0)
	if errors.Is(err, errNoRoute) {
		fmt.Fprintf(out, "produce: no route for %s yet; sending on %s's queues (the broker creates the topic)\n", f.topic, autoCreateTopic)
		route, err = w.lookupRoute(ns, autoCreateTopic)
		limit = defaultTopicQueueNums
	}
	if err != nil {
		return nil, err
	}
	p := &producer{f: f, queues: routeQueues(route, true, limit), body: randomBody(f.body), ids: newUniqIDs(),
		defaultQueueNums: strconv.Itoa(defaultTopicQueueNums)}
	if len(p.queues) == 0 {
		return nil, fmt.Errorf("no writable queue with a master in the route of %s", f.topic)
	}
	hb := &heartbeatData{ClientID: newClientID(), ConsumerDataSet: []consumerData{},
		ProducerDataSet: []producerData{{GroupName: f.group}, {GroupName: clientInnerProducer}}}
	if err := w.heartbeat(brokerAddrs(p.queues), hb); err != nil {
		return nil, err
	}
	return p, nil
}

// randomBody is n random letters and digits.
func randomBody(n int) []byte {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[rand.IntN(len(alnum))]
	}
	return b
}

// send is one SEND_MESSAGE_V2 to the next queue; it is the callFunc of
// the load runner.
func (p *producer) send(c *remoting.Client) (int32, error) {
	q := p.queues[(p.next.Add(1)-1)%uint64(len(p.queues))]
	req := remoting.NewRequest(remoting.SendMessageV2, map[string]string{
		"a": p.f.group, "b": p.f.topic, "c": autoCreateTopic, "d": p.defaultQueueNums,
		"e": strconv.Itoa(int(q.id)), "f": "0", "g": strconv.FormatInt(time.Now().UnixMilli(), 10), "h": "0",
		"i": "UNIQ_KEY\x01" + p.ids.next() + "\x02WAIT\x01true",
		"j": "0", "k": "false", "m": "false", "n": q.broker,
	})
	req.SerializeType = serializeType(p.f.binary)
	req.Body = p.body
	resp, err := c.InvokeTimeout(q.addr, req, p.f.timeout)
	if err != nil {
		return 0, err
	}
	return resp.Code, nil
}

// produceResult sums a run up; only SUCCESS answers count as sent.
func produceResult(f *produceFlags, r *results) *benchLine {
	sent := int64(r.codes[int32(remoting.Success)])
	h := &r.hist
	return &benchLine{
		Kind: kindProduce, Tool: toolRmqbench, Topic: f.topic, BodyBytes: f.body, Threads: f.senders,
		ElapsedSec: r.elapsed.Seconds(), Messages: sent, Failed: int64(h.total) - sent,
		TPS: float64(sent) / r.elapsed.Seconds(), AvgMs: msFloat(h.mean()), P50Ms: msFloat(h.percentile(0.50)),
		P99Ms: msFloat(h.percentile(0.99)), P999Ms: msFloat(h.percentile(0.999)), MaxMs: msFloat(h.max),
	}
}
