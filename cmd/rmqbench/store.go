package main

// rmqbench store: this project's store driven in-process, the same load
// compat/storetool's StoreBench puts on the Java broker's
// DefaultMessageStore, with the same JSON line as result so the two can
// be set side by side:
//
//	rmqbench store -dir /tmp/b -flush ASYNC_FLUSH -threads 4 -messages 200000 -body 1024
//
// Appends messages of -body bytes (topic BenchTopic, 8 queues, a TAGS and
// a KEYS property) from -threads goroutines, then reads every message back
// through GetMessages in batches of 32.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/store"
)

const (
	benchTopic  = "BenchTopic"
	benchQueues = 8
	benchBatch  = 32
)

// storeBenchResult is StoreBench's JSON line (field names shared with the
// Java tool: do not change).
type storeBenchResult struct {
	Impl             string  `json:"impl"`
	Flush            string  `json:"flush"`
	Threads          int     `json:"threads"`
	Messages         int     `json:"messages"`
	BodyBytes        int     `json:"bodyBytes"`
	AppendMsgsPerSec float64 `json:"appendMsgsPerSec"`
	AppendMBPerSec   float64 `json:"appendMBPerSec"`
	AppendP50Us      float64 `json:"appendP50Us"`
	AppendP99Us      float64 `json:"appendP99Us"`
	ReadMsgsPerSec   float64 `json:"readMsgsPerSec"`
	RssMB            float64 `json:"rssMB"`
}

func runStore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("store", stderr)
	dir := fs.String("dir", "", "store root directory (created; 1 GiB commitlog files)")
	flush := fs.String("flush", "ASYNC_FLUSH", "ASYNC_FLUSH or SYNC_FLUSH")
	threads := fs.Int("threads", 1, "writer goroutines")
	messages := fs.Int("messages", 100000, "messages in all")
	body := fs.Int("body", 1024, "body bytes")
	readBack := fs.Bool("read", true, "read every queue back after the appends (false: only append, e.g. to grow a store)")
	if !parseChecked(fs, args, stderr, func() error {
		if *dir == "" || *threads < 1 || *messages < *threads || (*flush != "ASYNC_FLUSH" && *flush != "SYNC_FLUSH") {
			return errors.New("need -dir, -threads >= 1, -messages >= threads, -flush ASYNC_FLUSH|SYNC_FLUSH")
		}
		return nil
	}) {
		return 2
	}
	res, err := benchStore(ctx, *dir, *flush, *threads, *messages, *body, *readBack, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench store:", err)
		return 1
	}
	line, _ := json.Marshal(res)
	fmt.Fprintln(stdout, string(line))
	return 0
}

func benchStore(ctx context.Context, dir, flush string, threads, messages, body int, readBack bool,
	progress io.Writer) (*storeBenchResult, error) {
	o := store.DefaultOptions()
	o.RootDir = dir
	// A benchmark keeps every file, whatever the disk's fill: a store
	// grown for a test (-read=false) must hold all it was given.
	o.Retention.DeleteWhen = ""
	o.Retention.CleanFileForciblyEnable = false
	o.Retention.DiskMaxUsedSpaceRatio = 95
	o.Retention.DiskSpaceWarningLevelRatio = 100
	o.Retention.DiskSpaceCleanForciblyRatio = 100
	if flush == "SYNC_FLUSH" {
		o.Flush = store.SyncFlush
	}
	s, err := store.Open(o, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := s.Start(); err != nil {
		return nil, err
	}
	res := &storeBenchResult{Impl: "rmqgo", Flush: flush, Threads: threads, Messages: messages, BodyBytes: body}
	hist, elapsed, err := appendLoad(ctx, s, threads, messages, body, progress)
	if err != nil {
		return nil, err
	}
	secs := elapsed.Seconds()
	res.AppendMsgsPerSec = float64(messages) / secs
	res.AppendMBPerSec = float64(messages) * float64(body) / secs / (1 << 20)
	res.AppendP50Us = float64(hist.percentile(0.50)) / 1e3
	res.AppendP99Us = float64(hist.percentile(0.99)) / 1e3
	if err := s.WaitDispatched(ctx); err != nil {
		return nil, err
	}
	if !readBack {
		res.RssMB = rssMB()
		return res, nil
	}
	read, readTime, err := readAll(s)
	if err != nil {
		return nil, err
	}
	if read != messages {
		return nil, fmt.Errorf("read back %d messages, appended %d", read, messages)
	}
	res.ReadMsgsPerSec = float64(read) / readTime.Seconds()
	res.RssMB = rssMB()
	return res, nil
}

// appendLoad puts the messages from the writers and returns their put
// latencies and the wall time.
func appendLoad(ctx context.Context, s *store.Store, threads, messages, body int, progress io.Writer) (*histogram, time.Duration, error) {
	hists := make([]histogram, threads)
	errs := make([]error, threads)
	var done sync.WaitGroup
	payload := make([]byte, body)
	for i := range payload {
		payload[i] = byte('a' + i%26)
	}
	start := time.Now()
	stopProgress := reportProgress(ctx, s, messages, progress)
	for w := 0; w < threads; w++ {
		done.Add(1)
		go func() {
			defer done.Done()
			errs[w] = appendShare(ctx, s, w, threads, messages, payload, &hists[w])
		}()
	}
	done.Wait()
	elapsed := time.Since(start)
	stopProgress()
	var all histogram
	for i := range hists {
		all.merge(&hists[i])
	}
	for _, err := range errs {
		if err != nil {
			return nil, 0, err
		}
	}
	return &all, elapsed, nil
}

// appendShare is one writer's share: every threads-th message from w,
// until ctx ends.
func appendShare(ctx context.Context, s *store.Store, w, threads, messages int, payload []byte, h *histogram) error {
	born := netip.MustParseAddrPort("127.0.0.1:50000")
	host := netip.MustParseAddrPort("127.0.0.1:10911")
	for i := w; i < messages && ctx.Err() == nil; i += threads {
		m := store.Message{Topic: benchTopic, QueueID: int32(i % benchQueues), Body: payload,
			Properties:    "TAGS\x01TagA\x02KEYS\x01key-" + strconv.Itoa(i),
			BornTimestamp: time.Now().UnixMilli(), BornHost: born, StoreHost: host}
		t0 := time.Now()
		res := s.PutMessage(&m)
		h.record(time.Since(t0))
		if res.Status != store.PutOK {
			return fmt.Errorf("put %d: %s %s", i, res.Status, res.Reason)
		}
	}
	return nil
}

// reportProgress prints the appended bytes every 5 s until stopped.
func reportProgress(ctx context.Context, s *store.Store, messages int, w io.Writer) func() {
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				fmt.Fprintf(w, "store: %d MiB appended (%d messages to go in all)\n", s.CommitLogMaxOffset()>>20, messages)
			}
		}
	}()
	return func() { close(stop) }
}

// readAll reads every queue from its start in batches, as consumers do.
func readAll(s *store.Store) (int, time.Duration, error) {
	start := time.Now()
	n := 0
	for q := int32(0); q < benchQueues; q++ {
		for offset := s.MinOffset(benchTopic, q); ; {
			r := s.GetMessages(benchTopic, q, offset, benchBatch, nil)
			n += len(r.Messages)
			r.Release()
			if r.Status != store.GetFound {
				break
			}
			offset = r.NextBeginOffset
		}
	}
	return n, time.Since(start), nil
}

// rssMB is the process's resident set (VmRSS) in MiB.
func rssMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.Fields(rest)[0], 64)
			return kb / 1024
		}
	}
	return 0
}
