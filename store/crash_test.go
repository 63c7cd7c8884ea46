package store

// TestCrashSIGKILL is the crash-safety proof: a child process (the test
// binary re-executed, see crash_child_test.go) appends under SYNC_FLUSH or
// ASYNC_FLUSH and is killed with SIGKILL at a random moment; the parent
// then opens the same directory, which recovers, and checks:
//
//  1. every acknowledged message, of every run so far, is readable at its
//     topic/queue/queue offset with the same commitlog offset and bytes,
//     and is found by its UNIQ_KEY and its KEYS in the index;
//  2. the commitlog decodes record by record from its first to its last
//     offset, CRCs correct, contiguous, a blank record only where it fills
//     the rest of a file, and the bytes after the end are zero on disk;
//  3. the consume queues and the commitlog are in one-to-one agreement:
//     each unit points at a record of its topic, queue and queue offset,
//     with its tags code, each queue's offsets are contiguous from 0, and
//     each record of the commitlog is in exactly one queue;
//  4. every record present, acknowledged or not (at-least-once), is the
//     message its UNIQ_KEY says it is, byte for byte;
//  5. the store logged no error while recovering.
//
// One directory is reused by all the kills of a subtest, so recovery runs
// on an ever-growing store of many files. A kill lands after a random
// number of acknowledgements, at a random delay after the first one, or
// at a random delay after the start (in Open, recovery or Start). The
// schedule comes from a seed that is logged (RMQGO_CRASH_SEED replays it;
// the child's own timing still varies). Under SYNC_FLUSH about a third of
// the kills are left unchecked: the next child opens the crashed directory
// itself, so recovery runs in a process that may be killed in turn (the
// start-up kills after such a run are likelier and land in it).
//
// SIGKILL keeps the page cache, so under ASYNC_FLUSH too no acknowledged
// message is expected to be lost; the test allows, as the requirement
// does, the loss of acknowledged messages of the last run that lie past
// the recovered end (an unflushed tail) and reports how many were lost.
//
// Failures seen so far, each reduced to a deterministic test in
// crash_child_test.go: a record torn by the kill after its body accepted by
// recovery (TestBugTornRecordTailAcceptedByRecovery: "no UNIQ_KEY" or
// "properties ... sent ..." below), and the KEYS of a record half indexed
// by the kill never indexed again (TestBugIndexKeysLostWhenCrashIndexFile-
// EndsAtCheckpoint: "index lookups failed"). They show up in some runs,
// mostly under ASYNC_FLUSH, until the store is fixed.
//
// Kill counts: 60 SYNC_FLUSH and 20 ASYNC_FLUSH; with -short 10 and 5.
// A -race build (detected from the binary's build settings, so no build-
// tagged file is needed) runs both parent and child about ten times
// slower and does 50 and 10. RMQGO_CRASH_KILLS=<sync>,<async> overrides.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

const (
	crashSeedEnv  = "RMQGO_CRASH_SEED"
	crashKillsEnv = "RMQGO_CRASH_KILLS"
	// crashWatchdog fails a run whose child stops making progress.
	crashWatchdog = time.Minute
)

func TestCrashSIGKILL(t *testing.T) {
	plan := crashKillPlan(t)
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(crashSeedEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, crashSeedEnv)
		seed = n
	}
	t.Logf("seed %d (%s=%d replays the kill schedule); %d SYNC_FLUSH and %d ASYNC_FLUSH kills (%s)",
		seed, crashSeedEnv, seed, plan.sync, plan.async, plan.why)
	t.Run("SYNC_FLUSH", func(t *testing.T) { runCrashKills(t, SyncFlush, plan.sync, seed) })
	t.Run("ASYNC_FLUSH", func(t *testing.T) { runCrashKills(t, AsyncFlush, plan.async, seed) })
}

// crashPlan is how many times each subtest kills its child.
type crashPlan struct {
	sync, async int
	why         string
}

