package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// loadFlags are the flags every subcommand shares.
type loadFlags struct {
	conns    int
	inFlight int
	duration time.Duration
	count    int64
	timeout  time.Duration
	progress time.Duration
}

func (f *loadFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.conns, "c", 16, "connections (one remoting client each)")
	fs.IntVar(&f.inFlight, "p", 1, "calls in flight per connection")
	fs.DurationVar(&f.duration, "d", 20*time.Second, "how long to run (ignored when -count is set)")
	fs.Int64Var(&f.count, "count", 0, "stop after this many requests")
	fs.DurationVar(&f.timeout, "timeout", 3*time.Second, "timeout of one call")
	fs.DurationVar(&f.progress, "progress", 5*time.Second, "progress report interval (0: none)")
}

func (f *loadFlags) validate() error {
	if f.conns < 1 || f.inFlight < 1 {
		return errors.New("-c and -p must be at least 1")
	}
	if f.count <= 0 && f.duration <= 0 {
		return errors.New("give -d or -count")
	}
	return nil
}

// sendFlags are the flags produce and grpc-produce share: the body, the
// senders, how fast and for how long.
type sendFlags struct {
	body     int
	senders  int
	rate     float64
	duration time.Duration
	count    int64
	progress time.Duration
}

func (f *sendFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.body, "s", 128, "message body size in bytes")
	fs.IntVar(&f.senders, "w", 64, "concurrent senders (each waits for its answer before the next send)")
	fs.Float64Var(&f.rate, "rate", 0, "messages per second in all (0 = as fast as the senders go)")
	fs.DurationVar(&f.duration, "d", 30*time.Second, "how long to send (ignored when -count is set)")
	fs.Int64Var(&f.count, "count", 0, "stop after this many sends")
	fs.DurationVar(&f.progress, "progress", 5*time.Second, "progress report interval (0: none)")
}

// validate checks them (the body's size is each subcommand's to check).
func (f *sendFlags) validate() error {
	switch {
	case f.senders < 1:
		return errors.New("-w must be at least 1")
	case f.count <= 0 && f.duration <= 0:
		return errors.New("give -d or -count")
	case f.rate < 0:
		return errors.New("-rate must not be negative")
	}
	return nil
}

// callFunc makes one request over c and returns the response code.
type callFunc func(c *remoting.Client) (code int32, err error)

// worker is one caller's share of the results; the reporter swaps its
// interval histogram under mu.
type worker struct {
	mu    sync.Mutex
	hist  histogram
	codes map[int32]uint64
	errs  uint64
	last  error
}

func (w *worker) record(d time.Duration, code int32, err error) {
	w.mu.Lock()
	w.hist.record(d)
	if err != nil {
		w.errs++
		w.last = err
	} else {
		w.codes[code]++
	}
	w.mu.Unlock()
}

// results accumulate what the reporter collected from the workers.
type results struct {
	hist    histogram
	codes   map[int32]uint64
	errs    uint64
	lastErr error
	// elapsed is the wall time of the whole run (set on the totals).
	elapsed time.Duration
}

// collect moves each worker's counts into interval and total.
func collect(workers []*worker, interval, total *results) {
	for _, w := range workers {
		w.mu.Lock()
		interval.hist.merge(&w.hist)
		interval.errs += w.errs
		for code, n := range w.codes {
			interval.codes[code] += n
		}
		if w.last != nil {
			interval.lastErr = w.last
		}
		w.hist.reset()
		w.errs, w.last = 0, nil
		clear(w.codes)
		w.mu.Unlock()
	}
	total.hist.merge(&interval.hist)
	total.errs += interval.errs
	for code, n := range interval.codes {
		total.codes[code] += n
	}
	if interval.lastErr != nil {
		total.lastErr = interval.lastErr
	}
}

func newResults() *results { return &results{codes: map[int32]uint64{}} }

// loadPlan says how runCallers drives a call: callers goroutines spread
// round-robin over clients remoting clients (one connection per address
// each), paced to rate calls/s in all when rate > 0, until the duration,
// the count or the context ends.
type loadPlan struct {
	clients  int
	callers  int
	duration time.Duration
	count    int64
	rate     float64
	progress time.Duration
}

// plan is route's shape: inFlight callers on each of conns connections.
func (f *loadFlags) plan() loadPlan {
	return loadPlan{clients: f.conns, callers: f.conns * f.inFlight, duration: f.duration,
		count: f.count, progress: f.progress}
}

// runLoad runs call on f.conns connections with f.inFlight callers each
// until the duration, the count or ctx ends, printing progress to out.
func runLoad(ctx context.Context, f *loadFlags, call callFunc, out io.Writer) *results {
	r := runCallers(ctx, f.plan(), call, out)
	printSummary(out, r)
	return r
}

// runCallers runs the plan and returns the totals; progress lines go to
// out every p.progress.
func runCallers(ctx context.Context, p loadPlan, call callFunc, out io.Writer) *results {
	clients := make([]*remoting.Client, max(p.clients, 1))
	for i := range clients {
		clients[i] = remoting.NewClient(remoting.ClientOptions{})
		defer clients[i].Close()
	}
	return runWorkers(ctx, p, func(i int) func() (int32, error) {
		client := clients[i%len(clients)]
		return func() (int32, error) { return call(client) }
	}, out)
}

