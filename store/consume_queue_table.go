package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"
)

// cqTable holds every consume queue, by topic and queue id (Java's
// consumeQueueTable). Queues are created on first use.
type cqTable struct {
	dir      string
	fileSize int64
	log      *zap.Logger
	readOnly bool

	mu     sync.RWMutex
	queues map[string]map[int32]*consumeQueue
}

func newCQTable(dir string, fileSize int64, log *zap.Logger, readOnly bool) *cqTable {
	return &cqTable{dir: dir, fileSize: fileSize, log: log, readOnly: readOnly, queues: make(map[string]map[int32]*consumeQueue)}
}

// load maps consumequeue/{topic}/{queueId}/ for every topic; directories
// whose name is not a queue id are skipped, as Java skips them.
func (t *cqTable) load() error {
	topics, err := os.ReadDir(t.dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: read %s: %w", t.dir, err)
	}
	for _, topic := range topics {
		if !topic.IsDir() {
			continue
		}
		if err := t.loadTopic(topic.Name()); err != nil {
			return err
		}
	}
	return nil
}

func (t *cqTable) loadTopic(topic string) error {
	dirs, err := os.ReadDir(filepath.Join(t.dir, topic))
	if err != nil {
		return fmt.Errorf("store: read consume queues of %s: %w", topic, err)
	}
	for _, d := range dirs {
		id, err := strconv.ParseInt(d.Name(), 10, 32)
		if !d.IsDir() || err != nil {
			t.log.Warn("skipping a consume-queue entry that is not a queue id", zap.String("topic", topic), zap.String("name", d.Name()))
			continue
		}
		cq := t.create(topic, int32(id))
		if err := cq.files.load(); err != nil {
			return err
		}
	}
	return nil
}

// find returns the queue, or nil.
func (t *cqTable) find(topic string, queueID int32) *consumeQueue {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.queues[topic][queueID]
}

// findOrCreate returns the queue, creating an empty one (no files yet).
func (t *cqTable) findOrCreate(topic string, queueID int32) *consumeQueue {
	if cq := t.find(topic, queueID); cq != nil {
		return cq
	}
	return t.create(topic, queueID)
}

func (t *cqTable) create(topic string, queueID int32) *consumeQueue {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cq := t.queues[topic][queueID]; cq != nil {
		return cq
	}
	byID := t.queues[topic]
	if byID == nil {
		byID = make(map[int32]*consumeQueue)
		t.queues[topic] = byID
	}
	dir := filepath.Join(t.dir, topic, strconv.Itoa(int(queueID)))
	cq := newConsumeQueue(topic, queueID, dir, t.fileSize, t.log, t.readOnly)
	byID[queueID] = cq
	return cq
}

// all returns every queue, sorted by topic and queue id.
func (t *cqTable) all() []*consumeQueue {
	t.mu.RLock()
	out := make([]*consumeQueue, 0, len(t.queues))
	for _, byID := range t.queues {
		for _, cq := range byID {
			out = append(out, cq)
		}
	}
	t.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].topic != out[j].topic {
			return out[i].topic < out[j].topic
		}
		return out[i].queueID < out[j].queueID
	})
	return out
}

// remove drops a topic's queues from the table and returns them.
func (t *cqTable) remove(topic string) []*consumeQueue {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []*consumeQueue
	for _, cq := range t.queues[topic] {
		out = append(out, cq)
	}
	delete(t.queues, topic)
	return out
}

// maxPhysicOffset is the highest commitlog end any queue points to, -1
// with no units (maxPhyOffsetOfConsumeQueue).
func (t *cqTable) maxPhysicOffset() int64 {
	m := int64(-1)
	for _, cq := range t.all() {
		m = max(m, cq.maxPhysicOffset.Load())
	}
	return m
}

// flush flushes every queue (see mappedFile.flush for leastPages) and
// returns the store time of the oldest record whose unit is still not
// durable, 0 when all are; see consumeQueue.flush for since and maxAge.
func (t *cqTable) flush(leastPages int, since int64, maxAge time.Duration) (int64, error) {
	oldest := int64(0)
	for _, cq := range t.all() {
		pending, err := cq.flush(leastPages, since, maxAge)
		if err != nil {
			return 0, err
		}
		if pending > 0 && (oldest == 0 || pending < oldest) {
			oldest = pending
		}
	}
	return oldest, nil
}

// closeAll unmaps every queue.
func (t *cqTable) closeAll() {
	for _, cq := range t.all() {
		cq.files.closeAll()
	}
}
