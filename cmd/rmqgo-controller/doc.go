// Command rmqgo-controller is the stand-alone 5.x controller. It takes the
// command line of Apache RocketMQ's ControllerStartup (-c file, -p, -h; -n
// is accepted and has no effect, as in Java) and its controller.conf keys,
// logs to ${user.home}/logs/rocketmqlogs/controller.log and prints the
// same boot line. bin/mqcontroller execs it.
//
// The files:
//
//	main.go  flags, logging, the controller's start and its wait for a signal
package main
