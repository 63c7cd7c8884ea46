package main

// rmqbench grpc-idle: thousands of idle 5.x clients on a proxy, and what
// they cost its process:
//
//	rmqbench grpc-idle -proxy 127.0.0.1:8081 -pid 1234 -t IdleTopic -c 2000 -polls 200 -d 30s
//
// -c clients, each with its own client id and, by default, its own gRPC
// connection (-per-conn puts several on one), open their Telemetry
// stream and send the settings of a SIMPLE_CONSUMER of group -g_<n>
// (-group-size clients a group) subscribing to every tag of -t, -parallel
// at a time; the stream then stays open with nothing on it. -polls of
// them also hold a long-polling ReceiveMessage each (long_polling_timeout
// 20 s, the SDKs' deadline of that plus the request timeout), issued again
// as soon as it is answered (a message is acked). The topic must exist;
// the polls are meant to find it empty.
//
// The process -pid (the broker with its proxy, or a proxy) is read from
// /proc (proc.go) before the clients open, -settle after they all opened
// and the polls started, during the -d they stay open (sampled every
// second: the peak RssAnon), at the end of it, and -settle after every
// client closed (NotifyClientTermination, as an SDK's shutdown sends it,
// then the stream and the connection). Before they close, with every idle
// stream still open, a new client checks that the proxy still serves:
// QueryRoute, a SimpleConsumer's receive parked on a group of its own, one
// message sent that the receive must hand out, and its ack.
//
// The summary says how many clients opened and how long that took, how
// many streams the proxy ended on its own (dropped), what the polls got,
// the memory figures and the check; the last line is JSON (kind
// grpc-idle; idleFigures' keys) for grpc-table. It exits 1 when a client
// could not open, a stream was dropped or the check failed.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// kindGrpcIdle is the kind of grpc-idle's JSON line.
const kindGrpcIdle = "grpc-idle"

// pollWait is the long-polling time of the idle polls and of the check.
const pollWait = 20 * time.Second

// grpcIdleFlags are the subcommand's settings.
type grpcIdleFlags struct {
	proxy     string
	pid       int
	clients   int
	perConn   int
	parallel  int
	topic     string
	group     string
	groupSize int
	polls     int
	duration  time.Duration
	settle    time.Duration
	timeout   time.Duration
	hz        float64
}

func (f *grpcIdleFlags) parse(args []string, stderr io.Writer) error {
	fs := flagsOf("grpc-idle", stderr)
	fs.StringVar(&f.proxy, "proxy", "127.0.0.1:8081", "the proxy's gRPC address (plaintext)")
	fs.IntVar(&f.pid, "pid", 0, "the proxy's process id, for its memory and CPU (0: not reported)")
	fs.IntVar(&f.clients, "c", 2000, "clients (a client id and a Telemetry stream each)")
	fs.IntVar(&f.perConn, "per-conn", 1, "clients per gRPC connection")
	fs.IntVar(&f.parallel, "parallel", 64, "clients opening at once")
	fs.StringVar(&f.topic, "t", "IdleTopic", "topic the clients subscribe (must exist)")
	fs.StringVar(&f.group, "g", "idle_cg", "consumer group prefix: clients i use <g>_<i / group-size>")
	fs.IntVar(&f.groupSize, "group-size", 100, "clients per consumer group")
	fs.IntVar(&f.polls, "polls", 0, "long-polling ReceiveMessage calls held open (on the first clients, one each in turn)")
	fs.DurationVar(&f.duration, "d", 30*time.Second, "how long the clients stay open, idle")
	fs.DurationVar(&f.settle, "settle", 5*time.Second, "wait after opening and after closing before reading the memory")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "timeout of a settings answer and of the check's calls")
	fs.Float64Var(&f.hz, "hz", 100, "clock ticks per second of /proc/PID/stat (USER_HZ)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.clients < 1 || f.perConn < 1 || f.parallel < 1 || f.groupSize < 1 || f.polls < 0 || f.duration <= 0 ||
		f.settle < 0 || f.timeout <= 0 || f.hz <= 0 {
		return errors.New("-c, -per-conn, -parallel, -group-size, -d, -timeout and -hz must be positive, -polls and -settle not negative")
	}
	return nil
}

// proc reads the process's figures; nil without -pid or when it is gone.
func (f *grpcIdleFlags) proc() *benchLine {
	if f.pid <= 0 {
		return nil
	}
	b, err := readProc("/proc", f.pid, f.hz)
	if err != nil {
		return nil
	}
	return b
}

