// Package store will hold the commitlog, consume queues, index files,
// checkpoint, recovery, flush and retention, byte-compatible with the Java
// broker's store directory. It imports neither remoting nor broker; see the
// open issues for where it stands.
package store
