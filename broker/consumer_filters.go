package broker

// SQL92 subscriptions: ConsumerFilterManager and ExpressionMessageFilter.
//
// With enablePropertyFilter set, a consumer may subscribe with
// MessageSelector.bySql(...). CHECK_CLIENT_CONFIG compiles the expression
// when the consumer starts (SUBSCRIPTION_PARSE_FAILED with Java's
// exception text when it does not compile); each heartbeat registers the
// compiled filters of its group, kept in consumerFilter.json; a pull then
// returns only the messages whose properties make the expression TRUE
// (see internal/sql92). A pull that carries its own SQL92 subscription is
// filtered with it. Without enablePropertyFilter every SQL92
// subscription is refused with SYSTEM_ERROR "The broker does not support
// consumer to filter message by SQL92".
//
// A filter's life, as ConsumerFilterManager keeps it:
//
//   - Each heartbeat registers a group's whole subscription list. An
//     SQL92 subscription new to the group and topic adds a filter
//     (bornTime now, deadTime 0, the bloom-filter positions of
//     "group#topic", see bloom_filter.go). A newer subVersion with another
//     expression, type or bloom data replaces it (a new bornTime; one that
//     does not compile removes it); a newer one with the same keeps it and
//     takes the version. An older subVersion changes nothing; the same one
//     brings a dead filter back (deadTime 0). The group's live filters of
//     topics the heartbeat no longer subscribes die (deadTime now).
//   - When a group's last consumer goes (UNREGISTER_CLIENT, or its
//     connection closing) its live filters die. A connection dropped for
//     silence does not kill them: Java's scan removes the group without
//     the UNREGISTER event.
//   - A filter is dead when deadTime >= bornTime; a pull uses it dead or
//     alive.
//   - Before each write the filters dead for filterDataCleanTimeSpan, and
//     the topics left without one, go.
//   - On load every filter is taken as dead (a deadTime of 0 becomes
//     max(now - 30 s, bornTime)); when any filter's bloom data does not
//     fit the configured bloom filter, all of them are ignored.

import (
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/sql92"
	"github.com/rmqgo/rmqgo/store"
)

// deadBeforeLoad is how long before the load a filter loaded alive is
// taken to have died ("we think all consumers are dead when load").
const deadBeforeLoad = 30 * time.Second

// errNotSQL92 is the compile error of an expression type other than
// SQL92 (Java's FilterFactory knows no other).
var errNotSQL92 = errors.New("no filter for this expression type")

// compiledFilter is one group's registered filter of a topic. It is never
// changed in place once in the table (a pull may hold it): a change puts
// a revised copy.
type compiledFilter struct {
	data protocol.ConsumerFilterData
	expr *sql92.Expr
}

// revised returns a copy of f with change applied to its data.
func (f *compiledFilter) revised(change func(d *protocol.ConsumerFilterData)) *compiledFilter {
	c := *f
	change(&c.data)
	return &c
}

// filterTable owns the registered SQL92 filters, by topic and group.
type filterTable struct {
	dir      configfile.Dir
	settings *liveSettings
	log      *zap.Logger
	now      func() time.Time
	dialect  sql92.Dialect
	// bloom is nil when maxErrorRateOfBloomFilter or
	// expectConsumerNumUseFilter is out of range (Java's broker fails to
	// start); filters then carry no bloom data.
	bloom *bloomFilter

	mu      sync.RWMutex
	filters map[string]map[string]*compiledFilter
	dirty   bool

	persistMu sync.Mutex // serialises writers of the file; taken before mu
}