// groupOf is client i's consumer group.
func (f *grpcIdleFlags) groupOf(i int) string { return f.group + "_" + strconv.Itoa(i/f.groupSize) }

// idleFigures are grpc-idle's results (JSON keys read by grpc-table).
// Memory is in MB: VmRSS (rss*) and RssAnon (anon*) of the process.
type idleFigures struct {
	Clients      int     `json:"clients"`
	Conns        int     `json:"conns"`
	Opened       int     `json:"opened"`
	OpenFailed   int     `json:"openFailed"`
	OpenSec      float64 `json:"openSec"`
	Polls        int     `json:"polls"`
	PollAnswers  int64   `json:"pollAnswers"`
	PollMessages int64   `json:"pollMessages"`
	PollErrors   int64   `json:"pollErrors"`
	Dropped      int     `json:"dropped"`
	HoldSec      float64 `json:"holdSec"`
	// HoldCPUSec is the process's CPU seconds while the clients sat idle.
	HoldCPUSec     float64 `json:"holdCpuSec"`
	RssBeforeMB    float64 `json:"rssBeforeMB"`
	RssOpenMB      float64 `json:"rssOpenMB"`
	RssEndMB       float64 `json:"rssEndMB"`
	RssClosedMB    float64 `json:"rssClosedMB"`
	AnonBeforeMB   float64 `json:"anonBeforeMB"`
	AnonOpenMB     float64 `json:"anonOpenMB"`
	AnonEndMB      float64 `json:"anonEndMB"`
	HoldAnonPeakMB float64 `json:"holdAnonPeakMB"`
	AnonClosedMB   float64 `json:"anonClosedMB"`
	// RssKBPerClient and AnonKBPerClient are the growth from before to
	// the end of the hold, per client opened.
	RssKBPerClient  float64 `json:"rssKBPerClient"`
	AnonKBPerClient float64 `json:"anonKBPerClient"`
	CheckOK         bool    `json:"checkOk"`
	// CheckMs is the check's time from the send to the message handed out.
	CheckMs    float64 `json:"checkMs"`
	CheckError string  `json:"checkError,omitempty"`
	LastError  string  `json:"lastError,omitempty"`
}

// idleLine is grpc-idle's JSON line.
type idleLine struct {
	Kind  string `json:"kind"`
	Topic string `json:"topic,omitempty"`
	PID   int    `json:"pid,omitempty"`
	idleFigures
}

func runGrpcIdle(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f grpcIdleFlags
	if err := f.parse(args, stderr); err != nil {
		fmt.Fprintln(stderr, "rmqbench grpc-idle:", err)
		return 2
	}
	conns := (f.clients + f.perConn - 1) / f.perConn
	fmt.Fprintf(stdout, "grpc-idle: %d clients over %d connections to %s, SIMPLE_CONSUMERs of %s in groups of %d, %d long polls, open for %v\n",
		f.clients, conns, f.proxy, f.topic, f.groupSize, f.polls, f.duration)
	fig := idleFigures{Clients: f.clients, Conns: conns, Polls: f.polls}
	before := f.proc()
	fl := openIdleFleet(ctx, &f, conns)
	defer fl.close(&f)
	fig.Opened, fig.OpenFailed, fig.OpenSec = len(fl.open), fl.failed, round3(fl.took.Seconds())
	fmt.Fprintf(stdout, "  %d clients opened in %v, %d failed%s\n", fig.Opened, fl.took.Round(time.Millisecond), fl.failed, lastErrNote(fl.lastErr))
	if len(fl.open) == 0 {
		fmt.Fprintln(stderr, "rmqbench grpc-idle: no client opened")
		return 1
	}
	mq, err := routeQueue(fl.open[0], f.topic, f.timeout)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench grpc-idle:", err)
		return 1
	}
	pollCtx, stopPolls := context.WithCancel(ctx)
	var ps pollStats
	var pollsDone sync.WaitGroup
	for j := 0; j < f.polls; j++ {
		c := fl.open[j%len(fl.open)]
		group := f.groupOf(fl.index[c])
		pollsDone.Add(1)
		go func() {
			defer pollsDone.Done()
			poll(pollCtx, c, group, mq, &ps)
		}()
	}
	sleepCtx(ctx, f.settle)
	opened := f.proc()
	start := time.Now()
	var end *benchLine
	if f.pid > 0 {
		holdCtx, cancel := context.WithTimeout(ctx, f.duration)
		end, _ = watchProc(holdCtx, "/proc", f.pid, f.hz, time.Second)
		cancel()
	} else {
		sleepCtx(ctx, f.duration)
	}
	fig.HoldSec = round3(time.Since(start).Seconds())
	fig.Dropped = fl.dropped()
	chk := checkProxy(&f, mq)
	fig.CheckOK, fig.CheckMs = chk.err == nil, round3(msFloat(chk.took))
	if chk.err != nil {
		fig.CheckError = chk.err.Error()
	}
	stopPolls()
	pollsDone.Wait()
	fig.PollAnswers, fig.PollMessages, fig.PollErrors = ps.answers.Load(), ps.messages.Load(), ps.errors.Load()
	if e := ps.lastErr.Load(); e != nil {
		fig.LastError = e.(string)
	} else if fl.lastErr != nil {
		fig.LastError = fl.lastErr.Error()
	}
	fl.close(&f)
	sleepCtx(ctx, f.settle)
	closed := f.proc()
	fig.memory(before, opened, end, closed)
	fmt.Fprintln(stdout, fig.human())
	fmt.Fprintln(stdout, (&idleLine{Kind: kindGrpcIdle, Topic: f.topic, PID: f.pid, idleFigures: fig}).json())
	if fig.OpenFailed > 0 || fig.Dropped > 0 || !fig.CheckOK {
		return 1
	}
	return 0
}

