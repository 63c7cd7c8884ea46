// Command rmqgo-proxy is the stand-alone proxy (cluster mode): the 5.x
// gRPC clients' MessagingService (package proxy) in front of the brokers
// of namesrvAddr, ours or Java's. It takes ProxyStartup's command line
// (-pc/--proxyConfigPath rmq-proxy.json, -n/--namesrvAddr, -pm/--proxyMode,
// -h) and prints its boot line; bin/mqproxy execs it.
//
// The files:
//
//	main.go  the command line, the log, the proxy's start and its wait for a signal
package main
