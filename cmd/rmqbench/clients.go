package main

// rmqbench clients: many client connections, each sending HEART_BEAT (34)
// on a schedule as a Java client does (every 30 s there; -period here),
// and what they cost the broker:
//
//	rmqbench clients -addr 127.0.0.1:10911 -pid 1234 -c 5000 -period 1s -d 20s
//
// Each connection is its own remoting client with its own clientID; its
// body names a producer group and a push consumer group subscribing -t
// (plus CLIENT_INNER_PRODUCER), as a Java client's does. -group-size
// clients share a group: a new member of a consumer group makes the broker
// notify every other member (NOTIFY_CONSUMER_IDS_CHANGED), so one group of
// thousands costs the broker O(n²) notifications while the clients connect.
// The heartbeats of the connections are spread evenly over the period.
//
// After all connections sent their first heartbeat, -warmup passes, then
// the measured window of -d: the heartbeats answered in it, their p50/p99,
// and the broker's CPU seconds (/proc/PID/stat) over it. RssAnon is read
// before the connections open and at the end of the window. The last line
// is key=value pairs for scripts (bench/scale-bench.sh):
//
//	clients: conns=5000 opened=5000 heartbeats=100000 failed=0 p50Ms=0.2 p99Ms=1.1 cpuSec=4.2 cpuPct=21.0 cpuUsPerHb=42.0 anonBeforeMB=30.1 anonMB=80.2
//
// It exits 1 when a connection could not be opened or a heartbeat failed.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// clientsFlags are the subcommand's settings.
type clientsFlags struct {
	addr      string
	pid       int
	conns     int
	period    time.Duration
	duration  time.Duration
	warmup    time.Duration
	groupSize int
	topic     string
	timeout   time.Duration
	hz        float64
}

func (f *clientsFlags) parse(args []string, stderr io.Writer) error {
	fs := flagsOf("clients", stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:10911", "broker address")
	fs.IntVar(&f.pid, "pid", 0, "broker process id, for its CPU and memory (0: not reported)")
	fs.IntVar(&f.conns, "c", 100, "client connections")
	fs.DurationVar(&f.period, "period", 30*time.Second, "heartbeat period of each connection (Java: 30s)")
	fs.DurationVar(&f.duration, "d", 20*time.Second, "measured window")
	fs.DurationVar(&f.warmup, "warmup", 5*time.Second, "unmeasured time after the connections opened")
	fs.IntVar(&f.groupSize, "group-size", 10, "connections per producer and consumer group")
	fs.StringVar(&f.topic, "t", "TopicTest", "topic the consumer groups subscribe")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "timeout of one heartbeat")
	fs.Float64Var(&f.hz, "hz", 100, "clock ticks per second of /proc/PID/stat (USER_HZ)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.conns < 1 || f.groupSize < 1 || f.period <= 0 || f.duration <= 0 || f.warmup < 0 || f.hz <= 0 {
		return errors.New("-c, -group-size, -period, -d and -hz must be positive")
	}
	return nil
}

func runClients(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f clientsFlags
	if err := f.parse(args, stderr); err != nil {
		fmt.Fprintln(stderr, "rmqbench clients:", err)
		return 2
	}
	fmt.Fprintf(stdout, "clients: %d connections to %s, a heartbeat each every %v, %d per group; warm-up %v, window %v\n",
		f.conns, f.addr, f.period, f.groupSize, f.warmup, f.duration)
	before := f.proc()
	fleet, err := openFleet(ctx, &f)
	defer fleet.close()
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench clients:", err)
		return 1
	}
	fmt.Fprintf(stdout, "  %d connections opened in %v\n", len(fleet.members), fleet.openTook.Round(time.Millisecond))
	stop := fleet.beat(&f)
	w := measureWindow(ctx, &f, fleet)
	stop()
	w.before = before
	fmt.Fprintln(stdout, w.line(&f, len(fleet.members)))
	if w.total.failures() > 0 || len(fleet.members) < f.conns {
		return 1
	}
	return 0
}

// proc reads the broker's figures; nil without -pid or when it is gone.
func (f *clientsFlags) proc() *benchLine {
	if f.pid <= 0 {
		return nil
	}
	b, err := readProc("/proc", f.pid, f.hz)
	if err != nil {
		return nil
	}
	return b
}

// member is one client connection and its heartbeat body.
type member struct {
	client *remoting.Client
	body   []byte
	rec    *worker
}

// fleet is the open connections.
type fleet struct {
	addr     string
	timeout  time.Duration
	members  []*member
	openTook time.Duration
}

// openFleet opens the connections, 64 at a time, each with its first
// heartbeat; the first failure stops it.
func openFleet(ctx context.Context, f *clientsFlags) (*fleet, error) {
	fl := &fleet{addr: f.addr, timeout: f.timeout, members: make([]*member, 0, f.conns)}
	start := time.Now()
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		gate = make(chan struct{}, 64)
		errs []error
	)
	for i := 0; i < f.conns && ctx.Err() == nil; i++ {
		m, err := newMember(f, i)
		if err != nil {
			return fl, err
		}
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer func() { <-gate; wg.Done() }()
			_, err := fl.heartbeat(m)
			mu.Lock()
			defer mu.Unlock()
			fl.members = append(fl.members, m)
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	fl.openTook = time.Since(start)
	if len(errs) > 0 {
		return fl, fmt.Errorf("%d of %d first heartbeats failed, e.g. %w", len(errs), f.conns, errs[0])
	}
	return fl, ctx.Err()
}