// newFilterTable builds the bloom filter from the settings and loads
// consumerFilter.json.
func newFilterTable(dir configfile.Dir, live *liveSettings, log *zap.Logger, now func() time.Time) (*filterTable, error) {
	c := live.load().Broker
	t := &filterTable{dir: dir, settings: live, log: log, now: now, dialect: newLine(dir.Line).sqlDialect(),
		filters: map[string]map[string]*compiledFilter{}}
	if bf, ok := newBloomFilter(c.MaxErrorRateOfBloomFilter, c.ExpectConsumerNumUseFilter); ok {
		t.bloom = bf
	} else {
		log.Warn("maxErrorRateOfBloomFilter or expectConsumerNumUseFilter out of range; consumer filters carry no bloom data",
			zap.Int32("maxErrorRateOfBloomFilter", c.MaxErrorRateOfBloomFilter), zap.Int32("expectConsumerNumUseFilter", c.ExpectConsumerNumUseFilter))
	}
	w, _, err := dir.LoadConsumerFilters()
	if err != nil {
		return nil, err
	}
	t.load(w)
	return t, nil
}

// load is ConsumerFilterManager.decode: all filters are ignored when one
// carries bloom data of another bloom filter; the others are taken as
// dead, and an entry whose expression no longer compiles is dropped.
func (t *filterTable) load(w *protocol.ConsumerFilterWrapper) {
	if t.bloomChanged(w) {
		t.dirty = true
		return
	}
	deadTime := t.now().Add(-deadBeforeLoad).UnixMilli()
	changed := false
	for topic, byTopic := range w.FilterDataByTopic {
		for group, d := range byTopic.GroupFilterData {
			expr, err := t.compileAs(d.ExpressionType, d.Expression)
			if err != nil {
				t.log.Warn("consumerFilter.json: the expression does not compile; dropped", zap.String("topic", topic), zap.String("group", group), zap.Error(err))
				changed = true
				continue
			}
			if d.DeadTime == 0 {
				d.DeadTime = max(deadTime, d.BornTime)
				changed = true
			}
			t.putLocked(topic, group, &compiledFilter{data: d, expr: expr})
		}
	}
	// putLocked marked it; the file is written once after a load that kept
	// filters, as Java rewrites it every 10 s: after a store handover it
	// shows what this broker made of the other's.
	t.dirty = changed || len(t.filters) > 0
}

// bloomChanged reports whether a loaded filter's bloom data does not fit
// the bloom filter (never without one), and logs it.
func (t *filterTable) bloomChanged(w *protocol.ConsumerFilterWrapper) bool {
	if t.bloom == nil {
		return false
	}
	for topic, byTopic := range w.FilterDataByTopic {
		for group, d := range byTopic.GroupFilterData {
			if !t.bloom.valid(d.BloomFilterData) {
				t.log.Info("Bloom filter is changed!So ignore all filter data persisted!", zap.String("topic", topic), zap.String("group", group),
					zap.Int32("k", t.bloom.k), zap.Int32("m", t.bloom.m), zap.Any("bloomFilterData", d.BloomFilterData))
				return true
			}
		}
	}
	return false
}

// putLocked sets a group's filter of a topic.
func (t *filterTable) putLocked(topic, group string, f *compiledFilter) {
	if t.filters[topic] == nil {
		t.filters[topic] = map[string]*compiledFilter{}
	}
	t.filters[topic][group] = f
	t.dirty = true
}

// deleteLocked removes a group's filter of a topic, and the topic when it
// was the last.
func (t *filterTable) deleteLocked(topic, group string) {
	if _, ok := t.filters[topic][group]; !ok {
		return
	}
	delete(t.filters[topic], group)
	if len(t.filters[topic]) == 0 {
		delete(t.filters, topic)
	}
	t.dirty = true
}

// compile compiles an expression of the broker's line.
func (t *filterTable) compile(expr string) (*sql92.Expr, error) {
	return sql92.Compile(expr, t.dialect)
}

// compileAs compiles an expression of a type: only SQL92 compiles.
func (t *filterTable) compileAs(typ, expr string) (*sql92.Expr, error) {
	if typ != expressionTypeSQL92 {
		return nil, errNotSQL92
	}
	return t.compile(expr)
}

// isTagType is ExpressionType.isTagType: no type or TAG.
func isTagType(typ string) bool { return typ == "" || typ == expressionTypeTag }

