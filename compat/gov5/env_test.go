// What every test needs from its environment: the servers' addresses (or a
// skip when there is no proxy), unique names, and polling with a deadline.
package gov5

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"testing"
	"time"
)

// servers is where the proxy, the name server and the broker the tests use
// listen.
type servers struct {
	proxy   string // PROXY_ADDR: the gRPC endpoint of the proxy inside broker-a
	namesrv string // NAMESRV_ADDR: routes are awaited there
	broker  string // BROKER_ADDR: topics and groups are created there
}

// serversOf reads PROXY_ADDR, NAMESRV_ADDR and BROKER_ADDR, and skips the
// test when any is unset.
func serversOf(t *testing.T) servers {
	t.Helper()
	s := servers{proxy: os.Getenv("PROXY_ADDR"), namesrv: os.Getenv("NAMESRV_ADDR"), broker: os.Getenv("BROKER_ADDR")}
	if s.proxy == "" {
		t.Skip("PROXY_ADDR is not set: start the servers with PROXY=1 compat/ref-servers.sh start 5 and source $RUN_DIR/env.sh (or use run.sh)")
	}
	if s.namesrv == "" || s.broker == "" {
		t.Skip("NAMESRV_ADDR or BROKER_ADDR is not set (see $RUN_DIR/env.sh)")
	}
	return s
}

// unique makes a topic or group name no other test or run uses: the prefix,
// the time in base 36 and a random suffix (letters, digits and '_' only).
func unique(prefix string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return prefix + "_" + strconv.FormatInt(time.Now().UnixNano(), 36) + "_" + hex.EncodeToString(b)
}

// Deadlines: a route the name server learns in the background, a delivery,
// and the slower ones (a retry after a failed or un-acked delivery, a
// transaction check-back).
const (
	routeWait    = 45 * time.Second
	deliveryWait = 60 * time.Second
	retryWait    = 120 * time.Second
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