func lastErrNote(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprintf(" (last: %v)", err)
}

// memory fills in the memory figures from the readings (nil: not read).
func (fig *idleFigures) memory(before, opened, end, closed *benchLine) {
	if before == nil || opened == nil || end == nil || closed == nil {
		return
	}
	fig.RssBeforeMB, fig.RssOpenMB, fig.RssEndMB, fig.RssClosedMB = before.RssMB, opened.RssMB, end.RssMB, closed.RssMB
	fig.AnonBeforeMB, fig.AnonOpenMB, fig.AnonEndMB, fig.AnonClosedMB = before.AnonMB, opened.AnonMB, end.AnonMB, closed.AnonMB
	fig.HoldAnonPeakMB = end.AnonPeakMB
	fig.HoldCPUSec = round3(end.CPUSec - opened.CPUSec)
	if fig.Opened > 0 {
		fig.RssKBPerClient = round3((end.RssMB - before.RssMB) * 1024 / float64(fig.Opened))
		fig.AnonKBPerClient = round3((end.AnonMB - before.AnonMB) * 1024 / float64(fig.Opened))
	}
}

// human is the summary of a run.
func (fig *idleFigures) human() string {
	s := fmt.Sprintf("grpc-idle: %d of %d clients open for %.1fs, %d streams dropped; %d polls: %d answered empty, %d messages, %d errors",
		fig.Opened, fig.Clients, fig.HoldSec, fig.Dropped, fig.Polls, fig.PollAnswers, fig.PollMessages, fig.PollErrors)
	if fig.RssBeforeMB > 0 {
		s += fmt.Sprintf("; RSS MB before %.1f, opened %.1f, end %.1f, closed %.1f; RssAnon MB before %.1f, opened %.1f, end %.1f (peak %.1f), closed %.1f; per client %.1f KB RSS, %.1f KB anon; CPU while idle %.2fs",
			fig.RssBeforeMB, fig.RssOpenMB, fig.RssEndMB, fig.RssClosedMB, fig.AnonBeforeMB, fig.AnonOpenMB, fig.AnonEndMB,
			fig.HoldAnonPeakMB, fig.AnonClosedMB, fig.RssKBPerClient, fig.AnonKBPerClient, fig.HoldCPUSec)
	}
	if fig.CheckOK {
		s += fmt.Sprintf("; check ok (sent to received %.1fms)", fig.CheckMs)
	} else {
		s += "; check FAILED: " + fig.CheckError
	}
	return s
}

func (l *idleLine) json() string {
	out, _ := json.Marshal(l)
	return string(out)
}

// idleFleet is the clients opened.
type idleFleet struct {
	conns   []*grpc.ClientConn
	open    []*grpcClient
	index   map[*grpcClient]int
	failed  int
	lastErr error
	took    time.Duration
	closed  bool
}