func crashKillPlan(t *testing.T) crashPlan {
	p := crashPlan{sync: 60, async: 20, why: "full run"}
	switch {
	case testing.Short():
		p = crashPlan{sync: 10, async: 5, why: "-short"}
	case crashRaceBuild():
		p = crashPlan{sync: 50, async: 10, why: "-race build"}
	}
	if v := os.Getenv(crashKillsEnv); v != "" {
		_, err := fmt.Sscanf(v, "%d,%d", &p.sync, &p.async)
		require.NoError(t, err, "%s=%q, want <sync>,<async>", crashKillsEnv, v)
		p.why = crashKillsEnv
	}
	return p
}

// crashRaceBuild reports a binary built with -race.
func crashRaceBuild() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// crashKey is a message's place: topic, queue and queue offset.
type crashKey struct {
	topic       string
	queueID     int32
	queueOffset int64
}

func (k crashKey) String() string { return fmt.Sprintf("%s-%d@%d", k.topic, k.queueID, k.queueOffset) }

// crashRun is the state of one subtest across its kills.
type crashRun struct {
	t     *testing.T
	mode  FlushMode
	opts  Options
	exe   string
	seed  uint64
	rng   *rand.Rand
	acked map[crashKey]crashAck // every acknowledged message still expected

	kinds         map[string]int
	totalAcks     int
	lostTail      int
	crashRecovers int
	chained       int // kills whose store the next child recovered unchecked
	records       int
	end           int64
	maxRecovery   time.Duration
	warnings      map[string]int // store log messages (warn) seen while recovering
}

func runCrashKills(t *testing.T, mode FlushMode, kills int, seed uint64) {
	if kills == 0 {
		t.Skip("no kills asked for")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	r := &crashRun{t: t, mode: mode, opts: crashOptions(t.TempDir(), mode), exe: exe, seed: seed,
		rng:   rand.New(rand.NewPCG(seed, uint64(mode)+1)),
		acked: make(map[crashKey]crashAck), kinds: make(map[string]int), warnings: make(map[string]int)}
	var unchecked []crashAck // acknowledged since the last check
	chained := false
	for i := range kills {
		k := r.pickKill(chained)
		r.kinds[k.kind]++
		c := r.startChild(i, k)
		c.waitForKill(t, k)
		acks := c.kill(t)
		r.addAcks(i, acks)
		unchecked = append(unchecked, acks...)
		// Under SYNC_FLUSH, now and then the next child gets the crashed
		// directory as it is and recovers it itself, and may be killed
		// while it does.
		chained = r.mode == SyncFlush && i < kills-1 && r.rng.IntN(100) < 30
		if chained {
			r.chained++
			t.Logf("kill %2d %-34s %4d acks (first at %v), not checked: the next child recovers this crash",
				i, k.String()+":", len(acks), c.firstAt.Round(time.Millisecond))
			continue
		}
		r.verify(i, k, c, acks, unchecked)
		unchecked = nil
	}
	r.summary(kills)
}

// Kill moments.
const (
	killAfterAcks     = "after N acks"
	killAfterFirstAck = "at a delay after the first ack"
	killAtStartup     = "at a delay after exec"
)

type crashKill struct {
	kind  string
	acks  int
	delay time.Duration
}

func (k crashKill) String() string {
	if k.kind == killAfterAcks {
		return fmt.Sprintf("after %d acks", k.acks)
	}
	return fmt.Sprintf("%v %s", k.delay.Round(time.Microsecond), strings.TrimPrefix(k.kind, "at a delay "))
}

// pickKill chooses the next kill moment. ASYNC_FLUSH puts are much faster,
// so its counts are higher and its delays shorter, to land while the child
// is still appending. After a kill left unchecked, a start-up kill is
// likelier and its window wider, to land in the child's own recovery.
func (r *crashRun) pickKill(afterUnchecked bool) crashKill {
	maxAcks, maxDelay, startup := 400, 150*time.Millisecond, 20*time.Millisecond
	if r.mode == AsyncFlush {
		maxAcks, maxDelay = 1500, 40*time.Millisecond
	}
	atStartup := 15
	if afterUnchecked {
		atStartup, startup = 50, 40*time.Millisecond
	}
	if crashRaceBuild() {
		startup *= 5
	}
	switch p := r.rng.IntN(100); {
	case p < atStartup:
		return crashKill{kind: killAtStartup, delay: time.Duration(r.rng.Int64N(int64(startup)))}
	case p < atStartup+(100-atStartup)*6/10:
		return crashKill{kind: killAfterAcks, acks: 1 + r.rng.IntN(maxAcks)}
	default:
		return crashKill{kind: killAfterFirstAck, delay: time.Duration(r.rng.Int64N(int64(maxDelay)))}
	}
}

// childBudget is how many messages a child puts at most before idling;
// it bounds the store's growth when a kill comes late.
func (r *crashRun) childBudget() int {
	if r.mode == AsyncFlush {
		return 3000
	}
	return 1500
}

func (r *crashRun) startChild(iter int, k crashKill) *crashChild {
	mode := "async"
	if r.mode == SyncFlush {
		mode = "sync"
	}
	spec := fmt.Sprintf("%s,%d,%d,%d,%s", mode, iter, r.seed+uint64(iter)*7919, r.childBudget(), r.opts.RootDir)
	return startCrashChild(r.t, r.exe, spec, k.acks)
}

// crashChild is one child process and what it reported.
type crashChild struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser // held open: the child exits when it closes
	stderr  bytes.Buffer   // read after Wait
	started time.Time
	first   chan struct{} // closed at the first ack
	reached chan struct{} // closed at the target number of acks
	eof     chan struct{} // closed when stdout ends

	// Written by the reader goroutine before it closes eof.
	acks    []crashAck
	errs    []error
	firstAt time.Duration
}

