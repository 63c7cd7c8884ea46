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
//
// The server and its tables:
//
//	server.go            NameServer: New, Start, Close, the housekeeping scan
//	options.go           Options and their defaults and checks
//	settings.go          the NamesrvConfig flags read on every request (atomics)
//	header.go            reading a request's custom header as Java fills one
//	route_table.go       routeTable: live brokers, registration (RouteInfoManager)
//	route_query.go       routes, cluster info and topic lists read from the table
//	route_unregister.go  a broker leaving: unregistered, disconnected or expired
//	kv_store.go          kvStore: the KV config and its kvConfigPath file
//
// Handlers (one file per request code or tight family):
//
//	register_broker.go     REGISTER_BROKER (103)
//	unregister_broker.go   UNREGISTER_BROKER (104)
//	broker_heartbeat.go    BROKER_HEARTBEAT (904, 5.x)
//	query_data_version.go  QUERY_DATA_VERSION (322)
//	route_info.go          GET_ROUTEINFO_BY_TOPIC (105), 5.x zone routing
//	cluster_info.go        GET_BROKER_CLUSTER_INFO (106), GET_BROKER_MEMBER_GROUP (901, 5.x)
//	topic_list.go          the topic list codes (all, by cluster, system, unit)
//	topic_admin.go         DELETE_TOPIC_IN_NAMESRV (216), REGISTER_TOPIC_IN_NAMESRV (217, 5.x)
//	write_perm.go          WIPE_WRITE_PERM_OF_BROKER (205), ADD_WRITE_PERM_OF_BROKER (327)
//	kv_config.go           the KV config codes (PUT, GET, DELETE, by namespace)
//	namesrv_config.go      UPDATE_NAMESRV_CONFIG (318), GET_NAMESRV_CONFIG (319)
package namesrv
