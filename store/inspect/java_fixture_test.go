package inspect

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/storeconf"
	"github.com/rmqgo/rmqgo/store"
)

// The fixtures under testdata/store/java-<version> are stores written by
// the real Java broker (compat/store-fixture.sh), with what the Java
// client sent (sent.jsonl) and what the Java broker's own
// DefaultMessageStore read back from them (dump.jsonl, keys.jsonl,
// queues.jsonl).

// sentLine is one line of sent.jsonl.
type sentLine struct {
	Kind           string            `json:"kind"`
	Topic          string            `json:"topic"`
	QueueID        int32             `json:"queueId"`
	QueueOffset    int64             `json:"queueOffset"`
	MsgID          string            `json:"msgId"`
	Tags           *string           `json:"tags"`
	Keys           *string           `json:"keys"`
	Flag           int32             `json:"flag"`
	Body           string            `json:"body"`
	UserProperties map[string]string `json:"userProperties"`
}

func javaFixtures(t *testing.T) []string {
	dirs, err := filepath.Glob("../../testdata/store/java-*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no Java store fixtures (compat/store-fixture.sh writes them)")
	return dirs
}

// fixtureOptions reads the fixture's store.properties as broker.conf keys.
func fixtureOptions(t *testing.T, dir, root string) store.Options {
	t.Helper()
	props, err := conf.LoadPropertiesFile(filepath.Join(dir, "store.properties"))
	require.NoError(t, err)
	b := conf.DefaultBrokerConfigs(conf.Env{})
	conf.Bind(props, b.Objects()...)
	b.Store.StorePathRootDir = root
	o, err := storeconf.Options(b.Store, strings.Contains(dir, "java-5"))
	require.NoError(t, err)
	return o
}

func readLines[T any](t *testing.T, r io.Reader) []T {
	t.Helper()
	var out []T
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), sc.Text())
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

func readFileLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	return readLines[T](t, f)
}

func dumpLines[T any](t *testing.T, s *store.Store, dump func(*store.Store, io.Writer) error) []T {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, dump(s, &buf))
	return readLines[T](t, &buf)
}

// TestReadsJavaStores: this store reads every message, queue unit and
// index entry of a store the Java broker wrote exactly as the Java
// broker's own store code reads them.
func TestReadsJavaStores(t *testing.T) {
	for _, dir := range javaFixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			o := fixtureOptions(t, dir, filepath.Join(dir, "store"))
			s := openReadOnly(t, o)
			msgs := dumpLines[MessageLine](t, s, DumpMessages)
			assert.Equal(t, readFileLines[MessageLine](t, filepath.Join(dir, "dump.jsonl")), msgs)
			assert.Equal(t, readFileLines[KeyLine](t, filepath.Join(dir, "keys.jsonl")), dumpLines[KeyLine](t, s, DumpKeys))
			assert.Equal(t, nonEmptyQueues(readFileLines[json.RawMessage](t, filepath.Join(dir, "queues.jsonl"))),
				nonEmptyQueues(dumpLines[json.RawMessage](t, s, DumpQueues)))
			rep, err := Verify(s, true)
			require.NoError(t, err)
			assert.True(t, rep.OK(), "%v", rep.Problems)
			sent := readFileLines[sentLine](t, filepath.Join(dir, "sent.jsonl"))
			checkSent(t, sent, msgs)
			t.Logf("%s: %d records (%d queued) read as Java reads them, %d queues, %d keys found in the index, %d sent messages intact",
				filepath.Base(dir), rep.Records, rep.QueuedRecords, rep.Queues, rep.IndexedKeys, len(sent))
		})
	}
}

// nonEmptyQueues drops the queues without messages (the Java store
// creates the 18 schedule queues in memory, with no files) and returns
// the lines as text, for a readable diff.
func nonEmptyQueues(lines []json.RawMessage) []string {
	var out []string
	for _, l := range lines {
		if !strings.Contains(string(l), `"maxOffset":0,`) {
			out = append(out, string(l))
		}
	}
	return out
}

