package main

// rmqbench dropcache: makes a store's later reads cold by dropping its
// files' pages from the OS page cache, and only those (writing
// /proc/sys/vm/drop_caches would empty the cache of every process on the
// machine):
//
//	rmqbench dropcache -dir RUN_DIR/broker-a/store
//	rmqbench dropcache -dir RUN_DIR/broker-a/store/commitlog -report
//
// For each regular file under -dir it counts the pages in the page cache
// (mmap + mincore, which reads nothing), then, unless -report, writes the
// file's dirty pages back (fdatasync: the cache drops only clean pages)
// and asks the kernel to drop the rest (posix_fadvise POSIX_FADV_DONTNEED),
// and counts again. A page that a running process has mapped stays
// cached: stop the broker first (the Java broker keeps every page of the
// commitlog it touched mapped; ours releases them after each flush). It
// prints one JSON line, kind "dropcache", with the megabytes in the files
// and resident before and after.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dropCacheLine is dropcache's JSON result (keys read by
// bench/backlog-bench.sh: do not change).
type dropCacheLine struct {
	Kind     string  `json:"kind"`
	Dir      string  `json:"dir"`
	Files    int     `json:"files"`
	MB       float64 `json:"mb"`
	CachedMB float64 `json:"cachedMB"` // resident in the page cache before
	AfterMB  float64 `json:"afterMB"`  // resident after the drop (= cachedMB with -report)
	Failed   int     `json:"failed"`   // files that could not be read or dropped
	LastErr  string  `json:"lastError,omitempty"`
	Report   bool    `json:"report,omitempty"` // -report: nothing dropped
}

func runDropCache(_ context.Context, args []string, stdout, stderr io.Writer) int {
	flags := flagsOf("dropcache", stderr)
	dir := flags.String("dir", "", "the directory whose files to drop from the page cache (recursively)")
	report := flags.Bool("report", false, "only count the cached pages, drop nothing")
	if !parseChecked(flags, args, stderr, func() error {
		if *dir == "" {
			return errors.New("need -dir")
		}
		return nil
	}) {
		return 2
	}
	res := dropCacheLine{Kind: "dropcache", Dir: *dir, Report: *report}
	err := filepath.WalkDir(*dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		res.add(dropFile(path, !*report))
		return nil
	})
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench dropcache:", err)
		return 1
	}
	fmt.Fprintf(stdout, "dropcache: %s: %d files, %.1f MB, %.1f MB cached before, %.1f MB after\n",
		res.Dir, res.Files, res.MB, res.CachedMB, res.AfterMB)
	out, _ := json.Marshal(res)
	fmt.Fprintln(stdout, string(out))
	return 0
}

// fileCache is what dropFile found of one file, in bytes.
type fileCache struct {
	size, before, after int64
	err                 error
}

// add counts one file's figures in the result.
func (r *dropCacheLine) add(f fileCache) {
	r.Files++
	r.MB += mb(f.size)
	r.CachedMB += mb(f.before)
	r.AfterMB += mb(f.after)
	if f.err != nil {
		r.Failed++
		r.LastErr = f.err.Error()
	}
}

func mb(n int64) float64 { return round3(float64(n) / (1 << 20)) }

// dropFile counts the cached bytes of path, drops them when drop is set,
// and counts again.
func dropFile(path string, drop bool) fileCache {
	f, err := os.Open(path)
	if err != nil {
		return fileCache{err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fileCache{err: err}
	}
	res := fileCache{size: st.Size()}
	if res.before, err = cachedBytes(f, res.size); err != nil {
		res.err = err
		return res
	}
	res.after = res.before
	if !drop || res.before == 0 {
		return res
	}
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		res.err = fmt.Errorf("fdatasync %s: %w", path, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		res.err = fmt.Errorf("fadvise %s: %w", path, err)
		return res
	}
	if res.after, err = cachedBytes(f, res.size); err != nil {
		res.err = err
	}
	return res
}

// cachedBytes is how many bytes of f's first size bytes are in the page
// cache (whole pages, the last one counted whole).
func cachedBytes(f *os.File, size int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, fmt.Errorf("mmap %s: %w", f.Name(), err)
	}
	defer unix.Munmap(data)
	page := int64(os.Getpagesize())
	vec := make([]byte, (size+page-1)/page)
	if err := mincore(data, vec); err != nil {
		return 0, fmt.Errorf("mincore %s: %w", f.Name(), err)
	}
	var n int64
	for _, v := range vec {
		n += int64(v & 1)
	}
	return min(n*page, size), nil
}

// mincore fills vec with one byte per page of data, bit 0 set for a page
// in the page cache (x/sys/unix has no wrapper for it).
func mincore(data, vec []byte) error {
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(data))),
		uintptr(len(data)), uintptr(unsafe.Pointer(unsafe.SliceData(vec))))
	if errno != 0 {
		return errno
	}
	return nil
}
