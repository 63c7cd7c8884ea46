// Package remoting speaks Apache RocketMQ's remoting protocol: the frame
// codec (JSON and ROCKETMQ binary headers), the request and response code
// tables, a gnet server that hands decoded frames to bounded worker pools,
// and an outbound client. It knows frames and connections, not topics.
//
// Per connection the server holds at most one frame being received
// (ServerOptions.MaxFrame), its unread responses (MaxOutbound), and closes
// it after IdleTimeout without traffic; hygiene.go says how and where that
// differs from Java. Of the thread settings of Java's NettyServerConfig
// (serverSelectorThreads, serverWorkerThreads,
// serverCallbackExecutorThreads) none applies: gnet runs one event loop
// per two cores, at least one (DefaultEventLoops; ServerOptions.EventLoops
// sets another number), that only reads, cuts and writes frames, and
// handlers run on the router's named pools on the other cores
// (docs/connections.md, docs/cpu.md).
//
// A connection may open with a load balancer's PROXY protocol header, as
// 5.x servers accept (haproxy.go); its client address is then the
// channel's. TLS follows Java's tls.server.mode (ServerOptions.TLSMode): the first
// byte of a connection tells a TLS handshake from plaintext; plaintext
// stays on gnet, TLS connections leave it for crypto/tls (server_tls.go).
// The client dials TLS when ClientOptions.TLSConfig is set (docs/tls.md).
//
// The files:
//
//	frame.go            the frame layout: FrameLength, DecodeFrame, AppendFrame
//	command.go          Command: a request or response, its flags, remark and body
//	ext_fields.go       ExtFields: the custom header as an ordered list
//	header_json.go      the JSON header as fastjson writes it, read tolerantly
//	header_json_fast.go the fast path for the one shape Java clients send
//	header_binary.go    the ROCKETMQ binary header
//	codes.go            RequestCode and ResponseCode tables of 4.9.8 and 5.3.3
//	language.go         LanguageCode, the sender's language
//	version.go          the names of MQVersion's client version numbers
//	server.go           Server, ServerOptions, DefaultEventLoops, the gnet callbacks
//	router.go           Request, Handler and the named worker Pools that run handlers
//	task_queue.go       a pool's bounded FIFO of waiting requests
//	pool_share.go       a connection's share of a pool (PoolOptions.PerConnection)
//	channel.go          Channel: one connection, its writer and its calls
//	outbox.go           a gnet connection's queued replies, written with writev
//	outbound_total.go   the bound on unsent responses summed over connections
//	hygiene.go          idle connections, frame and outbound bounds per connection
//	tls.go              TLSMode and the self-signed certificate of test mode
//	server_tls.go       TLS connections: sniffed, then served off gnet with crypto/tls
//	server_http2.go     HTTP/2 connections on a remoting port, handed to ServerOptions.HTTP2
//	haproxy.go          the HAProxy PROXY protocol header a load balancer opens a connection with
//	stream_writer.go    the writer goroutine of a TLS connection (served off gnet)
//	client.go           Client: outbound connections, one per address
//	client_writer.go    a dialled connection's writer: concurrent callers' frames in one writev
//	inprocess.go        InProcess: a server of the same process reached without a socket
package remoting
