package conf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteProperties writes props to path as "key=value" lines in their order,
// the way Java's MixAll.string2File replaces a config file: the new content
// goes to path.tmp first, the previous content (if any) is copied to
// path.bak, then path.tmp is renamed over path, so a crash leaves either the
// old or the new file whole.
func WriteProperties(path string, props *Properties) error {
	items := make([]keyValue, 0, props.Len())
	for _, e := range props.Entries() {
		items = append(items, keyValue{e.Key, e.Value})
	}
	return writePropertiesFile(path, items)
}

func writePropertiesFile(path string, items []keyValue) error {
	var b strings.Builder
	for _, kv := range items {
		b.WriteString(escapeKey(kv.key))
		b.WriteByte('=')
		b.WriteString(escapeValue(kv.value))
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("conf: persist %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := writeSynced(tmp, []byte(b.String())); err != nil {
		return fmt.Errorf("conf: persist %s: %w", path, err)
	}
	if err := backup(path); err != nil {
		return fmt.Errorf("conf: persist %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("conf: persist %s: %w", path, err)
	}
	return nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// backup copies the current content of path to path.bak, as Java does.
func backup(path string) error {
	prev, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return writeSynced(path+".bak", prev)
}

// escapeKey escapes a key so that Properties.load reads it back unchanged.
// Java writes keys and values raw; for the key and value strings config
// files hold (no blanks, separators, backslashes or non-ASCII characters in
// keys; none of the latter in values) the output is the same.
func escapeKey(s string) string {
	return escape(s, true)
}

// escapeValue escapes a value so that Properties.load reads it back
// unchanged: backslashes, line breaks, tabs and form feeds, a leading blank,
// and characters outside printable ASCII (as \uXXXX, since load reads bytes
// as ISO-8859-1).
func escapeValue(s string) string {
	return escape(s, false)
}

func escape(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == ' ' && (key || i == 0):
			b.WriteString(`\ `)
		case key && strings.ContainsRune("=:#!", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			writeUnicodeEscape(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeUnicodeEscape writes r as one \uXXXX escape, or two (a surrogate
// pair) beyond the Basic Multilingual Plane.
func writeUnicodeEscape(b *strings.Builder, r rune) {
	if r > 0xffff {
		r -= 0x10000
		fmt.Fprintf(b, `\u%04X\u%04X`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		return
	}
	fmt.Fprintf(b, `\u%04X`, r)
}
