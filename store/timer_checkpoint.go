package store

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
)

// Timer checkpoint, ${root}/config/timercheck, as Java's TimerCheckpoint
// keeps it (on-disk format: do not change): 4096 bytes, big-endian longs,
// the rest zero. GET_TIMER_CHECK_POINT answers its first 56 bytes.
//
//	off size field
//	  0    8 lastReadTimeMs          the first wheel slot not wholly delivered
//	  8    8 lastTimerLogFlushPos    how far the timer log was flushed
//	 16    8 lastTimerQueueOffset    rmq_sys_wheel_timer queue 0 taken into the
//	                                 wheel (or delivered) below this offset
//	 24    8 masterTimerQueueOffset  the master's (a master: its own) offset
//	 32    8 dataVersion.stateVersion
//	 40    8 dataVersion.timestamp
//	 48    8 dataVersion.counter
const (
	timerCheckpointName = "timercheck"
	// TimerCheckpointLen is the encoded checkpoint's size.
	TimerCheckpointLen = 56
)

// TimerCheckpoint is the timer checkpoint's fields.
type TimerCheckpoint struct {
	LastReadTimeMs         int64
	LastTimerLogFlushPos   int64
	LastTimerQueueOffset   int64
	MasterTimerQueueOffset int64
	// StateVersion, Timestamp and Counter are its DataVersion.
	StateVersion, Timestamp, Counter int64
}

// Encode is TimerCheckpoint.encode: the 56 bytes of the file's head.
func (c TimerCheckpoint) Encode() []byte {
	b := make([]byte, TimerCheckpointLen)
	be := binary.BigEndian
	for i, v := range c.longs() {
		be.PutUint64(b[8*i:], uint64(v))
	}
	return b
}

func (c TimerCheckpoint) longs() [7]int64 {
	return [7]int64{c.LastReadTimeMs, c.LastTimerLogFlushPos, c.LastTimerQueueOffset, c.MasterTimerQueueOffset,
		c.StateVersion, c.Timestamp, c.Counter}
}

// DecodeTimerCheckpoint reads an encoded checkpoint (at least 56 bytes).
func DecodeTimerCheckpoint(b []byte) TimerCheckpoint {
	be := binary.BigEndian
	l := func(i int) int64 { return int64(be.Uint64(b[8*i:])) }
	return TimerCheckpoint{LastReadTimeMs: l(0), LastTimerLogFlushPos: l(1), LastTimerQueueOffset: l(2),
		MasterTimerQueueOffset: l(3), StateVersion: l(4), Timestamp: l(5), Counter: l(6)}
}

// timerCheckpointFile is the mapped timercheck.
type timerCheckpointFile struct {
	file    *wholeFile
	existed bool
}

func openTimerCheckpoint(root string) (*timerCheckpointFile, error) {
	dir := filepath.Join(root, "config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	f, existed, err := openWholeFile(filepath.Join(dir, timerCheckpointName), osPageSize, false)
	if err != nil {
		return nil, err
	}
	return &timerCheckpointFile{file: f, existed: existed}, nil
}

func (c *timerCheckpointFile) read() TimerCheckpoint { return DecodeTimerCheckpoint(c.file.data) }

// write stores cp and syncs it, when it changed.
func (c *timerCheckpointFile) write(cp TimerCheckpoint) error {
	b := cp.Encode()
	if string(b) == string(c.file.data[:TimerCheckpointLen]) {
		return nil
	}
	copy(c.file.data, b)
	return c.file.sync(0, osPageSize)
}
