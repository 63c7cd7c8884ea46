package startup

import (
	"runtime/debug"

	"github.com/rmqgo/rmqgo/conf"
)

// DefaultGCPercent is the garbage collector's target a server runs with
// when GOGC is not set: the heap may grow to five times what is live
// before a collection, where Go's default is twice. A broker's live heap
// is a few megabytes while it allocates a few kilobytes per message, so
// this trades some megabytes of memory for a quarter of the collections.
// GOGC, when set, wins as it always does.
const DefaultGCPercent = 400

// TuneGC applies DefaultGCPercent unless GOGC is set, and takes the heap
// size a deployment gives the JVM (-Xmx in JAVA_OPT_EXT, JAVA_OPT,
// HEAP_OPTS or MAX_HEAP_SIZE: conf.Env.HeapLimit) as the Go runtime's
// memory limit unless GOMEMLIMIT is set: a container sized for a 512 MB
// Java heap keeps this server's memory under the same figure.
func TuneGC(env conf.Env) {
	if _, ok := env.Var("GOGC"); !ok {
		debug.SetGCPercent(DefaultGCPercent)
	}
	if _, ok := env.Var("GOMEMLIMIT"); !ok {
		if limit, ok := env.HeapLimit(); ok {
			debug.SetMemoryLimit(limit)
		}
	}
}
