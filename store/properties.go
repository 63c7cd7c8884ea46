package store

import (
	"bytes"
	"sort"
	"strings"
)

// Message properties string (on-disk format: do not change):
//
//	name \x01 value \x02 name \x01 value [\x02]
//
// 4.9.8 writes no trailing \x02, 5.x does; both read either. A pair with
// an empty name or value is dropped on reading; the last of duplicate
// names wins.
const (
	NameValueSeparator = '\x01'
	PropertySeparator  = '\x02'
)

// Property names the store reads (MessageConst).
const (
	PropertyKeys        = "KEYS"
	PropertyTags        = "TAGS"
	PropertyUniqKey     = "UNIQ_KEY"
	PropertyDelayLevel  = "DELAY"
	PropertyRealTopic   = "REAL_TOPIC"
	PropertyRealQueueID = "REAL_QID"
	PropertyWaitStore   = "WAIT"
	PropertyCluster     = "CLUSTER"
	// KeySeparator separates the words of KEYS.
	KeySeparator = " "
)

// ScheduleTopic holds delayed messages until they are due; its consume
// queue's tagsCode is the delivery time.
const ScheduleTopic = "SCHEDULE_TOPIC_XXXX"

// propertyValue finds one property in an encoded properties string
// without building a map (the dispatcher's per-message path).
func propertyValue(props []byte, name string) (string, bool) {
	var found string
	ok := false
	forEachProperty(props, func(k, v []byte) {
		if string(k) == name {
			found, ok = string(v), true
		}
	})
	return found, ok
}

// forEachProperty calls fn for every pair Java's
// string2messageProperties would keep, in order.
func forEachProperty(props []byte, fn func(k, v []byte)) {
	for len(props) > 0 {
		seg := props
		if i := bytes.IndexByte(props, PropertySeparator); i >= 0 {
			seg, props = props[:i], props[i+1:]
		} else {
			props = nil
		}
		sep := bytes.IndexByte(seg, NameValueSeparator)
		if sep > 0 && sep < len(seg)-1 {
			fn(seg[:sep], seg[sep+1:])
		}
	}
}

// ParseProperties decodes a properties string into a map.
func ParseProperties(props string) map[string]string {
	m := make(map[string]string)
	forEachProperty([]byte(props), func(k, v []byte) { m[string(k)] = string(v) })
	return m
}

// EncodeProperties encodes a map in the 4.9.8 form (no trailing
// separator), names sorted so the output is deterministic (Java writes
// HashMap order; readers do not care).
func EncodeProperties(m map[string]string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var sb strings.Builder
	for i, k := range names {
		if i > 0 {
			sb.WriteByte(PropertySeparator)
		}
		sb.WriteString(k)
		sb.WriteByte(NameValueSeparator)
		sb.WriteString(m[k])
	}
	return sb.String()
}
