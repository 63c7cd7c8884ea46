package broker

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// offsetTable is ConsumerOffsetManager: the committed offset of every
// group on every queue, keyed "topic@group", persisted to
// consumerOffset.json every flushConsumerOffsetInterval and at shutdown.
type offsetTable struct {
	dir configfile.Dir
	log *zap.Logger
	now func() time.Time

	mu      sync.RWMutex
	offsets map[string]map[int32]int64
	// resets are 5.x's server-side resets not yet handed to a pull
	// (resetOffsetTable); not persisted, as in Java.
	resets map[string]map[int32]int64
	// pendingResets counts the entries of resets, so that a pull finds
	// out without a lock that there are none.
	pendingResets atomic.Int32
	// pulled is where each group's last pull on a queue said to go on
	// (5.x's pullOffsetTable, not persisted): consume stats show a queue's
	// messages in flight as pulled minus committed. pulledMu guards it,
	// apart from mu: every pull writes it.
	pulledMu sync.Mutex
	pulled   map[string]map[int32]int64
	version  protocol.DataVersion
	dirty    bool

	// persistMu serialises writers of the file (the periodic flush and
	// shutdown); it is taken before mu.
	persistMu sync.Mutex
}

// newOffsetTable loads consumerOffset.json.
func newOffsetTable(dir configfile.Dir, log *zap.Logger, now func() time.Time) (*offsetTable, error) {
	t := &offsetTable{dir: dir, log: log, now: now, offsets: map[string]map[int32]int64{},
		resets: map[string]map[int32]int64{}, pulled: map[string]map[int32]int64{}, version: protocol.NewDataVersion(now())}
	w, res, err := dir.LoadConsumerOffsets()
	if err != nil {
		return nil, err
	}
	if res.Fallback != nil {
		log.Warn("load consumerOffset.json failed, and try to load backup file", zap.Error(res.Fallback))
	}
	if res.Source != configfile.SourceNone && w.OffsetTable != nil {
		t.offsets = w.OffsetTable
		t.version = w.DataVersion
	}
	return t, nil
}

// offsetKey is "topic@group".
func offsetKey(topic, group string) string { return topic + protocol.TopicGroupSeparator + group }

// query returns a group's committed offset on a queue (a pending reset
// first), -1 when none.
func (t *offsetTable) query(group, topic string, queueID int32) int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if off, ok := t.resets[offsetKey(topic, group)][queueID]; ok {
		return off
	}
	if q, ok := t.offsets[offsetKey(topic, group)]; ok {
		if off, ok := q[queueID]; ok {
			return off
		}
	}
	return -1
}

// commit records a group's offset on a queue.
func (t *offsetTable) commit(group, topic string, queueID int32, offset int64) {
	key := offsetKey(topic, group)
	t.mu.Lock()
	defer t.mu.Unlock()
	q, ok := t.offsets[key]
	if !ok {
		q = map[int32]int64{}
		t.offsets[key] = q
	}
	if old, ok := q[queueID]; ok && old == offset {
		return
	}
	q[queueID] = offset
	t.dirty = true
}

// assignReset is ConsumerOffsetManager.assignResetOffset: the offset is
// committed and held for the group's next pull of the queue.
func (t *offsetTable) assignReset(group, topic string, queueID int32, offset int64) {
	key := offsetKey(topic, group)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.resets[key] == nil {
		t.resets[key] = map[int32]int64{}
	}
	if _, ok := t.resets[key][queueID]; !ok {
		t.pendingResets.Add(1)
	}
	t.resets[key][queueID] = offset
	if t.offsets[key] == nil {
		t.offsets[key] = map[int32]int64{}
	}
	t.offsets[key][queueID] = offset
	t.dirty = true
}

// hasReset tells whether a reset of the queue waits for a pull.
func (t *offsetTable) hasReset(group, topic string, queueID int32) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	_, ok := t.resets[offsetKey(topic, group)][queueID]
	return ok
}

