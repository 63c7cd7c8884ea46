package main

// rmqbench pullhold: many connections that each send a number of
// long-polling PULL_MESSAGE requests at once and then either read the
// replies or never read them, while one normal client keeps calling, and
// the broker's memory before, during and after:
//
//	rmqbench pullhold -addr 127.0.0.1:10911 -pid 1234 -t T -c 500 -p 4 -from last -d 30s
//	rmqbench pullhold -addr 127.0.0.1:10911 -pid 1234 -t T -c 100 -p 32 -from first -read=false
//
// -from last asks each queue from its max offset: the broker parks every
// pull until a message comes or the suspend time (-suspend) passes
// (thousands of parked long polls). -from first asks from offset 0 of a
// topic with a backlog: every pull is answered at once with up to -batch
// messages; with -read=false nobody reads them (slow readers, whose replies
// pile up in the broker's outbound buffers until it closes them).
//
// The connections speak the remoting protocol on plain sockets (one frame
// write each) and send no heartbeat: each pull carries its subscription
// ("*", the subscription flag set), as a pull of a consumer whose group
// the broker does not know must; the pulls of a connection cycle through the topic's queues
// 0..-q-1. The report gives VmRSS and RssAnon of /proc/PID/status before,
// the peak while the connections hold (sampled every 200 ms) and -settle
// after they closed; the replies read and the connections the broker
// closed (both seen only with -read);
// and the normal client's calls (GET_BROKER_RUNTIME_INFO). It exits 1 when
// the normal client saw a failure or a connection could not be opened.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// pullholdFlags are the subcommand's settings.
type pullholdFlags struct {
	addr     string
	pid      int
	topic    string
	group    string
	queues   int
	conns    int
	pulls    int
	from     string
	read     bool
	batch    int
	suspend  time.Duration
	duration time.Duration
	settle   time.Duration
	timeout  time.Duration
}

func (f *pullholdFlags) parse(args []string, stderr io.Writer) error {
	fs := flagsOf("pullhold", stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:10911", "broker address")
	fs.IntVar(&f.pid, "pid", 0, "broker process id, for its memory (0: not reported)")
	fs.StringVar(&f.topic, "t", "BenchmarkTest", "topic (it must exist on the broker)")
	fs.StringVar(&f.group, "g", "rmqbench_pullhold", "consumer group")
	fs.IntVar(&f.queues, "q", 4, "queues of the topic the pulls cycle through")
	fs.IntVar(&f.conns, "c", 500, "connections")
	fs.IntVar(&f.pulls, "p", 4, "pulls each connection sends at once")
	fs.StringVar(&f.from, "from", "last", "last: pull from each queue's max offset (parked); first: from 0 (answered at once)")
	fs.BoolVar(&f.read, "read", true, "read the replies (false: never read them)")
	fs.IntVar(&f.batch, "batch", 32, "maxMsgNums of a pull")
	fs.DurationVar(&f.suspend, "suspend", 30*time.Second, "suspendTimeoutMillis of a pull")
	fs.DurationVar(&f.duration, "d", 20*time.Second, "how long the connections hold")
	fs.DurationVar(&f.settle, "settle", 3*time.Second, "wait after closing before the last memory reading")
	fs.DurationVar(&f.timeout, "timeout", 3*time.Second, "timeout of the normal client's calls and of the offset queries")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.conns < 1 || f.pulls < 1 || f.queues < 1 || (f.from != "last" && f.from != "first") {
		return errors.New("need -c, -p, -q of at least 1 and -from last or first")
	}
	return nil
}

func runPullhold(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f pullholdFlags
	if err := f.parse(args, stderr); err != nil {
		fmt.Fprintln(stderr, "rmqbench pullhold:", err)
		return 2
	}
	frames, err := pullFrames(&f)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench pullhold:", err)
		return 1
	}
	fmt.Fprintf(stdout, "pullhold: %d connections to %s, %d pulls each from the %s offset of %s, replies %s, for %v\n",
		f.conns, f.addr, f.pulls, f.from, f.topic, map[bool]string{true: "read", false: "never read"}[f.read], f.duration)
	normal := startNormalClient(&slowlorisFlags{addr: f.addr, code: int(remoting.GetBrokerRuntimeInfo), timeout: f.timeout})
	defer normal.stop()
	if err := normal.waitFirst(ctx, f.timeout*3); err != nil {
		fmt.Fprintln(stderr, "rmqbench pullhold: the normal client got no answer:", err)
		return 1
	}
	report := func(when string) {
		fmt.Fprintf(stdout, "  rss %-14s %s   normal client: %s\n", when, readMem(f.pid), normal.summary())
	}
	report("before")
	h, dialErrs := openPullers(ctx, &f, frames)
	report("opened")
	peak := holdFor(ctx, f.duration, func() memFigures { return readMem(f.pid) })
	fmt.Fprintf(stdout, "  rss %-14s %s\n", "during (peak)", peak)
	closedByServer := h.closeAll()
	select {
	case <-ctx.Done():
	case <-time.After(f.settle):
	}
	report("after")
	calls, failed, _ := normal.totals()
	fmt.Fprintf(stdout, "pullhold: %d connections opened (%d failed to open), %d closed by the broker, %d replies read; "+
		"normal client: %d calls, %d failed, slowest %v\n",
		h.opened(), dialErrs, closedByServer, h.replies.Load(), calls, failed, normal.slowest())
	if failed > 0 || dialErrs > 0 || calls == 0 {
		return 1
	}
	return 0
}