// openIdleFleet opens the clients, f.parallel at a time; those whose
// settings were not answered count as failed.
func openIdleFleet(ctx context.Context, f *grpcIdleFlags, conns int) *idleFleet {
	fl := &idleFleet{index: map[*grpcClient]int{}}
	start := time.Now()
	for range conns {
		conn, err := dialProxy(f.proxy, true)
		if err != nil {
			fl.failed, fl.lastErr = f.clients, err
			return fl
		}
		fl.conns = append(fl.conns, conn)
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		gate = make(chan struct{}, f.parallel)
	)
	for i := 0; i < f.clients && ctx.Err() == nil; i++ {
		c := newGrpcClient(fl.conns[i/f.perConn], f.proxy, i)
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer func() { <-gate; wg.Done() }()
			err := c.openTelemetry(c.simpleConsumerSettings(f.groupOf(i), f.topic), f.timeout)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				fl.failed++
				fl.lastErr = err
				return
			}
			fl.open = append(fl.open, c)
			fl.index[c] = i
		}()
	}
	wg.Wait()
	fl.took = time.Since(start)
	return fl
}

// dropped counts the streams the proxy ended.
func (fl *idleFleet) dropped() int {
	n := 0
	for _, c := range fl.open {
		if c.dropped() {
			n++
		}
	}
	return n
}

// close ends every client as an SDK's shutdown does, 64 at a time, then
// the connections; once.
func (fl *idleFleet) close(f *grpcIdleFlags) {
	if fl.closed {
		return
	}
	fl.closed = true
	var wg sync.WaitGroup
	gate := make(chan struct{}, 64)
	for _, c := range fl.open {
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer func() { <-gate; wg.Done() }()
			c.terminate(f.timeout, f.groupOf(fl.index[c]))
			c.closeTelemetry()
		}()
	}
	wg.Wait()
	for _, conn := range fl.conns {
		_ = conn.Close()
	}
}

// routeQueue asks the topic's route and returns its first readable queue.
func routeQueue(c *grpcClient, topic string, timeout time.Duration) (*apiv2.MessageQueue, error) {
	ctx, cancel := c.call(context.Background(), timeout)
	defer cancel()
	resp, err := c.svc.QueryRoute(ctx, &apiv2.QueryRouteRequest{Topic: &apiv2.Resource{Name: topic}, Endpoints: c.accessPoint()})
	if err != nil {
		return nil, fmt.Errorf("QueryRoute %s: %w", topic, err)
	}
	if code := resp.GetStatus().GetCode(); code != apiv2.Code_OK {
		return nil, fmt.Errorf("QueryRoute %s: %v %q", topic, code, resp.GetStatus().GetMessage())
	}
	for _, q := range resp.GetMessageQueues() {
		if q.GetPermission() == apiv2.Permission_READ || q.GetPermission() == apiv2.Permission_READ_WRITE {
			return q, nil
		}
	}
	return nil, fmt.Errorf("QueryRoute %s: no readable queue", topic)
}

// pollStats are what the polls got.
type pollStats struct {
	answers, messages, errors atomic.Int64
	lastErr                   atomic.Value // string
}

// poll holds a long-polling receive of group on c until ctx ends, again
// each time it is answered; messages are acked.
func poll(ctx context.Context, c *grpcClient, group string, mq *apiv2.MessageQueue, ps *pollStats) {
	for ctx.Err() == nil {
		msgs, st, err := receive(ctx, c, group, mq, pollWait)
		code := st.GetCode()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			ps.errors.Add(1)
			ps.lastErr.Store(err.Error())
			sleepCtx(ctx, time.Second)
		case code == apiv2.Code_OK:
			ps.messages.Add(int64(len(msgs)))
			if err := ack(c, group, mq.GetTopic().GetName(), msgs, grpcRequestTimeout); err != nil {
				ps.lastErr.Store(err.Error())
			}
		case code == apiv2.Code_MESSAGE_NOT_FOUND:
			ps.answers.Add(1)
		default:
			ps.errors.Add(1)
			ps.lastErr.Store(fmt.Sprintf("receive: %v %q", code, st.GetMessage()))
			sleepCtx(ctx, time.Second)
		}
	}
}

// receive is one SimpleConsumer ReceiveMessage: the messages and the
// status code of the answer.
func receive(ctx context.Context, c *grpcClient, group string, mq *apiv2.MessageQueue, wait time.Duration) ([]*apiv2.Message, *apiv2.Status, error) {
	callCtx, cancel := c.call(ctx, wait+grpcRequestTimeout)
	defer cancel()
	stream, err := c.svc.ReceiveMessage(callCtx, &apiv2.ReceiveMessageRequest{
		Group: &apiv2.Resource{Name: group}, MessageQueue: mq,
		FilterExpression: &apiv2.FilterExpression{Type: apiv2.FilterType_TAG, Expression: "*"},
		BatchSize:        32, InvisibleDuration: durationpb.New(30 * time.Second), LongPollingTimeout: durationpb.New(wait)})
	if err != nil {
		return nil, nil, err
	}
	var msgs []*apiv2.Message
	st := &apiv2.Status{}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return msgs, st, nil
		}
		if err != nil {
			return msgs, st, err
		}
		if s := resp.GetStatus(); s != nil {
			st = s
		}
		if m := resp.GetMessage(); m != nil {
			msgs = append(msgs, m)
		}
	}
}

