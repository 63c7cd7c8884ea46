// Package namesrv is the name server: brokers register their topics here,
// clients, tools and the dashboard ask it for routes, cluster info, topic
// lists and KV config. It answers every request code of Java's
// DefaultRequestProcessor and ClientRequestProcessor (4.9.8 and 5.3.3) with
// the same codes, remarks and body shapes.
//
// One routeTable owns the tables of Java's RouteInfoManager under one
// RWMutex; a kvStore owns the KV config and its file. A broker is dropped
// when its connection closes, when it unregisters, or when it has not
// registered (or sent a heartbeat) within its timeout (120 s unless it
// sent heartbeatTimeoutMillis), checked every ScanNotActiveBrokerInterval
// (5 s, as 5.x; 4.9.8 checks every 10 s).
//
// Handlers live one file per request code or tight family; each file
// starts with the codes, header fields, response codes and differences
// from Java.
package namesrv
