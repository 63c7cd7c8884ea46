package conf

import (
	"reflect"
	"strconv"
	"strings"
)

// Object is one of this package's typed configs, as a pointer:
// *BrokerConfig, *MessageStoreConfig, *NettyServerConfig,
// *NettyClientConfig or *NamesrvConfig. It remembers where each bound key
// came from, for Validate's messages.
type Object interface {
	// JavaClass is the simple name of the Java class the config mirrors.
	JavaClass() string
	sources() *origins
}

// OriginOf tells where the value of key in obj came from; false when the
// value is the default (or was set by Go code).
func OriginOf(obj Object, key string) (Origin, bool) {
	return obj.sources().get(key)
}

// origins maps keys to the place their current value was read from.
type origins struct {
	m map[string]Origin
}

func (o *origins) set(key string, at Origin) {
	if o.m == nil {
		o.m = make(map[string]Origin)
	}
	o.m[key] = at
}

func (o *origins) get(key string) (Origin, bool) {
	at, ok := o.m[key]
	return at, ok
}

// javaEnum is implemented by the string types that stand for Java enums;
// the names are what Enum.valueOf accepts.
type javaEnum interface {
	javaEnumNames() []string
}

// field is one config field bound to a Java key through its `prop` tag:
//
//	prop:"key[,important][,nullable][,noset][,print=name][,print5=name][,since=5][,until=4]"
//
// key is the name properties2Object derives from the setter; print is the
// Java field name printObjectProperties shows when it differs (the field
// isEnableBatchPush has the setter setEnableBatchPush), print5 the name
// 5.3.3 shows when that differs again (5.3.3 renamed the field
// enableBatchPush); important marks @ImportantField; nullable marks a Java
// default of null, which an empty Go string stands for; noset marks a field
// without a setter (listed, never bound); since=5 marks a key Java 4.9.8
// does not have, until=4 one Java 5.3.3 does not have.
type field struct {
	key       string
	print     string
	print5    string
	index     int
	important bool
	nullable  bool
	noset     bool
	since5    bool
	until4    bool
	enum      []string
}

// fieldsOf lists the bound fields of a config struct type in declaration
// order.
func fieldsOf(t reflect.Type) []field {
	var fs []field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("prop")
		if !ok {
			continue
		}
		f := parseTag(tag)
		f.index = i
		if e, ok := reflect.Zero(sf.Type).Interface().(javaEnum); ok {
			f.enum = e.javaEnumNames()
		}
		fs = append(fs, f)
	}
	return fs
}

func parseTag(tag string) field {
	parts := strings.Split(tag, ",")
	f := field{key: parts[0], print: parts[0]}
	for _, opt := range parts[1:] {
		switch {
		case opt == "important":
			f.important = true
		case opt == "nullable":
			f.nullable = true
		case opt == "noset":
			f.noset = true
		case opt == "since=5":
			f.since5 = true
		case opt == "until=4":
			f.until4 = true
		case strings.HasPrefix(opt, "print="):
			f.print = strings.TrimPrefix(opt, "print=")
		case strings.HasPrefix(opt, "print5="):
			f.print5 = strings.TrimPrefix(opt, "print5=")
		}
	}
	if f.print5 == "" {
		f.print5 = f.print
	}
	return f
}

// structOf returns the struct value behind obj.
func structOf(obj Object) reflect.Value {
	return reflect.ValueOf(obj).Elem()
}

// formatValue renders a field as Java's String.valueOf would.
func formatValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	default:
		return v.String()
	}
}

// keyValue is one rendered config item.
type keyValue struct {
	key   string
	value string
}

// objectItems lists obj's fields as printObjectProperties does: every field,
// named by its Java field name, in declaration order; importantOnly keeps
// the @ImportantField ones.
func objectItems(obj Object, importantOnly bool) []keyValue {
	sv := structOf(obj)
	var items []keyValue
	for _, f := range fieldsOf(sv.Type()) {
		if importantOnly && !f.important {
			continue
		}
		items = append(items, keyValue{f.print, formatValue(sv.Field(f.index))})
	}
	return items
}

// objectProperties lists obj's fields as MixAll.object2Properties does:
// like objectItems, but a null field (an empty nullable string) is left out,
// and so is a field keep refuses; keep also names the field.
func objectProperties(obj Object, keep func(field) (string, bool)) []keyValue {
	sv := structOf(obj)
	var items []keyValue
	for _, f := range fieldsOf(sv.Type()) {
		v := sv.Field(f.index)
		name, ok := keep(f)
		if !ok || f.nullable && v.String() == "" {
			continue
		}
		items = append(items, keyValue{name, formatValue(v)})
	}
	return items
}