func startCrashChild(t *testing.T, exe, spec string, target int) *crashChild {
	c := &crashChild{cmd: exec.Command(exe, "-test.run=^TestCrashChild$"),
		first: make(chan struct{}), reached: make(chan struct{}), eof: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), crashChildEnv+"="+spec)
	c.cmd.Stderr = &c.stderr
	// The child exits when its stdin closes: when this process dies.
	var err error
	c.stdin, err = c.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := c.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, c.cmd.Start())
	c.started = time.Now()
	t.Cleanup(c.stop)
	go c.read(stdout, target)
	return c
}

// read collects the complete ack lines; a last line cut by the kill is
// not an acknowledgement.
func (c *crashChild) read(stdout io.Reader, target int) {
	defer close(c.eof)
	br := bufio.NewReader(stdout)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		a, ok, err := parseCrashAck(strings.TrimSuffix(line, "\n"))
		if err != nil {
			c.errs = append(c.errs, err)
		}
		if !ok || err != nil {
			continue
		}
		c.acks = append(c.acks, a)
		if len(c.acks) == 1 {
			c.firstAt = time.Since(c.started)
			close(c.first)
		}
		if len(c.acks) == target {
			close(c.reached)
		}
	}
}

// stop kills a child left running by a failed test.
func (c *crashChild) stop() {
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

// waitForKill returns at the kill moment.
func (c *crashChild) waitForKill(t *testing.T, k crashKill) {
	watchdog := time.NewTimer(crashWatchdog)
	defer watchdog.Stop()
	switch k.kind {
	case killAfterAcks:
		c.await(t, c.reached, watchdog.C, k)
	case killAfterFirstAck:
		c.await(t, c.first, watchdog.C, k)
		c.await(t, afterDelay(t, k.delay), watchdog.C, k)
	default:
		c.await(t, afterDelay(t, k.delay-time.Since(c.started)), watchdog.C, k)
	}
}

// afterDelay is a channel closed after d: the kill delay is the test's
// input, not a stand-in for synchronisation.
func afterDelay(t *testing.T, d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	timer := time.AfterFunc(d, func() { close(ch) })
	t.Cleanup(func() { timer.Stop() })
	return ch
}

func (c *crashChild) await(t *testing.T, ch <-chan struct{}, watchdog <-chan time.Time, k crashKill) {
	t.Helper()
	select {
	case <-ch:
	case <-c.eof:
		err := c.cmd.Wait()
		t.Fatalf("the child ended by itself before the kill (%s): %v\nstderr:\n%s", k, err, c.stderr.String())
	case <-watchdog:
		c.stop()
		t.Fatalf("no kill moment (%s) within %v: the child stopped acknowledging\nstderr:\n%s", k, crashWatchdog, c.stderr.String())
	}
}

// kill sends SIGKILL and returns every complete ack line.
func (c *crashChild) kill(t *testing.T) []crashAck {
	t.Helper()
	require.NoError(t, c.cmd.Process.Signal(syscall.SIGKILL))
	<-c.eof
	err := c.cmd.Wait()
	ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child did not die of SIGKILL: %v\nstderr:\n%s", err, c.stderr.String())
	}
	if strings.Contains(c.stderr.String(), "DATA RACE") {
		t.Fatalf("the child found a data race:\n%s", c.stderr.String())
	}
	require.NoError(t, errors.Join(c.errs...))
	return c.acks
}

