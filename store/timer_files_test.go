package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// timerTestLogSize holds four units and a blank head: the fifth unit
// starts the second file.
const timerTestLogSize = 4*TimerUnitSize + 32

// A slot time of the tests (to the second), and one a day later.
const (
	timerT0 = int64(1700000000000)
	timerT1 = timerT0 + 86400000
)

func openTestTimerFiles(t *testing.T, dir string) *TimerFiles {
	t.Helper()
	f, err := OpenTimerFiles(TimerOptions{RootDir: dir, LogFileSize: timerTestLogSize, PrecisionMs: 1000}, zaptest.NewLogger(t))
	require.NoError(t, err)
	return f
}

// javaUnit is a timer log unit as Java's doEnqueue writes it.
func javaUnit(prev int64, magic int32, writeTime int64, delay int32, offsetPy int64, sizePy, hash int32) []byte {
	b := make([]byte, 0, TimerUnitSize)
	b = binary.BigEndian.AppendUint32(b, TimerUnitSize)
	b = binary.BigEndian.AppendUint64(b, uint64(prev))
	b = binary.BigEndian.AppendUint32(b, uint32(magic))
	b = binary.BigEndian.AppendUint64(b, uint64(writeTime))
	b = binary.BigEndian.AppendUint32(b, uint32(delay))
	b = binary.BigEndian.AppendUint64(b, uint64(offsetPy))
	b = binary.BigEndian.AppendUint32(b, uint32(sizePy))
	b = binary.BigEndian.AppendUint32(b, uint32(hash))
	return binary.BigEndian.AppendUint64(b, 0)
}

// javaSlot is a wheel slot as Java's putSlot writes it.
func javaSlot(timeMs, first, last int64, num, magic int32) []byte {
	b := make([]byte, 0, timerSlotSize)
	b = binary.BigEndian.AppendUint64(b, uint64(timeMs/1000))
	b = binary.BigEndian.AppendUint64(b, uint64(first))
	b = binary.BigEndian.AppendUint64(b, uint64(last))
	b = binary.BigEndian.AppendUint32(b, uint32(num))
	return binary.BigEndian.AppendUint32(b, uint32(magic))
}

func slotBytes(t *testing.T, dir string, timeMs int64) []byte {
	t.Helper()
	wheel, err := os.ReadFile(filepath.Join(dir, "timerwheel"))
	require.NoError(t, err)
	i := timeMs / 1000 % (2 * TimerWheelSlots)
	return wheel[i*timerSlotSize : (i+1)*timerSlotSize]
}

