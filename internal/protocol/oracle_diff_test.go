package protocol

// The differential runs (see oracle_test.go): the seeds of
// compat/fastjson/seeds (the shapes Java, Go, C++ and Node.js clients
// write, and fastjson's edge cases) and mutations of each, through both
// lines; and a fuzz target over the same pair (make fuzz).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// seed is one body of the seed files.
type seed struct {
	kind string
	body []byte
	from string // file:line
}

// loadSeeds reads compat/fastjson/seeds/*.tsv, and adds the byte cases the
// text files cannot hold: the C++ client's trailing newline, a BOM, a
// trailing NUL and invalid UTF-8.
func loadSeeds(tb testing.TB) []seed {
	tb.Helper()
	dir := os.Getenv("RMQGO_FASTJSON_SEEDS")
	if dir == "" {
		dir = filepath.Join("..", "..", "compat", "fastjson", "seeds")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no seeds in %s (%v)", dir, err)
	}
	var out []seed
	for _, f := range files {
		out = append(out, readSeedFile(tb, f)...)
	}
	for _, s := range out {
		if strings.HasSuffix(s.from, "cpp.tsv") {
			out = append(out, seed{kind: s.kind, body: append(slices.Clone(s.body), '\n'), from: s.from + " +newline"})
		}
	}
	hb := `{"clientID":"a` + "\xff" + `b","producerDataSet":[{"groupName":"p"}]}`
	return append(out,
		seed{"HeartbeatData", []byte("\xEF\xBB\xBF" + `{"clientID":"bom"}`), "bytes: BOM"},
		seed{"HeartbeatData", []byte(`{"clientID":"nul"}` + "\x00"), "bytes: trailing NUL"},
		seed{"HeartbeatData", []byte(hb), "bytes: invalid UTF-8"})
}

func readSeedFile(tb testing.TB, path string) []seed {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []seed
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		kind, body, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") || body == "" {
			continue
		}
		out = append(out, seed{kind: kind, body: []byte(body), from: fmt.Sprintf("%s:%d", filepath.Base(path), n)})
	}
	return out
}

// compareOne reads body as kind with ours and with the oracle of o's
// line; it returns the mismatch, "" when they agree (or the kind is not
// ours, or not the line's).
func compareOne(tb testing.TB, o *oracle, kind string, body []byte) string {
	k, ours := oracleKinds[kind]
	if !ours || k.fiveOnly && o.line != 5 || len(body) == 0 {
		return ""
	}
	w := clockWindow{from: now()}
	mine, err := k.decode(body, o.line)
	w.to = now()
	java, qerr := o.read(kind, body)
	if errors.Is(qerr, errOracleHung) {
		return "" // nothing to compare with: Java's broker would hang a worker on it
	}
	if qerr != nil {
		tb.Fatal(qerr)
	}
	switch {
	case !java.ok && err == nil:
		return fmt.Sprintf("line %d: fastjson fails (%s), ours reads %v", o.line, java.err, mine)
	case java.ok && err != nil:
		if java.canonical == nil {
			return "" // Java reads nothing (null), and refuses in the handler
		}
		return fmt.Sprintf("line %d: fastjson reads it, ours fails: %v", o.line, err)
	case java.ok:
		if d := differ(kind, mine, java.canonical, w); d != "" {
			return fmt.Sprintf("line %d: %s", o.line, d)
		}
	}
	return ""
}

