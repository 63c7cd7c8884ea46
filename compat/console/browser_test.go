package console

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// waitLimit bounds every wait for something a page should show: the
// console answers in milliseconds, but its pages poll the servers and a
// busy two-core machine runs the servers, the console and the browser.
const waitLimit = 60 * time.Second

// browser drives one headless Chromium tab through a console's pages and
// records what each page shows.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string // the console's URL, without a trailing slash
	out  string // where pages/ and shots/ go
}

// chromiumPath finds the browser: CHROMIUM, else Debian's chromium, else
// the names other distributions give it.
func chromiumPath(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium here (apt-get install chromium), or set CHROMIUM")
	return ""
}

func newBrowser(t *testing.T, s settings) *browser {
	awaitConsole(t, s.consoleURL)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox, // root in CI; the pages are our own console's
		chromedp.WindowSize(1440, 2000),
		chromedp.Flag("lang", "en-US"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	for _, dir := range []string{"pages", "shots"} {
		if err := os.MkdirAll(filepath.Join(s.out, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b := &browser{t: t, ctx: ctx, base: strings.TrimSuffix(s.consoleURL, "/"), out: s.out}
	// The first run starts the browser, which lives as long as the context
	// of that run: no timeout here.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start the browser: %v", err)
	}
	return b
}

// consoleBoot bounds how long a console may take to answer its first page
// (a Spring Boot start: 10-40 s on two busy cores).
const consoleBoot = 3 * time.Minute

// awaitConsole polls the console's first page until it answers 200.
func awaitConsole(t *testing.T, url string) {
	deadline := time.Now().Add(consoleBoot)
	for {
		resp, err := http.Get(url + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the console at %s did not answer within %s: %v", url, consoleBoot, err)
		}
		time.Sleep(500 * time.Millisecond) // a poll interval, not a wait for an event
	}
}

// do runs browser steps, failing the test with what it was doing.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitLimit)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Steps(steps...)); err != nil {
		b.shot("failed-" + slug(what))
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval runs a script in the page and returns its string result.
func (b *browser) eval(script string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitLimit)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](withHelpers(script)))
	if err != nil {
		b.t.Fatalf("script %q: %v", script, err)
	}
	return s
}

// open loads a page of the console (a path such as "/#/cluster").
func (b *browser) open(path string) {
	b.t.Helper()
	// (a blank page first: a console page is a fresh visit even when only
	// the part after # changes)
	b.do("open "+path, chromedp.Navigate("about:blank"), chromedp.Navigate(b.base+path))
}

// waitFor polls a script until it returns true, then returns; after
// waitLimit it fails the test, naming what it waited for.
func (b *browser) waitFor(what, predicate string) {
	b.t.Helper()
	if err := b.holds(predicate, waitLimit); err != nil {
		b.failWaiting(what, err)
	}
}

// failWaiting fails the test with what it waited for and what the page
// shows, and a screenshot.
func (b *browser) failWaiting(what string, err error) {
	b.t.Helper()
	b.shot("failed-" + slug(what))
	b.t.Fatalf("waiting for %s: %v\npage shows:\n%s", what, err, b.eval(`document.body.innerText`))
}

// holds polls a script until it returns true (nil) or limit passed.
func (b *browser) holds(predicate string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(b.ctx, limit)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](withHelpers(predicate),
		chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(limit)))
	return err
}

// waitText waits until the element the selector names (CSS, "body" for the
// whole page) shows every one of the texts.
func (b *browser) waitText(css string, texts ...string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("%q in %s", texts, css),
		fmt.Sprintf(`cx.hasAll(%s, %s)`, jsString(css), jsStrings(texts)))
}

// click clicks, as a user does (the mouse at the element's centre), the
// element a script expression returns.
func (b *browser) click(what, elementJS string) {
	b.t.Helper()
	b.waitFor(what+" to be clickable", fmt.Sprintf(`cx.clickable(%s)`, elementJS))
	b.do("click "+what, chromedp.Click(chromedp.JSPath(withHelpers(elementJS))))
}

// clickText clicks the visible element matching css whose text is text
// (trimmed, case-insensitive), the last one when several match (the
// newest dialog is last in the document).
func (b *browser) clickText(css, text string) {
	b.t.Helper()
	b.click(fmt.Sprintf("%s %q", css, text), fmt.Sprintf(`cx.byText(%s, %s)`, jsString(css), jsString(text)))
}

// typeInto types text into the input a script expression returns, key by
// key as a user does, over what it held (selected first, as a user does
// with a double click or Ctrl+A).
func (b *browser) typeInto(what, elementJS, text string) {
	b.t.Helper()
	b.click(what, elementJS)
	b.eval(fmt.Sprintf(`(e => { e.focus(); e.select && e.select(); return "" })(%s)`, elementJS))
	b.do("type into "+what, chromedp.SendKeys(chromedp.JSPath(withHelpers(elementJS)), text))
}

