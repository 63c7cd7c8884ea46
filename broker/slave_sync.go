package broker

// SlaveSynchronize: a SLAVE copies its master's metadata, as Java's
// SlaveSynchronize and the schedule BrokerController gives it.
//
// Requests sent to the master (answered by any broker, admin_topic.go,
// admin_offsets.go, admin_group.go):
//
//   - GET_ALL_TOPIC_CONFIG (21): TopicConfigSerializeWrapper. When its
//     dataVersion differs from the slave's, the slave takes the version
//     and the master's table in place of its own, and writes topics.json.
//   - GET_ALL_CONSUMER_OFFSET (43): ConsumerOffsetSerializeWrapper. Every
//     topic@group entry of the master replaces the slave's (putAll: the
//     slave's other entries stay), consumerOffset.json is written; 5.x
//     also takes the master's dataVersion.
//   - GET_ALL_DELAY_OFFSET (45): delayOffset.json's text, written to the
//     slave's delayOffset.json as it came, and loaded (5.x's
//     loadWhenSyncDelayOffset; 4.x only writes the file, but its slave
//     never writes that file again, which loading gives here too).
//   - GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201): SubscriptionGroupWrapper,
//     taken as the topics are when the dataVersion differs.
//   - GET_ALL_MESSAGE_REQUEST_MODE (402, 5.x): the message request modes;
//     the slave's topics the master's table lacks go, the master's
//     entries replace its own, messageRequestMode.json is written.
//
// The master's address is the masterAddr of the name server's answer to
// REGISTER_BROKER (none while the master is away: nothing is synced, so
// offsets clients commit to the slave then stay until the master is back
// and its own overwrite them). A failed request is logged and the next
// table is tried, as Java does.
//
// Schedule: 4.x syncs 3 s after start, then every 10 s; 5.x looks every
// 3 s from 10 s after start and syncs when the last sync is 60 s old; in
// controller mode from 3 s after start, when the last sync is 10 s old.
//
// Differences from Java: 5.x's timer checkpoint and metrics (60, 61) are
// not synced, and a slave runs no timer (a Java slave takes its master's
// read time and queue offset and fills a wheel of its own): a slave
// restarted as a master starts its timer from the timercheck its store has
// (none at first: the timer queue is read from its start,
// timer_recover.go) and may deliver again what its master delivered (at
// least once, nothing lost). As a master it answers a Java slave's 60 and
// 61 (admin_timer.go).

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// syncRequestTimeout is the timeout of each request to the master
// (BrokerOuterAPI's 3 s).
const syncRequestTimeout = 3 * time.Second

// slaveSync copies the master's tables into a slave's.
type slaveSync struct {
	log      *zap.Logger
	line     line
	id       *identity
	client   *remoting.Client
	topics   *topicTable
	groups   *groupTable
	offsets  *offsetTable
	schedule *scheduleService
	modes    *requestModeTable
	// controllerMode syncs as a controller-mode slave does: from 3 s
	// after start, whenever the last sync is 10 s old.
	controllerMode bool

	mu         sync.Mutex
	masterAddr string
}

// setMaster records the master's address a registration answered with
// ("" when the name server knows no master).
func (s *slaveSync) setMaster(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.masterAddr != addr {
		s.log.Info("Update master address", zap.String("from", s.masterAddr), zap.String("to", addr))
		s.masterAddr = addr
	}
}

// master is the address to sync from, "" when none (or this broker).
func (s *slaveSync) master() string {
	s.mu.Lock()
	addr := s.masterAddr
	s.mu.Unlock()
	if addr == s.id.brokerAddr() {
		return ""
	}
	return addr
}

// loop syncs on the line's schedule until stop.
func (s *slaveSync) loop(stop <-chan struct{}) {
	first, every, minGap := 3*time.Second, 10*time.Second, time.Duration(0)
	if s.line.five() {
		first, every, minGap = 10*time.Second, 3*time.Second, 60*time.Second
	}
	if s.controllerMode {
		first, minGap = 3*time.Second, 10*time.Second
	}
	select {
	case <-stop:
		return
	case <-time.After(first):
	}
	last := time.Now()
	s.syncAll()
	runEvery(stop, every, func() {
		if time.Since(last) >= minGap {
			last = time.Now()
			s.syncAll()
		}
	})
}

// syncAll copies the tables from the master, each on its own.
func (s *slaveSync) syncAll() {
	addr := s.master()
	if addr == "" {
		return
	}
	s.syncTopics(addr)
	s.syncOffsets(addr)
	s.syncDelayOffsets(addr)
	s.syncGroups(addr)
	if s.line.five() {
		s.syncRequestModes(addr)
	}
}