// verify opens the store the kill left behind and checks it all.
// acks are the last child's, unchecked all those since the last check.
func (r *crashRun) verify(iter int, k crashKill, c *crashChild, acks, unchecked []crashAck) {
	t := r.t
	core, logs := observer.New(zapcore.WarnLevel)
	defer func() {
		if t.Failed() {
			for _, e := range logs.All() {
				t.Logf("store log: %s %s %v", e.Level, e.Message, e.ContextMap())
			}
		}
	}()
	began := time.Now()
	s, err := Open(r.opts, zap.New(core))
	require.NoError(t, err, "open after kill %d", iter)
	defer func() {
		if s != nil {
			s.Close()
		}
	}()
	require.NoError(t, s.Start())
	r.maxRecovery = max(r.maxRecovery, time.Since(began))
	if !s.LastExitOK() {
		r.crashRecovers++
	}
	recs := r.checkCommitLog(s)
	r.checkDiskTail(s)
	r.checkQueues(s, recs)
	lost := r.checkAcks(recs, iter, s.CommitLogMaxOffset())
	r.checkIndex(s, recs, unchecked, iter)
	errs := logs.FilterLevelExact(zapcore.ErrorLevel).Len() + logs.FilterLevelExact(zapcore.DPanicLevel).Len()
	require.Zero(t, errs, "the store logged errors while recovering after kill %d", iter)
	for _, e := range logs.All() {
		r.warnings[e.Message]++
	}
	end := s.CommitLogMaxOffset()
	require.NoError(t, s.Close())
	s = nil
	r.records, r.end = len(recs), end
	t.Logf("kill %2d %-34s %4d acks (first at %v), recovered to %d (%d records), lost tail %d",
		iter, k.String()+":", len(acks), c.firstAt.Round(time.Millisecond), end, len(recs), lost)
}

// addAcks adds a run's acknowledgements to the ledger. A place
// acknowledged twice for different messages means a queue offset was
// handed out again.
func (r *crashRun) addAcks(iter int, acks []crashAck) {
	for _, a := range acks {
		a.Iteration = iter
		key := crashKey{a.Topic, a.QueueID, a.QueueOffset}
		if old, ok := r.acked[key]; ok {
			r.t.Fatalf("%s acknowledged twice: %s (run %d) and %s (run %d)", key, old.Uniq, old.Iteration, a.Uniq, iter)
		}
		r.acked[key] = a
	}
	r.totalAcks += len(acks)
}

