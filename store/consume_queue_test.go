package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// TestConsumeQueueUnitsAcrossPages: units written through the file where
// they reach a new page (writeThrough) and through the mapping elsewhere
// read back alike, from the mapping and from the file on disk, including
// the units that straddle a page boundary (4096 is no multiple of 20).
func TestConsumeQueueUnitsAcrossPages(t *testing.T) {
	dir := t.TempDir()
	const units = 3 * osPageSize / cqUnitSize // three pages and a bit
	cq := newConsumeQueue("T", 0, dir, 1000*cqUnitSize, zaptest.NewLogger(t), false)
	for i := int64(0); i < units; i++ {
		require.NoError(t, cq.put(cqUnit{offset: i * 100, size: 100, tagsCode: i}, i, 1))
	}
	for i := int64(0); i < units; i++ {
		u, ok := cq.unitAt(i)
		require.True(t, ok, "unit %d", i)
		assert.Equal(t, cqUnit{offset: i * 100, size: 100, tagsCode: i}, u, "unit %d from the mapping", i)
	}
	_, err := cq.files.flush(0)
	require.NoError(t, err)
	cq.files.closeAll()
	raw, err := os.ReadFile(filepath.Join(dir, "00000000000000000000"))
	require.NoError(t, err)
	for i := int64(0); i < units; i++ {
		at := i * cqUnitSize
		assert.EqualValues(t, i*100, binary.BigEndian.Uint64(raw[at:]), "unit %d on disk", i)
		assert.EqualValues(t, i, binary.BigEndian.Uint64(raw[at+12:]), "unit %d's tags code on disk", i)
	}
}

func TestFirstTouch(t *testing.T) {
	assert.True(t, firstTouch(0, cqUnitSize))
	assert.False(t, firstTouch(20, cqUnitSize))
	assert.True(t, firstTouch(4080, cqUnitSize), "straddles into page 1")
	assert.False(t, firstTouch(4100, cqUnitSize))
	assert.True(t, firstTouch(8180, cqUnitSize), "straddles into page 2")
	assert.True(t, firstTouch(osPageSize, 8), "starts page 1")
}

// A unit written into a mapping (size last, in one store) has the bytes
// of Java's unit, and a unit whose size was not written yet is no unit.
func TestMappedUnitBytes(t *testing.T) {
	u := cqUnit{offset: 0x0102030405060708, size: 0x0A0B0C0D, tagsCode: 2598921}
	want := make([]byte, cqUnitSize)
	putUnit(want, u)
	buf := make([]uint32, 2*cqUnitSize/4) // 4-byte aligned, as a mapping is
	got := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), 2*cqUnitSize)
	putMappedUnit(got[cqUnitSize:], u)
	assert.Equal(t, want, got[cqUnitSize:])
	assert.Equal(t, u, readUnit(got[cqUnitSize:]))

	partial := make([]byte, cqUnitSize)
	binary.BigEndian.PutUint64(partial, uint64(u.offset))
	binary.BigEndian.PutUint64(partial[12:], uint64(u.tagsCode))
	assert.False(t, readUnit(partial).valid(), "offset and tags without the size: recovery stops there")
}
