package configfile

import (
	"fmt"
	"path/filepath"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// Names of the files in the config directory (on-disk names: do not
// change).
const (
	TopicsFile            = "topics.json"
	ConsumerOffsetFile    = "consumerOffset.json"
	DelayOffsetFile       = "delayOffset.json"
	SubscriptionGroupFile = "subscriptionGroup.json"
	ConsumerFilterFile    = "consumerFilter.json"
	// MessageRequestModeFile is 5.x's (MessageRequestModeManager).
	MessageRequestModeFile = "messageRequestMode.json"
	// ConsumerOrderInfoFile is 5.x's (ConsumerOrderInfoManager).
	ConsumerOrderInfoFile = "consumerOrderInfo.json"
)

// Dir is a store's config directory, ${storePathRootDir}/config, and the
// release line whose field set its Persist methods write. Loading reads
// either line's files.
type Dir struct {
	// Path is the config directory; Persist creates it when missing.
	Path string
	// Line selects the 4.x or 5.x shapes written.
	Line protocol.Line
}

// File returns the path of the file name in the directory.
func (d Dir) File(name string) string { return filepath.Join(d.Path, name) }

// Encode returns the file content Persist writes for a document: the
// compact form of d.Line in fastjson's PrettyFormat, lists naming the
// document's java.util.List properties (fastjson.PrettyLists).
func (d Dir) Encode(appendJSON func(dst []byte, line protocol.Line) []byte, lists ...string) ([]byte, error) {
	compact := appendJSON(make([]byte, 0, 4096), d.Line)
	pretty, err := fastjson.PrettyLists(make([]byte, 0, len(compact)+len(compact)/2), compact, lists...)
	if err != nil {
		return nil, fmt.Errorf("%w: encode: %w", ErrPersist, err)
	}
	return pretty, nil
}

// persistDoc encodes and persists one document.
func (d Dir) persistDoc(name string, appendJSON func(dst []byte, line protocol.Line) []byte, lists ...string) error {
	content, err := d.Encode(appendJSON, lists...)
	if err != nil {
		return err
	}
	return Persist(d.File(name), content)
}

// loadDoc loads one document with decode, or returns empty() when there
// is none.
func loadDoc[T any](d Dir, name string, decode func([]byte) (T, error), empty func() T) (T, Result, error) {
	var doc T
	res, err := Load(d.File(name), func(data []byte) (err error) {
		doc, err = decode(data)
		return err
	})
	if err != nil {
		var zero T
		return zero, res, err
	}
	if res.Source == SourceNone {
		doc = empty()
	}
	return doc, res, nil
}

// LoadTopics loads topics.json. An absent file gives an empty table with
// a zero DataVersion (Java's would be stamped now), and without the
// built-in topics Java merges in.
func (d Dir) LoadTopics() (*protocol.TopicConfigSerializeWrapper, Result, error) {
	return loadDoc(d, TopicsFile, protocol.DecodeTopicConfigSerializeWrapper,
		func() *protocol.TopicConfigSerializeWrapper {
			return &protocol.TopicConfigSerializeWrapper{TopicConfigTable: map[string]protocol.TopicConfig{}}
		})
}

// PersistTopics writes topics.json.
func (d Dir) PersistTopics(w *protocol.TopicConfigSerializeWrapper) error {
	return d.persistDoc(TopicsFile, w.AppendJSONLine)
}

// LoadConsumerOffsets loads consumerOffset.json.
func (d Dir) LoadConsumerOffsets() (*protocol.ConsumerOffsetSerializeWrapper, Result, error) {
	return loadDoc(d, ConsumerOffsetFile, protocol.DecodeConsumerOffsetSerializeWrapper,
		func() *protocol.ConsumerOffsetSerializeWrapper {
			return &protocol.ConsumerOffsetSerializeWrapper{OffsetTable: map[string]map[int32]int64{}}
		})
}

// PersistConsumerOffsets writes consumerOffset.json.
func (d Dir) PersistConsumerOffsets(w *protocol.ConsumerOffsetSerializeWrapper) error {
	return d.persistDoc(ConsumerOffsetFile, w.AppendJSON)
}

// LoadDelayOffsets loads delayOffset.json.
func (d Dir) LoadDelayOffsets() (*protocol.DelayOffsetSerializeWrapper, Result, error) {
	return loadDoc(d, DelayOffsetFile, protocol.DecodeDelayOffsetSerializeWrapper,
		func() *protocol.DelayOffsetSerializeWrapper {
			return &protocol.DelayOffsetSerializeWrapper{OffsetTable: map[int32]int64{}}
		})
}

// PersistDelayOffsets writes delayOffset.json.
func (d Dir) PersistDelayOffsets(w *protocol.DelayOffsetSerializeWrapper) error {
	return d.persistDoc(DelayOffsetFile, w.AppendJSON)
}

// LoadSubscriptionGroups loads subscriptionGroup.json. An absent file
// gives an empty table, without the built-in groups Java merges in.
func (d Dir) LoadSubscriptionGroups() (*protocol.SubscriptionGroupWrapper, Result, error) {
	return loadDoc(d, SubscriptionGroupFile, protocol.DecodeSubscriptionGroupWrapper,
		func() *protocol.SubscriptionGroupWrapper {
			return &protocol.SubscriptionGroupWrapper{SubscriptionGroupTable: map[string]protocol.SubscriptionGroupConfig{}}
		})
}

// PersistSubscriptionGroups writes subscriptionGroup.json.
func (d Dir) PersistSubscriptionGroups(w *protocol.SubscriptionGroupWrapper) error {
	return d.persistDoc(SubscriptionGroupFile, w.AppendJSON)
}

// LoadConsumerFilters loads consumerFilter.json. Java's extra checks
// (entries marked dead on load, the file ignored when the bloom filter
// parameters changed) are the owner's.
func (d Dir) LoadConsumerFilters() (*protocol.ConsumerFilterWrapper, Result, error) {
	return loadDoc(d, ConsumerFilterFile, protocol.DecodeConsumerFilterWrapper,
		func() *protocol.ConsumerFilterWrapper {
			return &protocol.ConsumerFilterWrapper{FilterDataByTopic: map[string]protocol.FilterDataMapByTopic{}}
		})
}

// PersistConsumerFilters writes consumerFilter.json. Java drops entries
// dead for longer than filterDataCleanTimeSpan before writing; that is
// the owner's.
func (d Dir) PersistConsumerFilters(w *protocol.ConsumerFilterWrapper) error {
	return d.persistDoc(ConsumerFilterFile, w.AppendJSON)
}

// LoadMessageRequestModes loads messageRequestMode.json (5.x); an absent
// file gives an empty table.
func (d Dir) LoadMessageRequestModes() (*protocol.MessageRequestModeWrapper, Result, error) {
	return loadDoc(d, MessageRequestModeFile, protocol.DecodeMessageRequestModeWrapper,
		func() *protocol.MessageRequestModeWrapper {
			return &protocol.MessageRequestModeWrapper{Modes: map[string]map[string]protocol.SetMessageRequestModeRequestBody{}}
		})
}

// PersistMessageRequestModes writes messageRequestMode.json.
func (d Dir) PersistMessageRequestModes(w *protocol.MessageRequestModeWrapper) error {
	return d.persistDoc(MessageRequestModeFile, w.AppendJSON)
}

// LoadConsumerOrderInfo loads consumerOrderInfo.json (5.x); an absent
// file gives an empty table.
func (d Dir) LoadConsumerOrderInfo() (*protocol.ConsumerOrderInfoWrapper, Result, error) {
	return loadDoc(d, ConsumerOrderInfoFile, protocol.DecodeConsumerOrderInfoWrapper,
		func() *protocol.ConsumerOrderInfoWrapper {
			return &protocol.ConsumerOrderInfoWrapper{Table: map[string]map[int32]*protocol.OrderInfo{}}
		})
}

// PersistConsumerOrderInfo writes consumerOrderInfo.json. Java drops
// stale entries before writing (ConsumerOrderInfoManager.autoClean); that
// is the owner's.
func (d Dir) PersistConsumerOrderInfo(w *protocol.ConsumerOrderInfoWrapper) error {
	return d.persistDoc(ConsumerOrderInfoFile, w.AppendJSON, protocol.OrderInfoLists...)
}