// The files are where Java keeps them and hold Java's bytes: units of 52
// bytes chained through prevPos, a blank head where a file cannot take the
// next unit and 16 bytes more, slots of 32 bytes at time/precision modulo
// twice TIMER_WHEEL_TTL_DAY days of slots, the checkpoint's longs.
func TestTimerFilesHaveJavasLayout(t *testing.T) {
	dir := t.TempDir()
	f := openTestTimerFiles(t, dir)
	u := TimerUnit{Magic: TimerMagicDefault, WriteTime: timerT0 - 5000, Delay: 5000, OffsetPy: 4096, SizePy: 300, TopicHash: JavaStringHash("TopicA")}
	var pos []int64
	for i := range 5 {
		u.OffsetPy = int64(4096 + 300*i)
		at := u
		if i == 2 {
			at.Delay += 86400000 // another slot
		}
		p, err := f.Append(at)
		require.NoError(t, err)
		pos = append(pos, p)
	}
	assert.Equal(t, []int64{0, 52, 104, 156, timerTestLogSize}, pos, "four units a file, the fifth in the next")
	cp := TimerCheckpoint{LastReadTimeMs: timerT0, LastTimerLogFlushPos: 104, LastTimerQueueOffset: 7, MasterTimerQueueOffset: 7,
		Timestamp: timerT0 + 1, Counter: 3}
	require.NoError(t, f.WriteCheckpoint(cp))
	require.NoError(t, f.Close())

	log0, err := os.ReadFile(filepath.Join(dir, "timerlog", "00000000000000000000"))
	require.NoError(t, err)
	require.Len(t, log0, timerTestLogSize)
	assert.Equal(t, javaUnit(-1, 1, timerT0-5000, 5000, 4096, 300, JavaStringHash("TopicA")), log0[:52])
	assert.Equal(t, javaUnit(0, 1, timerT0-5000, 5000, 4396, 300, JavaStringHash("TopicA")), log0[52:104])
	assert.Equal(t, javaUnit(-1, 1, timerT0-5000, 5000+86400000, 4696, 300, JavaStringHash("TopicA")), log0[104:156])
	assert.Equal(t, javaUnit(52, 1, timerT0-5000, 5000, 4996, 300, JavaStringHash("TopicA")), log0[156:208])
	blank := binary.BigEndian.AppendUint32(nil, uint32(timerTestLogSize-208))
	blank = binary.BigEndian.AppendUint64(blank, 0)
	blank = binary.BigEndian.AppendUint32(blank, 0xBBCCDDEE^(1880681586+8))
	assert.Equal(t, blank, log0[208:224], "the blank head: the rest's length, 0, BLANK_MAGIC_CODE")
	log1, err := os.ReadFile(filepath.Join(dir, "timerlog", "00000000000000000240"))
	require.NoError(t, err)
	assert.Equal(t, javaUnit(156, 1, timerT0-5000, 5000, 5296, 300, JavaStringHash("TopicA")), log1[:52])

	st, err := os.Stat(filepath.Join(dir, "timerwheel"))
	require.NoError(t, err)
	assert.Equal(t, int64(604800*2*32), st.Size())
	assert.Equal(t, javaSlot(timerT0, 0, timerTestLogSize, 4, 0), slotBytes(t, dir, timerT0))
	assert.Equal(t, javaSlot(timerT1, 104, 104, 1, 0), slotBytes(t, dir, timerT1))

	check, err := os.ReadFile(filepath.Join(dir, "config", "timercheck"))
	require.NoError(t, err)
	require.Len(t, check, 4096)
	longs := []int64{timerT0, 104, 7, 7, 0, timerT0 + 1, 3}
	for i, v := range longs {
		assert.Equal(t, v, int64(binary.BigEndian.Uint64(check[8*i:])), "long %d", i)
	}
	assert.Equal(t, cp, DecodeTimerCheckpoint(cp.Encode()))

	f = openTestTimerFiles(t, dir)
	defer f.Close()
	got, existed := f.Checkpoint()
	assert.True(t, existed)
	assert.Equal(t, cp, got)
	slot := f.Slot(timerT0)
	assert.Equal(t, TimerSlot{TimeMs: timerT0, FirstPos: 0, LastPos: timerTestLogSize, Num: 4}, slot)
	var offsets []int64
	for _, u := range f.Units(slot) {
		offsets = append(offsets, u.OffsetPy)
		assert.Equal(t, timerT0, u.DelayedTime())
	}
	assert.Equal(t, []int64{4096, 4396, 4996, 5296}, offsets, "the chain, oldest first")
	assert.Equal(t, int64(-1), f.Slot(timerT0+1000).TimeMs, "an empty slot")
	assert.Equal(t, int64(-1), f.Slot(timerT0+2*TimerWheelSlots*1000).TimeMs, "the same slot a wheel later holds another time")
}

// A wheel written by Java's putSlot(time, first, last) and read back, and
// a delete unit counted out of its slot.
func TestTimerWheelReadsJavasSlots(t *testing.T) {
	dir := t.TempDir()
	f := openTestTimerFiles(t, dir)
	require.NoError(t, f.Close())
	wheel, err := os.OpenFile(filepath.Join(dir, "timerwheel"), os.O_RDWR, 0)
	require.NoError(t, err)
	i := timerT1 / 1000 % (2 * TimerWheelSlots)
	_, err = wheel.WriteAt(javaSlot(timerT1, 520, 1040, 9, 0), i*timerSlotSize)
	require.NoError(t, err)
	require.NoError(t, wheel.Close())

	f = openTestTimerFiles(t, dir)
	defer f.Close()
	assert.Equal(t, TimerSlot{TimeMs: timerT1, FirstPos: 520, LastPos: 1040, Num: 9}, f.Slot(timerT1+999))
	var seen []int64
	f.Slots(timerT0, func(s TimerSlot) { seen = append(seen, s.TimeMs) })
	assert.Equal(t, []int64{timerT1}, seen)
	seen = nil
	f.Slots(timerT1+1000, func(s TimerSlot) { seen = append(seen, s.TimeMs) })
	assert.Empty(t, seen, "a slot before the read time")

	_, err = f.Append(TimerUnit{Magic: TimerMagicDefault | TimerMagicDelete, WriteTime: timerT1 - 1000, Delay: 1000, OffsetPy: 1})
	require.NoError(t, err)
	assert.Equal(t, int32(8), f.Slot(timerT1).Num, "a delete unit counts -1")
}

