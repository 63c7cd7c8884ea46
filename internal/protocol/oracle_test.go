package protocol

// The fastjson differential: a body any client or tool sends is read by
// our decoder and by the real classes and fastjson of each Java line (the
// oracle, compat/fastjson, started with RMQGO_FASTJSON_ORACLE pointing at
// its run.sh), and both must read the same values, or both fail.
//
// The oracle prints a canonical form of what Java read (compat/fastjson's
// README: beans by field name, sets sorted, "<now>" for clock defaults);
// canonical builds ours from our structs in the same terms. A bean is
// compared on the fields our struct keeps (the broker ignores the others,
// as it ignores unknown keys), a set as a set, a map and a list whole.
//
// What fastjson reads that we refuse breaks a client; what we read that
// fastjson refuses is a leniency beyond Java's. Both are mismatches, and
// the few kept on purpose are listed in knownDifferences.

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// oracle is one running compat/fastjson process of a line.
type oracle struct {
	line   int
	script string
	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string // the process's output lines
}

// oracleTimeout is how long one answer may take: fastjson spins for
// seconds on some inputs (the fuzzer finds them: an enum value opening
// with "}" runs an index down to Integer.MIN_VALUE), longer than the
// fuzzer waits for one; the process is started afresh.
const oracleTimeout = 5 * time.Second

// errOracleHung is a body fastjson did not answer within oracleTimeout.
var errOracleHung = errors.New("fastjson did not answer in time (its parser spins on this body)")

// startOracle starts the oracle of line; the test is skipped when
// RMQGO_FASTJSON_ORACLE is not set.
func startOracle(tb testing.TB, line int) *oracle {
	tb.Helper()
	script := os.Getenv("RMQGO_FASTJSON_ORACLE")
	if script == "" {
		tb.Skip("RMQGO_FASTJSON_ORACLE is not set (sh compat/fastjson/run.sh; make compat-fastjson runs this)")
	}
	o := &oracle{line: line, script: script}
	if err := o.start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(o.stop)
	return o
}

// start runs the process and a goroutine that passes its lines on.
func (o *oracle) start() error {
	cmd := exec.Command("sh", o.script, fmt.Sprint(o.line))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	o.cmd, o.in, o.lines = cmd, in, lines
	return nil
}

// stop ends the process.
func (o *oracle) stop() {
	_ = o.in.Close()
	if o.cmd.Process != nil {
		_ = o.cmd.Process.Kill()
	}
	_ = o.cmd.Wait()
}

// answer is what the oracle said of one body.
type answer struct {
	ok        bool
	canonical any    // Java's value, when ok
	err       string // the exception, when not
}

// read asks the oracle to decode body as kind.
func (o *oracle) read(kind string, body []byte) (answer, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, err := fmt.Fprintf(o.in, "%s\t%s\n", kind, base64.StdEncoding.EncodeToString(body)); err != nil {
		return answer{}, err
	}
	var line string
	select {
	case l, ok := <-o.lines:
		if !ok {
			return answer{}, fmt.Errorf("oracle line %d: the process ended", o.line)
		}
		line = l
	case <-time.After(oracleTimeout):
		o.stop()
		if err := o.start(); err != nil {
			return answer{}, err
		}
		return answer{}, errOracleHung
	}
	status, text, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
	if status != "ok" {
		return answer{err: text}, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return answer{}, fmt.Errorf("oracle line %d: canonical %q: %w", o.line, text, err)
	}
	return answer{ok: true, canonical: v}, nil
}

// The shapes of our canonical form: a bean is compared on its own keys, a
// set as a set; plain maps and slices whole.
type (
	bean map[string]any
	set  []any
)

// clockWindow is when our decode ran: a Java "<now>" (a default Java took
// from the clock) matches one of ours taken in it.
type clockWindow struct{ from, to int64 }