// checkSent finds every message the Java client had accepted, intact,
// in its own topic; and no rolled-back one. Messages are found by their
// UNIQ_KEY, except batch items: the 5.x client gives a batch a UNIQ_KEY of
// its own that the broker appends to every item's properties, and the
// last value wins on reading, so those are found by queue and offset.
func checkSent(t *testing.T, sent []sentLine, dump []MessageLine) {
	t.Helper()
	byKey := map[string]MessageLine{}
	byPos := map[string]MessageLine{}
	for _, m := range dump {
		if m.InQueue {
			byKey[m.Topic+"#"+m.Properties[store.PropertyUniqKey]] = m
			byPos[fmt.Sprintf("%s/%d@%d", m.Topic, m.QueueID, m.QueueOffset)] = m
		}
	}
	for _, s := range sent {
		m, found := byKey[s.Topic+"#"+s.MsgID]
		if s.Kind == "batch" {
			m, found = byPos[fmt.Sprintf("%s/%d@%d", s.Topic, s.QueueID, s.QueueOffset)]
		}
		if strings.Contains(s.Kind, "rollback") {
			assert.False(t, found, "rolled-back %s delivered", s.MsgID)
			continue
		}
		require.True(t, found, "%s message %s of %s", s.Kind, s.MsgID, s.Topic)
		assert.Equal(t, s.Body, base64.StdEncoding.EncodeToString(storedBody(t, m)), s.MsgID)
		assert.Equal(t, s.Flag, m.Flag)
		for k, v := range s.UserProperties {
			assert.Equal(t, v, m.Properties[k], "%s property %s", s.MsgID, k)
		}
		if s.Tags != nil {
			assert.Equal(t, *s.Tags, m.Properties[store.PropertyTags])
			assert.Equal(t, store.TagsCode(*s.Tags), m.TagsCode)
		}
		if s.Keys != nil {
			assert.Equal(t, *s.Keys, m.Properties[store.PropertyKeys])
		}
	}
}

// storedBody is a dumped body, inflated when the producer compressed it.
func storedBody(t *testing.T, m MessageLine) []byte {
	t.Helper()
	body, err := base64.StdEncoding.DecodeString(m.Body)
	require.NoError(t, err)
	if m.SysFlag&store.SysFlagCompressed == 0 {
		return body
	}
	zr, err := zlib.NewReader(bytes.NewReader(body))
	require.NoError(t, err)
	out, err := io.ReadAll(zr)
	require.NoError(t, err)
	return out
}

// TestStartsOnJavaStores: a Java broker's store directory is recovered,
// verified and appended to, with queue offsets continuing where the Java
// broker left them, and opens again after a clean stop.
func TestStartsOnJavaStores(t *testing.T) {
	for _, dir := range javaFixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "store")
			require.NoError(t, exec.Command("cp", "-a", filepath.Join(dir, "store"), root).Run())
			o := fixtureOptions(t, dir, root)
			s, err := store.Open(o, zaptest.NewLogger(t))
			require.NoError(t, err)
			require.True(t, s.LastExitOK(), "the fixture was stopped cleanly")
			require.NoError(t, s.Start())
			topic := "StoreTopicA"
			before := s.MaxOffset(topic, 0)
			require.Positive(t, before)
			m := store.Message{Topic: topic, Body: []byte("appended by rmqgo"), Properties: "KEYS\x01rmqgo-1",
				BornHost: sampleBornHost, StoreHost: sampleStoreHost}
			res := s.PutMessage(&m)
			require.Equal(t, store.PutOK, res.Status, res.Reason)
			assert.Equal(t, before, res.QueueOffset)
			require.NoError(t, s.WaitDispatched(t.Context()))
			require.NoError(t, s.Close())

			s2 := openReadOnly(t, o)
			rep, err := Verify(s2, true)
			require.NoError(t, err)
			assert.True(t, rep.OK(), "%v", rep.Problems)
			assert.Equal(t, before+1, s2.MaxOffset(topic, 0))
			assert.Len(t, s2.IndexedOffsets(topic, "rmqgo-1", 4, 0, 1<<62), 1)
		})
	}
}