// newMember builds connection i: its client, which answers nothing the
// broker sends it (NOTIFY_CONSUMER_IDS_CHANGED is oneway), and its body.
func newMember(f *clientsFlags, i int) (*member, error) {
	router := remoting.NewRouter(nil)
	router.SetFallback(func(*remoting.Request) *remoting.Command { return nil })
	group := i / f.groupSize
	sub := subscriptionData{CodeSet: []int32{}, ExpressionType: "TAG", SubString: "*", SubVersion: time.Now().UnixMilli(),
		TagsSet: []string{}, Topic: f.topic}
	body, err := json.Marshal(&heartbeatData{
		ClientID: fmt.Sprintf("127.0.0.1@%d#%d", os.Getpid(), i),
		ConsumerDataSet: []consumerData{{ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET", ConsumeType: "CONSUME_PASSIVELY",
			GroupName: fmt.Sprintf("scale_cg_%d", group), MessageModel: "CLUSTERING", SubscriptionDataSet: []subscriptionData{sub}}},
		ProducerDataSet: []producerData{{GroupName: fmt.Sprintf("scale_pg_%d", group)}, {GroupName: clientInnerProducer}},
	})
	if err != nil {
		return nil, err
	}
	return &member{client: remoting.NewClient(remoting.ClientOptions{Router: router}), body: body,
		rec: &worker{codes: map[int32]uint64{}}}, nil
}

// heartbeat sends m's heartbeat and records its round trip.
func (fl *fleet) heartbeat(m *member) (int32, error) {
	req := remoting.NewRequest(remoting.HeartBeat, nil)
	req.Body = m.body
	t0 := time.Now()
	resp, err := m.client.InvokeTimeout(fl.addr, req, fl.timeout)
	var code int32
	if err == nil {
		code = resp.Code
		if code != int32(remoting.Success) {
			err = fmt.Errorf("rmqbench clients: heartbeat: %s (%d) %s", remoting.ResponseCode(code), code, resp.Remark)
		}
	}
	m.rec.record(time.Since(t0), code, err)
	return code, err
}

// beat runs every member's heartbeat every period, the members' first
// ones spread evenly over a period; the returned func stops them all.
func (fl *fleet) beat(f *clientsFlags) func() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, m := range fl.members {
		offset := f.period * time.Duration(i) / time.Duration(len(fl.members))
		wg.Add(1)
		go func() {
			defer wg.Done()
			fl.beatOne(ctx, m, offset, f.period)
		}()
	}
	return func() { cancel(); wg.Wait() }
}

// beatOne waits offset, then sends m's heartbeat every period until ctx
// ends.
func (fl *fleet) beatOne(ctx context.Context, m *member, offset, period time.Duration) {
	t := time.NewTimer(offset)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, _ = fl.heartbeat(m)
		t.Reset(period)
	}
}

// close closes every connection.
func (fl *fleet) close() {
	for _, m := range fl.members {
		m.client.Close()
	}
}

// window is what measureWindow saw.
type window struct {
	total             *results
	before, from, end *benchLine
}

// measureWindow lets the warm-up pass, drops what it recorded, and
// collects the heartbeats and the broker's figures over the window.
func measureWindow(ctx context.Context, f *clientsFlags, fl *fleet) *window {
	workers := make([]*worker, len(fl.members))
	for i, m := range fl.members {
		workers[i] = m.rec
	}
	sleepCtx(ctx, f.warmup)
	collect(workers, newResults(), newResults())
	w := &window{total: newResults(), from: f.proc()}
	start := time.Now()
	sleepCtx(ctx, f.duration)
	collect(workers, newResults(), w.total)
	w.total.elapsed, w.end = time.Since(start), f.proc()
	return w
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// line is the key=value summary of the window.
func (w *window) line(f *clientsFlags, opened int) string {
	h := &w.total.hist
	s := fmt.Sprintf("clients: conns=%d opened=%d heartbeats=%d failed=%d p50Ms=%.3f p99Ms=%.3f",
		f.conns, opened, h.total, w.total.failures(),
		float64(h.percentile(0.50))/1e6, float64(h.percentile(0.99))/1e6)
	if w.from != nil && w.end != nil {
		cpu := w.end.CPUSec - w.from.CPUSec
		perHb := 0.0
		if h.total > 0 {
			perHb = cpu * 1e6 / float64(h.total)
		}
		s += fmt.Sprintf(" cpuSec=%.2f cpuPct=%.1f cpuUsPerHb=%.1f", cpu, 100*cpu/w.total.elapsed.Seconds(), perHb)
	}
	if w.before != nil && w.end != nil {
		s += fmt.Sprintf(" anonBeforeMB=%.1f anonMB=%.1f", w.before.AnonMB, w.end.AnonMB)
	}
	return s
}