// register is ConsumerFilterManager.register(group, subList), for one
// consumer group of a heartbeat: each subscription is registered, then
// the group's live filters of topics it no longer subscribes die.
// A group with no SQL92 subscription and no filter (every TAG consumer)
// changes nothing and does not take the write lock that pulls wait on.
func (t *filterTable) register(group string, subs []subscriptionData) {
	if !hasSQL92(subs) && !t.hasGroup(group) {
		return
	}
	now := t.now().UnixMilli()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, sub := range subs {
		t.registerLocked(group, sub, now)
	}
	subscribed := make(map[string]bool, len(subs))
	for _, s := range subs {
		subscribed[s.Topic] = true
	}
	t.killGroupLocked(group, now, "topic no longer subscribed", func(topic string) bool { return !subscribed[topic] })
}

// hasSQL92 reports whether a subscription list has a filter to register.
func hasSQL92(subs []subscriptionData) bool {
	for _, s := range subs {
		if !isTagType(s.ExpressionType) && s.SubString != "" {
			return true
		}
	}
	return false
}

// hasGroup reports whether the group has a filter of any topic.
func (t *filterTable) hasGroup(group string) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, groups := range t.filters {
		if _, ok := groups[group]; ok {
			return true
		}
	}
	return false
}

// registerLocked is FilterDataMapByTopic.register for one subscription:
// see the package comment for the rules. TAG subscriptions and empty
// expressions register nothing.
func (t *filterTable) registerLocked(group string, sub subscriptionData, now int64) {
	if isTagType(sub.ExpressionType) || sub.SubString == "" {
		return
	}
	bloom := t.bloomData(group, sub.Topic)
	old := t.filters[sub.Topic][group]
	switch {
	case old == nil:
		if f := t.build(group, sub, bloom, now); f != nil {
			t.putLocked(sub.Topic, group, f)
			t.log.Info("New consumer filter registered", zap.String("group", group), zap.String("topic", sub.Topic), zap.String("expression", sub.SubString))
		}
	case sub.SubVersion <= old.data.ClientVersion:
		if sub.SubVersion == old.data.ClientVersion && old.data.IsDead() {
			t.reAliveLocked(sub.Topic, group, old)
		}
	case filterChanged(&old.data, sub, bloom):
		t.replaceLocked(group, sub, bloom, now)
	default:
		t.putLocked(sub.Topic, group, old.revised(func(d *protocol.ConsumerFilterData) {
			d.ClientVersion = sub.SubVersion
			if d.IsDead() {
				d.DeadTime = 0
			}
		}))
	}
}

// bloomData is the bloom data of a group's filter of a topic, that of the
// key "group#topic" (nil without a bloom filter).
func (t *filterTable) bloomData(group, topic string) *protocol.BloomFilterData {
	if t.bloom == nil {
		return nil
	}
	return t.bloom.generate(group + "#" + topic)
}

// build is ConsumerFilterManager.build: a new filter born now, nil when
// the expression does not compile.
func (t *filterTable) build(group string, sub subscriptionData, bloom *protocol.BloomFilterData, now int64) *compiledFilter {
	expr, err := t.compileAs(sub.ExpressionType, sub.SubString)
	if err != nil {
		t.log.Error("Parse consumer filter expression failed", zap.String("group", group), zap.String("topic", sub.Topic),
			zap.String("expression", sub.SubString), zap.Error(err))
		return nil
	}
	return &compiledFilter{expr: expr, data: protocol.ConsumerFilterData{ConsumerGroup: group, Topic: sub.Topic,
		Expression: sub.SubString, ExpressionType: sub.ExpressionType, BornTime: now, BloomFilterData: bloom, ClientVersion: sub.SubVersion}}
}

// filterChanged reports whether a newer subscription differs from the
// registered filter: another expression or type, or other bloom data.
func filterChanged(old *protocol.ConsumerFilterData, sub subscriptionData, bloom *protocol.BloomFilterData) bool {
	if old.Expression != sub.SubString || old.ExpressionType != sub.ExpressionType {
		return true
	}
	if old.BloomFilterData == nil {
		return bloom != nil
	}
	return !bloomDataEqual(old.BloomFilterData, bloom)
}

