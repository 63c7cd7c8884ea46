package configfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Errors of this package; the cause is wrapped after them.
var (
	// ErrPersist is returned when a file could not be written.
	ErrPersist = errors.New("configfile: persist failed")
	// ErrLoad is returned when neither a file nor its backup could be
	// used: the backup does not parse or cannot be read.
	ErrLoad = errors.New("configfile: load failed")
)

// Suffixes of the companion files (on-disk names: do not change).
const (
	BackupSuffix = ".bak"
	TempSuffix   = ".tmp"
)

// Source tells which file a Load took its content from.
type Source uint8

// Sources of a loaded document.
const (
	// SourceNone: neither the file nor its backup had content; the
	// document is empty.
	SourceNone Source = iota
	// SourceMain: the file itself.
	SourceMain
	// SourceBackup: the file was missing, empty or unusable; its .bak was
	// read.
	SourceBackup
)

// String returns "none", "main" or "backup".
func (s Source) String() string {
	switch s {
	case SourceMain:
		return "main"
	case SourceBackup:
		return "backup"
	}
	return "none"
}

// Result says how a Load went.
type Result struct {
	// Source is the file the content came from.
	Source Source
	// Path is that file's path, "" for SourceNone.
	Path string
	// Fallback is why the main file was not used when it exists but
	// could not be read or parsed; nil when it was used, missing or
	// empty. The owner should log it: Java logs "load ... failed, and try
	// to load backup file".
	Fallback error
}

// Load reads path, or path.bak when path is missing, empty, unreadable or
// rejected by decode, and passes the content to decode. Both missing or
// empty is no error (SourceNone; decode is not called). When path.bak is
// used and decode rejects it, or it cannot be read, the error wraps
// ErrLoad and names path.bak.
func Load(path string, decode func(data []byte) error) (Result, error) {
	data, err := os.ReadFile(path)
	switch {
	case err == nil && len(data) > 0:
		if err = decode(data); err == nil {
			return Result{Source: SourceMain, Path: path}, nil
		}
	case errors.Is(err, fs.ErrNotExist) || err == nil:
		err = nil
	}
	var res Result
	if err != nil {
		res.Fallback = fmt.Errorf("%s: %w", path, err)
	}
	bak := path + BackupSuffix
	data, err = os.ReadFile(bak)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0):
		return res, nil
	case err == nil:
		err = decode(data)
	}
	if err != nil {
		return res, fmt.Errorf("%w: %s: %w%s", ErrLoad, bak, err, mainReason(res.Fallback))
	}
	res.Source, res.Path = SourceBackup, bak
	return res, nil
}

func mainReason(fallback error) string {
	if fallback == nil {
		return ""
	}
	return " (after " + fallback.Error() + ")"
}

// Persist replaces path by content, keeping the previous content in
// path.bak, crash-safely (see the package comment). The error wraps
// ErrPersist and the cause.
func Persist(path string, content []byte) error {
	if err := persist(path, content); err != nil {
		_ = os.Remove(path + TempSuffix)
		return fmt.Errorf("%w: %s: %w", ErrPersist, path, err)
	}
	return nil
}

func persist(path string, content []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeSync(path+TempSuffix, content); err != nil {
		return err
	}
	prev, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case len(prev) > 0:
		if err := writeSync(path+BackupSuffix, prev); err != nil {
			return err
		}
	}
	if err := os.Rename(path+TempSuffix, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// writeSync writes content to path, truncating it, and fsyncs it.
func writeSync(path string, content []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(content); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// syncDir fsyncs a directory, so that a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
