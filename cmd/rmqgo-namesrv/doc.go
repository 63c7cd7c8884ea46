// Command rmqgo-namesrv is the name server. It takes the command line of
// Apache RocketMQ's NamesrvStartup (-c file, -p, -h; -n is accepted and has
// no effect, as in Java), logs to ${user.home}/logs/rocketmqlogs/namesrv.log
// and prints the same boot line. bin/mqnamesrv execs it.
//
// The files:
//
//	main.go  flags, logging, the name server's start and its wait for a signal
package main
