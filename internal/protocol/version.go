package protocol

// MQVersion ordinals (MQVersion.Version in Java) that change how a peer is
// answered. They travel in the version field of every command.
const (
	// VersionV3_0_11 and above register with a RegisterBrokerBody (filter
	// servers and topic configs); older brokers send the bare
	// TopicConfigSerializeWrapper.
	VersionV3_0_11 int32 = 37
	// VersionV3_4_9 and above may name maxReconsumeTimes in
	// CONSUMER_SEND_MSG_BACK.
	VersionV3_4_9 int32 = 165
	// VersionV4_9_4 and above get routes in the Standard style.
	VersionV4_9_4 int32 = 401
	// VersionV4_9_8 is the version 4.9.8 clients, brokers and tools send.
	VersionV4_9_8 int32 = 409
	// VersionV5_0_0 and above append static-topic mappings to the
	// compressed REGISTER_BROKER body.
	VersionV5_0_0 int32 = 413
	// VersionV5_3_3 is the version 5.3.3 clients, brokers and tools send.
	VersionV5_3_3 int32 = 479
)

// Permission bits of a topic (PermName), wire values: do not change.
const (
	PermInherit int32 = 1 << 0
	PermWrite   int32 = 1 << 1
	PermRead    int32 = 1 << 2
	PermPrio    int32 = 1 << 3
)

// Topic system flag bits (TopicSysFlag), wire values: do not change.
const (
	TopicSysFlagUnit    int32 = 1 << 0
	TopicSysFlagUnitSub int32 = 1 << 1
)

// MasterID is the brokerId of a master (MixAll.MASTER_ID).
const MasterID int64 = 0

// NamespaceOrderTopicConfig is the KV namespace holding order topic
// configs, "brokerName:queueNum;..." per topic (NamesrvUtil).
const NamespaceOrderTopicConfig = "ORDER_TOPIC_CONFIG"

// Extension header keys a 5.x broker or client may add (MixAll).
const (
	ExtZoneName = "__ZONE_NAME"
	ExtZoneMode = "__ZONE_MODE"
)
