package conf

import (
	"bufio"
	"io"
	"sort"
	"strings"
)

// PrintConfig writes the listing of mqbroker/mqnamesrv -p (importantOnly
// false) or mqbroker -m (importantOnly true): for each of objs in turn, one
// "name=value" line per field in Java's declaration order, null values as
// empty strings, as MixAll.printObjectProperties logs them. Java sends the
// lines through the console logger, which adds a timestamp, level and
// thread in front ("2024-01-02 03:04:05 INFO main - "); that prefix is the
// caller's business. The field names are Java's, so the one field whose
// setter has another name prints as isEnableBatchPush.
func PrintConfig(w io.Writer, importantOnly bool, objs ...Object) error {
	bw := bufio.NewWriter(w)
	for _, obj := range objs {
		for _, kv := range objectItems(obj, importantOnly) {
			bw.WriteString(kv.key)
			bw.WriteByte('=')
			bw.WriteString(kv.value)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// ConfigLines returns what PrintConfig writes, one element per line.
func ConfigLines(importantOnly bool, objs ...Object) []string {
	var b strings.Builder
	_ = PrintConfig(&b, importantOnly, objs...) // a strings.Builder does not fail
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
