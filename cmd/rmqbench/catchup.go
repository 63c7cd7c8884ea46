package main

// rmqbench catchup: how fast a slave catches up with its master, read from
// both brokers' GET_BROKER_RUNTIME_INFO (28) key commitLogMaxOffset:
//
//	rmqbench catchup -master 127.0.0.1:10911 -slave 127.0.0.1:10921 -interval 20ms -timeout 5m
//
// Start it before the slave (bench/ha-bench.sh starts it, then the slave,
// on a master that took messages while the slave was down): it polls the
// slave until it answers, notes the slave's offset and the time of that
// first answer, then polls both every -interval until the slave's offset
// reaches the master's. The rate is the bytes the slave gained over the
// time it took, from its first answer on (a slave that replicates before
// its remoting port answers has some of its catch-up left out of both). It
// prints a human line and one JSON line (kind "catchup").

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// catchupLine is catchup's JSON result (keys read by bench/ha-bench.sh:
// do not change).
type catchupLine struct {
	Kind string `json:"kind"`
	// FirstSlaveOffset is the slave's commitLogMaxOffset at its first
	// answer, MasterOffset the master's when the slave reached it.
	FirstSlaveOffset int64 `json:"firstSlaveOffset"`
	MasterOffset     int64 `json:"masterOffset"`
	// Bytes the slave gained from its first answer on, over Seconds.
	Bytes       int64   `json:"bytes"`
	Seconds     float64 `json:"seconds"`
	MBPerSec    float64 `json:"mbPerSec"`
	WaitedSec   float64 `json:"waitedSec"` // from the start of catchup to the slave's first answer
	Interval    float64 `json:"intervalMs"`
	CaughtUpNow bool    `json:"caughtUpAtFirstAnswer,omitempty"`
}

// errNoOffset is returned when a runtime-info answer has no commitLogMaxOffset.
var errNoOffset = errors.New("rmqbench: no commitLogMaxOffset in the runtime info")

func runCatchup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("catchup", stderr)
	master := fs.String("master", "", "the master's address")
	slave := fs.String("slave", "", "the slave's address")
	interval := fs.Duration("interval", 20*time.Millisecond, "poll interval")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up after this long")
	if !parseChecked(fs, args, stderr, func() error {
		if *master == "" || *slave == "" || *interval <= 0 {
			return errors.New("need -master, -slave and a positive -interval")
		}
		return nil
	}) {
		return 2
	}
	c := remoting.NewClient(remoting.ClientOptions{DialTimeout: time.Second})
	defer c.Close()
	w := &wire{client: c, timeout: 3 * time.Second, serialize: remoting.SerializeJSON}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	res, err := measureCatchup(ctx, w, *master, *slave, *interval)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench catchup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "catchup: the slave went from %d to %d (%d bytes) in %.3fs: %.1f MB/s (first answer after %.1fs)\n",
		res.FirstSlaveOffset, res.MasterOffset, res.Bytes, res.Seconds, res.MBPerSec, res.WaitedSec)
	out, _ := json.Marshal(res)
	fmt.Fprintln(stdout, string(out))
	return 0
}

// measureCatchup polls as runCatchup describes.
func measureCatchup(ctx context.Context, w *wire, master, slave string, every time.Duration) (*catchupLine, error) {
	start := time.Now()
	var first int64
	var err error
	for {
		if first, err = w.commitLogMaxOffset(slave); err == nil {
			break
		}
		if pause(ctx, every); ctx.Err() != nil {
			return nil, fmt.Errorf("the slave %s did not answer: %w", slave, err)
		}
	}
	t1 := time.Now()
	res := &catchupLine{Kind: "catchup", FirstSlaveOffset: first, WaitedSec: t1.Sub(start).Seconds(), Interval: msFloat(every)}
	for {
		m, err := w.commitLogMaxOffset(master)
		if err != nil {
			return nil, fmt.Errorf("master %s: %w", master, err)
		}
		s, err := w.commitLogMaxOffset(slave)
		if err != nil {
			return nil, fmt.Errorf("slave %s: %w", slave, err)
		}
		if s >= m {
			res.MasterOffset, res.Bytes, res.Seconds = m, s-first, time.Since(t1).Seconds()
			res.CaughtUpNow = s == first
			if res.Seconds > 0 {
				res.MBPerSec = float64(res.Bytes) / res.Seconds / 1e6
			}
			return res, nil
		}
		if pause(ctx, every); ctx.Err() != nil {
			return nil, fmt.Errorf("the slave stayed behind: %d of %d", s, m)
		}
	}
}

// commitLogMaxOffset asks addr for its runtime info.
func (w *wire) commitLogMaxOffset(addr string) (int64, error) {
	resp, err := w.call(addr, w.request(remoting.GetBrokerRuntimeInfo, nil))
	if err != nil {
		return 0, err
	}
	if resp.Code != int32(remoting.Success) {
		return 0, fmt.Errorf("rmqbench: runtime info of %s: %s (%d) %s", addr, remoting.ResponseCode(resp.Code), resp.Code, resp.Remark)
	}
	t, err := protocol.DecodeKVTable(resp.Body)
	if err != nil {
		return 0, err
	}
	v, ok := t.Table["commitLogMaxOffset"]
	if !ok {
		return 0, errNoOffset
	}
	return strconv.ParseInt(v, 10, 64)
}
