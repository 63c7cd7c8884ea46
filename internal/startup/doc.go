// Package startup holds what the server mains share: the RocketMQ home a
// binary run on its own assumes, the log they open, waiting for the stop
// signal, and Java's exit statuses.
//
// The files:
//
//	startup.go  ROCKETMQ_HOME default, the log, stop signals, exit statuses
//	gc.go       TuneGC: GOGC=400 and a memory limit from the JVM heap options
//	profile.go  ServeProfiles: Go's runtime profiles on RMQGO_PPROF
package startup
