// Package proxy is RocketMQ 5's proxy: the gRPC MessagingService
// (apache.rocketmq.v2, package apiv2) that the 5.x clients speak, in front
// of brokers it reaches over remoting. In local mode (mqbroker
// --enable-proxy, cmd/rmqgo-broker) it serves the broker of its process,
// whose remoting server it calls in process (remoting.InProcess: the same
// commands and handlers, no socket, nothing encoded); in cluster mode
// (mqproxy) the brokers the name servers route to.
// Consumers receive by POP (broker/pop*.go). docs/reference/proxy.md is
// Java's behaviour.
//
//	server.go     Server: the gRPC port, its options and lifecycle
//	listener.go   TLS and plaintext on one port (tls.server.mode)
//	config.go     rmq-proxy.json: ProxyConfig's keys and defaults
//	context.go    the x-mq-* metadata of a request
//	status.go     Status, and a broker's answer as one
//	interceptor.go  what every call goes through: ACL 2.0, the client id, the unimplemented RPCs
//	auth.go       ACL 2.0 of the gRPC port: the signature, the stages, their strategies
//	auth_contexts.go  what each request asks authorization for
//	auth_metadata.go  users and ACLs, read from the brokers
//	auth_inner.go  cluster mode's own signature on its requests (enableAclRpcHookForClusterMode)
//	validate.go   GrpcValidator: names, tags, invisible times
//	messaging.go  the MessagingService, one file per RPC family:
//	route.go        QueryRoute, QueryAssignment
//	client.go       Telemetry (settings), Heartbeat, NotifyClientTermination
//	send.go         SendMessage
//	recall.go       RecallMessage
//	receive.go      ReceiveMessage
//	ack.go          AckMessage, ChangeInvisibleDuration, ForwardMessageToDeadLetterQueue
//	transaction.go  EndTransaction, and the brokers' check-back relayed to a client
//	renew.go      auto-renew of push consumers' receipt handles
//	streams.go    the clients' Telemetry streams, and the heartbeats of their groups
//	registration.go  local mode: each client registered with the broker on its own in-process connection
//	relay.go      the broker's GET_CONSUMER_RUNNING_INFO and CONSUME_MESSAGE_DIRECTLY relayed to a client
//	convert.go    a broker's message as a gRPC Message
//	brokers.go    the name servers and brokers behind: routes, configs, calls (ttlCache)
//	remoting_port.go     the remoting port (remotingListenPort): its codes, pools, the clients' registrations
//	remoting_route.go    GET_ROUTEINFO_BY_TOPIC: every broker at this port
//	remoting_forward.go  the messaging codes forwarded to the broker they name
//	remoting_clients.go  the remoting clients' producer and consumer registrations
//	remoting_auth.go     ACL 2.0 on the remoting port
//	heartbeat_syncer.go  HeartbeatSyncer: the consumers shared between cluster-mode proxies
//	heartbeat_sync_clients.go  what it carries: this proxy's consumers out, the others' in
//	apiv2/        the generated API (make proto)
//
// The remoting port serves remoting clients in cluster mode, as Java's
// mqproxy does, and hands HTTP/2 connections to the gRPC server in both
// modes (docs/reference/proxy-remoting.md is Java's behaviour).
//
// Both ports take a load balancer's PROXY protocol header as Java's do
// (remoting/haproxy.go): the client's address is the one it names.
package proxy
