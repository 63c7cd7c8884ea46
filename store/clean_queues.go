package store

// Manual clean-ups of consume queues, as DefaultMessageStore's
// cleanUnusedTopic and cleanExpiredConsumerQueue (the admin codes
// CLEAN_UNUSED_TOPIC and CLEAN_EXPIRED_CONSUMEQUEUE). A destroyed queue's
// files are deleted, it leaves the table and its next queue offset is
// forgotten; a reader still holding one of its files keeps its mapping.

import (
	"errors"

	"go.uber.org/zap"
)

// CleanUnusedTopics destroys the consume queues of every topic keep
// rejects, and returns those topics. The caller keeps the system topics
// Java keeps (SCHEDULE_TOPIC_XXXX, the transaction op topic, LMQ queues).
func (s *Store) CleanUnusedTopics(keep func(topic string) bool) ([]string, error) {
	var removed []string
	var errs []error
	for topic := range s.Topics() {
		if keep(topic) {
			continue
		}
		for _, cq := range s.cqs.remove(topic) {
			errs = append(errs, s.destroyQueue(cq))
		}
		s.log.Info("cleanUnusedTopic: topic destroyed", zap.String("topic", topic))
		removed = append(removed, topic)
	}
	return removed, errors.Join(errs...)
}

// CleanExpiredConsumeQueues destroys every queue (but the delay levels')
// whose last unit points below the commitlog's first byte; a queue with
// no unit is kept.
func (s *Store) CleanExpiredConsumeQueues() error {
	minPhy := s.CommitLogMinOffset()
	var errs []error
	for _, cq := range s.cqs.all() {
		if cq.topic == ScheduleTopic {
			continue
		}
		u, ok := cq.lastUnit()
		if !ok || u.offset+int64(u.size) >= minPhy {
			continue
		}
		s.log.Info("cleanExpiredConsumerQueue: consume queue destroyed", zap.String("topic", cq.topic),
			zap.Int32("queueId", cq.queueID), zap.Int64("minCommitLogOffset", minPhy))
		if s.cqs.removeQueue(cq) {
			errs = append(errs, s.destroyQueue(cq))
		}
	}
	return errors.Join(errs...)
}

// destroyQueue deletes a queue's files and forgets its next offset.
func (s *Store) destroyQueue(cq *consumeQueue) error {
	s.cl.removeQueueOffsets(cq.topic, []int32{cq.queueID})
	return cq.files.destroyAll()
}

// removeQueue drops one queue (and its topic when it was the last) from
// the table; false when it was no longer there.
func (t *cqTable) removeQueue(cq *consumeQueue) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	byID := t.queues[cq.topic]
	if byID[cq.queueID] != cq {
		return false
	}
	delete(byID, cq.queueID)
	if len(byID) == 0 {
		delete(t.queues, cq.topic)
	}
	return true
}
