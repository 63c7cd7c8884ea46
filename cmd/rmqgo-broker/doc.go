// Command rmqgo-broker is the broker. It takes the command line of Apache
// RocketMQ's BrokerStartup (-c broker.conf, -n namesrv list, -p, -m, -h),
// logs to ${user.home}/logs/rocketmqlogs/broker.log and prints the same boot
// line. bin/mqbroker execs it.
//
// RMQGO_LINE=5 makes it speak as a 5.3.3 broker (version and config-file
// shapes); the default is 4.9.8. --enable-proxy [-pc rmq-proxy.json] also
// serves the 5.x gRPC clients (package proxy, local mode), as
// bin/mqbroker --enable-proxy runs Java's ProxyStartup -pm local. Started
// by the name rmqgo-proxy (a link), it is the stand-alone proxy
// (cmd/internal/proxycmd), so an image carries one binary for both.
//
// The files:
//
//	main.go   the command line, the logs (with stats.log), the broker's start and its wait for a signal
//	proxy.go  --enable-proxy: the proxy's options, its rmq-proxy.json, its start
package main