// TestFastjsonDifferential runs every seed and mutationsPerSeed mutations
// of each (RMQGO_FASTJSON_MUTATIONS, default 30) through ours and both
// oracles.
func TestFastjsonDifferential(t *testing.T) {
	oracles := []*oracle{startOracle(t, 4), startOracle(t, 5)}
	seeds := loadSeeds(t)
	perSeed := 30
	if v, err := strconv.Atoi(os.Getenv("RMQGO_FASTJSON_MUTATIONS")); err == nil {
		perSeed = v
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var bodies, compared int
	var mismatches []string
	known := map[string]int{}
	for _, s := range seeds {
		inputs := [][]byte{s.body}
		for range perSeed {
			inputs = append(inputs, mutate(rng, s.body))
		}
		for i, body := range inputs {
			bodies++
			compared += len(oracles)
			for _, d := range compareLines(t, oracles, s.kind, body, i > 0) {
				if strings.HasPrefix(d, "known: ") {
					known[strings.TrimPrefix(d, "known: ")]++
					continue
				}
				mismatches = append(mismatches, fmt.Sprintf("%s (%s, mutation %d) %q\n    %s", s.kind, s.from, i, body, d))
			}
		}
	}
	t.Logf("fastjson differential: %d seeds, %d bodies, %d comparisons, %d mismatches", len(seeds), bodies, compared, len(mismatches))
	for why, n := range known {
		t.Logf("known difference, %d times: %s", n, why)
	}
	if out := os.Getenv("RMQGO_FASTJSON_REPORT"); out != "" {
		_ = os.WriteFile(out, []byte(strings.Join(mismatches, "\n")+"\n"), 0o644)
	}
	for i, m := range mismatches {
		if i == 40 {
			t.Errorf("... and %d more", len(mismatches)-i)
			break
		}
		t.Error(m)
	}
}

// FuzzFastjsonDifferential feeds the fuzzer's bodies to ours and both
// oracles (make fuzz, with RMQGO_FASTJSON_ORACLE set).
func FuzzFastjsonDifferential(f *testing.F) {
	oracles := []*oracle{startOracle(f, 4), startOracle(f, 5)}
	kinds := slices.Sorted(func(yield func(string) bool) {
		for k := range oracleKinds {
			if !yield(k) {
				return
			}
		}
	})
	for _, s := range loadSeeds(f) {
		if i := slices.Index(kinds, s.kind); i >= 0 {
			f.Add(uint8(i), s.body)
		}
	}
	f.Fuzz(func(t *testing.T, k uint8, body []byte) {
		if spinsFastjson(body) {
			t.Skip("fastjson spins on a string value opening with '}'")
		}
		kind := kinds[int(k)%len(kinds)]
		for _, d := range compareLines(t, oracles, kind, body, true) {
			if !strings.HasPrefix(d, "known: ") {
				t.Fatalf("%s %q: %s", kind, body, d)
			}
		}
	})
}

// spinsFastjson tells the bodies fastjson spins on for seconds (an enum
// value opening with "}" runs its hash index down to Integer.MIN_VALUE):
// a quoted string that opens with "}". The fuzzer leaves them out, since
// the oracle's restart after each (oracleTimeout) outlasts what the
// fuzzing engine waits for one input; ours answers them at once.
func spinsFastjson(body []byte) bool {
	var quote byte // the quote of the string being read, 0 outside one
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case quote == 0 && (c == '"' || c == '\''):
			if i+1 < len(body) && body[i+1] == '}' {
				return true
			}
			quote = c
		case quote != 0 && c == '\\':
			i++
		case c == quote:
			quote = 0
		}
	}
	return false
}

// compareLines compares body on both lines (oracles 4 and 5): the
// mismatches, those kept on purpose as "known: <why>".
func compareLines(tb testing.TB, oracles []*oracle, kind string, body []byte, mutated bool) []string {
	var four, five string
	var out []string
	for _, o := range oracles {
		d := compareOne(tb, o, kind, body)
		if o.line == 4 {
			four = d
		} else {
			five = d
		}
	}
	fiveKnown := five == "" || knownDifference(5, body, five, mutated) != ""
	if four != "" && fiveKnown && strings.Contains(four, "fastjson reads it, ours fails") {
		// what 4.x takes and 5.x refuses (a 5.x property of the wrong
		// type, which the 4.x class has not): ours refuses it with 5.x
		four = "known: 4.x takes what 5.x refuses (a 5.x property of the wrong type, which the 4.x class has not); ours refuses it as 5.x does"
	}
	for line, d := range map[int]string{4: four, 5: five} {
		if d == "" || strings.HasPrefix(d, "known: ") {
			out = append(out, d)
			continue
		}
		if why := knownDifference(line, body, d, mutated); why != "" {
			d = "known: " + why
		}
		out = append(out, d)
	}
	return slices.DeleteFunc(out, func(d string) bool { return d == "" })
}

// knownDifference names why a mismatch is kept on purpose, "" when it is
// not: where the two Java lines disagree, ours does what 4.x does; and on
// a mutated body (never on a seed, which must match exactly), where one of
// fastjson's paths (its generated fast path, taken while the properties
// come in its order) does what its other path refuses, ours does what the
// other path does.
func knownDifference(line int, body []byte, mismatch string, mutated bool) string {
	if mutated {
		if why := mutationDifference(body, mismatch); why != "" {
			return why
		}
	}
	if line != 5 {
		return ""
	}
	switch {
	case bytes.Contains(body, []byte("@type")):
		return "ours refuses every autoType (@type), as 4.x does; 5.x takes a few harmless types"
	case !utf8.Valid(body):
		return "5.x reads nothing of a body that is not UTF-8 (its handler then fails); ours reads it as 4.x does"
	case bytes.Contains(bytes.ToLower(body), []byte("heartbeatfingerprint")) || bytes.Contains(bytes.ToLower(body), []byte("withoutsub")):
		return "5.x's heartbeat v2 fields (heartbeatFingerprint, withoutSub) are not read: ours serves the v1 heartbeat, which ignores them as 4.x does"
	case strings.Contains(mismatch, "fastjson reads it, ours fails") && (bytes.Contains(body, []byte("true")) || bytes.Contains(body, []byte("false"))):
		return "5.x reads true/false into an AtomicLong (DataVersion) as 1/0; 4.x, and ours, refuse it"
	case strings.Contains(mismatch, "parseLong error, field : "):
		return "5.x refuses an object among the numbers of a list; 4.x, and ours, read it as null"
	case strings.Contains(mismatch, "groupRetryPolicy: ours an object, Java <nil>"):
		return "5.x sets a null groupRetryPolicy (until a restart reads the default back); ours keeps the default policy"
	}
	return ""
}