// crashRec is what the commitlog walk found for one message.
type crashRec struct {
	offset   int64
	uniq     string
	bodyCRC  int32
	storeTs  int64
	tagsCode int64
	served   bool // found through its consume queue
}

// checkCommitLog walks the commitlog record by record from its start to
// its end and returns its messages by place.
func (r *crashRun) checkCommitLog(s *Store) map[crashKey]*crashRec {
	t := r.t
	fileSize := s.Options().CommitLogFileSize
	off, end := s.CommitLogMinOffset(), s.CommitLogMaxOffset()
	require.Zero(t, off, "no commitlog file is ever deleted here")
	recs := make(map[crashKey]*crashRec)
	lastTs := int64(0)
	for off < end {
		data, release, ok := s.ReadRecord(off)
		require.True(t, ok, "no readable record at commitlog offset %d (end %d)", off, end)
		n, key, rec, err := crashCheckRecord(data, off, fileSize)
		release()
		require.NoError(t, err)
		if rec != nil {
			if old := recs[key]; old != nil {
				t.Fatalf("%s is in the commitlog twice, at offsets %d and %d", key, old.offset, off)
			}
			require.GreaterOrEqual(t, rec.storeTs, lastTs, "store time goes back at offset %d", off)
			recs[key], lastTs = rec, rec.storeTs
		}
		off += n
	}
	require.Equal(t, end, off, "the records end exactly at the commitlog's end")
	_, _, ok := s.ReadRecord(end)
	require.False(t, ok, "a record is readable past the commitlog's end %d", end)
	crashContiguous(t, recs)
	return recs
}

// crashCheckRecord checks the record or blank record at off and returns
// its length, and for a message its place and what it holds.
func crashCheckRecord(data []byte, off, fileSize int64) (int64, crashKey, *crashRec, error) {
	if len(data) >= 8 && int32(binary.BigEndian.Uint32(data[posMagic:])) == MagicBlank {
		if left := fileSize - off%fileSize; int64(len(data)) != left {
			return 0, crashKey{}, nil, fmt.Errorf("blank record at %d says %d bytes are left in its file, %d are", off, len(data), left)
		}
		return int64(len(data)), crashKey{}, nil, nil
	}
	rec, err := DecodeRecord(data)
	if err != nil {
		return 0, crashKey{}, nil, fmt.Errorf("record at commitlog offset %d: %w", off, err)
	}
	if rec.PhysicalOffset != off {
		return 0, crashKey{}, nil, fmt.Errorf("record at %d says it is at %d", off, rec.PhysicalOffset)
	}
	if err := crashIntact(&rec); err != nil {
		return 0, crashKey{}, nil, fmt.Errorf("record at %d is not the message sent (a torn record kept by recovery? "+
			"see TestBugTornRecordTailAcceptedByRecovery): %w", off, err)
	}
	uniq, _ := rec.Property(PropertyUniqKey)
	tags, _ := rec.Property(PropertyTags)
	return int64(rec.Size), crashKey{rec.Topic, rec.QueueID, rec.QueueOffset},
		&crashRec{offset: off, uniq: uniq, bodyCRC: rec.BodyCRC, storeTs: rec.StoreTimestamp, tagsCode: TagsCode(tags)}, nil
}

// crashIntact compares a record with the message its identity derives.
func crashIntact(r *Record) error {
	uniq, ok := r.Property(PropertyUniqKey)
	if !ok {
		return errors.New("no UNIQ_KEY")
	}
	m := crashMessage(r.Topic, r.QueueID, uniq)
	switch {
	case r.Magic != MagicV1 || r.SysFlag != 0 || r.ReconsumeTimes != 0 || r.PreparedTransactionOffset != 0:
		return fmt.Errorf("%s: magic %#x sysFlag %#x reconsume %d prepared %d", uniq, uint32(r.Magic), r.SysFlag,
			r.ReconsumeTimes, r.PreparedTransactionOffset)
	case !bytes.Equal(r.Body, m.Body):
		return fmt.Errorf("%s: body of %d bytes differs from the one sent (%d bytes)", uniq, len(r.Body), len(m.Body))
	case string(r.Properties) != m.Properties:
		return fmt.Errorf("%s: properties %q, sent %q", uniq, r.Properties, m.Properties)
	case r.Flag != m.Flag || r.BornTimestamp != m.BornTimestamp || r.BornHost != m.BornHost || r.StoreHost != m.StoreHost:
		return fmt.Errorf("%s: flag/born time/hosts differ from the ones sent", uniq)
	}
	return nil
}

