// Command rmqbench generates load against a RocketMQ name server or
// broker, the Java ones or this project's, over the remoting protocol
// (JSON headers by default, version 409, as a 4.9.8 Java client sends
// them), and tabulates what the benchmark scripts (broker-bench.sh and
// the others) measure.
//
//	rmqbench route   -n 127.0.0.1:9876 -t TopicTest -c 16 -d 20s
//	rmqbench produce -n 127.0.0.1:9876 -t BenchmarkTest -s 128 -w 64 -d 30s
//	rmqbench consume -n 127.0.0.1:9876 -t BenchmarkTest -g benchmark_consumer -d 35s
//	rmqbench store   -dir /tmp/bench -flush SYNC_FLUSH -threads 4 -messages 20000
//	rmqbench catchup -master 127.0.0.1:10911 -slave 127.0.0.1:10921
//	rmqbench dropcache -dir /tmp/run/broker-a/store
//	rmqbench slowloris -addr 127.0.0.1:9876 -pid 1234 -c 2000 -d 30s
//	rmqbench clients -addr 127.0.0.1:10911 -pid 1234 -c 5000 -period 1s -d 20s
//	rmqbench register -n 127.0.0.1:9876 -topics store/config/topics.json -count 20
//	rmqbench null-broker -addr 127.0.0.1:10911
//	rmqbench grpc-produce -proxy 127.0.0.1:8081 -t BenchmarkTest -s 128 -w 64 -d 30s
//	rmqbench grpc-idle -proxy 127.0.0.1:8081 -pid 1234 -t IdleTopic -c 2000 -polls 200 -d 30s
//
// Each subcommand lives in its own file; route, produce and grpc-produce
// drive the shared load runner (load.go), which prints progress every 5 s.
// produce and consume end with a summary line and a JSON line (result.go),
// which broker-table reads back together with java-result's and proc's;
// grpc-produce and grpc-idle likewise for grpc-table. The grpc
// subcommands speak the 5.x clients' gRPC API (package proxy/apiv2) to a
// proxy, plaintext.
//
// The files, one subcommand each unless said otherwise:
//
//	main.go             the subcommand table and main
//	flags.go            a subcommand's flag set, parsed and checked (exit status 2)
//	load.go             the shared load runner, the flags every subcommand shares, and produce's and grpc-produce's
//	client.go           what produce and consume share: route lookup, heartbeat, client ids
//	histogram.go        log-linear latency histogram (HdrHistogram-like)
//	result.go           the JSON result line (benchLine) every tool prints last
//	route.go            route: GET_ROUTEINFO_BY_TOPIC as fast as it goes
//	produce.go          produce: synchronous SEND_MESSAGE_V2 from -w senders
//	consume.go          consume: long-polling PULL_MESSAGE on every queue, with offset commits
//	consume_stats.go    what consume's pullers record: latencies and pull outcomes
//	consume_catchup.go  consume -until-caught-up: how far each queue is behind
//	register.go         register: REGISTER_BROKER replayed to a name server
//	clients.go          clients: many heartbeating connections and what they cost the broker
//	slowloris.go        slowloris: connections trickling large frames, the server's memory
//	pullhold.go         pullhold: connections holding long polls, read or never read
//	nullbroker.go       null-broker: answers routes and sends, stores nothing
//	store.go            store: this project's store driven in-process (StoreBench's load)
//	catchup.go          catchup: how fast a slave catches up with its master
//	dropcache.go        dropcache: a store's pages dropped from the page cache
//	touchmem.go         touchmem: the machine's free memory touched once before a run
//	proc.go             proc: one process's CPU and memory from /proc (-watch samples)
//	javaresult.go       java-result: Java's benchmark tools' output as result lines
//	brokertable.go      broker-table: broker-bench.sh's lines as one table with ratios
//	compare.go          store-table: StoreBench lines, ours beside Java's
//	hatable.go          ha-table: ha-bench.sh's lines as two tables
//	backlogtable.go     backlog-table: backlog-bench.sh's lines as one table
//	curvetable.go       curve-table: curves-bench.sh's lines, one table per curve
//	grpc_client.go      what grpc-produce and grpc-idle share: a 5.x client's id, metadata, Telemetry settings
//	grpc_produce.go     grpc-produce: unary SendMessage from -w senders over -conns clients
//	grpc_idle.go        grpc-idle: thousands of idle clients' Telemetry streams and long polls; server RSS
//	grpctable.go        grpc-table: grpc-bench.sh's lines as one table with ratios
package main
