package store

// The child side of the crash proof (crash_test.go): the test binary,
// re-executed with -test.run=^TestCrashChild$ and RMQGO_CRASH_CHILD set,
// opens a store and appends until the parent kills it with SIGKILL. Every
// acknowledged put is reported as one line on stdout, written with a
// single write(2) (shorter than PIPE_BUF, so atomic on the pipe) before
// the worker goes on: the parent can only kill the child after the line
// of an acknowledged put is in the pipe, or before the put returned.
//
// Everything a message holds is derived from (topic, queue id, UNIQ_KEY),
// so the parent can check any record it finds, acknowledged or not.
//
// The end of the file holds single, deterministic cases of the failures
// the crash proof found (TestBug* while the store still fails them).

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

// crashChildEnv carries "<sync|async>,<iteration>,<seed>,<maxMsgs>,<dir>".
const crashChildEnv = "RMQGO_CRASH_CHILD"

const (
	crashQueues  = 4
	crashWorkers = 4
	// crashChildLifetime bounds an orphaned child (the parent also kills
	// it at cleanup, and the child exits when its stdin closes).
	crashChildLifetime = 2 * time.Minute
)

// crashTopics includes a retry-style topic name ('%' is legal in Java).
var crashTopics = []string{"CrashA", "CrashB", "%RETRY%CrashGroup"}

var crashTags = []string{"TagA", "TagB", "TagC", ""}

// crashOptions are the store options of both parent and child: small
// files so that every run crosses commitlog, consume-queue and index file
// boundaries; thorough flushes (which move the checkpoint) often enough to
// happen during a child's short life; retention that never deletes.
func crashOptions(dir string, mode FlushMode) Options {
	o := DefaultOptions()
	o.RootDir = dir
	o.Flush = mode
	o.CommitLogFileSize = 64 << 10
	o.ConsumeQueueFileSize = 50 * cqUnitSize
	o.MaxMessageSize = 8 << 10
	o.MaxHashSlotNum = 256
	o.MaxIndexNum = 1000
	o.FlushIntervalCommitLog = 10 * time.Millisecond
	o.FlushCommitLogThoroughInterval = 200 * time.Millisecond
	o.FlushIntervalConsumeQueue = 10 * time.Millisecond
	o.FlushConsumeQueueThoroughInterval = 150 * time.Millisecond
	o.CheckpointInterval = 30 * time.Millisecond
	o.Retention.DeleteWhen = ""
	o.Retention.FileReservedTime = 100000 * time.Hour
	o.Retention.DiskMaxUsedSpaceRatio = 95
	o.Retention.DiskSpaceWarningLevelRatio = 100
	o.Retention.DiskSpaceCleanForciblyRatio = 100
	o.Retention.CleanFileForciblyEnable = false
	return o
}

func crashHash(topic string, queueID int32, uniq string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%s", topic, queueID, uniq)
	return h.Sum64()
}

// crashMessage is the message with the given identity; the same inputs
// always give the same bytes.
func crashMessage(topic string, queueID int32, uniq string) Message {
	h := crashHash(topic, queueID, uniq)
	prefix := fmt.Sprintf("%s/%d/%s|", topic, queueID, uniq)
	body := make([]byte, len(prefix)+int(h%1500))
	copy(body, prefix)
	x := h | 1
	for i := len(prefix); i < len(body); i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		body[i] = byte(x)
	}
	props := map[string]string{
		PropertyUniqKey: uniq,
		PropertyKeys:    "key-" + uniq + KeySeparator + "group" + strconv.Itoa(int(h%13)),
	}
	if tag := crashTags[h%uint64(len(crashTags))]; tag != "" {
		props[PropertyTags] = tag
	}
	return Message{
		Topic: topic, QueueID: queueID, Flag: int32(h % 7), Body: body,
		Properties:    EncodeProperties(props),
		BornTimestamp: 1700000000000 + int64(h%1000000),
		BornHost:      netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(50000+h%1000)),
		StoreHost:     netip.MustParseAddrPort("127.0.0.1:10911"),
	}
}

// crashAck is one acknowledged message, as the child reports it.
type crashAck struct {
	Topic       string
	QueueID     int32
	QueueOffset int64
	Offset      int64 // commitlog offset
	BodyCRC     int32
	Uniq        string
	Iteration   int
}

