package logging

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// rollingFile is an append-only log file that, once larger than maxSize,
// is compressed to otherdays/<name>.1.log.gz after shifting the older ones
// up by one (the oldest, at maxIndex, is dropped) and started afresh.
type rollingFile struct {
	mu       sync.Mutex
	path     string
	f        *os.File
	size     int64
	maxSize  int64
	maxIndex int
}

func openRolling(path string, maxSize int64, maxIndex int) (*rollingFile, error) {
	r := &rollingFile{path: path, maxSize: maxSize, maxIndex: maxIndex}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *rollingFile) open() error {
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("logging: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("logging: %w", err)
	}
	r.f, r.size = f, st.Size()
	return nil
}

// Write appends p, rolling first when the file is full.
func (r *rollingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.size > 0 && r.size+int64(len(p)) > r.maxSize {
		if err := r.roll(); err != nil {
			// Keep logging into the full file rather than lose lines.
			fmt.Fprintln(os.Stderr, err)
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// Sync flushes the file to disk.
func (r *rollingFile) Sync() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.f.Sync()
}

// Close closes the file.
func (r *rollingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.f.Close()
}

// rolledName is otherdays/<name>.<i>.log.gz beside the log.
func (r *rollingFile) rolledName(i int) string {
	base := strings.TrimSuffix(filepath.Base(r.path), ".log")
	return filepath.Join(filepath.Dir(r.path), "otherdays", fmt.Sprintf("%s.%d.log.gz", base, i))
}

func (r *rollingFile) roll() error {
	if err := os.MkdirAll(filepath.Dir(r.rolledName(1)), 0o755); err != nil {
		return fmt.Errorf("logging: roll: %w", err)
	}
	_ = os.Remove(r.rolledName(r.maxIndex))
	for i := r.maxIndex - 1; i >= 1; i-- {
		_ = os.Rename(r.rolledName(i), r.rolledName(i+1))
	}
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("logging: roll: %w", err)
	}
	if err := gzipFile(r.path, r.rolledName(1)); err != nil {
		_ = r.open()
		return err
	}
	if err := os.Truncate(r.path, 0); err != nil {
		_ = r.open()
		return fmt.Errorf("logging: roll: %w", err)
	}
	return r.open()
}

// gzipFile writes src compressed to dst.
func gzipFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("logging: roll: %w", err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("logging: roll: %w", err)
	}
	zw := gzip.NewWriter(out)
	_, err = io.Copy(zw, in)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("logging: roll: %w", err)
	}
	return nil
}
