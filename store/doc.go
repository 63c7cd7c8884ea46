// Package store is the broker's message store, byte-compatible with the
// Java broker's store directory (either broker starts on the other's):
// the commitlog (commitlog.go, record.go, put.go), the consume queues
// (consume_queue*.go) and index files (index_*.go) that the dispatcher
// builds from it (dispatch.go), the checkpoint, abort and lock files
// (checkpoint.go), recovery of a store that was not closed (recovery.go;
// where it starts, recovery_start.go: after a crash only what the
// checkpoint does not cover is read again), flushing (sync
// group commit or async, flush.go), retention (retention.go,
// clean_queues.go) and the reads (get.go, query.go, walk.go; finding an
// offset by time as each Java line does, time_search.go) and replication
// to slaves (Java's DefaultHAService: ha_master.go, ha_slave.go,
// ha_status.go, commitlog_raw.go; ha_flow.go meters each connection's bytes
// per second; blocking_conn.go reads and writes both protocols' connections
// with blocking system calls). Formats are drawn next to their constants.
//
// Controller mode (RIP-44: roles switched at run time by a controller)
// adds, beside those:
//
//	role.go                  the run-time role (SetRole) and the fence (SetFenced)
//	confirm_offset.go        the confirm offset: dispatch cap, checkpoint byte 32, recovery clamp
//	epoch_file.go            EpochFile: epochFileCheckpoint and .bak, FindConsistentPoint
//	truncate.go              cutting commitlog, consume queues and index back at run time
//	ha_autoswitch.go         AutoSwitchHA: the service, its listener and role changes
//	ha_autoswitch_wire.go    its frames, drawn beside their constants
//	ha_autoswitch_master.go  one slave's connection on the master
//	ha_autoswitch_slave.go   the slave's client: handshake, truncation, transfer
//	ha_autoswitch_sss.go     the SyncStateSet, the in-flight rule, proposals
//	ha_autoswitch_acks.go    the put ack rules and the master's confirm offset
//	ha_waiters.go            the puts waiting for replication, woken by the offset they wait for
//
// Below and beside those:
//
//	store.go              Store: Open, Start, Close and the services it runs
//	options.go            Options (with RetentionOptions, HAOptions) and their defaults
//	errors.go             the sentinel errors callers branch on with errors.Is
//	mapped_file.go        one memory-mapped file named by its start offset: the commitlog's
//	                      with its blocks reserved (fallocate), a queue's and an index
//	                      file sparse as Java's, first stores into a page through pwrite
//	page_warmer.go        maps the commitlog's pages ahead of the writer (MADV_POPULATE_WRITE)
//	file_queue.go         fileQueue: the ordered mapped files of one directory (MappedFileQueue)
//	lock_file.go          the store's lock file, locked as Java's FileChannel.tryLock
//	record_decode.go      decoding and checking a commitlog record at a position
//	properties.go         the message properties string (name\x01value\x02)
//	java_hash.go          Java's String.hashCode, the tags code and the index key hash
//	recovery_progress.go  read-ahead and progress lines of a long recovery scan
//	stats.go              the put and get counters, as StoreStatsService keeps them
//	whole_file.go         a small fixed-size file mapped whole (checkpoints, the timer wheel)
//
// The 5.x timer's files, which the broker's timer service owns (the Store
// does not open them):
//
//	timer_files.go        TimerFiles: open, append a unit, read a slot's chain, recover, flush
//	timer_log.go          timerlog/: the 52-byte units, chained per slot
//	timer_wheel.go        timerwheel: the 32-byte slots
//	timer_checkpoint.go   config/timercheck
//
// It imports neither remoting nor broker nor conf: it knows messages and
// files, and its Options are a plain struct (internal/storeconf builds
// them from broker.conf).
package store