func (a crashAck) line() string {
	return fmt.Sprintf("ACK %s %d %d %d %d %s\n", a.Topic, a.QueueID, a.QueueOffset, a.Offset, a.BodyCRC, a.Uniq)
}

// parseCrashAck reads a line written by line (without its newline); ok is
// false for other output of the test binary.
func parseCrashAck(s string) (crashAck, bool, error) {
	f := strings.Fields(s)
	if len(f) == 0 || f[0] != "ACK" {
		return crashAck{}, false, nil
	}
	if len(f) != 7 {
		return crashAck{}, true, fmt.Errorf("malformed ack line %q", s)
	}
	var a crashAck
	var errs []error
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		errs = append(errs, err)
		return n
	}
	a.Topic, a.QueueID, a.QueueOffset = f[1], int32(num(f[2])), num(f[3])
	a.Offset, a.BodyCRC, a.Uniq = num(f[4]), int32(num(f[5])), f[6]
	if err := errors.Join(errs...); err != nil {
		return crashAck{}, true, fmt.Errorf("malformed ack line %q: %w", s, err)
	}
	return a, true, nil
}

// TestCrashChild is the process TestCrashSIGKILL kills; it does nothing
// in a normal test run.
func TestCrashChild(t *testing.T) {
	spec := os.Getenv(crashChildEnv)
	if spec == "" {
		t.Skip("the child process of TestCrashSIGKILL; runs only when started by it")
	}
	if err := runCrashChild(spec); err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
}

// runCrashChild appends until killed, or until its stdin closes (the
// parent is gone) or its lifetime ends. It returns only on an error.
func runCrashChild(spec string) error {
	parts := strings.SplitN(spec, ",", 5)
	if len(parts) != 5 {
		return fmt.Errorf("bad %s=%q", crashChildEnv, spec)
	}
	mode := AsyncFlush
	if parts[0] == "sync" {
		mode = SyncFlush
	}
	iter, err1 := strconv.Atoi(parts[1])
	seed, err2 := strconv.ParseUint(parts[2], 10, 64)
	maxMsgs, err3 := strconv.ParseInt(parts[3], 10, 64)
	if err := errors.Join(err1, err2, err3); err != nil {
		return fmt.Errorf("bad %s=%q: %w", crashChildEnv, spec, err)
	}
	go exitWhenOrphaned()
	log, _ := zap.NewDevelopment(zap.IncreaseLevel(zap.WarnLevel))
	s, err := Open(crashOptions(parts[4], mode), log)
	if err != nil {
		return err
	}
	if err := s.Start(); err != nil {
		return err
	}
	var budget atomic.Int64
	budget.Store(maxMsgs)
	var wg sync.WaitGroup
	for w := range crashWorkers {
		wg.Go(func() { crashWorker(s, iter, w, rand.New(rand.NewPCG(seed, uint64(w))), &budget) })
	}
	wg.Wait()
	select {} // the budget is spent: wait, idle, to be killed
}

// exitWhenOrphaned ends the child when the parent closes its stdin (by
// dying) or after crashChildLifetime.
func exitWhenOrphaned() {
	closed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(crashChildLifetime):
	}
	os.Exit(3)
}

// crashWorker puts single messages and small batches to random queues
// and reports each acknowledged message.
func crashWorker(s *Store, iter, w int, rng *rand.Rand, budget *atomic.Int64) {
	for seq := 0; ; {
		n := 1
		if rng.IntN(10) < 3 {
			n = 2 + rng.IntN(4)
		}
		if budget.Add(-int64(n)) < 0 {
			return
		}
		topic, qid := crashTopics[rng.IntN(len(crashTopics))], int32(rng.IntN(crashQueues))
		msgs := make([]Message, n)
		for i := range msgs {
			msgs[i] = crashMessage(topic, qid, fmt.Sprintf("I%03dW%dS%06d", iter, w, seq))
			seq++
		}
		var res PutResult
		if n == 1 && rng.IntN(2) == 0 {
			res = s.PutMessage(&msgs[0])
		} else {
			res = s.PutMessages(msgs)
		}
		if res.Status != PutOK {
			fmt.Fprintf(os.Stderr, "put %s-%d: %s %s\n", topic, qid, res.Status, res.Reason)
			continue
		}
		if err := reportAcks(msgs, res); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(2)
		}
	}
}

