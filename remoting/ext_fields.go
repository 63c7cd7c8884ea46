package remoting

import (
	"slices"
	"strings"
)

// ExtFields is a command's custom header: Java's HashMap<String,String>
// extFields, the fields of a header class flattened to strings. A request
// carries 5–15 of them and a handler reads each once, so they are a list
// searched in order rather than a map: decoding one is an append into a
// slice sized from the header (one allocation, no hashing), where a map
// cost an allocation of its table and a hash per insert and per lookup.
// The order is the order the fields were decoded or set, and encoders
// write them sorted by key (a stable sort). A decoder appends what it
// reads without looking for the key, so a header that repeats a key
// holds it twice; the later one counts, as in Java's map (Get and Set
// look from the end, and a Java peer reading both keeps the later).
type ExtFields []ExtField

// ExtField is one header field.
type ExtField struct {
	Key, Value string
}

// FieldsOf returns m's entries as ExtFields sorted by key; nil for a nil
// map.
func FieldsOf(m map[string]string) ExtFields {
	if m == nil {
		return nil
	}
	f := make(ExtFields, 0, len(m))
	for k, v := range m {
		f = append(f, ExtField{k, v})
	}
	f.sort()
	return f
}

// Get returns a field and whether it is present.
func (f ExtFields) Get(key string) (string, bool) {
	if i := f.index(key); i >= 0 {
		return f[i].Value, true
	}
	return "", false
}

// Set puts a field; an existing key keeps its place.
func (f *ExtFields) Set(key, value string) {
	if i := f.index(key); i >= 0 {
		(*f)[i].Value = value
		return
	}
	*f = append(*f, ExtField{key, value})
}

// index is where the last field named key is, or -1. Keys are compared
// by length and first byte before their bytes: most keys a lookup passes
// differ there (V2 headers' are single letters), and comparing those
// inline saves a call to the runtime's byte comparison for each.
func (f ExtFields) index(key string) int {
	for i := len(f) - 1; i >= 0; i-- {
		k := f[i].Key
		if len(k) == len(key) && (len(k) == 0 || k[0] == key[0] && k == key) {
			return i
		}
	}
	return -1
}

// Delete removes a field (every copy of it).
func (f *ExtFields) Delete(key string) {
	*f = slices.DeleteFunc(*f, func(e ExtField) bool { return e.Key == key })
}

// Map returns the fields as a new map (nil for nil fields), for code that
// wants one: the ACL checks, which are off the common path.
func (f ExtFields) Map() map[string]string {
	if f == nil {
		return nil
	}
	m := make(map[string]string, len(f))
	for _, e := range f {
		m[e.Key] = e.Value
	}
	return m
}

// Clone returns a copy that shares no storage with f.
func (f ExtFields) Clone() ExtFields { return slices.Clone(f) }

// sort orders the fields by key, as the encoders write them.
func (f ExtFields) sort() {
	slices.SortStableFunc(f, func(a, b ExtField) int { return strings.Compare(a.Key, b.Key) })
}

// sorted returns the fields sorted by key, in buf's storage when they fit
// (buf is a caller's stack array), leaving f as it is.
func (f ExtFields) sorted(buf []ExtField) ExtFields {
	s := ExtFields(append(buf[:0], f...))
	if !slices.IsSortedFunc(s, func(a, b ExtField) int { return strings.Compare(a.Key, b.Key) }) {
		s.sort()
	}
	return s
}
