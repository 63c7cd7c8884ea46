// Package protocol holds the JSON and binary bodies the name server and the
// broker exchange with Java peers: routes (TopicRouteData, QueueData,
// BrokerData), cluster info, topic lists, DataVersion, topic configs and
// their serialize wrapper, the REGISTER_BROKER body (plain and the
// zlib-compressed form), KVTable and java.util.Properties text; and the
// broker's config documents, its config/*.json files: topics
// (TopicConfigSerializeWrapper), consumer offsets, delay offsets,
// subscription groups and consumer filters (all but the last are also the
// bodies of the admin codes that return them). Those are written per release
// Line (4.x or 5.x field set), compact by AppendJSON and in fastjson's
// PrettyFormat by PrettyJSON.
//
// Encoders write exactly what Java's fastjson 1.2.x writes for the same
// object (wire format: do not change):
//
//   - bean properties in alphabetical order, null properties omitted, empty
//     collections written as [] and {};
//   - the default encoding (RemotingSerializable.encode) writes maps with
//     Long/Integer keys with the key bare, {0:"127.0.0.1:10911"}, which is
//     not standard JSON but what every Java reader expects;
//   - the route encoding for clients at or above V4_9_4 (BrowserCompatible,
//     QuoteFieldNames, SkipTransientField, MapSortField) quotes those keys,
//     {"0":"127.0.0.1:10911"}, escapes non-ASCII as \uXXXX and '/' as \/.
//
// Java writes HashMap entries in hash order; this package writes map
// entries sorted by key (numerically for integer keys), which is what
// MapSortField gives and is deterministic for tests. Java readers do not
// depend on the order.
//
// Decoders accept what fastjson accepts from Java peers: unquoted keys,
// single-quoted strings, trailing commas, a UTF-8 BOM, numbers as strings
// and strings as numbers, unknown keys (ignored) and case-insensitive
// property names.
package protocol
