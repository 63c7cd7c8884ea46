package store

import "errors"

// Sentinel errors; callers branch with errors.Is. Each is wrapped with the
// detail (file, offset) where it happens.
var (
	// ErrCorrupt: a file of the store directory is not what the Java broker
	// would have written (wrong size, bad name, bad record).
	ErrCorrupt = errors.New("store: corrupt store file")
	// ErrCreateFile: a new mapped file could not be created (disk full,
	// permissions).
	ErrCreateFile = errors.New("store: cannot create mapped file")
	// ErrLocked: another process (a Java or Go broker) holds the store's
	// lock file.
	ErrLocked = errors.New("store: lock failed, MQ already started")
	// ErrClosed: the store has been closed.
	ErrClosed = errors.New("store: closed")
	// ErrReadOnly: a write was attempted on a store opened read-only.
	ErrReadOnly = errors.New("store: opened read-only")
	// ErrOptions: the options are unusable; the message says which.
	ErrOptions = errors.New("store: bad options")
	// ErrUnsupported: the directory uses a Java store mode this store does
	// not implement (DLedger commitlog, RocksDB consume queues...).
	ErrUnsupported = errors.New("store: unsupported store mode")
	// ErrReplication: an HA peer broke the replication protocol (an offset
	// that does not follow the commitlog, a frame that does not fit).
	ErrReplication = errors.New("store: replication")
)
