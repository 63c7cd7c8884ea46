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

// DefaultMemoryLimit is the Go runtime's soft memory limit when neither
// GOMEMLIMIT nor a JVM heap size is set: with DefaultGCPercent the heap
// may grow to five times what is live, but not past this while what is
// live stays under it. Under load a broker's live heap is a few tens of
// megabytes (docs/memory.md); a store with far more topics, groups or
// connections than that wants a larger limit (GOMEMLIMIT, or -Xmx as for
// the JVM), or the collector runs more often near the limit (at most half
// the CPU, Go's cap) instead of the heap growing.
const DefaultMemoryLimit = 128 << 20

// TuneGC applies DefaultGCPercent unless GOGC is set, and unless
// GOMEMLIMIT is set, a memory limit: the heap size a deployment gives the
// JVM (-Xmx in JAVA_OPT_EXT, JAVA_OPT, HEAP_OPTS or MAX_HEAP_SIZE:
// conf.Env.HeapLimit), so that a container sized for a 512 MB Java heap
// keeps this server's memory under the same figure, or else
// DefaultMemoryLimit.
func TuneGC(env conf.Env) {
	if _, ok := env.Var("GOGC"); !ok {
		debug.SetGCPercent(DefaultGCPercent)
	}
	if _, ok := env.Var("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(memoryLimit(env))
	}
}

// memoryLimit is the limit TuneGC sets when GOMEMLIMIT is not set.
func memoryLimit(env conf.Env) int64 {
	if limit, ok := env.HeapLimit(); ok {
		return limit
	}
	return DefaultMemoryLimit
}
