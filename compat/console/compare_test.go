package console

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestPagesMatchJava compares what each page showed on the Java servers
// (CONSOLE_COMPARE_JAVA) with what it showed on ours (CONSOLE_COMPARE_GO),
// line by line after masking: a line shown on one side only fails the
// test unless known-differences.txt explains it. A page missing on our
// side, or showing nothing where Java's shows data, fails it the same way.
func TestPagesMatchJava(t *testing.T) {
	javaDir, goDir := os.Getenv("CONSOLE_COMPARE_JAVA"), os.Getenv("CONSOLE_COMPARE_GO")
	if javaDir == "" || goDir == "" {
		t.Skip("CONSOLE_COMPARE_JAVA and CONSOLE_COMPARE_GO are set by compat/console/run.sh")
	}
	known := readKnown(t, os.Getenv("CONSOLE_VERSION"))
	pages, err := filepath.Glob(filepath.Join(javaDir, "pages", "*.txt"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages of the Java run in %s", javaDir)
	}
	explained, unexplained := 0, 0
	for _, jp := range pages {
		name := strings.TrimSuffix(filepath.Base(jp), ".txt")
		java := readLines(t, jp)
		ours := readLines(t, filepath.Join(goDir, "pages", name+".txt"))
		onlyJava, onlyOurs := difference(java, ours), difference(ours, java)
		for _, side := range []struct {
			name  string
			lines []string
		}{{"java", onlyJava}, {"go", onlyOurs}} {
			for _, l := range side.lines {
				if why := known.explain(name, side.name, l); why != "" {
					explained++
					t.Logf("%s: only on %s, known: %q (%s)", name, side.name, l, why)
					continue
				}
				unexplained++
				t.Errorf("%s: only on %s: %q", name, side.name, l)
			}
		}
	}
	t.Logf("%d pages compared: %d lines differ as known-differences.txt explains, %d unexplained",
		len(pages), explained, unexplained)
}

// difference returns the lines of a that b lacks, counting repeats.
func difference(a, b []string) []string {
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	var out []string
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func readLines(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (the page was not captured on this side)", err)
		return nil
	}
	return lines(string(data))
}

// knownDiff is a line of known-differences.txt: on the console version, on
// the page, a line shown only on side (java or go) that matches the
// pattern is explained by the reason.
type knownDiff struct {
	page, side string
	pattern    *regexp.Regexp
	reason     string
}

type knownDiffs []knownDiff

func (k knownDiffs) explain(page, side, line string) string {
	for _, d := range k {
		if (d.page == "*" || d.page == page) && d.side == side && d.pattern.MatchString(line) {
			return d.reason
		}
	}
	return ""
}

// readKnown reads the entries of known-differences.txt for the version:
// tab-separated version, page (or *), side, a regular expression matching
// the whole line, and the reason; # starts a comment.
func readKnown(t *testing.T, version string) knownDiffs {
	f, err := os.Open("known-differences.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out knownDiffs
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("known-differences.txt:%d: want 5 tab-separated fields, got %d", n, len(f))
		}
		re, err := regexp.Compile("^(?:" + f[3] + ")$")
		if err != nil {
			t.Fatalf("known-differences.txt:%d: %v", n, err)
		}
		if f[0] == version {
			out = append(out, knownDiff{page: f[1], side: f[2], pattern: re, reason: f[4]})
		}
	}
	return out
}
