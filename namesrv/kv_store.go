package namesrv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// ErrKVConfig is returned when the KV config file cannot be read or
// written.
var ErrKVConfig = errors.New("namesrv: kv config")

// kvStore is Java's KVConfigManager: namespace -> key -> value, persisted
// after every change to path in KVConfigSerializeWrapper's shape
// (on-disk format: do not change):
//
//	{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicTest":"broker-a:4"}}}
type kvStore struct {
	path string
	log  *zap.Logger

	mu sync.RWMutex
	// table is configTable; guarded by mu, as is writing the file.
	table map[string]map[string]string
}

// openKVStore loads path; a missing file is an empty table (as for Java's
// File.exists()). A file that cannot be read or does not parse stops the
// name server, as it stops Java's.
func openKVStore(path string, log *zap.Logger) (*kvStore, error) {
	s := &kvStore{path: path, log: log, table: map[string]map[string]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKVConfig, err)
	}
	if len(data) == 0 {
		return s, nil
	}
	table, err := decodeKVFile(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s (the previous content is in %s.bak): %v", ErrKVConfig, path, path, err)
	}
	s.table = table
	log.Info("load KV config table OK", zap.String("path", path), zap.Int("namespaces", len(table)))
	return s, nil
}

// decodeKVFile reads KVConfigSerializeWrapper JSON.
func decodeKVFile(data []byte) (map[string]map[string]string, error) {
	w, err := protocol.DecodeKVConfigSerializeWrapper(data)
	if err != nil {
		return nil, err
	}
	if w.ConfigTable == nil {
		return map[string]map[string]string{}, nil
	}
	return w.ConfigTable, nil
}

// get returns a value and whether it exists.
func (s *kvStore) get(namespace, key string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.table[namespace][key]
	return v, ok
}

// list returns a copy of a namespace, nil when it does not exist.
func (s *kvStore) list(namespace string) map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ns, ok := s.table[namespace]
	if !ok {
		return nil
	}
	out := make(map[string]string, len(ns))
	for k, v := range ns {
		out[k] = v
	}
	return out
}

// put sets a value and persists the table. hasValue false is Java's null
// value: the namespace is created, the key left without a value.
func (s *kvStore) put(namespace, key, value string, hasValue bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ns := s.table[namespace]
	if ns == nil {
		ns = map[string]string{}
		s.table[namespace] = ns
		s.log.Info("putKVConfig create new Namespace", zap.String("namespace", namespace))
	}
	if hasValue {
		ns[key] = value
	} else {
		delete(ns, key)
	}
	s.log.Info("putKVConfig", zap.String("namespace", namespace), zap.String("key", key), zap.String("value", value))
	return s.persistLocked()
}

// remove deletes a key (the namespace stays, as in Java) and persists.
func (s *kvStore) remove(namespace, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ns := s.table[namespace]; ns != nil {
		delete(ns, key)
		s.log.Info("deleteKVConfig", zap.String("namespace", namespace), zap.String("key", key))
	}
	return s.persistLocked()
}

// persistLocked writes the table as MixAll.string2File does: the new
// content to path.tmp, the old content to path.bak, then path.tmp renamed
// over path (configfile.Persist, crash-safe where Java is not).
func (s *kvStore) persistLocked() error {
	w := protocol.KVConfigSerializeWrapper{ConfigTable: s.table}
	content := w.AppendJSON(nil)
	if err := configfile.Persist(s.path, content); err != nil {
		s.log.Error("persist kvconfig", zap.String("path", s.path), zap.Error(err))
		return fmt.Errorf("%w: persist %s: %v", ErrKVConfig, s.path, err)
	}
	return nil
}
