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
package protocol
