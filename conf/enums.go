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

// MetricsExporterType is BrokerConfig.metricsExporterType, Java's
// MetricsExporterType enum held by its constant name; Java's setters
// take the ordinal too, which Kind maps.
type MetricsExporterType string

// The exporter types.
const (
	MetricsDisable  MetricsExporterType = "DISABLE"
	MetricsOtlpGrpc MetricsExporterType = "OTLP_GRPC"
	MetricsProm     MetricsExporterType = "PROM"
	MetricsLog      MetricsExporterType = "LOG"
)

func (MetricsExporterType) javaEnumNames() []string {
	return []string{string(MetricsDisable), string(MetricsOtlpGrpc), string(MetricsProm), string(MetricsLog),
		"0", "1", "2", "3"}
}

// Kind is the exporter an ordinal names (MetricsExporterType.valueOf(int):
// 1 OTLP_GRPC, 2 PROM, 3 LOG, else DISABLE), or t itself.
func (t MetricsExporterType) Kind() MetricsExporterType {
	switch t {
	case "1":
		return MetricsOtlpGrpc
	case "2":
		return MetricsProm
	case "3":
		return MetricsLog
	case "0":
		return MetricsDisable
	}
	return t
}

// Permission bits of PermName, used by the brokerPermission default.
const (
	permRead  = 1 << 2
	permWrite = 1 << 1
)

// cqUnitSize is the size of one consume-queue unit (ConsumeQueue.CQ_STORE_UNIT_SIZE).
const cqUnitSize = 20
