package conf

// BrokerRole is MessageStoreConfig.brokerRole, Java's BrokerRole enum held by
// its constant name.
type BrokerRole string

// The broker roles.
const (
	AsyncMaster BrokerRole = "ASYNC_MASTER"
	SyncMaster  BrokerRole = "SYNC_MASTER"
	Slave       BrokerRole = "SLAVE"
)

func (BrokerRole) javaEnumNames() []string {
	return []string{string(AsyncMaster), string(SyncMaster), string(Slave)}
}

// IsMaster reports ASYNC_MASTER or SYNC_MASTER.
func (r BrokerRole) IsMaster() bool { return r == AsyncMaster || r == SyncMaster }

// FlushDiskType is MessageStoreConfig.flushDiskType, Java's FlushDiskType
// enum held by its constant name.
type FlushDiskType string

// The flush types.
const (
	AsyncFlush FlushDiskType = "ASYNC_FLUSH"
	SyncFlush  FlushDiskType = "SYNC_FLUSH"
)

func (FlushDiskType) javaEnumNames() []string {
	return []string{string(AsyncFlush), string(SyncFlush)}
}

// Permission bits of PermName, used by the brokerPermission default.
const (
	permRead  = 1 << 2
	permWrite = 1 << 1
)

// cqUnitSize is the size of one consume-queue unit (ConsumeQueue.CQ_STORE_UNIT_SIZE).
const cqUnitSize = 20
