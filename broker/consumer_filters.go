package broker

// SQL92 subscriptions: ConsumerFilterManager and ExpressionMessageFilter.
//
// With enablePropertyFilter set, a consumer may subscribe with
// MessageSelector.bySql(...). CHECK_CLIENT_CONFIG compiles the expression
// when the consumer starts (SUBSCRIPTION_PARSE_FAILED with Java's
// exception text when it does not compile); each heartbeat registers the
// compiled filter of its group and topic, kept in consumerFilter.json
// (only a newer subVersion replaces one); a pull then returns only the
// messages whose properties make the expression TRUE (see
// internal/sql92). A pull that carries its own SQL92 subscription is
// filtered with it. Without enablePropertyFilter every SQL92
// subscription is refused with SYSTEM_ERROR "The broker does not support
// consumer to filter message by SQL92".
//
// Differences: Java also writes a bloom-filter bit set per group for its
// optional consume-queue bitmap (enableCalcFilterBitMap); this broker
// writes none and always filters on the properties.

import (
	"math"
	"sync"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/sql92"
	"github.com/rmqgo/rmqgo/store"
)

// bloomFilterBits is the bit count m of the BloomFilter that Java's
// ConsumerFilterManager makes from maxErrorRateOfBloomFilter (f percent)
// and expectConsumerNumUseFilter (n): ceil(n*log2(1/f)*log2(e)) rounded
// up to a multiple of 8. Its constructor sets it as the store's
// bitMapLengthConsumeQueueExt (112 with the defaults 20 and 32, which is
// what GET_BROKER_CONFIG shows), whatever the file said. ok is false for
// the f and n the Java constructor rejects.
func bloomFilterBits(f, n int32) (m int32, ok bool) {
	if f < 1 || f >= 100 || n < 1 {
		return 0, false
	}
	rate := float64(f) / 100.0
	bits := math.Ceil(float64(n) * (math.Log(1/rate) / math.Log(2)) * (math.Log(math.E) / math.Log(2)))
	return int32(8 * math.Ceil(bits/8.0)), true
}

// compiledFilter is one group's registered filter of a topic.
type compiledFilter struct {
	data protocol.ConsumerFilterData
	expr *sql92.Expr
}

// filterTable owns the registered SQL92 filters, by topic and group.
type filterTable struct {
	dir     configfile.Dir
	log     *zap.Logger
	dialect sql92.Dialect

	mu      sync.RWMutex
	filters map[string]map[string]*compiledFilter
	dirty   bool

	persistMu sync.Mutex // serialises writers of the file; taken before mu
}

// newFilterTable loads consumerFilter.json; an entry whose expression no
// longer compiles is dropped.
func newFilterTable(dir configfile.Dir, log *zap.Logger, line protocol.Line) (*filterTable, error) {
	t := &filterTable{dir: dir, log: log, dialect: sql92.Dialect4, filters: map[string]map[string]*compiledFilter{}}
	if line >= protocol.Line5 {
		t.dialect = sql92.Dialect5
	}
	w, _, err := dir.LoadConsumerFilters()
	if err != nil {
		return nil, err
	}
	for topic, byTopic := range w.FilterDataByTopic {
		for group, d := range byTopic.GroupFilterData {
			expr, err := sql92.Compile(d.Expression, t.dialect)
			if err != nil {
				log.Warn("consumerFilter.json: the expression does not compile; dropped", zap.String("topic", topic), zap.String("group", group), zap.Error(err))
				continue
			}
			t.putLocked(topic, group, &compiledFilter{data: d, expr: expr})
		}
	}
	return t, nil
}

func (t *filterTable) putLocked(topic, group string, f *compiledFilter) {
	if t.filters[topic] == nil {
		t.filters[topic] = map[string]*compiledFilter{}
	}
	t.filters[topic][group] = f
}

// compile compiles an expression of the broker's line.
func (t *filterTable) compile(expr string) (*sql92.Expr, error) {
	return sql92.Compile(expr, t.dialect)
}

// register is ConsumerFilterManager.register for one subscription of a
// heartbeat: a new filter, or one with a newer subVersion, replaces the
// group's; TAG subscriptions register nothing.
func (t *filterTable) register(group string, sub subscriptionData, now int64) {
	if sub.ExpressionType != expressionTypeSQL92 || sub.SubString == "" {
		return
	}
	t.mu.Lock()
	old := t.filters[sub.Topic][group]
	if old != nil && old.data.ClientVersion >= sub.SubVersion {
		t.mu.Unlock()
		return
	}
	if old != nil && old.data.Expression == sub.SubString {
		old.data.ClientVersion = sub.SubVersion // the same filter, a newer client
		t.dirty = true
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	expr, err := t.compile(sub.SubString)
	if err != nil {
		t.log.Error("Parse consumer filter expression failed", zap.String("group", group), zap.String("topic", sub.Topic), zap.Error(err))
		return
	}
	f := &compiledFilter{expr: expr, data: protocol.ConsumerFilterData{ConsumerGroup: group, Topic: sub.Topic,
		Expression: sub.SubString, ExpressionType: sub.ExpressionType, BornTime: now, ClientVersion: sub.SubVersion}}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.putLocked(sub.Topic, group, f)
	t.dirty = true
}

// get returns a group's filter of a topic.
func (t *filterTable) get(topic, group string) (*compiledFilter, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	f, ok := t.filters[topic][group]
	return f, ok
}

// persist writes consumerFilter.json when a filter changed.
func (t *filterTable) persist() {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	t.mu.Lock()
	if !t.dirty {
		t.mu.Unlock()
		return
	}
	t.dirty = false
	w := &protocol.ConsumerFilterWrapper{FilterDataByTopic: map[string]protocol.FilterDataMapByTopic{}}
	for topic, groups := range t.filters {
		m := protocol.FilterDataMapByTopic{Topic: topic, GroupFilterData: map[string]protocol.ConsumerFilterData{}}
		for group, f := range groups {
			m.GroupFilterData[group] = f.data
		}
		w.FilterDataByTopic[topic] = m
	}
	t.mu.Unlock()
	if err := t.dir.PersistConsumerFilters(w); err != nil {
		t.log.Error("persist consumerFilter.json failed", zap.Error(err))
	}
}

// propertyFilter is isMatchedByCommitLog: a message is wanted when the
// expression is TRUE on its properties.
func propertyFilter(expr *sql92.Expr) store.PropertyFilter {
	return func(properties []byte) bool {
		props := store.ParseProperties(string(properties))
		return expr.Match(func(name string) (string, bool) {
			v, ok := props[name]
			return v, ok
		})
	}
}