// capture records what the element css shows (the last visible match),
// once nothing on the page is moving:
// its text, masked for run-to-run values and with every table's body rows
// sorted, into pages/<name>.txt, and a screenshot into shots/<name>.png.
// It returns the masked text. Error notices the console shows are part of
// the text, so a page that errors here and not on the Java servers differs.
func (b *browser) capture(name, css string, m masker) string {
	b.t.Helper()
	b.waitFor("the page to settle before "+name, `!cx.moving()`)
	raw := b.eval(fmt.Sprintf(`cx.pageText(%s)`, jsString(css)))
	m.out = b.out
	text := m.mask(raw)
	path := filepath.Join(b.out, "pages", name+".txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.shot(name)
	b.t.Logf("page %s: %d lines", name, strings.Count(text, "\n"))
	return text
}

// shot saves a screenshot of the whole page; a failure to take one is
// logged, not fatal (it is evidence, not the check).
func (b *browser) shot(name string) {
	ctx, cancel := context.WithTimeout(b.ctx, waitLimit)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: PNG
	if err == nil {
		err = os.WriteFile(filepath.Join(b.out, "shots", name+".png"), buf, 0o644)
	}
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// helpersJS is the body of a function that returns the page-side helpers;
// helpers installs them, once per loaded page, as window.cx.
//
//go:embed helpers.js
var helpersJS string

var helpers = "(window.cx || (window.cx = (() => {\n" + helpersJS + "\n})()))"

// withHelpers makes one expression of the helpers and a script that uses
// them.
func withHelpers(script string) string {
	return "(" + helpers + ", " + script + ")"
}

func jsString(s string) string {
	return fmt.Sprintf("%q", s) // Go's quoting is valid JavaScript for these texts
}

func jsStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = jsString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// act clicks the button or link of the last visible scope whose ng-click
// starts with action or whose text is action.
func (b *browser) act(scope, action string) {
	b.t.Helper()
	b.click(fmt.Sprintf("%s in %s", action, scope), fmt.Sprintf(`cx.action(%s, %s)`, jsString(scope), jsString(action)))
}

// rowAct clicks the action of the table row one of whose cells reads cell.
func (b *browser) rowAct(cell, action string) {
	b.t.Helper()
	b.click(fmt.Sprintf("%s of row %s", action, cell), fmt.Sprintf(`cx.rowAction(%s, %s)`, jsString(cell), jsString(action)))
}

// fill types text into the field of scope bound to model.
func (b *browser) fill(scope, model, text string) {
	b.t.Helper()
	b.typeInto(model, fmt.Sprintf(`cx.field(%s, %s)`, jsString(scope), jsString(model)), text)
}

// choose picks option in the chosen.js select named name inside scope.
func (b *browser) choose(scope, name, option string) {
	b.t.Helper()
	b.click("the "+name+" box", fmt.Sprintf(`cx.chosen(%s, %s)`, jsString(scope), jsString(name)))
	// (typed into the box's search field, as a user narrows a long list)
	search := fmt.Sprintf(`cx.chosenSearch(%s, %s)`, jsString(scope), jsString(name))
	if b.eval(search+` ? "yes" : ""`) != "" {
		b.do("search "+name, chromedp.SendKeys(chromedp.JSPath(withHelpers(search)), option))
	}
	b.click(option+" of "+name, fmt.Sprintf(`cx.chosenOption(%s, %s, %s)`, jsString(scope), jsString(name), jsString(option)))
}

// waitGone waits until nothing matching css is visible (a dialog closed).
func (b *browser) waitGone(css string) {
	b.t.Helper()
	b.waitFor(css+" to close", fmt.Sprintf(`!cx.lastVisible(%s)`, jsString(css)))
}

// untilShown does step (a click that loads or reloads what the page
// shows) and waits a few seconds for the predicate, again and again,
// until it holds or waitLimit passed: for pages and dialogs that show a
// server's state as of their loading while that state is still settling
// (offsets a consumer commits every few seconds).
func (b *browser) untilShown(what, predicate string, step func()) {
	b.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		step()
		err := b.holds(predicate, 3*time.Second)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			b.failWaiting(what, err)
		}
	}
}

// refreshUntil clicks refresh (a script expression naming the element)
// until the page shows what the predicate wants (untilShown).
func (b *browser) refreshUntil(what, refreshJS, predicate string) {
	b.t.Helper()
	b.untilShown(what, predicate, func() { b.click("refresh for "+what, refreshJS) })
}
