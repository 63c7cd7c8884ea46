package broker

import (
	"maps"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// Built-in consumer groups (MixAll), wire values: do not change.
const (
	GroupTools        = "TOOLS_CONSUMER"
	GroupFilterServer = "FILTERSRV_CONSUMER"
	GroupSelfTest     = "SELF_TEST_C_GROUP"
	GroupOnsHTTPProxy = "CID_ONS-HTTP-PROXY"
	GroupOnsAPIPull   = "CID_ONSAPI_PULL"
	GroupOnsAPIPerm   = "CID_ONSAPI_PERMISSION"
	GroupOnsAPIOwner  = "CID_ONSAPI_OWNER"
	// GroupSysTrans (5.x) is the transaction check's own group,
	// MixAll.CID_SYS_RMQ_TRANS.
	GroupSysTrans       = "CID_RMQ_SYS_TRANS"
	sysConsumerGroupPfx = "CID_RMQ_SYS_"
)

// groupTable is SubscriptionGroupManager: the consumer groups' settings,
// persisted to subscriptionGroup.json on every change.
type groupTable struct {
	dir        configfile.Dir
	log        *zap.Logger
	now        func() time.Time
	autoCreate bool

	mu        sync.RWMutex
	groups    map[string]protocol.SubscriptionGroupConfig
	forbidden map[string]map[string]int32
	version   protocol.DataVersion

	// persistMu serialises writers of the file, taken without mu held.
	persistMu sync.Mutex
}

// newGroupTable builds the built-in groups and loads
// subscriptionGroup.json over them.
func newGroupTable(dir configfile.Dir, autoCreate bool, log *zap.Logger, now func() time.Time) (*groupTable, error) {
	g := &groupTable{dir: dir, log: log, now: now, autoCreate: autoCreate, groups: map[string]protocol.SubscriptionGroupConfig{}}
	g.version = protocol.NewDataVersion(now())
	for _, name := range []string{GroupTools, GroupFilterServer, GroupSelfTest} {
		g.groups[name] = protocol.NewSubscriptionGroupConfig(name)
	}
	broadcast := []string{GroupOnsHTTPProxy, GroupOnsAPIPull, GroupOnsAPIPerm, GroupOnsAPIOwner}
	if newLine(dir.Line).hasSysTransGroup() {
		broadcast = append(broadcast, GroupSysTrans)
	}
	for _, name := range broadcast {
		c := protocol.NewSubscriptionGroupConfig(name)
		c.ConsumeBroadcastEnable = true
		g.groups[name] = c
	}
	w, res, err := dir.LoadSubscriptionGroups()
	if err != nil {
		return nil, err
	}
	if res.Fallback != nil {
		log.Warn("load subscriptionGroup.json failed, and try to load backup file", zap.Error(res.Fallback))
	}
	if res.Source != configfile.SourceNone {
		maps.Copy(g.groups, w.SubscriptionGroupTable)
		g.version, g.forbidden = w.DataVersion, w.ForbiddenTable
	}
	return g, nil
}

// find is findSubscriptionGroupConfig: the group's config, created with
// the defaults when autoCreateSubscriptionGroup is set or the group is a
// system group.
func (g *groupTable) find(group string) (protocol.SubscriptionGroupConfig, bool) {
	g.mu.RLock()
	c, ok := g.groups[group]
	g.mu.RUnlock()
	if ok || !(g.autoCreate || strings.HasPrefix(group, sysConsumerGroupPfx)) {
		return c, ok
	}
	g.mu.Lock()
	if c, ok := g.groups[group]; ok {
		g.mu.Unlock()
		return c, true
	}
	c = protocol.NewSubscriptionGroupConfig(group)
	g.groups[group] = c
	g.log.Info("auto create a subscription group", zap.String("group", group))
	g.version.Next(g.now(), 0)
	g.mu.Unlock()
	g.persist()
	return c, true
}

// get returns a group's config without creating it.
func (g *groupTable) get(group string) (protocol.SubscriptionGroupConfig, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	c, ok := g.groups[group]
	return c, ok
}

// put adds or replaces groups in turn, moving the data version once for
// each, and persists once; no group, no write.
func (g *groupTable) put(cs ...protocol.SubscriptionGroupConfig) {
	if len(cs) == 0 {
		return
	}
	g.mu.Lock()
	for _, c := range cs {
		g.groups[c.GroupName] = c
		g.version.Next(g.now(), 0)
	}
	g.mu.Unlock()
	g.persist()
}

// remove deletes a group and (5.x) its forbidden entries; it reports
// whether the group existed.
func (g *groupTable) remove(group string) bool {
	g.mu.Lock()
	delete(g.forbidden, group)
	if _, ok := g.groups[group]; !ok {
		g.mu.Unlock()
		return false
	}
	delete(g.groups, group)
	g.version.Next(g.now(), 0)
	g.mu.Unlock()
	g.persist()
	return true
}

// snapshot returns a copy of the table and its version.
func (g *groupTable) snapshot() (map[string]protocol.SubscriptionGroupConfig, protocol.DataVersion) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return maps.Clone(g.groups), g.version
}

// persist writes subscriptionGroup.json from a snapshot; a failure is
// logged.
func (g *groupTable) persist() {
	g.persistMu.Lock()
	defer g.persistMu.Unlock()
	g.mu.RLock()
	w := &protocol.SubscriptionGroupWrapper{DataVersion: g.version, SubscriptionGroupTable: maps.Clone(g.groups), ForbiddenTable: g.forbidden}
	g.mu.RUnlock()
	if err := g.dir.PersistSubscriptionGroups(w); err != nil {
		g.log.Error("persist subscriptionGroup.json failed", zap.Error(err))
	}
}

// wrapper returns a copy of the whole table as subscriptionGroup.json
// holds it (GET_ALL_SUBSCRIPTIONGROUP_CONFIG).
func (g *groupTable) wrapper() *protocol.SubscriptionGroupWrapper {
	g.mu.RLock()
	defer g.mu.RUnlock()
	forbidden := make(map[string]map[string]int32, len(g.forbidden))
	for group, topics := range g.forbidden {
		forbidden[group] = maps.Clone(topics)
	}
	return &protocol.SubscriptionGroupWrapper{DataVersion: g.version, SubscriptionGroupTable: maps.Clone(g.groups), ForbiddenTable: forbidden}
}
