// Package protocol holds what Java keeps in org.apache.rocketmq's
// common.protocol (remoting.protocol in 5.x): the JSON bodies the name
// server, the brokers and the clients exchange, and the constants they
// carry. Routes (TopicRouteData, QueueData, BrokerData), cluster info,
// topic lists, DataVersion, topic configs and their serialize wrapper, the
// REGISTER_BROKER body (plain and the zlib-compressed form), KVTable and
// java.util.Properties text; the client bodies (HeartbeatData, the lock
// and check-client bodies, consumer status); the admin bodies (consume and
// topic stats, connections, group lists, broker stats); and the broker's
// config documents, its config/*.json files: topics, consumer offsets,
// delay offsets, subscription groups and consumer filters (all but the
// last are also the bodies of the admin codes that return them). Beside
// them: permissions, topic flags, MQVersion ordinals and the release Line.
//
// Each body is read with package fastjson's lenient reader, as Java reads
// it with fastjson: every body a client or a tool sends, whatever client
// wrote it. The config documents and the admin bodies are written per
// release Line (4.x or 5.x field set), compact by AppendJSON, the files
// in fastjson's PrettyFormat. The formats are drawn next to their types.
//
// The files:
//
//	route.go               TopicRouteData, QueueData, BrokerData: routes
//	cluster_info.go        ClusterInfo (GET_BROKER_CLUSTER_INFO)
//	topic_list.go          TopicList (the topic list codes)
//	kv_table.go            KVTable: GET_KVLIST_BY_NAMESPACE, runtime info
//	data_version.go        DataVersion
//	register_broker.go     REGISTER_BROKER: TopicConfigSerializeWrapper, its body and result
//	compressed.go          the zlib-compressed REGISTER_BROKER body
//	topic_config.go        TopicConfig and its enums
//	config_topics.go       topics.json, per release line
//	config_offsets.go      consumerOffset.json and delayOffset.json
//	subscription_group.go  SubscriptionGroupConfig and subscriptionGroup.json
//	consumer_filter.go     consumerFilter.json
//	heartbeat.go           HeartbeatData: producers, consumers and their subscriptions
//	client_bodies.go       the lock, unlock and check-client bodies a consumer sends
//	pull.go                PULL_MESSAGE's sysFlag bits; retry and dead letter topics
//	consume_stats.go       MessageQueue, ConsumeStats, OffsetWrapper, ResetOffsetBody
//	topic_stats.go         TopicStatsTable, TopicOffset
//	broker_stats.go        broker and consume stats, consume time spans, consumer status
//	group_list.go          GroupList (QUERY_TOPIC_CONSUME_BY_WHO)
//	connection.go          Connection and the producer/consumer connection bodies
//	ha_runtime_info.go     HARuntimeInfo (GET_BROKER_HA_STATUS, 5.x)
//	controller.go          the controller codes' bodies (5.x): SyncStateSet, BrokerReplicasInfo, elections
//	pop.go                 POP (5.x): the handle, the offset strings, the revive topic's records
//	recall.go              the recall handle of a timer message (5.x): built on send, decoded by RECALL_MESSAGE
//	request_mode.go        the message request modes (5.x): SET_MESSAGE_REQUEST_MODE, messageRequestMode.json
//	consumer_order_info.go orderly POP's consumerOrderInfo.json (5.x): OrderInfo per queue
//	admin_reads.go         the decoders of the admin bodies an admin client reads
//	java_strings.go        the toString of TopicConfig and SubscriptionGroupConfig, perm2String
//	collections.go         the collections of Java's bodies as fastjson fills them
//	version.go             MQVersion ordinals that change an answer
//	line.go                Line: the release line (4.x or 5.x field sets), the local proxy's field
//	system_topics.go       TopicValidator's system topic set of each line
package protocol
