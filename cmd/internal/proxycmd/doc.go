// Package proxycmd is the stand-alone proxy's command (mqproxy, cluster
// mode): ProxyStartup's command line, the log, the proxy's start and its
// wait for a signal. cmd/rmqgo-proxy runs it, and so does rmqgo-broker
// when it is started as rmqgo-proxy (a link to it: the images carry one
// binary for both).
//
//	proxycmd.go  Run, its flags, the start
package proxycmd
