package startup

import (
	"io"
	"math"
	"net/http"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
)

func TestTuneGCRaisesTheTargetUnlessGOGCIsSet(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	TuneGC(conf.Env{Vars: map[string]string{"GOGC": "100"}})
	assert.Equal(t, 100, debug.SetGCPercent(100), "GOGC set: left alone")

	TuneGC(conf.Env{})
	assert.Equal(t, DefaultGCPercent, debug.SetGCPercent(100))
}

func TestTuneGCLimitsMemoryUnlessGOMEMLIMITIsSet(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })

	debug.SetMemoryLimit(math.MaxInt64)
	TuneGC(conf.Env{Vars: map[string]string{"GOMEMLIMIT": "1GiB"}})
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "GOMEMLIMIT set: left alone")

	TuneGC(conf.Env{})
	assert.Equal(t, int64(DefaultMemoryLimit), debug.SetMemoryLimit(-1), "nothing set: the default")

	TuneGC(conf.Env{Vars: map[string]string{"JAVA_OPT_EXT": "-Xms512m -Xmx512m"}})
	assert.Equal(t, int64(512<<20), debug.SetMemoryLimit(-1), "the JVM's -Xmx")
}

func TestServeProfilesOnlyWhenAsked(t *testing.T) {
	assert.Empty(t, ServeProfiles(conf.Env{}, zap.NewNop()))

	addr := ServeProfiles(conf.Env{Vars: map[string]string{ProfileAddrVar: "127.0.0.1:0"}}, zap.NewNop())
	require.NotEmpty(t, addr)
	resp, err := http.Get("http://" + addr + "/debug/pprof/goroutine?debug=1")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "goroutine profile")
}
