package store

import (
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// Reading the commitlog at recovery: the pages ahead of the scan are asked
// for in large chunks (MADV_WILLNEED starts the reads at once, so the disk
// streams while records are checked), and a long scan logs how far it got.

const (
	// readAheadChunk is how far ahead of the scan pages are requested.
	readAheadChunk = 64 << 20
	// progressEvery is how many bytes pass between two progress lines.
	progressEvery = 256 << 20
)

// scanProgress follows one recovery scan.
type scanProgress struct {
	log   *zap.Logger
	total int64 // bytes the scan may read at most
	every int64 // bytes between two progress lines
	began time.Time

	done      int64       // bytes passed, up to the last file change
	file      *mappedFile // the file being read
	fileFrom  int64       // where the scan entered it
	advised   int64       // file position read-ahead was asked up to
	nextPrint int64
}

func newScanProgress(log *zap.Logger, total, every int64) *scanProgress {
	return &scanProgress{log: log, total: total, every: every, began: time.Now(), nextPrint: every}
}

// at is told the scan's position in f before each record.
func (p *scanProgress) at(f *mappedFile, pos int64) {
	if f != p.file {
		if p.file != nil {
			p.done += p.file.size - p.fileFrom
		}
		p.file, p.fileFrom, p.advised = f, pos, pos
	}
	if pos >= p.advised-readAheadChunk/2 && p.advised < f.size {
		end := min(max(p.advised, pos)+readAheadChunk, f.size)
		from := max(p.advised, pos) &^ (osPageSize - 1)
		_ = unix.Madvise(f.data[from:end], unix.MADV_WILLNEED) // a hint: failure only costs speed
		p.advised = end
	}
	if n := p.done + pos - p.fileFrom; n >= p.nextPrint {
		p.nextPrint = n + p.every
		secs := time.Since(p.began).Seconds()
		p.log.Info("recovering commitlog: progress", zap.Int64("scannedMB", n>>20),
			zap.Int64("atMostMB", p.total>>20), zap.Float64("seconds", secs),
			zap.Float64("MBps", float64(n>>20)/max(secs, 1e-3)))
	}
}