// crashContiguous checks that each queue's records have the queue
// offsets 0..n-1.
func crashContiguous(t *testing.T, recs map[crashKey]*crashRec) {
	type q struct {
		topic string
		id    int32
	}
	count, top := map[q]int64{}, map[q]int64{}
	for k := range recs {
		count[q{k.topic, k.queueID}]++
		top[q{k.topic, k.queueID}] = max(top[q{k.topic, k.queueID}], k.queueOffset)
	}
	for k, n := range count {
		require.Equal(t, n-1, top[k], "queue %s-%d: %d records but the highest queue offset is %d", k.topic, k.id, n, top[k])
	}
}

// checkDiskTail checks the files on disk: contiguous names, and nothing
// but zeros from the end on, in the file holding it and in any file after
// it (a file created ahead of need).
func (r *crashRun) checkDiskTail(s *Store) {
	t := r.t
	fileSize, end := s.Options().CommitLogFileSize, s.CommitLogMaxOffset()
	dir := filepath.Join(r.opts.RootDir, "commitlog")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	if end == 0 && len(entries) == 0 {
		return // killed before its first put
	}
	for i, e := range entries {
		require.Equal(t, fileName(int64(i)*fileSize), e.Name(), "commitlog file %d", i)
	}
	require.LessOrEqual(t, end, int64(len(entries))*fileSize, "the commitlog files end before its end")
	for i := end / fileSize; i < int64(len(entries)); i++ {
		data, err := os.ReadFile(filepath.Join(dir, entries[i].Name()))
		require.NoError(t, err)
		from := max(end-i*fileSize, 0)
		if j := slices.IndexFunc(data[from:], func(b byte) bool { return b != 0 }); j >= 0 {
			t.Fatalf("commitlog offset %d, past the end %d, holds %#x", i*fileSize+from+int64(j), end, data[from+int64(j)])
		}
	}
}

// checkQueues reads every queue through GetMessages and matches each
// unit with the commitlog walk: together with the walk's per-queue
// contiguity this is a one-to-one agreement.
func (r *crashRun) checkQueues(s *Store, recs map[crashKey]*crashRec) {
	t := r.t
	units := int64(0)
	for topic, ids := range s.Topics() {
		for _, qid := range ids {
			r.checkQueue(s, topic, qid, recs)
			units += s.MaxOffset(topic, qid) - s.MinOffset(topic, qid)
		}
	}
	require.EqualValues(t, len(recs), units, "consume-queue units and commitlog records")
	for k, rec := range recs {
		require.True(t, rec.served, "%s at commitlog offset %d is in no consume queue", k, rec.offset)
	}
}

func (r *crashRun) checkQueue(s *Store, topic string, qid int32, recs map[crashKey]*crashRec) {
	t := r.t
	minO, maxO := s.MinOffset(topic, qid), s.MaxOffset(topic, qid)
	require.Zero(t, minO, "queue %s-%d starts at %d", topic, qid, minO)
	for off := minO; off < maxO; {
		res := s.GetMessages(topic, qid, off, 32, nil)
		var err error
		if res.Status != GetFound {
			err = fmt.Errorf("queue %s-%d offset %d of [%d,%d): %s", topic, qid, off, minO, maxO, res.Status)
		}
		for _, m := range res.Messages {
			if err == nil {
				err = crashServed(m, crashKey{topic, qid, off}, recs)
			}
			off++
		}
		if err == nil && res.NextBeginOffset != off {
			err = fmt.Errorf("queue %s-%d: next begin offset %d after reading up to %d", topic, qid, res.NextBeginOffset, off)
		}
		res.Release()
		require.NoError(t, err)
	}
	res := s.GetMessages(topic, qid, maxO, 1, nil)
	res.Release()
	require.Equal(t, GetOffsetOverflowOne, res.Status, "queue %s-%d read at its max offset", topic, qid)
}

