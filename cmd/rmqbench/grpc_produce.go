package main

// rmqbench grpc-produce: unary SendMessage RPCs from -w senders to a 5.x
// proxy's gRPC port (apache.rocketmq.v2.MessagingService), the load 5.x
// Producers' synchronous send() puts on it:
//
//	rmqbench grpc-produce -proxy 127.0.0.1:8081 -t BenchmarkTest -s 128 -w 64 -d 30s
//	rmqbench grpc-produce -proxy 127.0.0.1:8081 -t T -rate 5000 -count 100000 -conns 4
//
// As a 5.x producer starts: a QueryRoute of the topic (the run stops when
// it fails, e.g. TOPIC_NOT_FOUND), then its Telemetry stream with producer
// settings for the topic, kept open during the run (grpc_client.go). -conns
// clients (default 1), each with its own client id and gRPC connection (a
// 5.x client has one connection per endpoint), share the senders
// round-robin. Each send is one NORMAL message of -s random alphanumeric
// bytes (made once) with a new 5.x message id, body encoding IDENTITY, the
// born timestamp and host, and the per-call metadata of grpc_client.go,
// under a -timeout deadline. The sends go to the proxy given, as in local
// mode, where every queue of the route is on it.
//
// A send counts as sent when its status is OK. The others are counted by
// their status code (MESSAGE_BODY_TOO_LARGE, TOPIC_NOT_FOUND...) and the
// failed calls by their gRPC code (UNAVAILABLE, DEADLINE_EXCEEDED...).
// Latency is measured from the call to its answer. Progress every 5 s; the
// run ends with the summary, the codes and one JSON line of kind produce,
// tool grpc (see benchLine).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// toolGrpc tags the result lines of grpc-produce.
const toolGrpc = "grpc"

// grpcProduceFlags are rmqbench grpc-produce's options.
type grpcProduceFlags struct {
	sendFlags
	proxy   string
	topic   string
	conns   int
	timeout time.Duration
}

func (f *grpcProduceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.proxy, "proxy", "127.0.0.1:8081", "the proxy's gRPC address (plaintext)")
	fs.StringVar(&f.topic, "t", "BenchmarkTest", "topic (must exist; NORMAL or no message.type)")
	f.sendFlags.register(fs)
	fs.IntVar(&f.conns, "conns", 1, "clients, one gRPC connection and client id each (senders are spread over them)")
	fs.DurationVar(&f.timeout, "timeout", grpcRequestTimeout, "deadline of one send")
}

func (f *grpcProduceFlags) validate() error {
	switch {
	case f.conns < 1:
		return errors.New("-conns must be at least 1")
	case f.body < 1:
		return errors.New("-s must be at least 1 (the proxy refuses empty bodies)")
	case f.timeout <= 0:
		return errors.New("-timeout must be positive")
	}
	return f.sendFlags.validate()
}

func runGrpcProduce(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("grpc-produce", stderr)
	var f grpcProduceFlags
	f.register(fs)
	if !parseChecked(fs, args, stderr, f.validate) {
		return 2
	}
	p, err := newGrpcProducer(&f)
	if p != nil {
		defer p.close()
	}
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench grpc-produce:", err)
		return 1
	}
	fmt.Fprintf(stdout, "grpc-produce: topic=%s body=%dB via %s (%d queues in its route), %d senders over %d client(s), rate %s\n",
		f.topic, f.body, f.proxy, p.queues, f.senders, f.conns, rateString(f.rate))
	r := runWorkers(ctx, loadPlan{callers: f.senders, duration: f.duration, count: f.count, rate: f.rate,
		progress: f.progress}, func(i int) func() (int32, error) {
		c := p.clients[i%len(p.clients)]
		return func() (int32, error) { return p.send(c) }
	}, stdout)
	res := grpcProduceResult(&f, r)
	fmt.Fprintln(stdout, res.human())
	printGrpcCodes(stdout, r, p.transport.snapshot())
	fmt.Fprintln(stdout, res.json())
	if res.Messages == 0 {
		return 1
	}
	return 0
}

// grpcProducer is the shared state of the senders.
type grpcProducer struct {
	f         *grpcProduceFlags
	conns     []*grpc.ClientConn
	clients   []*grpcClient
	queues    int
	body      []byte
	ids       *messageIDs
	transport transportErrors
}