// runWorkers runs p.callers goroutines, caller i making the calls of
// callerOf(i) one after the other, paced to p.rate, until the duration,
// the count or ctx ends, and returns the totals; progress lines go to out
// every p.progress.
func runWorkers(ctx context.Context, p loadPlan, callerOf func(i int) func() (int32, error), out io.Writer) *results {
	if p.count > 0 {
		p.duration = 0
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if p.duration > 0 {
		runCtx, cancel = context.WithTimeout(ctx, p.duration)
	}
	defer cancel()
	pace := newPacer(p.rate)
	var issued atomic.Int64
	workers := make([]*worker, p.callers)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{codes: map[int32]uint64{}}
		workers[i] = w
		call := callerOf(i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for (p.count <= 0 || issued.Add(1) <= p.count) && pace.wait(runCtx) {
				t0 := time.Now()
				code, err := call()
				w.record(time.Since(t0), code, err)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return report(workers, p.progress, done, out)
}

// pacer spaces calls 1/rate apart on a fixed schedule from its start (an
// open-loop schedule: a late call is followed by quicker ones). A nil
// pacer never waits.
type pacer struct {
	start time.Time
	every time.Duration
	next  atomic.Int64
}

func newPacer(rate float64) *pacer {
	if rate <= 0 {
		return nil
	}
	return &pacer{start: time.Now(), every: time.Duration(float64(time.Second) / rate)}
}

// slot is when call n (counting from 0) is due.
func (p *pacer) slot(n int64) time.Time { return p.start.Add(time.Duration(n) * p.every) }

// wait blocks until the next slot; false when ctx ended first.
func (p *pacer) wait(ctx context.Context) bool {
	if p == nil {
		return ctx.Err() == nil
	}
	d := time.Until(p.slot(p.next.Add(1) - 1))
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// progressTicks ticks every interval; an interval of 0 or less never
// ticks (-progress 0: no progress lines).
func progressTicks(every time.Duration) (<-chan time.Time, func()) {
	if every <= 0 {
		return nil, func() {}
	}
	t := time.NewTicker(every)
	return t.C, t.Stop
}

// report prints a progress line every interval until done, and returns
// the totals.
func report(workers []*worker, every time.Duration, done <-chan struct{}, out io.Writer) *results {
	total := newResults()
	start := time.Now()
	last := start
	ticks, stop := progressTicks(every)
	defer stop()
	for {
		select {
		case <-done:
			collect(workers, newResults(), total)
			total.elapsed = time.Since(start)
			return total
		case now := <-ticks:
			interval := newResults()
			collect(workers, interval, total)
			fmt.Fprintf(out, "[%6s] %s\n", now.Sub(start).Round(time.Second), line(interval, now.Sub(last)))
			last = now
		}
	}
}

func line(r *results, elapsed time.Duration) string {
	return fmt.Sprintf("requests %d  errors %d  %.1f req/s  p50 %s  p99 %s  p999 %s",
		r.hist.total, r.failures(), float64(r.hist.total)/elapsed.Seconds(),
		ms(r.hist.percentile(0.50)), ms(r.hist.percentile(0.99)), ms(r.hist.percentile(0.999)))
}

// failures counts transport errors and non-SUCCESS responses.
func (r *results) failures() uint64 {
	n := r.errs
	for code, c := range r.codes {
		if code != int32(remoting.Success) {
			n += c
		}
	}
	return n
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond)) }

// printSummary prints the totals of a run, one figure a line, then the
// response codes.
func printSummary(out io.Writer, r *results) {
	fmt.Fprintf(out, "elapsed:        %s\n", r.elapsed.Round(time.Millisecond))
	fmt.Fprintf(out, "total requests: %d\n", r.hist.total)
	fmt.Fprintf(out, "errors:         %d\n", r.failures())
	fmt.Fprintf(out, "throughput:     %.1f req/s\n", float64(r.hist.total)/r.elapsed.Seconds())
	fmt.Fprintf(out, "latency:        avg %s  p50 %s  p99 %s  p999 %s  max %s\n", ms(r.hist.mean()),
		ms(r.hist.percentile(0.50)), ms(r.hist.percentile(0.99)), ms(r.hist.percentile(0.999)), ms(r.hist.max))
	printCodes(out, r)
}

// printCodes prints the count of each response code and of transport
// errors.
func printCodes(out io.Writer, r *results) {
	codes := make([]int32, 0, len(r.codes))
	for code := range r.codes {
		codes = append(codes, code)
	}
	sort.Slice(codes, func(i, j int) bool { return codes[i] < codes[j] })
	for _, code := range codes {
		fmt.Fprintf(out, "  response %s (%d): %d\n", remoting.ResponseCode(code), code, r.codes[code])
	}
	if r.errs > 0 {
		fmt.Fprintf(out, "  transport errors: %d (last: %v)\n", r.errs, r.lastErr)
	}
}
