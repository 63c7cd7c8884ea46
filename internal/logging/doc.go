// Package logging builds the zap loggers of the servers. Logs go where
// RocketMQ operators look, ${user.home}/logs/rocketmqlogs/<name>.log, in a
// line format like Java's logback pattern, rolling by size into
// otherdays/<name>.<i>.log.gz as Java's FixedWindowRollingPolicy does.
//
// The files:
//
//	logging.go  New: the logger of one server, its line format and boot line
//	roll.go     the log file rolled by size into otherdays/<name>.<i>.log.gz
package logging
