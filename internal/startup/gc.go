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

// TuneGC applies DefaultGCPercent unless GOGC is set.
func TuneGC(env conf.Env) {
	if _, ok := env.Var("GOGC"); ok {
		return
	}
	debug.SetGCPercent(DefaultGCPercent)
}
