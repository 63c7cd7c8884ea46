package rocksdb

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecoders feeds any bytes to the table, MANIFEST, log and WriteBatch
// readers: they may refuse them, never panic. Seeds: the Java fixtures'
// files.
func FuzzDecoders(f *testing.F) {
	files, _ := filepath.Glob("testdata/java-*/db/*")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = readTable(data, func([]byte, uint64, byte, []byte) error { return nil })
		_, _ = replayManifest(data)
		for _, rec := range readLog(data) {
			_ = decodeBatch(rec, func(entry) {})
		}
		_ = decodeBatch(data, func(entry) {})
	})
}
