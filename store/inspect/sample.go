package inspect

import (
	"bytes"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"github.com/klauspost/compress/zlib"

	"github.com/rmqgo/rmqgo/store"
)

// Sample topics: what WriteSample writes, for the proof that the Java
// broker's own store code reads a store this project wrote.
const (
	SampleTopicA = "GenTopicA" // 4 queues
	SampleTopicB = "GenTopicB" // 2 queues
	halfTopic    = "RMQ_SYS_TRANS_HALF_TOPIC"
	opHalfTopic  = "RMQ_SYS_TRANS_OP_HALF_TOPIC"
)

// WriteSample appends n messages that exercise every record shape a
// broker writes: tags, several keys, non-ASCII properties and bodies, an
// empty-ish and a producer-compressed body, IPv6 hosts, a batch, a delayed
// message in SCHEDULE_TOPIC_XXXX, a transaction's half, commit and op
// records, and a prepared record no queue holds.
func WriteSample(s *store.Store, n int) error {
	w := sampleWriter{s: s, born: time.Now().UnixMilli()}
	for i := 0; i < n; i++ {
		if err := w.put(w.plain(i)); err != nil {
			return err
		}
	}
	for _, step := range []func() error{w.compressed, w.ipv6, w.batch, w.delayed, w.transaction} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

type sampleWriter struct {
	s    *store.Store
	born int64
	seq  int
}

var (
	sampleBornHost  = netip.MustParseAddrPort("127.0.0.1:54321")
	sampleStoreHost = netip.MustParseAddrPort("127.0.0.1:10911")
)

func (w *sampleWriter) message(topic string, queueID int32, body []byte, props map[string]string) store.Message {
	w.seq++
	if _, ok := props[store.PropertyUniqKey]; !ok {
		props[store.PropertyUniqKey] = fmt.Sprintf("7F0000010000%020X", w.seq)
	}
	props[store.PropertyCluster] = "DefaultCluster"
	return store.Message{Topic: topic, QueueID: queueID, Body: body,
		Properties: store.EncodeProperties(props), BornTimestamp: w.born + int64(w.seq),
		BornHost: sampleBornHost, StoreHost: sampleStoreHost}
}

func (w *sampleWriter) put(ms ...store.Message) error {
	res := w.s.PutMessages(ms)
	if res.Status != store.PutOK {
		return fmt.Errorf("inspect: sample put of %s: %s %s", ms[0].Topic, res.Status, res.Reason)
	}
	return nil
}

// plain is message i of the main stream: topics, queues, tags, keys and
// user properties vary with i.
func (w *sampleWriter) plain(i int) store.Message {
	topic, queues := SampleTopicA, 4
	if i%3 == 2 {
		topic, queues = SampleTopicB, 2
	}
	props := map[string]string{"seq": strconv.Itoa(i), "city": []string{"Zürich", "東京", "Paris"}[i%3]}
	switch i % 4 {
	case 0:
		props[store.PropertyTags] = "TagA"
	case 1:
		props[store.PropertyTags] = "TagB"
	}
	switch i % 5 {
	case 0:
		props[store.PropertyKeys] = "key-" + strconv.Itoa(i)
	case 1:
		props[store.PropertyKeys] = fmt.Sprintf("order-%d  user-%d", i%7, i%11)
	}
	body := []byte(fmt.Sprintf("message %d — ünïcödé %s", i, bytes.Repeat([]byte{'x'}, i%300)))
	m := w.message(topic, int32(i%queues), body, props)
	m.Flag = int32(i % 3)
	return m
}

// compressed is a body the producer zlib-compressed (sysFlag bit 0).
func (w *sampleWriter) compressed() error {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	if _, err := zw.Write(bytes.Repeat([]byte("compressible body "), 600)); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	m := w.message(SampleTopicA, 0, buf.Bytes(), map[string]string{store.PropertyTags: "Big"})
	m.SysFlag = store.SysFlagCompressed
	return w.put(m)
}

// ipv6 has IPv6 born and store hosts.
func (w *sampleWriter) ipv6() error {
	m := w.message(SampleTopicB, 1, []byte("from an IPv6 producer"), map[string]string{store.PropertyKeys: "v6"})
	m.BornHost = netip.MustParseAddrPort("[2001:db8::10]:40000")
	m.StoreHost = netip.MustParseAddrPort("[2001:db8::1]:10911")
	return w.put(m)
}

// batch is ten messages stored as one batch.
func (w *sampleWriter) batch() error {
	var ms []store.Message
	for i := 0; i < 10; i++ {
		ms = append(ms, w.message(SampleTopicA, 3, []byte("batch item "+strconv.Itoa(i)),
			map[string]string{store.PropertyKeys: "batch-" + strconv.Itoa(i), store.PropertyTags: "Batch"}))
	}
	return w.put(ms...)
}

// delayed is a level-2 delayed message, as the broker rewrites it.
func (w *sampleWriter) delayed() error {
	m := w.message(store.ScheduleTopic, 1, []byte("delayed by level 2"), map[string]string{
		store.PropertyDelayLevel: "2", store.PropertyRealTopic: SampleTopicA, store.PropertyRealQueueID: "2",
		store.PropertyTags: "Later"})
	return w.put(m)
}

// transaction is a half message, its commit and its op record, and a
// prepared record that no queue holds.
func (w *sampleWriter) transaction() error {
	half := w.message(halfTopic, 0, []byte("transfer 100 from A to B"), map[string]string{
		store.PropertyRealTopic: SampleTopicB, store.PropertyRealQueueID: "0", "TRAN_MSG": "true", "PGROUP": "txGroup"})
	res := w.s.PutMessages([]store.Message{half})
	if res.Status != store.PutOK {
		return fmt.Errorf("inspect: sample half message: %s", res.Status)
	}
	commit := w.message(SampleTopicB, 0, []byte("transfer 100 from A to B"), map[string]string{"PGROUP": "txGroup"})
	commit.SysFlag = store.SysFlagTxCommit
	commit.PreparedTransactionOffset = res.WroteOffset
	op := w.message(opHalfTopic, 0, []byte(strconv.FormatInt(res.QueueOffset, 10)), map[string]string{store.PropertyTags: "d"})
	prepared := w.message(SampleTopicB, 1, []byte("an old client's prepared record"), map[string]string{"TRAN_MSG": "true"})
	prepared.SysFlag = store.SysFlagTxPrepared
	if err := w.put(commit); err != nil {
		return err
	}
	if err := w.put(op); err != nil {
		return err
	}
	return w.put(prepared)
}
