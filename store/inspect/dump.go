package inspect

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/store"
)

// MessageLine is one line of dump.jsonl (field names and order are the
// dump format: do not change).
type MessageLine struct {
	Body                      string            `json:"body"` // base64 of the stored bytes
	BodyCRC                   int32             `json:"bodyCRC"`
	BornHost                  string            `json:"bornHost"`
	BornTimestamp             int64             `json:"bornTimestamp"`
	CommitLogOffset           int64             `json:"commitLogOffset"`
	Flag                      int32             `json:"flag"`
	InQueue                   bool              `json:"inQueue"`
	PreparedTransactionOffset int64             `json:"preparedTransactionOffset"`
	Properties                map[string]string `json:"properties"`
	QueueID                   int32             `json:"queueId"`
	QueueOffset               int64             `json:"queueOffset"`
	ReconsumeTimes            int32             `json:"reconsumeTimes"`
	StoreHost                 string            `json:"storeHost"`
	StoreSize                 int32             `json:"storeSize"`
	StoreTimestamp            int64             `json:"storeTimestamp"`
	SysFlag                   int32             `json:"sysFlag"`
	TagsCode                  int64             `json:"tagsCode"`
	Topic                     string            `json:"topic"`
}

// KeyLine is one line of keys.jsonl: what an index lookup of a key finds.
type KeyLine struct {
	Key     string  `json:"key"`
	Offsets []int64 `json:"offsets"`
	Topic   string  `json:"topic"`
}

// QueueLine is one line of queues.jsonl.
type QueueLine struct {
	MaxOffset int64  `json:"maxOffset"`
	MinOffset int64  `json:"minOffset"`
	QueueID   int32  `json:"queueId"`
	Topic     string `json:"topic"`
}

// CommitLogLine is the last line of queues.jsonl.
type CommitLogLine struct {
	CommitLogMaxOffset int64 `json:"commitLogMaxOffset"`
	CommitLogMinOffset int64 `json:"commitLogMinOffset"`
}

// messageLine converts a record.
func messageLine(r *store.Record, inQueue bool, tagsCode int64) MessageLine {
	return MessageLine{
		Body: base64.StdEncoding.EncodeToString(r.Body), BodyCRC: r.BodyCRC,
		BornHost: javaHost(r.BornHost), BornTimestamp: r.BornTimestamp,
		CommitLogOffset: r.PhysicalOffset, Flag: r.Flag, InQueue: inQueue,
		PreparedTransactionOffset: r.PreparedTransactionOffset,
		Properties:                store.ParseProperties(string(r.Properties)),
		QueueID:                   r.QueueID, QueueOffset: r.QueueOffset, ReconsumeTimes: r.ReconsumeTimes,
		StoreHost: javaHost(r.StoreHost), StoreSize: r.Size, StoreTimestamp: r.StoreTimestamp,
		SysFlag: r.SysFlag, TagsCode: tagsCode, Topic: r.Topic,
	}
}

// javaHost writes an address and port as Java's
// InetAddress.getHostAddress() + ":" + port does: IPv6 as eight
// uncompressed groups, without brackets.
func javaHost(ap netip.AddrPort) string {
	addr := ap.Addr()
	if addr.Is4() || addr.Is4In6() {
		return ap.String()
	}
	b := addr.As16()
	groups := make([]string, 8)
	for i := range groups {
		groups[i] = strconv.FormatUint(uint64(b[2*i])<<8|uint64(b[2*i+1]), 16)
	}
	return strings.Join(groups, ":") + ":" + strconv.Itoa(int(ap.Port()))
}

// sortedQueues returns the store's queues by topic (byte order) and id.
func sortedQueues(s *store.Store) []QueueLine {
	var out []QueueLine
	for topic, ids := range s.Topics() {
		for _, id := range ids {
			out = append(out, QueueLine{Topic: topic, QueueID: id,
				MinOffset: s.MinOffset(topic, id), MaxOffset: s.MaxOffset(topic, id)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Topic != out[j].Topic {
			return out[i].Topic < out[j].Topic
		}
		return out[i].QueueID < out[j].QueueID
	})
	return out
}

// DumpMessages writes dump.jsonl: every message of every consume queue
// (by topic, queue, offset), then the records no queue holds (prepared and
// rolled-back transaction records) by commitlog offset.
func DumpMessages(s *store.Store, w io.Writer) error {
	enc := newEncoder(w)
	for _, q := range sortedQueues(s) {
		err := s.WalkQueue(q.Topic, q.QueueID, func(_ int64, u store.QueueUnit) error {
			if u.Blank {
				return nil
			}
			r, err := s.LookMessage(u.CommitLogOffset)
			if err != nil {
				return err
			}
			return enc.line(messageLine(&r, true, u.TagsCode))
		})
		if err != nil {
			return err
		}
	}
	err := s.WalkCommitLog(s.CommitLogMinOffset(), func(r *store.Record) error {
		if t := r.TransactionType(); t == store.SysFlagTxPrepared || t == store.SysFlagTxRollback {
			return enc.line(messageLine(r, false, 0))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return enc.flush()
}

// DumpKeys writes keys.jsonl: for every distinct (topic, key) among the
// records' UNIQ_KEY and KEYS, the commitlog offsets the index finds.
func DumpKeys(s *store.Store, w io.Writer) error {
	type topicKey struct{ topic, key string }
	seen := map[topicKey]bool{}
	err := s.WalkCommitLog(s.CommitLogMinOffset(), func(r *store.Record) error {
		for _, k := range store.IndexKeys(r) {
			seen[topicKey{r.Topic, k}] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	keys := make([]topicKey, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].topic != keys[j].topic {
			return keys[i].topic < keys[j].topic
		}
		return keys[i].key < keys[j].key
	})
	enc := newEncoder(w)
	for _, k := range keys {
		res := s.QueryMessages(k.topic, k.key, 64, 0, 1<<63-1)
		offs := make([]int64, 0, len(res.Messages))
		for _, m := range res.Messages {
			offs = append(offs, m.CommitLogOffset)
		}
		res.Release()
		if err := enc.line(KeyLine{Key: k.key, Offsets: offs, Topic: k.topic}); err != nil {
			return err
		}
	}
	return enc.flush()
}

// DumpQueues writes queues.jsonl: every queue's bounds, then the
// commitlog's.
func DumpQueues(s *store.Store, w io.Writer) error {
	enc := newEncoder(w)
	for _, q := range sortedQueues(s) {
		if err := enc.line(q); err != nil {
			return err
		}
	}
	if err := enc.line(CommitLogLine{CommitLogMaxOffset: s.CommitLogMaxOffset(), CommitLogMinOffset: s.CommitLogMinOffset()}); err != nil {
		return err
	}
	return enc.flush()
}

// lineEncoder writes JSON lines, non-ASCII and <>& unescaped.
type lineEncoder struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

func newEncoder(w io.Writer) *lineEncoder {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &lineEncoder{bw: bw, enc: enc}
}

func (e *lineEncoder) line(v any) error { return e.enc.Encode(v) }
func (e *lineEncoder) flush() error     { return e.bw.Flush() }