// crashServed checks one message GetMessages returned at key.
func crashServed(m StoredMessage, key crashKey, recs map[crashKey]*crashRec) error {
	rec, err := DecodeRecord(m.Data)
	want := recs[key]
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", key, err)
	case m.QueueOffset != key.queueOffset:
		return fmt.Errorf("%s: served as queue offset %d (a gap)", key, m.QueueOffset)
	case rec.Topic != key.topic || rec.QueueID != key.queueID || rec.QueueOffset != key.queueOffset:
		return fmt.Errorf("%s: unit points at a record of %s-%d@%d", key, rec.Topic, rec.QueueID, rec.QueueOffset)
	case want == nil || want.offset != m.CommitLogOffset || rec.PhysicalOffset != m.CommitLogOffset:
		return fmt.Errorf("%s: unit points at commitlog offset %d, the record there is %+v", key, m.CommitLogOffset, want)
	case m.TagsCode != want.tagsCode:
		return fmt.Errorf("%s: tags code %d, the record's tags give %d", key, m.TagsCode, want.tagsCode)
	case want.served:
		return fmt.Errorf("%s: served twice", key)
	}
	want.served = true
	return nil
}

// checkAcks checks every acknowledged message against the store and
// returns how many ASYNC_FLUSH lost as an unflushed tail.
func (r *crashRun) checkAcks(recs map[crashKey]*crashRec, iter int, end int64) int {
	var bad []string
	lost := 0
	for key, a := range r.acked {
		rec := recs[key]
		switch {
		case rec == nil && r.mode == AsyncFlush && a.Iteration == iter && a.Offset >= end:
			delete(r.acked, key) // past the recovered end: the unflushed tail
			lost++
		case rec == nil:
			bad = append(bad, fmt.Sprintf("%s %s (run %d, commitlog offset %d): missing", key, a.Uniq, a.Iteration, a.Offset))
		case rec.offset != a.Offset || rec.uniq != a.Uniq || rec.bodyCRC != a.BodyCRC:
			bad = append(bad, fmt.Sprintf("%s %s (run %d, commitlog offset %d, crc %d): found %s at %d, crc %d",
				key, a.Uniq, a.Iteration, a.Offset, a.BodyCRC, rec.uniq, rec.offset, rec.bodyCRC))
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		r.t.Fatalf("after kill %d, %d acknowledged messages are lost or changed (end %d):\n%s",
			iter, len(bad), end, strings.Join(bad[:min(len(bad), 20)], "\n"))
	}
	r.lostTail += lost
	return lost
}

// checkIndex finds every record by its UNIQ_KEY from a second before its
// store time on, as the Java client's viewMessage asks (queryMessage from
// the id's time - 1000 to Long.MAX_VALUE), and each message acknowledged
// since the last check by a word of its KEYS over all time.
//
// The window has no upper bound because the index, as Java's IndexFile,
// stores the first entry of a new file with its time relative to the
// previous file's end, then moves the file's begin time to that entry's:
// the entry reads as that gap later than it was stored (a kill and restart
// between the two files made it 2.3 s in CI on 2026-12-06).
func (r *crashRun) checkIndex(s *Store, recs map[crashKey]*crashRec, acks []crashAck, iter int) {
	t := r.t
	var bad []string
	for k, rec := range recs {
		offs := s.IndexedOffsets(k.topic, rec.uniq, 64, rec.storeTs-1000, math.MaxInt64)
		if !slices.Contains(offs, rec.offset) {
			bad = append(bad, fmt.Sprintf("UNIQ_KEY %s of %s at %d (stored at %d): index has %v",
				rec.uniq, k, rec.offset, rec.storeTs, offs))
		}
	}
	for _, a := range acks {
		if _, ok := r.acked[crashKey{a.Topic, a.QueueID, a.QueueOffset}]; !ok {
			continue // lost tail
		}
		res := s.QueryMessages(a.Topic, "key-"+a.Uniq, 64, 0, math.MaxInt64)
		found := slices.ContainsFunc(res.Messages, func(m StoredMessage) bool {
			rec, err := DecodeRecord(m.Data)
			u, _ := rec.Property(PropertyUniqKey)
			return err == nil && m.CommitLogOffset == a.Offset && u == a.Uniq
		})
		res.Release()
		if !found {
			bad = append(bad, fmt.Sprintf("KEYS key-%s of message at %d not found", a.Uniq, a.Offset))
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		t.Fatalf("after kill %d, %d index lookups failed:"+
			"\n%s\nindex files:\n%s", iter, len(bad),
			strings.Join(bad[:min(len(bad), 20)], "\n"), crashIndexFiles(s))
	}
}

// crashIndexFiles describes the index files, for a failure message.
func crashIndexFiles(s *Store) string {
	if s.index == nil {
		return "none"
	}
	s.index.mu.RLock()
	files := s.index.files
	s.index.mu.RUnlock()
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "  %s: time %d..%d, offsets %d..%d, %d entries\n", f.mf.name(), f.beginTimestamp(),
			f.endTimestamp(), f.beginPhyOffset(), f.endPhyOffset(), f.indexCount()-1)
	}
	return b.String()
}