// Recover, as TimerMessageStore.recover does it: the log is read from one
// file before the checkpoint's flushed position, each unit made its slot's
// newest (a wheel that lost its last writes is rebuilt), and cut after its
// last whole unit (a torn one is dropped).
func TestTimerFilesRecoverRebuildsTheWheelAndCutsATornUnit(t *testing.T) {
	dir := t.TempDir()
	f := openTestTimerFiles(t, dir)
	for i := range 6 {
		delay := int32(5000 + 1000*(i%2))
		_, err := f.Append(TimerUnit{Magic: TimerMagicDefault, WriteTime: timerT0 - 5000, Delay: delay, OffsetPy: int64(100 * i), SizePy: 100})
		require.NoError(t, err)
	}
	require.NoError(t, f.WriteCheckpoint(TimerCheckpoint{LastTimerLogFlushPos: timerTestLogSize + 52}))
	require.NoError(t, f.Close())
	// the wheel lost everything; a seventh unit was torn (no size yet)
	require.NoError(t, os.Truncate(filepath.Join(dir, "timerwheel"), 0))
	torn := javaUnit(-1, 1, timerT0, 9000, 600, 100, 0)
	clear(torn[:4])
	lf, err := os.OpenFile(filepath.Join(dir, "timerlog", "00000000000000000240"), os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = lf.WriteAt(torn, 104)
	require.NoError(t, err)
	require.NoError(t, lf.Close())

	f = openTestTimerFiles(t, dir)
	defer f.Close()
	r, err := f.Recover()
	require.NoError(t, err)
	assert.Equal(t, int64(timerTestLogSize+104), r.End, "after the sixth unit")
	require.True(t, r.HasLast)
	assert.Equal(t, int64(500), r.Last.OffsetPy)
	assert.Equal(t, int64(timerTestLogSize+52), f.Slot(timerT0+1000).LastPos, "each unit read again is its slot's newest")
	assert.Equal(t, int64(timerTestLogSize), f.Slot(timerT0).LastPos)
	var chain []int64
	for _, u := range f.Units(f.Slot(timerT0)) {
		chain = append(chain, u.OffsetPy)
	}
	assert.Equal(t, []int64{0, 200, 400}, chain, "the chain through prevPos reaches the units of the file not read again")
	data, err := os.ReadFile(filepath.Join(dir, "timerlog", "00000000000000000240"))
	require.NoError(t, err)
	assert.Equal(t, make([]byte, 52), data[104:156], "the torn unit is gone")
	pos, err := f.Append(TimerUnit{Magic: TimerMagicDefault, WriteTime: timerT0, Delay: 1000, OffsetPy: 700})
	require.NoError(t, err)
	assert.Equal(t, int64(timerTestLogSize+104), pos, "the next unit goes where the torn one was")
}

// ReviseFrom: a slot the wheel has but whose units the log lost past its
// end is read again from its first unit.
func TestTimerFilesReviseFromASlotPastTheLog(t *testing.T) {
	dir := t.TempDir()
	f := openTestTimerFiles(t, dir)
	for i := range 3 {
		_, err := f.Append(TimerUnit{Magic: TimerMagicDefault, WriteTime: timerT0 - 1000, Delay: 1000, OffsetPy: int64(i)})
		require.NoError(t, err)
	}
	f.wheel.put(timerT0, 0, 5000, 3, 0) // a last unit the log never got
	f.ReviseFrom(timerT0, 156)
	assert.Equal(t, int64(104), f.Slot(timerT0).LastPos)
	require.NoError(t, f.Close())
}

// The log files whose last unit's message precedes the commitlog go, the
// newest never.
func TestTimerLogDeleteExpired(t *testing.T) {
	dir := t.TempDir()
	f := openTestTimerFiles(t, dir)
	defer f.Close()
	for i := range 9 {
		_, err := f.Append(TimerUnit{Magic: TimerMagicDefault, WriteTime: timerT0, Delay: 1000, OffsetPy: int64(1000 * i)})
		require.NoError(t, err)
	}
	n, err := f.DeleteExpired(3000)
	require.NoError(t, err)
	assert.Zero(t, n, "the first file's last message, 3000, is still there")
	n, err = f.DeleteExpired(3001)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	n, err = f.DeleteExpired(1 << 40)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the last file stays")
	names, err := os.ReadDir(filepath.Join(dir, "timerlog"))
	require.NoError(t, err)
	require.Len(t, names, 1)
	assert.Equal(t, "00000000000000000480", names[0].Name())
}

// A wheel file of another size is refused, as Java refuses it.
func TestTimerWheelOfAnotherSizeIsRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "timerwheel"), make([]byte, 4096), 0o644))
	_, err := OpenTimerFiles(TimerOptions{RootDir: dir, LogFileSize: timerTestLogSize, PrecisionMs: 1000}, zaptest.NewLogger(t))
	assert.ErrorIs(t, err, ErrCorrupt)
}
