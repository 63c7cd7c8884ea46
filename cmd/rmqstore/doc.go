// Command rmqstore inspects a broker store directory, written by the Java
// broker or by rmqgo: it lists the files, verifies every record, queue unit
// and index key, prints messages, and dumps everything as JSON lines in the
// format of the Java-side dump tool (compat/storetool). It opens the store
// read-only unless -recover is given, so it is safe on a copy of a live
// store; with -recover it takes the store's lock and recovers it as a
// broker start would.
//
//	rmqstore ls      [-c broker.conf] [-dir store]
//	rmqstore verify  [-c broker.conf] [-dir store] [-index]
//	rmqstore print   [-c broker.conf] [-dir store] -offset N
//	rmqstore print   [-c broker.conf] [-dir store] -topic T [-queue Q] [-from N] [-n N]
//	rmqstore dump    [-c broker.conf] [-dir store] [-o outdir]
//	rmqstore gen     [-c broker.conf] -dir store [-n N]
//
// The files:
//
//	main.go      the subcommand table, flags, opening the store
//	commands.go  ls, verify, print and dump
//	gen.go       gen: the sample store (store/inspect's WriteSample)
package main