// takeReset is queryThenEraseResetOffset.
func (t *offsetTable) takeReset(group, topic string, queueID int32) (int64, bool) {
	if t.pendingResets.Load() == 0 {
		return 0, false
	}
	key := offsetKey(topic, group)
	t.mu.Lock()
	defer t.mu.Unlock()
	off, ok := t.resets[key][queueID]
	if ok {
		delete(t.resets[key], queueID)
		t.pendingResets.Add(-1)
	}
	return off, ok
}

// groupQueues returns a copy of a group's offsets on a topic.
func (t *offsetTable) groupQueues(group, topic string) map[int32]int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return maps.Clone(t.offsets[offsetKey(topic, group)])
}

// topicsOfGroup lists the topics a group has offsets on.
func (t *offsetTable) topicsOfGroup(group string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for key := range t.offsets {
		if topic, g, ok := strings.Cut(key, protocol.TopicGroupSeparator); ok && g == group {
			out = append(out, topic)
		}
	}
	return out
}

// commitPull records where a pull told the group to go on (5.x's
// commitPullOffset, on every pull).
func (t *offsetTable) commitPull(group, topic string, queueID int32, next int64) {
	key := offsetKey(topic, group)
	t.pulledMu.Lock()
	defer t.pulledMu.Unlock()
	queues := t.pulled[key]
	if queues == nil {
		queues = map[int32]int64{}
		t.pulled[key] = queues
	}
	queues[queueID] = next
}

// queryPull is queryPullOffset: the last pull's next offset, else the
// committed offset (-1 when neither).
func (t *offsetTable) queryPull(group, topic string, queueID int32) int64 {
	t.pulledMu.Lock()
	off, ok := t.pulled[offsetKey(topic, group)][queueID]
	t.pulledMu.Unlock()
	if ok {
		return off
	}
	return t.query(group, topic, queueID)
}

// removeGroup drops every offset of a group (on one topic, or all when
// topic is "").
func (t *offsetTable) removeGroup(group, topic string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key := range t.offsets {
		if keyOfGroup(key, group, topic) {
			delete(t.offsets, key)
			t.dirty = true
		}
	}
	for key, queues := range t.resets {
		if keyOfGroup(key, group, topic) {
			t.pendingResets.Add(-int32(len(queues)))
			delete(t.resets, key)
		}
	}
	t.pulledMu.Lock()
	defer t.pulledMu.Unlock()
	for key := range t.pulled {
		if keyOfGroup(key, group, topic) {
			delete(t.pulled, key)
		}
	}
}

// keyOfGroup tells whether a "topic@group" key is the group's, on topic
// (any topic when topic is "").
func keyOfGroup(key, group, topic string) bool {
	tp, g, _ := strings.Cut(key, protocol.TopicGroupSeparator)
	return g == group && (topic == "" || tp == topic)
}

// persist writes consumerOffset.json when something changed since the
// last write (always when force is set).
func (t *offsetTable) persist(force bool) {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	t.mu.Lock()
	if !t.dirty && !force {
		t.mu.Unlock()
		return
	}
	t.dirty = false
	t.version.Next(t.now(), 0)
	w := &protocol.ConsumerOffsetSerializeWrapper{DataVersion: t.version, OffsetTable: cloneOffsets(t.offsets)}
	t.mu.Unlock()
	if err := t.dir.PersistConsumerOffsets(w); err != nil {
		t.log.Error("persist consumerOffset.json failed", zap.Error(err))
	}
}

// snapshot returns a copy of every offset.
func (t *offsetTable) snapshot() map[string]map[int32]int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return cloneOffsets(t.offsets)
}

func cloneOffsets(m map[string]map[int32]int64) map[string]map[int32]int64 {
	out := make(map[string]map[int32]int64, len(m))
	for k, q := range m {
		out[k] = maps.Clone(q)
	}
	return out
}

// wrapper returns a copy of the table with its version, as
// consumerOffset.json holds it (GET_ALL_CONSUMER_OFFSET).
func (t *offsetTable) wrapper() *protocol.ConsumerOffsetSerializeWrapper {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return &protocol.ConsumerOffsetSerializeWrapper{DataVersion: t.version, OffsetTable: cloneOffsets(t.offsets)}
}
