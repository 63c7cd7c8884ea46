package main

// rmqbench slowloris: many connections that each announce a large frame
// and trickle its bytes, while one normal client keeps calling, and the
// server's memory before, during and after:
//
//	rmqbench slowloris -addr 127.0.0.1:9876 -pid 1234 -c 2000 -d 30s
//
// Each slow connection writes a frame length (-announce, by default the
// largest the server accepts) and then -chunk bytes every -every for -d;
// with -chunk 0 it goes quiet after the length, so -d past the server's
// idle timeout (serverChannelMaxIdleTimeSeconds, 120 s) shows whether the
// server closes idle connections.
// The normal client sends -code (GET_ROUTEINFO_BY_TOPIC by default; the
// broker answers GET_BROKER_RUNTIME_INFO, -code 28) back to back over its
// own connection. The report gives VmRSS and RssAnon of /proc/PID/status
// before the slow connections open, their peak while they trickle, and
// -settle after they closed; the calls the normal client made, failed and
// its slowest; and how many slow connections the server closed. It exits 1
// when the normal client saw a failure or a slow connection could not be
// opened.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// slowlorisFlags are the subcommand's settings.
type slowlorisFlags struct {
	addr     string
	pid      int
	conns    int
	announce int
	chunk    int
	every    time.Duration
	duration time.Duration
	settle   time.Duration
	code     int
	topic    string
	timeout  time.Duration
}

func (f *slowlorisFlags) parse(args []string, stderr io.Writer) error {
	fs := flagsOf("slowloris", stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:9876", "server address")
	fs.IntVar(&f.pid, "pid", 0, "server process id, for its memory (0: not reported)")
	fs.IntVar(&f.conns, "c", 2000, "slow connections")
	fs.IntVar(&f.announce, "announce", remoting.MaxFrameLength-4, "frame length each slow connection announces")
	fs.IntVar(&f.chunk, "chunk", 1, "bytes each slow connection sends per -every (0: none, the connections stay idle)")
	fs.DurationVar(&f.every, "every", time.Second, "interval between a slow connection's chunks")
	fs.DurationVar(&f.duration, "d", 30*time.Second, "how long the slow connections trickle")
	fs.DurationVar(&f.settle, "settle", 5*time.Second, "wait after closing them before the last reading")
	fs.IntVar(&f.code, "code", int(remoting.GetRouteinfoByTopic), "request code of the normal client")
	fs.StringVar(&f.topic, "t", "TopicTest", "topic header of the normal client's requests")
	fs.DurationVar(&f.timeout, "timeout", 3*time.Second, "timeout of one normal call")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.conns < 1 || f.chunk < 0 || f.every <= 0 || f.duration <= 0 || f.announce < 1 {
		return errors.New("-c, -every, -d and -announce must be positive, -chunk not negative")
	}
	return nil
}

func runSlowloris(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f slowlorisFlags
	if err := f.parse(args, stderr); err != nil {
		fmt.Fprintln(stderr, "rmqbench slowloris:", err)
		return 2
	}
	fmt.Fprintf(stdout, "slowloris: %d connections to %s announcing %d-byte frames, %d byte(s) each every %v for %v\n",
		f.conns, f.addr, f.announce, f.chunk, f.every, f.duration)
	normal := startNormalClient(&f)
	defer normal.stop()
	if err := normal.waitFirst(ctx, f.timeout*3); err != nil {
		fmt.Fprintln(stderr, "rmqbench slowloris: the normal client got no answer:", err)
		return 1
	}
	report := func(when string) memFigures {
		m := readMem(f.pid)
		fmt.Fprintf(stdout, "  rss %-14s %s   normal client: %s\n", when, m, normal.summary())
		return m
	}
	report("before")
	slow, dialErrs := openSlow(ctx, &f)
	report("opened")
	peak := trickle(ctx, &f, slow, func() memFigures { return readMem(f.pid) })
	fmt.Fprintf(stdout, "  rss %-14s %s\n", "during (peak)", peak)
	closedByServer := slow.closeAll()
	select {
	case <-ctx.Done():
	case <-time.After(f.settle):
	}
	report("after")
	calls, failed, _ := normal.totals()
	fmt.Fprintf(stdout, "slowloris: %d slow connections opened (%d failed to open), %d closed by the server; "+
		"normal client: %d calls, %d failed, slowest %v\n",
		len(slow.conns), dialErrs, closedByServer, calls, failed, normal.slowest())
	if failed > 0 || dialErrs > 0 || calls == 0 {
		return 1
	}
	return 0
}

// memFigures are a process's VmRSS and RssAnon in MiB.
type memFigures struct{ rss, anon float64 }

func (m memFigures) String() string {
	return fmt.Sprintf("VmRSS %7.1f MiB  RssAnon %7.1f MiB", m.rss, m.anon)
}

// readMem reads pid's memory from /proc; zero without a pid.
func readMem(pid int) memFigures {
	if pid <= 0 {
		return memFigures{}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memFigures{}
	}
	return memFigures{rss: statusKB(status, "VmRSS:") / 1024, anon: statusKB(status, "RssAnon:") / 1024}
}

// slowConns are the trickling connections; closed counts those the
// server closed (a write failed).
type slowConns struct {
	conns  []net.Conn
	closed []bool
}

// openSlow dials the slow connections, 64 at a time, and writes each
// one's frame length.
func openSlow(ctx context.Context, f *slowlorisFlags) (*slowConns, int) {
	var (
		mu    sync.Mutex
		s     = &slowConns{}
		fails int
		wg    sync.WaitGroup
		gate  = make(chan struct{}, 64)
	)
	head := binary.BigEndian.AppendUint32(nil, uint32(f.announce))
	for i := 0; i < f.conns && ctx.Err() == nil; i++ {
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer func() { <-gate; wg.Done() }()
			c, err := net.DialTimeout("tcp", f.addr, 10*time.Second)
			if err == nil {
				if _, err = c.Write(head); err != nil {
					_ = c.Close()
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				fails++
				return
			}
			s.conns = append(s.conns, c)
			s.closed = append(s.closed, false)
		}()
	}
	wg.Wait()
	return s, fails
}

// trickle sends every open slow connection its chunk each interval until
// the duration is over, and returns the peak of the memory readings.
func trickle(ctx context.Context, f *slowlorisFlags, s *slowConns, mem func() memFigures) memFigures {
	chunk := make([]byte, f.chunk)
	peak := mem()
	tick := time.NewTicker(f.every)
	defer tick.Stop()
	end := time.After(f.duration)
	for {
		select {
		case <-ctx.Done():
			return peak
		case <-end:
			return peak
		case <-tick.C:
		}
		for i, c := range s.conns {
			if s.closed[i] || len(chunk) == 0 {
				continue
			}
			_ = c.SetWriteDeadline(time.Now().Add(time.Second))
			if _, err := c.Write(chunk); err != nil {
				s.closed[i] = true
			}
		}
		if m := mem(); m.rss > peak.rss {
			peak = m
		}
	}
}

// closeAll closes the slow connections and returns how many the server
// had closed first: a write to them failed, or a read finds their end.
func (s *slowConns) closeAll() int {
	var wg sync.WaitGroup
	for i, c := range s.conns {
		if s.closed[i] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.closed[i] = closedByPeer(c)
		}()
	}
	wg.Wait()
	n := 0
	for i, c := range s.conns {
		if s.closed[i] {
			n++
		}
		_ = c.Close()
	}
	return n
}

