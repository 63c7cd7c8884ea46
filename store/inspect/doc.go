// Package inspect reads a store directory, Java's or ours, for operators
// and for the compatibility proofs: it dumps every message, the index
// lookups and the queue bounds in the line formats the Java-side tool
// (compat/storetool StoreDump, which reads through the Java broker's own
// DefaultMessageStore) writes, and verifies that commitlog, consume queues
// and index agree.
//
// The files:
//
//	dump.go    DumpMessages and the other dumps, in the Java-side tool's line formats
//	verify.go  Verify: commitlog, consume queues and index agree
//	sample.go  WriteSample: the sample topics the Java broker's store code reads back
package inspect