// ack acknowledges msgs.
func ack(c *grpcClient, group, topic string, msgs []*apiv2.Message, timeout time.Duration) error {
	if len(msgs) == 0 {
		return nil
	}
	req := &apiv2.AckMessageRequest{Group: &apiv2.Resource{Name: group}, Topic: &apiv2.Resource{Name: topic}}
	for _, m := range msgs {
		req.Entries = append(req.Entries, &apiv2.AckMessageEntry{MessageId: m.GetSystemProperties().GetMessageId(),
			ReceiptHandle: m.GetSystemProperties().GetReceiptHandle()})
	}
	ctx, cancel := c.call(context.Background(), timeout)
	defer cancel()
	resp, err := c.svc.AckMessage(ctx, req)
	if err != nil {
		return fmt.Errorf("ack: %w", err)
	}
	if code := resp.GetStatus().GetCode(); code != apiv2.Code_OK {
		return fmt.Errorf("ack: %v %q", code, resp.GetStatus().GetMessage())
	}
	return nil
}

// checkResult is what the check saw: err nil when the message sent was
// received and acked, took from the send to its arrival.
type checkResult struct {
	took time.Duration
	err  error
}

// checkProxy is a new client's QueryRoute, a receive parked on a group of
// its own, one message sent that it must hand out, and its ack.
func checkProxy(f *grpcIdleFlags, mq *apiv2.MessageQueue) checkResult {
	conn, err := dialProxy(f.proxy, false)
	if err != nil {
		return checkResult{err: err}
	}
	defer func() { _ = conn.Close() }()
	c := newGrpcClient(conn, f.proxy, f.clients)
	group := f.group + "_check"
	if _, err := routeQueue(c, f.topic, f.timeout); err != nil {
		return checkResult{err: err}
	}
	if err := c.openTelemetry(c.simpleConsumerSettings(group, f.topic), f.timeout); err != nil {
		return checkResult{err: fmt.Errorf("telemetry: %w", err)}
	}
	defer func() { c.terminate(f.timeout, group); c.closeTelemetry() }()
	id := newMessageIDs().next()
	// The first receive sets the group's offset (a new group may also
	// start at older messages: they are acked and passed over); the
	// message sent while it waits must come out of it or the next ones.
	type got struct {
		at  time.Time
		err error
	}
	results := make(chan got, 1)
	go func() {
		for deadline := time.Now().Add(3 * pollWait); time.Now().Before(deadline); {
			msgs, st, err := receive(context.Background(), c, group, mq, pollWait)
			at := time.Now()
			if code := st.GetCode(); err == nil && code != apiv2.Code_OK && code != apiv2.Code_MESSAGE_NOT_FOUND {
				err = fmt.Errorf("receive: %v %q", code, st.GetMessage())
			}
			if err == nil {
				err = ack(c, group, f.topic, msgs, f.timeout)
			}
			if err != nil {
				results <- got{err: err}
				return
			}
			for _, m := range msgs {
				if m.GetSystemProperties().GetMessageId() == id {
					results <- got{at: at}
					return
				}
			}
		}
		results <- got{err: fmt.Errorf("receive: the message sent (%s) did not come within %v", id, 3*pollWait)}
	}()
	time.Sleep(time.Second)
	sent := time.Now()
	ctx, cancel := c.call(context.Background(), f.timeout)
	resp, err := c.svc.SendMessage(ctx, &apiv2.SendMessageRequest{Messages: []*apiv2.Message{message(f.topic, []byte("grpc-idle check"), id)}})
	cancel()
	if err != nil {
		return checkResult{err: fmt.Errorf("send: %w", err)}
	}
	if code := resp.GetStatus().GetCode(); code != apiv2.Code_OK {
		return checkResult{err: fmt.Errorf("send: %v %q", code, resp.GetStatus().GetMessage())}
	}
	g := <-results
	if g.err != nil {
		return checkResult{err: g.err}
	}
	return checkResult{took: g.at.Sub(sent)}
}