// closedByPeer reports whether the other end has closed c: a short read
// finds the end of the stream or a reset rather than nothing to read.
func closedByPeer(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	var b [1]byte
	_, err := c.Read(b[:])
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)
}

// normalClient calls the server back to back and counts.
type normalClient struct {
	c        *remoting.Client
	cancel   context.CancelFunc
	done     chan struct{}
	first    chan error
	calls    atomic.Int64
	failed   atomic.Int64
	slowestN atomic.Int64
	lastErr  atomic.Value
}

func startNormalClient(f *slowlorisFlags) *normalClient {
	ctx, cancel := context.WithCancel(context.Background())
	n := &normalClient{c: remoting.NewClient(remoting.ClientOptions{}), cancel: cancel,
		done: make(chan struct{}), first: make(chan error, 1)}
	go n.loop(ctx, f)
	return n
}

func (n *normalClient) loop(ctx context.Context, f *slowlorisFlags) {
	defer close(n.done)
	for ctx.Err() == nil {
		req := remoting.NewRequest(remoting.RequestCode(f.code), map[string]string{"topic": f.topic})
		start := time.Now()
		_, err := n.c.InvokeTimeout(f.addr, req, f.timeout)
		took := time.Since(start)
		if ctx.Err() != nil {
			return
		}
		n.calls.Add(1)
		if err != nil {
			n.failed.Add(1)
			n.lastErr.Store(err)
		}
		if int64(took) > n.slowestN.Load() {
			n.slowestN.Store(int64(took))
		}
		select {
		case n.first <- err:
		default:
		}
	}
}

// waitFirst waits for the first call's outcome.
func (n *normalClient) waitFirst(ctx context.Context, limit time.Duration) error {
	select {
	case err := <-n.first:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(limit):
		return errors.New("no answer in " + limit.String())
	}
}

func (n *normalClient) totals() (calls, failed int64, last error) {
	if e, ok := n.lastErr.Load().(error); ok {
		last = e
	}
	return n.calls.Load(), n.failed.Load(), last
}

func (n *normalClient) slowest() time.Duration {
	return time.Duration(n.slowestN.Load()).Round(time.Microsecond)
}

func (n *normalClient) summary() string {
	calls, failed, last := n.totals()
	s := fmt.Sprintf("%d calls, %d failed", calls, failed)
	if last != nil {
		s += " (last: " + last.Error() + ")"
	}
	return s
}

func (n *normalClient) stop() {
	n.cancel()
	<-n.done
	n.c.Close()
}
