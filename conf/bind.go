package conf

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Warning is something Java's MixAll.properties2Object would have ignored
// without a word: a key no config has, a value that does not parse (the
// default is kept), a boolean that silently reads as false.
type Warning struct {
	File    string
	Line    int
	Key     string
	Message string
}

// String renders "file:line: key: message" (the place left out when the
// value did not come from a file).
func (w Warning) String() string {
	if at := (Origin{File: w.File, Line: w.Line}).String(); at != "" {
		return fmt.Sprintf("%s: %s: %s", at, w.Key, w.Message)
	}
	return fmt.Sprintf("%s: %s", w.Key, w.Message)
}

// Bind applies props to objs the way the Java startups call
// MixAll.properties2Object(props, obj) for each obj in turn: every obj takes
// every key it has a field for, so a key two configs share
// (writeBufferHighWaterMark) sets both. Values are converted as Java does:
//
//   - strings are trimmed (String.trim, as 5.x does; 4.9.8 kept the blanks);
//   - int and long fields take Integer.parseInt / Long.parseLong of the raw
//     value: an optional sign and decimal digits, in range, nothing else, so
//     "10 " and "1024*1024*10" fail;
//   - booleans take Boolean.parseBoolean of the raw value, which never fails:
//     anything but "true" in any case, "true " included, is false;
//   - enums (brokerRole, flushDiskType) must name a constant exactly.
//
// A value that fails leaves the field as it was, as in Java. Unlike Java,
// Bind reports each ignored key or value as a Warning; a key counts as known
// when any of objs has it. The warnings are sorted by file and line.
func Bind(props *Properties, objs ...Object) []Warning {
	var ws []Warning
	known := make(map[string]bool)
	for _, obj := range objs {
		ws = append(ws, bindObject(props, obj, known)...)
	}
	ws = append(ws, unknownKeys(props, objs, known)...)
	ws = dedupe(ws)
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].File != ws[j].File {
			return ws[i].File < ws[j].File
		}
		return ws[i].Line < ws[j].Line
	})
	return ws
}

// bindObject applies props to one config, marking its keys in known.
func bindObject(props *Properties, obj Object, known map[string]bool) []Warning {
	var ws []Warning
	sv := structOf(obj)
	for _, f := range fieldsOf(sv.Type()) {
		if f.noset {
			continue
		}
		known[f.key] = true
		e, ok := props.Get(f.key)
		if !ok {
			continue
		}
		set, msg := setField(sv.Field(f.index), f, e.Value)
		if set {
			obj.sources().set(f.key, e.Origin)
		}
		if msg != "" {
			ws = append(ws, Warning{File: e.Origin.File, Line: e.Origin.Line, Key: f.key, Message: msg})
		}
	}
	return ws
}

// setField converts raw for f and stores it in v. It reports whether v was
// set and, when Java would have been silent about something, why.
func setField(v reflect.Value, f field, raw string) (bool, string) {
	switch v.Kind() {
	case reflect.Bool:
		b := parseJavaBoolean(raw)
		v.SetBool(b)
		if !b && !equalFoldASCII(raw, "false") {
			return true, fmt.Sprintf("%q reads as false: Java's Boolean.parseBoolean is true only for \"true\"%s",
				raw, trimHint(raw, "true"))
		}
		return true, ""
	case reflect.Int32, reflect.Int64:
		return setInt(v, raw)
	case reflect.String:
		return setString(v, f, raw)
	}
	return false, fmt.Sprintf("field kind %s cannot be bound", v.Kind())
}

func setInt(v reflect.Value, raw string) (bool, string) {
	bits, name := 32, "int"
	if v.Kind() == reflect.Int64 {
		bits, name = 64, "long"
	}
	n, err := parseJavaInt(raw, bits)
	if err != nil {
		hint := ""
		if _, terr := parseJavaInt(javaTrim(raw), bits); terr == nil {
			hint = " (Java does not trim numbers: remove the blanks)"
		}
		return false, fmt.Sprintf("%q is not a Java %s: %v%s; default %s kept",
			raw, name, err, hint, formatValue(v))
	}
	v.SetInt(n)
	return true, ""
}

func setString(v reflect.Value, f field, raw string) (bool, string) {
	s := javaTrim(raw)
	if f.enum != nil && !slices.Contains(f.enum, s) {
		return false, fmt.Sprintf("%q is not one of %s; %s kept",
			s, strings.Join(f.enum, ", "), formatValue(v))
	}
	v.SetString(s)
	if s != raw {
		return true, fmt.Sprintf("surrounding blanks of %q removed (Java 5.x trims them; 4.9.8 kept them)", raw)
	}
	return true, ""
}

// trimHint explains a value that would have meant want without its blanks.
func trimHint(raw, want string) string {
	if raw != javaTrim(raw) && equalFoldASCII(javaTrim(raw), want) {
		return " (remove the surrounding blanks)"
	}
	return ""
}

// unknownKeys warns about the keys of props no config binds.
func unknownKeys(props *Properties, objs []Object, known map[string]bool) []Warning {
	five, noset, printed := make(map[string]bool), make(map[string]bool), make(map[string]string)
	fiveDefault := make(map[string]string) // the 5.3.3 defaults, by the key 5.3.3 writes back
	for _, obj := range objs {
		for _, k := range javaFiveKeys(obj.JavaClass()) {
			if k.setter == "" {
				noset[k.name] = true
			} else {
				five[k.setter] = true
			}
			if k.listed {
				fiveDefault[k.name] = k.value
			}
		}
		for _, f := range fieldsOf(structOf(obj).Type()) {
			if f.noset {
				noset[f.key] = true
			}
			if f.print != f.key {
				printed[f.print] = f.key
			}
		}
	}
	var ws []Warning
	for _, e := range props.Entries() {
		if def, ok := fiveDefault[e.Key]; known[e.Key] || readElsewhereFiveKeys[e.Key] || ok && javaTrim(e.Value) == def {
			continue // a 5.3.3 default changes nothing: 5.3.3 writes them all back
		}
		msg := "unknown key, ignored" + suggest(e.Key, known)
		switch {
		case printed[e.Key] != "":
			msg = fmt.Sprintf("the Java field name, which Java writes back but reads only as %s, ignored", printed[e.Key])
		case five[e.Key]:
			msg = "a RocketMQ 5.x setting rmqgo does not implement, ignored"
		case noset[e.Key]:
			msg = "has no setter in Java, ignored"
		}
		ws = append(ws, Warning{File: e.Origin.File, Line: e.Origin.Line, Key: e.Key, Message: msg})
	}
	return ws
}

// suggest names a known key that key probably meant: the same word in
// another case, or the pre-4.5.2 spelling "maped" of "mapped".
func suggest(key string, known map[string]bool) string {
	if k := strings.Replace(key, "maped", "mapped", 1); k != key && known[k] {
		return fmt.Sprintf(" (old spelling: Java 4.5.2 and later read only %s)", k)
	}
	for k := range known {
		if strings.EqualFold(k, key) {
			return fmt.Sprintf(" (keys are case-sensitive: did you mean %s?)", k)
		}
	}
	return ""
}

// dedupe drops repeated warnings, which arise when a key shared by two
// configs fails to parse for both.
func dedupe(ws []Warning) []Warning {
	seen := make(map[Warning]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
