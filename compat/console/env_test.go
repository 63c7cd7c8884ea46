package console

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// settings are what run.sh tells the test: which console, where it and the
// servers are, and where the pages go.
type settings struct {
	consoleURL string // CONSOLE_URL, e.g. http://127.0.0.1:18080
	version    string // CONSOLE_VERSION: 1.0.0 or 2.1.0
	namesrv    string // NAMESRV_ADDR
	broker     string // BROKER_ADDR
	brokerName string // BROKER_NAME
	cluster    string // CLUSTER_NAME
	out        string // CONSOLE_OUT: pages/ and shots/ of this run
}

// settingsOf reads the settings, skipping the test when run.sh did not
// set them (go test ./... in this folder alone proves nothing).
func settingsOf(t *testing.T) settings {
	s := settings{
		consoleURL: os.Getenv("CONSOLE_URL"),
		version:    os.Getenv("CONSOLE_VERSION"),
		namesrv:    os.Getenv("NAMESRV_ADDR"),
		broker:     os.Getenv("BROKER_ADDR"),
		brokerName: os.Getenv("BROKER_NAME"),
		cluster:    os.Getenv("CLUSTER_NAME"),
		out:        os.Getenv("CONSOLE_OUT"),
	}
	if s.consoleURL == "" || s.namesrv == "" || s.out == "" {
		t.Skip("CONSOLE_URL, NAMESRV_ADDR and CONSOLE_OUT are set by compat/console/run.sh")
	}
	return s
}

// masker replaces what differs from run to run in a page's text (times,
// message ids, addresses, client ids, process ids) so that the page on
// the Java servers and on ours can be compared line by line.
type masker struct {
	numbers  bool   // also every number: pages of rates, sizes and clocks
	keysOnly bool   // "key | value" lines keep their key: pages of live figures
	noClient bool   // client ids left out: which client a queue has is the client's to say
	out      string // the run's folder (the servers' stores are in it), shown as <out>
}

var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	// 2026-12-06 03:55:21(.123), 2026-12-06T03:55:21, 2026-12-06 03:55
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?`), "<time>"},
	// Tue Dec 06 03:55:21 UTC 2026 (java.util.Date's toString)
	{regexp.MustCompile(`[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} [A-Z]{3,4} \d{4}`), "<time>"},
	// 12/6/2026, 6:35:23 AM (JavaScript's toLocaleString in en-US)
	{regexp.MustCompile(`\d{1,2}/\d{1,2}/\d{4}, \d{1,2}:\d{2}:\d{2} [AP]M`), "<time>"},
	// a client id: ip@pid#..., ip@instance
	{regexp.MustCompile(`\d+\.\d+\.\d+\.\d+@[\w#.\-]+`), "<clientId>"},
	// ip:port
	{regexp.MustCompile(`\d+\.\d+\.\d+\.\d+:\d+`), "<addr>"},
	// message ids and unique keys: 32 hex digits
	// (IPv4 ids have 32, IPv6 offset ids 56)
	{regexp.MustCompile(`\b[0-9A-Fa-f]{32}([0-9A-Fa-f]{8}|[0-9A-Fa-f]{24})?\b`), "<msgid>"},
	// epoch milliseconds, and nanoseconds (the Go client's subscription
	// versions)
	{regexp.MustCompile(`\b1[6-9]\d{11}\b`), "<ms>"},
	{regexp.MustCompile(`\b1[6-9]\d{17}\b`), "<ns>"},
}

var number = regexp.MustCompile(`\d+(\.\d+)?`)

func (m masker) mask(s string) string {
	if m.out != "" {
		s = strings.ReplaceAll(s, m.out, "<out>")
	}
	for _, r := range masks {
		s = r.re.ReplaceAllString(s, r.with)
	}
	if m.numbers {
		s = number.ReplaceAllString(s, "<n>")
	}
	if m.noClient {
		s = strings.ReplaceAll(s, " <clientId> ", " ")
	}
	if m.keysOnly {
		s = keyValue.ReplaceAllString(s, "$1")
	}
	return s
}

// keyValue is a line of a two-column table: key | value.
var keyValue = regexp.MustCompile(`(?m)^([^|\n]+?) \|( [^|\n]*)?$`)

// plain masks run-to-run values; numeric masks every number too; keys
// keeps the keys of key | value tables; clientless drops client ids.
var (
	plain      = masker{}
	numeric    = masker{numbers: true}
	keys       = masker{keysOnly: true}
	clientless = masker{noClient: true}
)

// lines splits a page's text into its lines.
func lines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}
