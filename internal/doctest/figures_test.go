package doctest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A figure block of README.md is copied from a marked block of a docs/
// file, and says which:
//
//	README.md:          <!-- figures:begin docs/benchmarks.md broker -->
//	                    ...the figures...
//	                    <!-- figures:end -->
//	docs/benchmarks.md: <!-- figures:begin broker -->
//	                    ...the same figures...
//	                    <!-- figures:end -->
var (
	readmeBegin = regexp.MustCompile(`^<!-- figures:begin (\S+) (\S+) -->$`)
	sourceBegin = regexp.MustCompile(`^<!-- figures:begin (\S+) -->$`)
)

const figuresEnd = "<!-- figures:end -->"

// figureLine is a line that states a measured figure: a size, a time per
// message, a throughput or a ratio. Such a line of README.md must be in a
// figure block.
var figureLine = regexp.MustCompile(`\d\s?(MB|GB|MiB|GiB|µs|TPS|msg/s)\b|×\d|\b1/\d`)

// block is the text of one marked block.
type block struct {
	file, name string // the docs/ file and block name (README blocks only)
	text       string
	line       int
}

// readBlocks cuts path into its marked blocks; begin tells a begin line and
// returns the block's file and name. It also returns the lines outside
// every block.
func readBlocks(t *testing.T, path string, begin func(string) (file, name string, ok bool)) (blocks []block, outside map[int]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	outside = map[int]string{}
	var cur *block
	var lines []string
	for i, l := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "<!-- figures:begin"):
			file, name, ok := begin(trimmed)
			if !ok {
				t.Fatalf("%s:%d: a figures:begin line that does not parse: %q", path, i+1, trimmed)
			}
			cur, lines = &block{file: file, name: name, line: i + 1}, nil
		case cur != nil && trimmed == figuresEnd:
			cur.text = strings.TrimSpace(strings.Join(lines, "\n"))
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil && strings.HasPrefix(trimmed, "<!-- figures:"):
			t.Fatalf("%s:%d: %q inside the block begun at line %d", path, i+1, trimmed, cur.line)
		case cur != nil:
			lines = append(lines, l)
		default:
			outside[i+1] = l
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: figures:begin without figures:end", path, cur.line)
	}
	return blocks, outside
}

// TestReadmeFiguresMatchDocs holds every figure README.md states to the
// docs/ file it comes from: each figure block of the README must be the
// same text as the block of that name in that file, and a line outside the
// blocks must not state a figure.
func TestReadmeFiguresMatchDocs(t *testing.T) {
	root := moduleRoot(t)
	readme := filepath.Join(root, "README.md")
	blocks, outside := readBlocks(t, readme, func(l string) (string, string, bool) {
		m := readmeBegin.FindStringSubmatch(l)
		if m == nil {
			return "", "", false
		}
		return m[1], m[2], true
	})
	if len(blocks) == 0 {
		t.Fatal("README.md has no figure block (<!-- figures:begin docs/<file>.md <name> --> ... <!-- figures:end -->); the figures it states must be copied from docs/ in one")
	}
	sources := map[string][]block{}
	for _, b := range blocks {
		if !strings.HasPrefix(b.file, "docs/") {
			t.Errorf("README.md:%d: figure block %q names %s: figures come from a file under docs/", b.line, b.name, b.file)
			continue
		}
		src, ok := sources[b.file]
		if !ok {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(b.file))); err != nil {
				t.Errorf("README.md:%d: figure block %q comes from %s, which does not exist: name the docs/ file the figures are in", b.line, b.name, b.file)
				continue
			}
			src, _ = readBlocks(t, filepath.Join(root, filepath.FromSlash(b.file)), func(l string) (string, string, bool) {
				m := sourceBegin.FindStringSubmatch(l)
				if m == nil {
					return "", "", false
				}
				return b.file, m[1], true
			})
			sources[b.file] = src
		}
		var found *block
		for i := range src {
			if src[i].name == b.name {
				found = &src[i]
			}
		}
		switch {
		case found == nil:
			t.Errorf("README.md:%d: figure block %q: %s has no <!-- figures:begin %s --> block: mark the figures there, or fix the name", b.line, b.name, b.file, b.name)
		case found.text != b.text:
			n, ours, theirs := firstDifference(b.text, found.text)
			t.Errorf("README.md:%d: figure block %q differs from %s:%d: copy the block from there into README.md (the docs/ file is the record); line %d of the block\n  README.md: %q\n  %s: %q",
				b.line, b.name, b.file, found.line, n, ours, b.file, theirs)
		}
	}
	for n, l := range outside {
		if figureLine.MatchString(l) {
			t.Errorf("README.md:%d states a figure outside a figure block: %q; move the figure into a marked block of the docs/ file it comes from and copy that block here", n, l)
		}
	}
}

// firstDifference returns the first line (from 1) where a and b differ,
// and that line of each ("" past the end).
func firstDifference(a, b string) (int, string, string) {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(la), len(lb)); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y || i >= len(la) || i >= len(lb) {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

// TestDocsIndexListsEveryFile holds docs/README.md to the docs/ folder: it
// names every file under docs/ (by its path from docs/), and every file it
// links to exists.
func TestDocsIndexListsEveryFile(t *testing.T) {
	root := moduleRoot(t)
	docs := filepath.Join(root, "docs")
	index, err := os.ReadFile(filepath.Join(docs, "README.md"))
	if err != nil {
		t.Fatalf("docs/README.md, the index of docs/, is missing: %v", err)
	}
	text := string(index)
	err = filepath.WalkDir(docs, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(docs, path)
		rel = filepath.ToSlash(rel)
		if rel != "README.md" && !strings.Contains(text, "("+rel+")") {
			t.Errorf("docs/%s is not listed in docs/README.md: add a line for it, [%s](%s) and what it holds", rel, rel, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)\)`).FindAllStringSubmatch(text, -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join(docs, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("docs/README.md links to %s, which does not exist: fix or remove the line", m[1])
		}
	}
}