// newGrpcProducer connects the clients, looks the route up and opens the
// clients' Telemetry streams; the producer it returns (also with an
// error) must be closed.
func newGrpcProducer(f *grpcProduceFlags) (*grpcProducer, error) {
	p := &grpcProducer{f: f, body: randomBody(f.body), ids: newMessageIDs()}
	for i := range f.conns {
		conn, err := dialProxy(f.proxy, false)
		if err != nil {
			return p, err
		}
		p.conns = append(p.conns, conn)
		p.clients = append(p.clients, newGrpcClient(conn, f.proxy, i))
	}
	n, err := queryRoute(p.clients[0], f.topic, f.timeout)
	if err != nil {
		return p, err
	}
	p.queues = n
	for _, c := range p.clients {
		if err := c.openTelemetry(c.producerSettings(f.topic), 10*time.Second); err != nil {
			return p, fmt.Errorf("client %s: telemetry: %w", c.id, err)
		}
	}
	return p, nil
}

// queryRoute asks the topic's route; it returns the number of queues.
func queryRoute(c *grpcClient, topic string, timeout time.Duration) (int, error) {
	ctx, cancel := c.call(context.Background(), timeout)
	defer cancel()
	resp, err := c.svc.QueryRoute(ctx, &apiv2.QueryRouteRequest{Topic: &apiv2.Resource{Name: topic}, Endpoints: c.accessPoint()})
	if err != nil {
		return 0, fmt.Errorf("QueryRoute %s: %w", topic, err)
	}
	if code := resp.GetStatus().GetCode(); code != apiv2.Code_OK {
		return 0, fmt.Errorf("QueryRoute %s: %v %q", topic, code, resp.GetStatus().GetMessage())
	}
	if len(resp.GetMessageQueues()) == 0 {
		return 0, fmt.Errorf("QueryRoute %s: no queue", topic)
	}
	return len(resp.GetMessageQueues()), nil
}

// close ends the clients as an SDK's shutdown does, and the connections.
func (p *grpcProducer) close() {
	for _, c := range p.clients {
		if c.telemetry != nil {
			c.terminate(p.f.timeout, "")
			c.closeTelemetry()
		}
	}
	for _, conn := range p.conns {
		_ = conn.Close()
	}
}

// send is one SendMessage of one message; the code is 0 for OK, else the
// status code (a failed call is err, counted by its gRPC code).
func (p *grpcProducer) send(c *grpcClient) (int32, error) {
	ctx, cancel := c.call(context.Background(), p.f.timeout)
	defer cancel()
	resp, err := c.svc.SendMessage(ctx, &apiv2.SendMessageRequest{Messages: []*apiv2.Message{message(p.f.topic, p.body, p.ids.next())}})
	if err != nil {
		p.transport.add(err)
		return 0, err
	}
	if code := resp.GetStatus().GetCode(); code != apiv2.Code_OK {
		return int32(code), nil
	}
	return 0, nil
}

// transportErrors counts failed calls by their gRPC code.
type transportErrors struct {
	mu sync.Mutex
	m  map[string]uint64
}

func (t *transportErrors) add(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]uint64{}
	}
	t.m[transportCode(err)]++
}

func (t *transportErrors) snapshot() map[string]uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]uint64, len(t.m))
	for k, v := range t.m {
		out[k] = v
	}
	return out
}

// printGrpcCodes prints the count of each status code (0 is OK) and of
// each gRPC code of the failed calls.
func printGrpcCodes(out io.Writer, r *results, transport map[string]uint64) {
	codes := make([]int32, 0, len(r.codes))
	for code := range r.codes {
		codes = append(codes, code)
	}
	sort.Slice(codes, func(i, j int) bool { return codes[i] < codes[j] })
	for _, code := range codes {
		name := apiv2.Code_OK.String()
		if code != 0 {
			name = apiv2.Code(code).String()
		}
		fmt.Fprintf(out, "  status %s: %d\n", name, r.codes[code])
	}
	names := make([]string, 0, len(transport))
	for name := range transport {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(out, "  failed calls, gRPC %s: %d\n", name, transport[name])
	}
	if r.errs > 0 {
		fmt.Fprintf(out, "  last failed call: %v\n", r.lastErr)
	}
}

// grpcProduceResult sums a run up; only OK answers count as sent.
func grpcProduceResult(f *grpcProduceFlags, r *results) *benchLine {
	sent := int64(r.codes[0])
	h := &r.hist
	return &benchLine{
		Kind: kindProduce, Tool: toolGrpc, Topic: f.topic, BodyBytes: f.body, Threads: f.senders,
		ElapsedSec: r.elapsed.Seconds(), Messages: sent, Failed: int64(h.total) - sent,
		TPS: float64(sent) / r.elapsed.Seconds(), AvgMs: msFloat(h.mean()), P50Ms: msFloat(h.percentile(0.50)),
		P99Ms: msFloat(h.percentile(0.99)), P999Ms: msFloat(h.percentile(0.999)), MaxMs: msFloat(h.max),
	}
}