// summary logs the line quoted in closing notes.
func (r *crashRun) summary(kills int) {
	cl := crashDirStats(r.t, filepath.Join(r.opts.RootDir, "commitlog"))
	cq := crashDirStats(r.t, filepath.Join(r.opts.RootDir, "consumequeue"))
	ix := crashDirStats(r.t, filepath.Join(r.opts.RootDir, "index"))
	r.t.Logf("SUMMARY %s: %d SIGKILLs (%d after N acks, %d after the first ack, %d at start-up; %d left for the next "+
		"child to recover, unchecked), %d checked crash recoveries; "+
		"%d messages acknowledged, %d lost as unflushed tail; %d messages in the store (%d written but not acknowledged), "+
		"all intact and indexed; commitlog %.2f MiB in %d files of %d KiB, %d consume-queue files, %d index files; "+
		"slowest open+recover+start %v; store warnings while recovering: %s",
		map[FlushMode]string{SyncFlush: "SYNC_FLUSH", AsyncFlush: "ASYNC_FLUSH"}[r.mode], kills,
		r.kinds[killAfterAcks], r.kinds[killAfterFirstAck], r.kinds[killAtStartup], r.chained, r.crashRecovers,
		r.totalAcks, r.lostTail, r.records, r.records-len(r.acked),
		float64(r.end)/(1<<20), cl.files, r.opts.CommitLogFileSize>>10, cq.files, ix.files,
		r.maxRecovery.Round(time.Millisecond), crashWarnings(r.warnings))
}

func crashWarnings(w map[string]int) string {
	if len(w) == 0 {
		return "none"
	}
	out := make([]string, 0, len(w))
	for msg, n := range w {
		out = append(out, fmt.Sprintf("%d× %q", n, msg))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

type crashDirStat struct {
	files int
	bytes int64
}

func crashDirStats(t *testing.T, dir string) crashDirStat {
	var st crashDirStat
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if errors.Is(err, os.ErrNotExist) {
			return nil // nothing was ever put
		}
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			st.files++
			st.bytes += info.Size()
		}
		return err
	})
	require.NoError(t, err)
	return st
}
