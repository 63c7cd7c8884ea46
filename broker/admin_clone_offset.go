package broker

// CLONE_GROUP_OFFSET (314): AdminBrokerProcessor.cloneGroupOffset (mqadmin
// cloneGroupOffset).
//
// Header: srcGroup, destGroup, topic, offline. The destination group gets
// a copy of the source group's committed offsets of the topic (replacing
// its own; nothing when the source has none). Unless offline, a topic an
// online source group does not subscribe is skipped. Always SUCCESS.
//
// As in Java (4.9.x and 5.x), without a topic the loop runs over the
// source group's topics but copies the offsets of the header's (empty)
// topic, so nothing is copied.

import (
	"maps"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// cloneGroupOffset serves CLONE_GROUP_OFFSET.
func (s *offsetService) cloneGroupOffset(req *remoting.Request) *remoting.Command {
	src, dest := req.Cmd.ExtString("srcGroup"), req.Cmd.ExtString("destGroup")
	topic, offline := req.Cmd.ExtString("topic"), req.Cmd.ExtBool("offline")
	topics := []string{topic}
	if strings.TrimSpace(topic) == "" {
		topics = s.offsets.topicsOfGroup(src)
	}
	for _, t := range topics {
		if _, ok := s.topics.get(t); !ok {
			s.log.Warn("[cloneGroupOffset], topic config not exist", zap.String("topic", t))
			continue
		}
		if !offline && s.clients.skipsTopic(src, t) {
			s.log.Warn("[cloneGroupOffset], the consumer group does not subscribe the topic", zap.String("group", src), zap.String("topic", t))
			continue
		}
		s.offsets.clone(src, dest, topic)
	}
	return s.replyOK(req.Cmd)
}

// clone is ConsumerOffsetManager.cloneOffset: dest's offsets of topic
// become a copy of src's, when src has any.
func (t *offsetTable) clone(src, dest, topic string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if offsets, ok := t.offsets[offsetKey(topic, src)]; ok {
		t.offsets[offsetKey(topic, dest)] = maps.Clone(offsets)
		t.dirty = true
	}
}
