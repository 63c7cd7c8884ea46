package store

import (
	"fmt"
	"sync"
)

// Raw commitlog access for replication: the HA master sends the bytes of
// its commitlog as they are, and the slave writes them at its end as they
// are, so both logs are equal byte for byte.

// pulse wakes every goroutine waiting on it: wait returns a channel that
// the next fire closes. Take the channel before checking the condition
// waited for, so that a fire in between is not missed.
type pulse struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait returns the channel the next fire closes.
func (p *pulse) wait() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ch == nil {
		p.ch = make(chan struct{})
	}
	return p.ch
}

// fire wakes the current waiters.
func (p *pulse) fire() {
	p.mu.Lock()
	if p.ch != nil {
		close(p.ch)
		p.ch = nil
	}
	p.mu.Unlock()
}

// dataFrom returns the written bytes from offset to the end of what is
// written in offset's file (Java's getCommitLogData: never across a file
// boundary), held until release; ok=false when there are none yet or the
// file is gone.
func (c *commitLog) dataFrom(offset int64) (data []byte, release func(), ok bool) {
	f := c.files.find(offset)
	if f == nil || !f.hold() {
		return nil, nil, false
	}
	pos, end := offset-f.start, f.wrotePosition()
	if pos >= end {
		f.release()
		return nil, nil, false
	}
	return f.data[pos:end:end], f.release, true
}

// appendRaw writes bytes a master sent, whole records and blanks already
// encoded, at offset, which must be the end of the commitlog (with no file
// yet, a file boundary: the slave starts where the master's last file
// starts). The bytes must fit in the file they start in, as the master
// never sends across a file boundary (Java's CommitLog.appendData). The
// dispatcher builds the consume queues and the index from them once the
// caller signals it (signalAppended): a slave reports the new end to its
// master first, so that waking the dispatcher costs no time on the way of
// the ack a SYNC_MASTER's put waits for.
func (c *commitLog) appendRaw(offset int64, data []byte) error {
	c.putMu.Lock()
	defer c.putMu.Unlock()
	if c.files.last() == nil && offset%c.files.fileSize != 0 {
		return fmt.Errorf("%w: first offset %d is not at a file boundary", ErrReplication, offset)
	}
	if end := c.files.maxOffset(); c.files.last() != nil && end != offset {
		return mismatch(end, offset)
	}
	f, _, err := c.files.lastWritable(offset)
	if err != nil {
		return err
	}
	pos := f.wrotePosition()
	if at := f.start + pos; at != offset {
		return mismatch(at, offset)
	}
	if pos+int64(len(data)) > f.size {
		return fmt.Errorf("%w: %d bytes at %d go past the end of file %s", ErrReplication, len(data), offset, f.name())
	}
	if len(data) == 0 {
		return nil
	}
	// As in append: the first record's head goes in last, so a crash in
	// the middle leaves zeros that recovery reads as the end of the log.
	head := min(len(data), 8)
	copy(f.data[pos+int64(head):], data[head:])
	copy(f.data[pos:], data[:head])
	f.wrote.Store(pos + int64(len(data)))
	c.warm.wrote(f, pos+int64(len(data)))
	return nil
}

// mismatch is the error of a master frame that does not start at the
// slave's end, with Java's words.
func mismatch(slave, master int64) error {
	return fmt.Errorf("%w: master pushed offset not equal the max phy offset in slave, SLAVE: %d MASTER: %d",
		ErrReplication, slave, master)
}
