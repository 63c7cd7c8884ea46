// What every test needs from its environment: the servers' addresses (or a
// skip when there are none), unique names, and polling with a deadline.
package goclient

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/rlog"
)

// TestMain keeps the Go client's own logging quiet: errors only, and into
// the file GOCLIENT_LOG names when it is set (run.sh sets it), so that the
// test output holds the tests' lines.
func TestMain(m *testing.M) {
	rlog.SetLogLevel("error")
	if path := os.Getenv("GOCLIENT_LOG"); path != "" {
		if err := rlog.SetOutputPath(path); err != nil {
			fmt.Fprintln(os.Stderr, "goclient: cannot log to", path, err)
		}
	}
	os.Exit(m.Run())
}

// servers is where the name server and the broker the tests use listen.
type servers struct {
	namesrv []string // NAMESRV_ADDR, split at ';'
	broker  string   // BROKER_ADDR: topics are created there
}

// serversOf reads NAMESRV_ADDR and BROKER_ADDR, and skips the test when
// either is unset.
func serversOf(t *testing.T) servers {
	t.Helper()
	ns := os.Getenv("NAMESRV_ADDR")
	if ns == "" {
		t.Skip("NAMESRV_ADDR is not set: start servers with compat/ref-servers.sh and source $RUN_DIR/env.sh (or use run.sh)")
	}
	broker := os.Getenv("BROKER_ADDR")
	if broker == "" {
		t.Skip("BROKER_ADDR is not set: the tests create their topics on that broker (see $RUN_DIR/env.sh)")
	}
	return servers{namesrv: strings.Split(ns, ";"), broker: broker}
}

// unique makes a topic, group or instance name no other test or run uses:
// the prefix, the time in base 36 and a random suffix (letters, digits and
// '_' only, which topic and group names allow).
func unique(prefix string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return prefix + "_" + strconv.FormatInt(time.Now().UnixNano(), 36) + "_" + hex.EncodeToString(b)
}

// Deadlines for eventually: a route or a delivery that the servers make in
// the background, and the slower ones (a retry waits for the Go client's
// route poll, every 30 s, before it learns the retry topic).
const (
	routeWait    = 45 * time.Second
	deliveryWait = 60 * time.Second
	retryWait    = 100 * time.Second
	pollEvery    = 200 * time.Millisecond
)

// eventually re-runs check until it returns nil and fails the test with
// check's last error once timeout has passed.
func eventually(t *testing.T, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, timeout, err)
		}
		time.Sleep(pollEvery)
	}
}