// differ returns where ours and Java's canonical values differ ("" when
// they agree).
func differ(path string, ours, java any, w clockWindow) string {
	if s, ok := java.(string); ok && s == "<now>" {
		if n, ok := asInt(ours); ok && (n >= w.from && n <= w.to || strings.HasSuffix(path, ".timestamp") && n == 0) {
			return ""
		}
		return fmt.Sprintf("%s: ours %v, Java a clock default", path, ours)
	}
	switch o := ours.(type) {
	case bean:
		return differBean(path, o, java, w)
	case set:
		return differSet(path, o, java, w)
	case []any:
		return differList(path, o, java, w)
	case map[string]any:
		return differMap(path, o, java, w)
	case string:
		if o == "" && java == nil {
			return "" // no null string in Go
		}
		if j, ok := java.(string); ok && (j == o || sameJSONText(o, j)) {
			return ""
		}
	case bool:
		if j, ok := java.(bool); ok && j == o {
			return ""
		}
	case nil:
		if java == nil {
			return ""
		}
		if l, ok := java.([]any); ok && len(l) == 0 {
			return "" // an empty collection we leave nil
		}
		if m, ok := java.(map[string]any); ok && len(m) == 0 {
			return ""
		}
	default:
		n, ok := asInt(ours)
		if j, jok := asInt(java); ok && jok && n == j {
			return ""
		}
		if ok && n == 0 && java == nil {
			return "" // no null number in Go
		}
	}
	return fmt.Sprintf("%s: ours %#v, Java %#v", path, ours, java)
}

func differBean(path string, o bean, java any, w clockWindow) string {
	j, ok := java.(map[string]any)
	if java == nil && isZero(o) {
		return "" // no null struct in Go
	}
	if !ok {
		return fmt.Sprintf("%s: ours an object, Java %#v", path, java)
	}
	for k, v := range o {
		jv, has := j[k]
		if !has {
			continue // a field this line's class does not have
		}
		if d := differ(path+"."+k, v, jv, w); d != "" {
			return d
		}
	}
	return ""
}

// differSet compares as sets: every element of each side matches one of
// the other's (Java's sets drop duplicates that ours may keep).
func differSet(path string, o set, java any, w clockWindow) string {
	j, ok := withoutNulls(java)
	if !ok {
		if java == nil && len(o) == 0 {
			return ""
		}
		return fmt.Sprintf("%s: ours a set, Java %#v", path, java)
	}
	for i, ov := range o {
		if !containsMatch(path, ov, j, w) {
			return fmt.Sprintf("%s[%d]: ours %#v is not in Java's %#v", path, i, ov, j)
		}
	}
	for _, jv := range j {
		found := false
		for _, ov := range o {
			if differ(path, ov, jv, w) == "" {
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("%s: Java's %#v is not in ours", path, jv)
		}
	}
	return ""
}

func containsMatch(path string, ov any, j []any, w clockWindow) bool {
	for _, jv := range j {
		if differ(path, ov, jv, w) == "" {
			return true
		}
	}
	return false
}

func differList(path string, o []any, java any, w clockWindow) string {
	if java == nil && len(o) == 0 {
		return ""
	}
	j, ok := withoutNulls(java)
	if !ok || len(j) != len(o) {
		return fmt.Sprintf("%s: ours %#v, Java %#v", path, o, java)
	}
	for i := range o {
		if d := differ(fmt.Sprintf("%s[%d]", path, i), o[i], j[i], w); d != "" {
			return d
		}
	}
	return ""
}

func differMap(path string, o map[string]any, java any, w clockWindow) string {
	j, ok := java.(map[string]any)
	if !ok {
		if java == nil && len(o) == 0 {
			return ""
		}
		return fmt.Sprintf("%s: ours a map, Java %#v", path, java)
	}
	for k, v := range j {
		if _, has := o[k]; !has && v != nil {
			return fmt.Sprintf("%s: key %q only in Java's", path, k)
		}
	}
	for k, v := range o {
		jv, has := j[k]
		if !has {
			return fmt.Sprintf("%s: key %q only in ours", path, k)
		}
		if d := differ(path+"["+k+"]", v, jv, w); d != "" {
			return d
		}
	}
	return ""
}

// sameJSONText tells two texts of the same object read where a string
// belongs: fastjson writes its keys in HashMap order (5.x) or sorted
// (4.x), ours sorted; the order is not compared.
func sameJSONText(a, b string) bool {
	if len(a) != len(b) || a == "" || a[0] != '{' && a[0] != '[' {
		return false
	}
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// withoutNulls is a Java list or set without its null elements, which
// ours leave out.
func withoutNulls(java any) ([]any, bool) {
	j, ok := java.([]any)
	if !ok {
		return nil, false
	}
	out := make([]any, 0, len(j))
	for _, v := range j {
		if v != nil {
			out = append(out, v)
		}
	}
	return out, true
}

// isZero tells a canonical value that holds nothing.
func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case bean:
		for _, f := range x {
			if !isZero(f) {
				return false
			}
		}
		return true
	case set:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	n, ok := asInt(v)
	return ok && n == 0
}

func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case int:
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// now is the clock reading the window takes.
func now() int64 { return time.Now().UnixMilli() }