// pullFrames are the encoded pulls a connection sends, one per queue
// (index = queue id), from the offset -from names.
func pullFrames(f *pullholdFlags) ([][]byte, error) {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	frames := make([][]byte, f.queues)
	for q := range frames {
		offset := int64(0)
		if f.from == "last" {
			resp, err := c.InvokeTimeout(f.addr, remoting.NewRequest(remoting.GetMaxOffset,
				map[string]string{"topic": f.topic, "queueId": strconv.Itoa(q)}), f.timeout)
			if err != nil {
				return nil, fmt.Errorf("max offset of queue %d: %w", q, err)
			}
			if offset, err = resp.ExtInt64("offset"); err != nil {
				return nil, fmt.Errorf("max offset of queue %d: code %d %s", q, resp.Code, resp.Remark)
			}
		}
		req := remoting.NewRequest(remoting.PullMessage, map[string]string{
			"consumerGroup": f.group, "topic": f.topic, "queueId": strconv.Itoa(q),
			"queueOffset": strconv.FormatInt(offset, 10), "maxMsgNums": strconv.Itoa(f.batch),
			"sysFlag": strconv.Itoa(int(pullSuspend | pullSubscription)), "subscription": "*", "commitOffset": "0",
			"suspendTimeoutMillis": strconv.FormatInt(f.suspend.Milliseconds(), 10),
			"subVersion":           "0", "expressionType": "TAG",
		})
		var err error
		if frames[q], err = req.AppendFrame(nil); err != nil {
			return nil, err
		}
	}
	return frames, nil
}

// pullers are the holding connections.
type pullers struct {
	mu      sync.Mutex
	conns   []net.Conn
	closed  atomic.Int64 // connections the broker closed (a read ended)
	replies atomic.Int64
	readers sync.WaitGroup
}

func (h *pullers) opened() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// openPullers dials the connections, 64 at a time, writes each one's
// pulls in one write and, with -read, starts its reader.
func openPullers(ctx context.Context, f *pullholdFlags, frames [][]byte) (*pullers, int) {
	h := &pullers{}
	var (
		fails atomic.Int64
		wg    sync.WaitGroup
		gate  = make(chan struct{}, 64)
	)
	for i := 0; i < f.conns && ctx.Err() == nil; i++ {
		var batch []byte
		for p := 0; p < f.pulls; p++ {
			batch = append(batch, frames[(i+p)%len(frames)]...)
		}
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer func() { <-gate; wg.Done() }()
			c, err := net.DialTimeout("tcp", f.addr, 10*time.Second)
			if err == nil {
				if _, err = c.Write(batch); err != nil {
					_ = c.Close()
				}
			}
			if err != nil {
				fails.Add(1)
				return
			}
			h.mu.Lock()
			h.conns = append(h.conns, c)
			h.mu.Unlock()
			if f.read {
				h.readers.Add(1)
				go h.readReplies(c)
			}
		}()
	}
	wg.Wait()
	return h, int(fails.Load())
}

// readReplies counts the whole frames the broker sends until the
// connection ends.
func (h *pullers) readReplies(c net.Conn) {
	defer h.readers.Done()
	buf := make([]byte, 0, 64<<10)
	chunk := make([]byte, 64<<10)
	for {
		n, err := c.Read(chunk)
		buf = append(buf, chunk[:n]...)
		for {
			used, ferr := remoting.FrameLength(buf, remoting.MaxFrameLength)
			if ferr != nil || len(buf) < used {
				break
			}
			h.replies.Add(1)
			buf = append(buf[:0], buf[used:]...)
		}
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				h.closed.Add(1)
			}
			return
		}
	}
}

// closeAll closes every connection and returns how many the broker had
// closed first, as their readers saw (none are seen with -read=false).
func (h *pullers) closeAll() int {
	h.mu.Lock()
	conns := h.conns
	h.mu.Unlock()
	closedByBroker := int(h.closed.Load())
	for _, c := range conns {
		_ = c.Close()
	}
	h.readers.Wait()
	return closedByBroker
}

// holdFor waits d (or until ctx ends) and returns the peak of the memory
// readings taken every 200 ms.
func holdFor(ctx context.Context, d time.Duration, mem func() memFigures) memFigures {
	peak := mem()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	end := time.After(d)
	for {
		select {
		case <-ctx.Done():
			return peak
		case <-end:
			return peak
		case <-tick.C:
			m := mem()
			peak.rss, peak.anon = max(peak.rss, m.rss), max(peak.anon, m.anon)
		}
	}
}
