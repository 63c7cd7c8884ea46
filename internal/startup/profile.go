package startup

import (
	"net"
	"net/http"
	"net/http/pprof"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
)

// ProfileAddrVar names the environment variable that, when set to a
// "host:port", makes a server serve Go's runtime profiles there
// (/debug/pprof/, for `go tool pprof`). Unset, nothing listens.
const ProfileAddrVar = "RMQGO_PPROF"

// ServeProfiles serves the runtime profiles on $RMQGO_PPROF when it is set
// and returns the address it listens on ("" when it does not). A port that
// cannot be bound is logged and otherwise ignored: profiling never keeps a
// server from starting.
func ServeProfiles(env conf.Env, log *zap.Logger) string {
	addr, ok := env.Var(ProfileAddrVar)
	if !ok || addr == "" {
		return ""
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Warn("profiles not served", zap.String(ProfileAddrVar, addr), zap.Error(err))
		return ""
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	log.Info("serving runtime profiles on http://" + ln.Addr().String() + "/debug/pprof/")
	go func() { _ = http.Serve(ln, mux) }()
	return ln.Addr().String()
}
