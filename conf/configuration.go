package conf

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// Configuration mirrors Java's org.apache.rocketmq.common.Configuration, the
// object behind GET_BROKER_CONFIG / UPDATE_BROKER_CONFIG and their name
// server twins: the registered configs, the entries of the -c file that no
// config holds (Java keeps those too and writes them back), the file Persist
// rewrites and a data version that Update advances.
//
// Update writes the registered structs under Configuration's lock; code
// that reads their fields while an update may run should do so inside View.
type Configuration struct {
	mu      sync.RWMutex
	objs    []Object
	extra   *Properties
	setKeys map[string]bool // the keys the file or an update set
	listing listing
	// sorted lists and writes the items sorted by key, as the controller's
	// MixAll.properties2String(props, true) does.
	sorted    bool
	storePath string
	now       func() time.Time
	version   protocol.DataVersion
}

// listing is the key set a Configuration lists and writes back.
type listing int

const (
	// listEveryField lists every field (the name server's Configuration).
	listEveryField listing = iota
	// listJava4 lists a 4.9.8 broker's keys: not the 5.x keys rmqgo also
	// reads (since=5) unless they were set.
	listJava4
	// listJava5 lists a 5.3.3 broker's keys: not the 4.x keys 5.3.3 no
	// longer has (until=4) unless they were set, by 5.3.3's field names
	// (print5), and with 5.3.3's keys that rmqgo has no field for, at
	// their defaults unless set.
	listJava5
)

// NewConfiguration registers objs (in the order they are listed and
// printed) with the entries of file (may be nil) that none of them has a
// field for; Persist writes to storePath ("" disables it).
func NewConfiguration(storePath string, file *Properties, objs ...Object) *Configuration {
	return newConfiguration(listEveryField, storePath, file, objs...)
}

// NewSortedConfiguration is NewConfiguration listing and writing its items
// sorted by key (the controller's GET_CONTROLLER_CONFIG and its file).
func NewSortedConfiguration(storePath string, file *Properties, objs ...Object) *Configuration {
	c := newConfiguration(listEveryField, storePath, file, objs...)
	c.sorted = true
	return c
}

func newConfiguration(l listing, storePath string, file *Properties, objs ...Object) *Configuration {
	c := &Configuration{objs: objs, extra: NewProperties(), setKeys: make(map[string]bool), listing: l, storePath: storePath, now: time.Now}
	names := make(map[string]bool)
	for _, obj := range objs {
		for _, f := range fieldsOf(structOf(obj).Type()) {
			names[f.print] = true
			names[f.print5] = true
		}
	}
	for _, e := range file.Entries() {
		c.setKeys[e.Key] = true
		if !names[e.Key] {
			c.extra.Set(e)
		}
	}
	if l == listJava5 {
		c.addJavaFiveDefaults()
	}
	c.version = protocol.NewDataVersion(c.now())
	return c
}

// addJavaFiveDefaults makes the listed 5.3.3 keys that rmqgo has no field
// for extra entries at their defaults, unless the file set them.
func (c *Configuration) addJavaFiveDefaults() {
	for _, obj := range c.objs {
		for _, k := range javaFiveKeys(obj.JavaClass()) {
			if _, set := c.extra.Get(k.name); k.listed && !set {
				c.extra.Set(Entry{Key: k.name, Value: k.value})
			}
		}
	}
}

// StorePath is the file Persist writes.
func (c *Configuration) StorePath() string { return c.storePath }

// Version returns the current data version, sent as the "version" header
// of GET_BROKER_CONFIG / GET_NAMESRV_CONFIG.
func (c *Configuration) Version() protocol.DataVersion {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.version
}

// View runs fn while no Update can change the registered configs.
func (c *Configuration) View(fn func()) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	fn()
}

// Change runs fn, which sets fields of the registered configs, while
// nothing reads them: a server changing its own values as Java's setters
// do (a controller-mode broker's brokerId and brokerRole). Nothing is
// persisted and the data version stays.
func (c *Configuration) Change(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fn()
}

// PropertiesString is Configuration.getAllConfigsFormatString(): one
// "key=value\n" line for every non-null field of every registered config
// (a key two configs share appears once, with the later config's value),
// then the extra entries of the file with their raw values. Java prints
// them in Hashtable order; here the order is the configs' declaration order
// and then the file's, and the body parses to the same properties. A
// broker's Configuration lists the key set of its Java line (see
// BrokerConfigs.NewConfiguration); Java lists a file's keys that no config
// has (e.g. bindAddress), and so does this.
func (c *Configuration) PropertiesString() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var b strings.Builder
	for _, kv := range c.itemsLocked() {
		b.WriteString(kv.key)
		b.WriteByte('=')
		b.WriteString(kv.value)
		b.WriteByte('\n')
	}
	return b.String()
}

// keepField tells whether the listing has f, and by which name.
func (c *Configuration) keepField(f field) (string, bool) {
	switch c.listing {
	case listJava4:
		return f.print, !f.since5 || c.setKeys[f.key]
	case listJava5:
		return f.print5, !f.until4 || c.setKeys[f.key]
	}
	return f.print, true
}

// itemsLocked merges the configs' properties and the extra entries.
func (c *Configuration) itemsLocked() []keyValue {
	var items []keyValue
	pos := make(map[string]int)
	add := func(kv keyValue) {
		if i, ok := pos[kv.key]; ok {
			items[i] = kv
			return
		}
		pos[kv.key] = len(items)
		items = append(items, kv)
	}
	for _, obj := range c.objs {
		for _, kv := range objectProperties(obj, c.keepField) {
			add(kv)
		}
	}
	for _, e := range c.extra.Entries() {
		if _, ok := pos[e.Key]; !ok {
			add(keyValue{e.Key, e.Value})
		}
	}
	if c.sorted {
		slices.SortFunc(items, func(a, b keyValue) int { return strings.Compare(a.key, b.key) })
	}
	return items
}

// Update applies values the way UPDATE_BROKER_CONFIG / UPDATE_NAMESRV_CONFIG
// do (Configuration.update): every registered config takes the keys it has
// a field for, with Bind's rules; a key that is only an extra entry of the
// file replaces that entry's value; any other key is ignored (and warned
// about). The data version advances and, when there is a store path, the
// file is rewritten. Checking the request against configBlackList is the
// handler's job (see BrokerConfig.Blacklist). The warnings name the source
// "update".
func (c *Configuration) Update(values map[string]string) ([]Warning, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	props := PropertiesFromMap(values, updateSource)
	var ws []Warning
	for _, w := range Bind(props, c.objs...) {
		if _, isExtra := c.extra.Get(w.Key); !isExtra {
			ws = append(ws, w)
		}
	}
	for _, e := range props.Entries() {
		c.setKeys[e.Key] = true
		if _, ok := c.extra.Get(e.Key); ok {
			c.extra.Set(e)
		}
	}
	c.version.Next(c.now(), 0)
	if c.storePath == "" {
		return ws, nil
	}
	return ws, writePropertiesFile(c.storePath, c.itemsLocked())
}

// Persist rewrites the store path with every config item (Java's
// Configuration.persist, called at the end of Update).
func (c *Configuration) Persist() error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.storePath == "" {
		return nil
	}
	return writePropertiesFile(c.storePath, c.itemsLocked())
}

// updateSource names values that came from an update request.
const updateSource = "update"