// fetch sends a body-less request to the master and returns its body.
func (s *slaveSync) fetch(addr string, code remoting.RequestCode) ([]byte, error) {
	req := remoting.NewRequest(code, nil)
	req.Version = s.line.version()
	ctx, cancel := context.WithTimeout(context.Background(), syncRequestTimeout)
	defer cancel()
	resp, err := s.client.Invoke(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	if resp.Code != int32(remoting.Success) {
		return nil, &remoteError{code: resp.Code, remark: resp.Remark}
	}
	return resp.Body, nil
}

// syncTopics is syncTopicConfig.
func (s *slaveSync) syncTopics(addr string) {
	body, err := s.fetch(addr, remoting.GetAllTopicConfig)
	if err == nil {
		var w *protocol.TopicConfigSerializeWrapper
		if w, err = protocol.DecodeTopicConfigSerializeWrapper(body); err == nil {
			if s.topics.replaceFrom(w) {
				s.log.Info("Update slave topic config from master", zap.String("master", addr))
			}
			return
		}
	}
	s.log.Error("SyncTopicConfig Exception", zap.String("master", addr), zap.Error(err))
}

// syncOffsets is syncConsumerOffset.
func (s *slaveSync) syncOffsets(addr string) {
	body, err := s.fetch(addr, remoting.GetAllConsumerOffset)
	if err == nil {
		var w *protocol.ConsumerOffsetSerializeWrapper
		if w, err = protocol.DecodeConsumerOffsetSerializeWrapper(body); err == nil {
			s.offsets.mergeFrom(w, s.line.five())
			s.log.Info("Update slave consumer offset from master", zap.String("master", addr))
			return
		}
	}
	s.log.Error("SyncConsumerOffset Exception", zap.String("master", addr), zap.Error(err))
}

// syncDelayOffsets is syncDelayOffset.
func (s *slaveSync) syncDelayOffsets(addr string) {
	body, err := s.fetch(addr, remoting.GetAllDelayOffset)
	if err == nil {
		if err = s.schedule.takeFromMaster(body); err == nil {
			s.log.Info("Update slave delay offset from master", zap.String("master", addr))
			return
		}
	}
	s.log.Error("SyncDelayOffset Exception", zap.String("master", addr), zap.Error(err))
}

// syncGroups is syncSubscriptionGroupConfig.
func (s *slaveSync) syncGroups(addr string) {
	body, err := s.fetch(addr, remoting.GetAllSubscriptiongroupConfig)
	if err == nil {
		var w *protocol.SubscriptionGroupWrapper
		if w, err = protocol.DecodeSubscriptionGroupWrapper(body); err == nil {
			if s.groups.replaceFrom(w) {
				s.log.Info("Update slave Subscription Group from master", zap.String("master", addr))
			}
			return
		}
	}
	s.log.Error("SyncSubscriptionGroup Exception", zap.String("master", addr), zap.Error(err))
}

// syncRequestModes is 5.x's syncMessageRequestMode.
func (s *slaveSync) syncRequestModes(addr string) {
	body, err := s.fetch(addr, remoting.GetAllMessageRequestMode)
	if err == nil {
		var w *protocol.MessageRequestModeWrapper
		if w, err = protocol.DecodeMessageRequestModeWrapper(body); err == nil {
			s.modes.takeFromMaster(w)
			s.log.Info("Update slave Message Request Mode from master", zap.String("master", addr))
			return
		}
	}
	s.log.Error("SyncMessageRequestMode Exception", zap.String("master", addr), zap.Error(err))
}

// remoteError is a master's refusal of a sync request (Java's
// MQBrokerException).
type remoteError struct {
	code   int32
	remark string
}

func (e *remoteError) Error() string {
	return "broker: master answered code " + itoa(e.code) + ": " + e.remark
}

// replaceFrom takes the master's table and version when its version
// differs from the table's; it reports whether it did.
func (t *topicTable) replaceFrom(w *protocol.TopicConfigSerializeWrapper) bool {
	t.mu.Lock()
	if t.version == w.DataVersion {
		t.mu.Unlock()
		return false
	}
	t.version = w.DataVersion
	t.topics = make(map[string]protocol.TopicConfig, len(w.TopicConfigTable))
	attrs := newLine(t.dir.Line).hasAttributes()
	for name, tc := range w.TopicConfigTable {
		if attrs && tc.Attributes == nil {
			tc.Attributes = map[string]string{}
		}
		t.topics[name] = tc
	}
	t.mu.Unlock()
	t.persist()
	return true
}

// replaceFrom takes the master's groups and version when its version
// differs from the table's; it reports whether it did.
func (g *groupTable) replaceFrom(w *protocol.SubscriptionGroupWrapper) bool {
	g.mu.Lock()
	if g.version == w.DataVersion {
		g.mu.Unlock()
		return false
	}
	g.version = w.DataVersion
	g.groups = make(map[string]protocol.SubscriptionGroupConfig, len(w.SubscriptionGroupTable))
	for name, c := range w.SubscriptionGroupTable {
		g.groups[name] = c
	}
	g.mu.Unlock()
	g.persist()
	return true
}

// mergeFrom puts every topic@group entry of the master over the table's
// (putAll) and writes consumerOffset.json; takeVersion (5.x) also takes
// the master's version.
func (t *offsetTable) mergeFrom(w *protocol.ConsumerOffsetSerializeWrapper, takeVersion bool) {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	t.mu.Lock()
	for key, queues := range w.OffsetTable {
		t.offsets[key] = cloneQueues(queues)
	}
	if takeVersion {
		t.version = w.DataVersion
	}
	t.dirty = false
	out := &protocol.ConsumerOffsetSerializeWrapper{DataVersion: t.version, OffsetTable: cloneOffsets(t.offsets)}
	t.mu.Unlock()
	if err := t.dir.PersistConsumerOffsets(out); err != nil {
		t.log.Error("persist consumerOffset.json failed", zap.Error(err))
	}
}

// cloneQueues copies one entry's queue offsets (never nil).
func cloneQueues(q map[int32]int64) map[int32]int64 {
	out := make(map[int32]int64, len(q))
	for id, off := range q {
		out[id] = off
	}
	return out
}

// takeFromMaster writes the master's delayOffset.json text as it came and
// loads it.
func (s *scheduleService) takeFromMaster(body []byte) error {
	w, err := protocol.DecodeDelayOffsetSerializeWrapper(body)
	if err != nil {
		return err
	}
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	if err := configfile.Persist(s.dir.File(configfile.DelayOffsetFile), body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offsets, s.version, s.dirty = w.OffsetTable, w.DataVersion, false
	if s.offsets == nil {
		s.offsets = map[int32]int64{}
	}
	return nil
}