// reportAcks writes the ack lines of one put in one write.
func reportAcks(msgs []Message, res PutResult) error {
	ids := strings.Split(res.MsgID, ",")
	if len(ids) != len(msgs) {
		return fmt.Errorf("put of %d messages returned %d ids", len(msgs), len(ids))
	}
	var buf strings.Builder
	for i, m := range msgs {
		_, off, err := DecodeMessageID(ids[i])
		if err != nil {
			return err
		}
		uniq, _ := propertyValue([]byte(m.Properties), PropertyUniqKey)
		buf.WriteString(crashAck{Topic: m.Topic, QueueID: m.QueueID, QueueOffset: res.QueueOffset + int64(i),
			Offset: off, BodyCRC: BodyCRC(m.Body), Uniq: uniq}.line())
	}
	_, err := os.Stdout.WriteString(buf.String())
	return err
}

// Single, deterministic cases of what TestCrashSIGKILL found.

// TestCrashEmptyIndexFileDoesNotBlockOpen: a SIGKILL between the creation
// of a new index file (open O_CREAT|O_EXCL) and its sizing leaves a 0-byte
// file in index/, and Open must still succeed. TestCrashSIGKILL found Open
// failing on it for good with ErrCorrupt ("is 0 bytes, the configured file
// size is N"); commit 0fcdca1 fixed it while this test was written (it was
// TestBugZeroLengthIndexFileBlocksOpen). Java maps such a file with
// FileChannel.map, which extends it, and starts.
func TestCrashEmptyIndexFileDoesNotBlockOpen(t *testing.T) {
	o := crashOptions(t.TempDir(), SyncFlush)
	s, err := Open(o, zap.NewNop())
	require.NoError(t, err)
	require.NoError(t, s.Start())
	var sent []crashAck
	for i := range 50 {
		m := crashMessage("CrashA", int32(i%crashQueues), fmt.Sprintf("B%04d", i))
		res := s.PutMessage(&m)
		require.Equal(t, PutOK, res.Status, res.Reason)
		sent = append(sent, crashAck{Topic: m.Topic, Offset: res.WroteOffset, Uniq: fmt.Sprintf("B%04d", i)})
	}
	require.NoError(t, s.Close())
	// What the kill leaves: the abort file of a running store, and the
	// next index file created but not yet sized.
	require.NoError(t, os.WriteFile(filepath.Join(o.RootDir, "abort"), nil, 0o644))
	next := filepath.Join(o.RootDir, "index", indexFileName(time.Now().Add(time.Hour)))
	require.NoError(t, os.WriteFile(next, nil, 0o644))

	s2, err := Open(o, zap.NewNop())
	require.NoError(t, err, "a store killed while it created an index file must open again")
	defer s2.Close()
	require.NoError(t, s2.Start())
	for _, a := range sent {
		require.Contains(t, s2.IndexedOffsets(a.Topic, a.Uniq, 64, 0, math.MaxInt64), a.Offset, a.Uniq)
	}
}

