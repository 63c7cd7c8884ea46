// Command rmqgo-proxy is the stand-alone proxy (cluster mode): the 5.x
// gRPC clients' MessagingService (package proxy) in front of the brokers
// of namesrvAddr, ours or Java's. It takes ProxyStartup's command line
// (-pc/--proxyConfigPath rmq-proxy.json, -n/--namesrvAddr, -pm/--proxyMode,
// -h) and prints its boot line; bin/mqproxy execs it. The command is
// cmd/internal/proxycmd's, which rmqgo-broker also runs when started by
// this name (the images link rmqgo-proxy to rmqgo-broker).
//
// The files:
//
//	main.go  proxycmd.Main
package main
