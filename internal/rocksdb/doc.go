// Package rocksdb reads and writes, in pure Go, the small RocksDB
// databases the Java 5.3.3 broker keeps its configuration in
// (ConfigRocksDBStorage over rocketmq-rocksdb 1.0.2, RocksDB 8.x): the
// ACL 2.0 users (config/users) and ACLs (config/acls).
//
// Read gives the latest value of each key of each column family, as
// RocksDB would after opening the directory, whether Java left it after a
// clean shutdown (the memtables flushed to SST files) or after a kill
// (the writes in the WAL). Write replaces the database with a new one that
// holds exactly the given keys, in a WAL that RocksDB replays on open.
//
// A directory (on-disk format: do not change):
//
//	CURRENT          "MANIFEST-<n>\n": the MANIFEST in use (renamed into place)
//	MANIFEST-<n>     VersionEdits (manifest.go) in log records (log.go)
//	<n>.log          WAL: WriteBatches (batch.go) in log records
//	<n>.sst          block-based tables (sst.go), the flushed writes
//	IDENTITY, LOCK, OPTIONS-<n>, LOG*: not read; kept by Write
//
// File numbers are printed with at least six digits ("%06d"). What is not
// supported is refused with ErrUnsupported: merges, range deletions, blob
// files, wide columns, compressions other than none, Snappy and ZSTD,
// SST format_version 0 and 6. Checksums of SST blocks are not verified;
// log records' are.
//
// The files:
//
//	db.go        Read: every family's latest values, from the MANIFEST, SSTs and WAL
//	write.go     Write: a new database (MANIFEST, CURRENT, WAL) holding given keys
//	manifest.go  VersionEdits: column families, live SST files, WAL numbers
//	log.go       the log format of the WAL and the MANIFEST (32 KiB blocks, fragments)
//	batch.go     WriteBatch, the payload of a WAL record
//	sst.go       reading block-based tables (SST files)
//	coding.go    RocksDB's integer and slice encodings (util/coding.h)
package rocksdb
