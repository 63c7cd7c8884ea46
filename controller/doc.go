// Package controller is RocketMQ 5's controller (RIP-44): it hands out
// the controller ids of the brokers of a broker set, keeps each set's
// master, master epoch and SyncStateSet, elects a new master when one
// dies and tells the set. Java's brokers and ours drive it with the same
// request codes, headers, bodies and remarks as Java's DLedger controller
// (docs/reference/controller.md, §3-§6); mqadmin's controller commands
// read and change it.
//
// It runs inside the name server (enableControllerInNamesrv=true,
// cmd/rmqgo-namesrv) or alone (bin/mqcontroller, cmd/rmqgo-controller),
// configured by Java's ControllerConfig keys. Several controllers agree
// through hashicorp/raft: the tables change only by events committed to
// the Raft log and applied on every member; the leader alone serves
// the state-changing and state-reading requests, one at a time, each
// answered after its events commit; every member keeps its own heartbeat
// table, since brokers heartbeat to all of them. The Raft peers share the
// controller's port, as DLedger's do, and speak TLS to it when the client
// side should (tls.enable; unset, tls.server.mode=enforcing), as DLedger's
// remoting does; an enforcing port refuses a plaintext peer (raft.go).
// With jRaft keys the Raft listener of its own serves TLS only in
// enforcing mode, plaintext otherwise. A group of Java controllers cannot
// take an rmqgo member (their consensus is DLedger's): a group is all Java
// or all rmqgo.
//
// The files:
//
//	doc.go              this map
//	options.go          Options, their defaults, and the settings an update changes at once
//	config.go           Options from Java's ControllerConfig, Launch (what both mains start); the configuration requests' source
//	controller.go       Controller: New, Start, Close, leadership, the leader's request scheduler, the routes
//	state.go            the replicated tables (ReplicasInfoManager's) and how events change them
//	events.go           the events and the Raft log entry that carries them
//	snapshot.go         the Raft state machine and its snapshots
//	raft.go             the Raft member: store, transport on the shared port (plaintext or TLS), logging
//	answer.go           a request's answer before its commit; reading headers as Java does
//	liveness.go         inactive brokers, the inactive-master scan, elections the controller starts, notifications
//
// Request handlers, one file per family (each opens with its codes):
//
//	ids.go              CONTROLLER_GET_NEXT_BROKER_ID, CONTROLLER_APPLY_BROKER_ID, CONTROLLER_REGISTER_BROKER
//	elect.go            CONTROLLER_ELECT_MASTER and the election policy
//	sync_state.go       CONTROLLER_ALTER_SYNC_STATE_SET, CONTROLLER_GET_REPLICA_INFO, CONTROLLER_GET_SYNC_STATE_DATA
//	clean.go            CLEAN_BROKER_DATA
//	heartbeat.go        BROKER_HEARTBEAT and the heartbeat table
//	metadata.go         CONTROLLER_GET_METADATA_INFO
//	config_requests.go  UPDATE_CONTROLLER_CONFIG, GET_CONTROLLER_CONFIG
package controller