// TestCrashTornRecordReadsAsEnd: a SIGKILL while a record is being copied
// into the mapped commitlog used to leave its head (size, magic, lengths,
// the whole body) written and the end of its properties still zero, and
// recovery, which checks lengths and the body CRC only (as Java does),
// kept that torn record (found by TestCrashSIGKILL under ASYNC_FLUSH).
// The append now copies the size and magic of a batch last, so what a
// kill can leave is a record without its first 8 bytes, which recovery
// reads as the end of the log.
func TestCrashTornRecordReadsAsEnd(t *testing.T) {
	o := crashOptions(t.TempDir(), SyncFlush)
	s, err := Open(o, zap.NewNop())
	require.NoError(t, err)
	require.NoError(t, s.Start())
	for i := range 20 {
		m := crashMessage("CrashA", 1, fmt.Sprintf("T%04d", i))
		require.Equal(t, PutOK, s.PutMessage(&m).Status)
	}
	end := s.CommitLogMaxOffset()
	require.NoError(t, s.Close())

	// The next record, copied but for its size and magic when the kill
	// came.
	m := crashMessage("CrashA", 1, "T0020")
	rec := appendRecord(nil, &m, false)
	patchRecord(rec, 20, end, time.Now().UnixMilli())
	size := o.CommitLogFileSize
	f, err := os.OpenFile(filepath.Join(o.RootDir, "commitlog", fileName(end-end%size)), os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt(rec[8:], end%size+8)
	require.NoError(t, errors.Join(err, f.Close()))
	require.NoError(t, os.WriteFile(filepath.Join(o.RootDir, "abort"), nil, 0o644))

	s2, err := Open(o, zap.NewNop())
	require.NoError(t, err)
	defer s2.Close()
	require.NoError(t, s2.Start())
	if got := s2.CommitLogMaxOffset(); got != end {
		torn, err := s2.LookMessage(end)
		require.NoError(t, err)
		uniq, ok := torn.Property(PropertyUniqKey)
		t.Fatalf("recovery kept the torn record at %d (end %d, want %d): its UNIQ_KEY is %q (present %v), properties %q",
			end, got, end, uniq, ok, torn.Properties)
	}
}

// TestCrashIndexKeysOfAHalfIndexedRecord: the dispatcher indexes a
// record's UNIQ_KEY, then each word of its KEYS; a SIGKILL in between
// leaves the record half indexed, as the newest entry of the newest index
// file. When that file's entries all have the store millisecond of the
// checkpoint's index time (common under ASYNC_FLUSH), load keeps it, and
// recovery re-dispatches the record. build used to skip a record at the
// file's end offset, so its KEYS were never indexed (found by
// TestCrashSIGKILL); it now adds the keys the record is missing.
func TestCrashIndexKeysOfAHalfIndexedRecord(t *testing.T) {
	o := crashOptions(t.TempDir(), SyncFlush)
	o.MessageIndexEnable = false // the index is built by hand below
	s, err := Open(o, zap.NewNop())
	require.NoError(t, err)
	require.NoError(t, s.Start())
	var recs []Record
	for i := range 11 {
		m := crashMessage("CrashA", 0, fmt.Sprintf("H%04d", i))
		res := s.PutMessage(&m)
		require.Equal(t, PutOK, res.Status)
		r, err := s.LookMessage(res.WroteOffset)
		require.NoError(t, err)
		recs = append(recs, r)
	}
	require.NoError(t, s.Close())

	// The index as the kill left it: every record indexed, the last one
	// only by its UNIQ_KEY; the checkpoint's index time is the file's end.
	cp, err := openCheckpoint(o.checkpointPath(), false)
	require.NoError(t, err)
	ix := newIndexService(o.indexDir(), o.MaxHashSlotNum, o.MaxIndexNum, cp, zap.NewNop(), false)
	require.NoError(t, ix.load(true))
	for i := range recs {
		d := dispatchRequestOf(&recs[i], nil)
		if i == len(recs)-1 {
			d.keys = "" // killed after the UNIQ_KEY entry
		}
		require.NoError(t, ix.build(&d))
	}
	last, err := ix.writable()
	require.NoError(t, err)
	cp.indexMsgTimestamp.Store(last.endTimestamp())
	require.NoError(t, ix.flush())
	require.NoError(t, cp.flush())
	ix.closeAll()
	require.NoError(t, cp.close())
	require.NoError(t, os.WriteFile(o.abortPath(), nil, 0o644))

	o.MessageIndexEnable = true
	s2, err := Open(o, zap.NewNop())
	require.NoError(t, err)
	defer s2.Close()
	require.NoError(t, s2.Start())
	victim := recs[len(recs)-1]
	uniq, _ := victim.Property(PropertyUniqKey)
	require.Contains(t, s2.IndexedOffsets("CrashA", uniq, 64, 0, math.MaxInt64), victim.PhysicalOffset)
	require.Contains(t, s2.IndexedOffsets("CrashA", "key-"+uniq, 64, 0, math.MaxInt64), victim.PhysicalOffset,
		"the half-indexed record's KEYS are indexed again after the crash")
}
