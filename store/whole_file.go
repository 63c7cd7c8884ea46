package store

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// wholeFile is a small fixed-size file mapped whole and written in place,
// as Java maps its checkpoint files and the timer wheel
// (RandomAccessFile.setLength, then map READ_WRITE over the whole length):
// created as a sparse file of zeros when absent.
type wholeFile struct {
	path string
	file *os.File
	data []byte
}

// openWholeFile maps size bytes of the file at path. A missing file is
// created and a shorter one extended with zeros, unless readOnly; a
// read-only open of a missing file gives a wholeFile with no data.
// existed tells whether the file was there.
func openWholeFile(path string, size int64, readOnly bool) (w *wholeFile, existed bool, err error) {
	w = &wholeFile{path: path}
	flags := os.O_RDWR | os.O_CREATE
	if readOnly {
		flags = os.O_RDONLY
	}
	_, statErr := os.Stat(path)
	existed = statErr == nil
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrNotExist) && readOnly {
		return w, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: open %s: %w", path, err)
	}
	st, err := f.Stat()
	if err == nil && st.Size() < size && !readOnly {
		err = f.Truncate(size)
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("store: size %s: %w", path, err)
	}
	prot := unix.PROT_READ | unix.PROT_WRITE
	if readOnly {
		prot = unix.PROT_READ
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), prot, unix.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("store: mmap %s: %w", path, err)
	}
	w.file, w.data = f, data
	return w, existed, nil
}

// fileSize is the size of the file at path, -1 when there is none.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return st.Size()
}

// sync makes bytes [from, to) of the mapping durable.
func (w *wholeFile) sync(from, to int64) error {
	if w.data == nil || from >= to {
		return nil
	}
	from &^= osPageSize - 1
	if err := unix.Msync(w.data[from:to], unix.MS_SYNC); err != nil {
		return fmt.Errorf("store: msync %s: %w", w.path, err)
	}
	return nil
}

// close unmaps the file and closes it.
func (w *wholeFile) close() error {
	if w.data == nil {
		return nil
	}
	err := unix.Munmap(w.data)
	w.data = nil
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	return err
}
