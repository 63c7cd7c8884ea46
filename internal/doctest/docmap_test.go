package doctest

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// moduleRoot walks up from the test's directory to the go.mod of the module.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("doctest: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// packageDirs lists, relative to root, the directory of every package of
// the module, as the go command sees them (no testdata, no nested module
// such as compat/goclient).
func packageDirs(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f", "{{.Dir}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	var dirs []string
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	return dirs
}

// goFiles lists the .go files of one directory.
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			files = append(files, e.Name())
		}
	}
	return files
}

// goName is a file name ending in .go as a doc comment writes it: a bare
// name (send.go), one with a folder (store/ha_conn.go) or a glob (ha_*.go).
var goName = regexp.MustCompile(`[A-Za-z0-9_*./-]*[A-Za-z0-9_*]\.go\b`)

// namedFiles returns the .go file names in the package comment of doc.go.
func namedFiles(t *testing.T, docPath string) ([]string, bool) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), docPath, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", docPath, err)
	}
	if f.Doc == nil {
		return nil, false
	}
	var names []string
	for _, m := range goName.FindAllString(f.Doc.Text(), -1) {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(m, "./"), "."))
	}
	return names, true
}

// TestDocGoNamesEveryFile holds every package of the module to its doc.go:
// a package comment in doc.go that names each non-test .go file of the
// package (doc.go itself aside), and names no .go file that does not exist.
// A name with a folder (store/ha_conn.go) is read from the module's root
// and must exist; a glob (ha_*.go) must match at least one file and names
// the files it matches.
func TestDocGoNamesEveryFile(t *testing.T) {
	root := moduleRoot(t)
	dirs := packageDirs(t, root)
	if len(dirs) == 0 {
		t.Fatal("doctest: found no package directory")
	}
	for _, rel := range dirs {
		dir := filepath.Join(root, filepath.FromSlash(rel))
		files := goFiles(t, dir)
		docPath := filepath.Join(dir, "doc.go")
		if _, err := os.Stat(docPath); err != nil {
			t.Errorf("package %s has no doc.go: add %s/doc.go with a package comment naming each of its files (%s) with one line each",
				rel, rel, strings.Join(nonTest(files), ", "))
			continue
		}
		names, ok := namedFiles(t, docPath)
		if !ok {
			t.Errorf("package %s: %s/doc.go has no package comment: write one (\"// Package %s ...\" right above the package clause) naming each file of the package",
				rel, rel, filepath.Base(rel))
			continue
		}
		named := map[string]bool{"doc.go": true}
		for _, n := range names {
			if strings.Contains(n, "/") {
				// Another package's file, from the module's root.
				matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(n)))
				if len(matches) == 0 {
					t.Errorf("package %s: %s/doc.go names %s, which does not exist: correct the path (from the module's root) or remove the name", rel, rel, n)
				}
				continue
			}
			matches, _ := filepath.Glob(filepath.Join(dir, n))
			if len(matches) == 0 {
				t.Errorf("package %s: %s/doc.go names %s, which is not a file of the package: remove it from the comment, or write the path of the file it means from the module's root", rel, rel, n)
				continue
			}
			for _, m := range matches {
				named[filepath.Base(m)] = true
			}
		}
		var missing []string
		for _, f := range nonTest(files) {
			if !named[f] {
				missing = append(missing, f)
			}
		}
		sort.Strings(missing)
		for _, f := range missing {
			t.Errorf("package %s: %s/%s is not named in %s/doc.go: add a line for it to the package comment (\"%s  what it holds\")", rel, rel, f, rel, f)
		}
	}
}

// nonTest drops the _test.go files.
func nonTest(files []string) []string {
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}