// replaceLocked puts a new filter in place of a changed one; when the new
// expression does not compile the old filter goes (the client reports
// the error).
func (t *filterTable) replaceLocked(group string, sub subscriptionData, bloom *protocol.BloomFilterData, now int64) {
	f := t.build(group, sub, bloom, now)
	if f == nil {
		t.deleteLocked(sub.Topic, group)
		return
	}
	t.putLocked(sub.Topic, group, f)
	t.log.Info("Consumer filter info change", zap.String("group", group), zap.String("topic", sub.Topic), zap.String("expression", sub.SubString))
}

// reAliveLocked brings a dead filter back: deadTime 0.
func (t *filterTable) reAliveLocked(topic, group string, f *compiledFilter) {
	t.log.Info("Re alive consumer filter", zap.String("group", group), zap.String("topic", topic), zap.Int64("oldDeadTime", f.data.DeadTime))
	t.putLocked(topic, group, f.revised(func(d *protocol.ConsumerFilterData) { d.DeadTime = 0 }))
}

// killLocked marks a filter dead at now.
func (t *filterTable) killLocked(topic, group string, f *compiledFilter, now int64, why string) {
	t.log.Info("Consumer filter dead", zap.String("why", why), zap.String("group", group), zap.String("topic", topic), zap.Int64("deadTime", now))
	t.putLocked(topic, group, f.revised(func(d *protocol.ConsumerFilterData) { d.DeadTime = now }))
}

// killGroupLocked makes the group's live filters of the topics that
// match die.
func (t *filterTable) killGroupLocked(group string, now int64, why string, match func(topic string) bool) {
	for topic, groups := range t.filters {
		if f, ok := groups[group]; ok && match(topic) && !f.data.IsDead() {
			t.killLocked(topic, group, f, now, why)
		}
	}
}

// unregister is ConsumerFilterManager.unRegister, run when a group's last
// consumer went: the group's live filters die.
func (t *filterTable) unregister(group string) {
	now := t.now().UnixMilli()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.killGroupLocked(group, now, "group unregistered", func(string) bool { return true })
}

// get returns a group's filter of a topic.
func (t *filterTable) get(topic, group string) (*compiledFilter, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	f, ok := t.filters[topic][group]
	return f, ok
}

// cleanLocked is ConsumerFilterManager.clean: filters dead for at least
// filterDataCleanTimeSpan go, and so do topics left without one.
func (t *filterTable) cleanLocked(now int64) {
	span := t.settings.load().Broker.FilterDataCleanTimeSpan
	for topic, groups := range t.filters {
		for group, f := range groups {
			if f.data.HowLongAfterDeath(now) >= span {
				t.log.Info("Remove filter consumer, died too long!", zap.String("group", group), zap.String("topic", topic), zap.Int64("deadTime", f.data.DeadTime))
				delete(groups, group)
				t.dirty = true
			}
		}
		if len(groups) == 0 {
			t.log.Info("Topic has no consumer, remove it!", zap.String("topic", topic))
			delete(t.filters, topic)
			t.dirty = true
		}
	}
}

// persist cleans the table and writes consumerFilter.json when it
// changed.
func (t *filterTable) persist() {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	t.mu.Lock()
	t.cleanLocked(t.now().UnixMilli())
	if !t.dirty {
		t.mu.Unlock()
		return
	}
	t.dirty = false
	w := t.wrapperLocked()
	t.mu.Unlock()
	if err := t.dir.PersistConsumerFilters(w); err != nil {
		t.log.Error("persist consumerFilter.json failed", zap.Error(err))
		t.mu.Lock()
		t.dirty = true
		t.mu.Unlock()
	}
}

// wrapperLocked is the table as the file holds it.
func (t *filterTable) wrapperLocked() *protocol.ConsumerFilterWrapper {
	w := &protocol.ConsumerFilterWrapper{FilterDataByTopic: map[string]protocol.FilterDataMapByTopic{}}
	for topic, groups := range t.filters {
		m := protocol.FilterDataMapByTopic{Topic: topic, GroupFilterData: map[string]protocol.ConsumerFilterData{}}
		for group, f := range groups {
			m.GroupFilterData[group] = f.data
		}
		w.FilterDataByTopic[topic] = m
	}
	return w
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
