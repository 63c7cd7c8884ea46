package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
)

func testEnv(home string) conf.Env {
	return conf.Env{Vars: map[string]string{"ROCKETMQ_HOME": home}, SysProps: map[string]string{"user.home": home},
		HostName: "host", LocalAddress: "127.0.0.1", NumCPU: 2}
}

func TestPrintConfigItems(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "broker.conf")
	require.NoError(t, os.WriteFile(file, []byte("brokerName=broker-x\nlistenPort=20911\nflushDiskType=SYNC_FLUSH\n"), 0o644))
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, run([]string{"-c", file, "-p"}, testEnv(home), &out, &errOut))
	assert.Contains(t, out.String(), "brokerName=broker-x\n")
	assert.Contains(t, out.String(), "listenPort=20911\n")
	assert.Contains(t, out.String(), "flushDiskType=SYNC_FLUSH\n")
}

func TestUnknownOptionPrintsUsageAndExitsOne(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, run([]string{"-x"}, testEnv(t.TempDir()), &out, &errOut))
	assert.Contains(t, out.String(), "usage: mqbroker")
}

func TestBadConfigLineIsReportedWithFileAndLine(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "broker.conf")
	require.NoError(t, os.WriteFile(file, []byte("# test\nlistenPort=abc\n"), 0o644))
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, run([]string{"-c", file, "-p"}, testEnv(home), &out, &errOut))
	assert.Contains(t, errOut.String(), file+":2")
}

// freePorts finds a port p with p, p-2 (the VIP port) and p+1 (the HA
// port) free.
func freePorts(t *testing.T) int {
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if portsFree(p-2, p+1) {
			return p
		}
	}
	t.Fatal("no free port set")
	return 0
}

// portsFree tells whether each port can be listened on.
func portsFree(ports ...int) bool {
	for _, p := range ports {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}

// The binary prints Java's boot line, serves, and on SIGTERM shuts down
// cleanly: exit status 0, Java's shutdown lines in broker.log, and a store
// that the next start finds closed cleanly (no abort file).
func TestBinaryBootsAndStopsCleanlyOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	home := t.TempDir()
	bin := filepath.Join(home, "rmqgo-broker")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	port := freePorts(t)
	file := filepath.Join(home, "broker.conf")
	require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf("brokerName=broker-x\nlistenPort=%d\nbrokerIP1=127.0.0.1\n"+
		"storePathRootDir=%s/store\nstorePathCommitLog=%s/store/commitlog\nmappedFileSizeCommitLog=1048576\n", port, home, home)), 0o644))
	cmd := exec.Command(bin, "-c", file)
	cmd.Env = append(os.Environ(), "ROCKETMQ_HOME="+home, "JAVA_OPT_EXT=-Duser.home="+home)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Wait() // stderr is complete once the process is gone
		t.Fatalf("no boot line (%v); stderr: %s", err, stderr.String())
	}
	assert.Equal(t, fmt.Sprintf("The broker[broker-x, 127.0.0.1:%d] boot success. serializeType=JSON\n", port), line)
	for _, p := range []int{port, port - 2} {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", p), 5*time.Second)
		require.NoError(t, err, "port %d serves", p)
		c.Close()
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait())
	log, err := os.ReadFile(filepath.Join(home, "logs", "rocketmqlogs", "broker.log"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "Shutdown hook was invoked")
	assert.Contains(t, string(log), "Shutdown hook over")
	_, err = os.Stat(filepath.Join(home, "store", "abort"))
	assert.True(t, os.IsNotExist(err), "a clean stop removes the abort file")
	assert.True(t, strings.Contains(string(log), "broker stopped"))
	_, err = os.Stat(filepath.Join(home, "logs", "rocketmqlogs", "stats.log"))
	assert.NoError(t, err, "stats.log is where Java keeps it")
}