// mutationDifference classifies a mismatch on a mutated body.
func mutationDifference(body []byte, mismatch string) string {
	switch {
	case nestingDepth(body) > 512:
		return "beyond 512 levels fastjson's depth limit depends on the shape; ours reads 4096 objects and 513 arrays"
	case bytes.Contains(body, []byte("$ref")):
		return "fastjson resolves $ref references (or fails on a bad one); ours leaves a reference out"
	case strings.Contains(mismatch, "fastjson reads it, ours fails") && !json.Valid(bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))) &&
		syntaxError.MatchString(mismatch):
		return "malformed JSON that a fastjson path lets through (a value run into the next, a stray quote, brace or escape); ours refuses it"
	case bytes.Contains(body, []byte(`\"queueId\"`)) && syntaxError.MatchString(mismatch):
		return "fastjson reads the text of a MessageQueue key more loosely; ours refuses a malformed one"
	case strings.Contains(mismatch, "expect '[', but {") || strings.Contains(mismatch, "expect {, actual ["):
		return "fastjson takes one object for a collection (and [] for an object) on its fast path only; ours always does"
	case namesTwice(body):
		return "a property given twice: which one fastjson keeps depends on its path; ours keeps the last"
	}
	return ""
}

// syntaxError matches our errors about the structure of a body.
var syntaxError = regexp.MustCompile(`expected|unexpected|bad escape|illegal identifier|unterminated|trailing data`)

// namesTwice tells a body that names one of the properties the seeds
// carry twice, in any case.
func namesTwice(body []byte) bool {
	lower := bytes.ToLower(body)
	for _, name := range []string{"clientid", "groupname", "topic", "consumergroup", "counter", "brokername", "queueid"} {
		if bytes.Count(lower, []byte(name)) > 1 && bytes.Count(lower, []byte(name+`"`))+bytes.Count(lower, []byte(name+`:`)) > 1 {
			return true
		}
	}
	return false
}

// nestingDepth is the deepest bracket nesting of body.
func nestingDepth(body []byte) int {
	depth, deepest := 0, 0
	for _, c := range body {
		switch c {
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// Replacement tokens: the other types a field may get.
var mutationTokens = []string{`null`, `0`, `1`, `-1`, `"0"`, `"1"`, `1.5`, `"1.5"`, `"abc"`, `""`, `[]`, `{}`, `true`,
	`"true"`, `false`, `2147483648`, `9223372036854775808`, `"TagA"`, `["1","2"]`, `[1,2]`, `'x'`, `{"a":1}`, `" 7"`, `1e3`}

// mutate changes body a little: a scalar becomes another type, a key
// changes case or loses its quotes, a byte goes or one is added.
func mutate(rng *rand.Rand, body []byte) []byte {
	spans := scalarSpans(body)
	switch op := rng.IntN(5); {
	case op <= 1 && len(spans) > 0:
		s := spans[rng.IntN(len(spans))]
		return splice(body, s[0], s[1], mutationTokens[rng.IntN(len(mutationTokens))])
	case op == 2 && len(spans) > 0:
		s := spans[rng.IntN(len(spans))]
		tok := string(body[s[0]:s[1]])
		if strings.HasPrefix(tok, `"`) {
			tok = strings.Trim(tok, `"`) // unquoted key or value
		} else {
			tok = `"` + tok + `"`
		}
		if rng.IntN(2) == 0 {
			tok = strings.ToUpper(tok)
		}
		return splice(body, s[0], s[1], tok)
	case op == 3 && len(body) > 0:
		i := rng.IntN(len(body))
		return splice(body, i, i+1, "")
	}
	i := rng.IntN(len(body) + 1)
	return splice(body, i, i, []string{`,`, `:`, `{`, `}`, `[`, `]`, `"`, `'`, ` `, `null`, `,,`}[rng.IntN(11)])
}

func splice(body []byte, from, to int, with string) []byte {
	out := make([]byte, 0, len(body)+len(with))
	out = append(out, body[:from]...)
	out = append(out, with...)
	return append(out, body[to:]...)
}

// scalarSpans are the [from, to) of the strings and bare words of body.
func scalarSpans(body []byte) [][2]int {
	var spans [][2]int
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(body) && body[j] != '"' {
				if body[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(body))
			spans = append(spans, [2]int{i, j})
			i = j
		case bytes.IndexByte([]byte("{}[]:, \t\r\n"), c) < 0:
			j := i
			for j < len(body) && bytes.IndexByte([]byte("{}[]:,\" \t\r\n"), body[j]) < 0 {
				j++
			}
			spans = append(spans, [2]int{i, j})
			i = j
		default:
			i++
		}
	}
	return spans
}

func TestSpinsFastjsonFindsOnlyStringsOpeningWithABrace(t *testing.T) {
	for body, want := range map[string]bool{
		`{"clientID":"x"}`:        false,
		`{"a":""}`:                false,
		`{"a":"}x"}`:              true,
		`{'a':'}'}`:               true,
		`{"a":"\"}","b":1}`:       false,
		`{"consumeType":"}CONS"}`: true,
	} {
		if got := spinsFastjson([]byte(body)); got != want {
			t.Errorf("%s: %v, want %v", body, got, want)
		}
	}
}
