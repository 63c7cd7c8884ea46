# rmqgo: a Go name server and broker for Apache RocketMQ clients.
#
#   make run               build and start the name server and a broker on embedded defaults
#   make test              everything CI checks: lint, race tests, the distribution, compat suite
#   make lint              gofmt, go vet, staticcheck (also on compat/goclient and compat/gov5), misspell on every tracked file
#   make proto             regenerate package proxy/apiv2 (the 5.x gRPC API) from rocketmq-proto 2.0.4
#   make dist              dist/rmqgo-4.9.8-bin.tar.gz and rmqgo-5.3.3-bin.tar.gz, laid out as the
#                          RocketMQ binary releases (rocketmq-all-<version>-bin-release/: bin/, conf/)
#   make dist-test         unpack each and run its README's commands (default ports 9876, 10911)
#   make image             localhost/rmqgo:4.8.0, :4.9.8 and :5.3.3 with podman, laid out as the
#                          images they replace (Dockerfile; no registry needed)
#   make image-console     localhost/rmqgo-console:1.0.0 and :2.1.0, the RocketMQ consoles for
#                          styletang/rocketmq-console-ng and apacherocketmq/rocketmq-dashboard,
#                          from the rocketmq-dashboard jars in CONSOLE_JARS (a folder; skipped
#                          when unset) on Debian's Java 17 (distribution/image/console-image.sh)
#   make image-size        make image, then stand-ins for the Java images replaced (Debian, a Debian JRE,
#                          the 5.3.3 and 4.9.7 jars from Maven Central) and a table of sizes, ours/theirs
#                          (distribution/image/java-standin.sh; docs/image-size.md)
#   make container-test    make image and image-console, the seed's docker commands verbatim against
#                          localhost/rmqgo:4.8.0 and localhost/rmqgo-console:1.0.0, and
#                          distribution/compose/'s files with podman-compose (skipped without podman)
#   make compat            the Java compat suite against this project's servers (and compat-store)
#   make compat-store      the Java broker's store code reads a store this project wrote
#   make compat-reference  the same suite against the real Java servers (4.x and 5.x lines)
#   make compat-acl        the ACL 1.0 tests (tag acl) against ours, both lines (in make compat)
#   make compat-acl-reference  the ACL 1.0 tests (tag acl, compat/acl-suite.sh) against the real
#                          Java servers: 4.9.7 enforces plain_acl.yml, 5.3.3 has no ACL 1.0
#   make compat-tls        a few Java tests over TLS (servers in enforcing mode, clients with
#                          -Dtls.enable=true) against this project's servers, both lines
#   make compat-tls-reference  the same against the real Java servers
#   make compat-mqadmin    mqadmin's common commands against the Java servers and ours, outputs diffed
#   make compat-acl2       the ACL 2.0 tests (tag acl2, compat/acl2-suite.sh, 5.3.3) against ours (in make
#                          compat), and ProxyRemotingAcl2Test through our proxy in cluster mode (not in it)
#   make compat-acl2-reference  the same against the Java 5.3.3 servers
#   make compat-proxy-cluster  the gRPC clients' tests (tag grpc, compat/gov5) through a proxy in
#                          cluster mode (compat/proxy-cluster-suite.sh): the Java 5.3.3 proxy in
#                          front of our name server and broker, then ours (bin/rmqgo-proxy) in front
#                          of our name server and the Java 5.3.3 broker
#   make compat-proxy-cluster-reference  the same with the Java 5.3.3 name server, broker and proxy
#   make compat-proxy-pair  two cluster-mode proxies sharing a group's consumers (ProxyPairTest):
#                          Java's beside ours both ways; -reference: two Java proxies
#   make compat-mqadmin-acl2  mqadmin 5.3.3's user and ACL commands against Java 5.3.3 and ours, diffed
#   make compat-acl2-rocksdb  ACL 2.0 users and ACLs in RocksDB (config/users, config/acls): Java's
#                          ConfigRocksDBStorage and internal/rocksdb both ways, then one store moved
#                          Java (killed) -> ours -> Java -> ours (compat/acl2-rocksdb.sh)
#   make compat-goadmin    our mqadmin (bin/mqadmin, cmd/rmqadmin) on the Java servers and on ours
#                          against Java's mqadmin on the Java servers, the same commands, diffed
#   make compat-mqadmin-acl  mqadmin 4.9.8's ACL commands (aclEnable=true) against the Java 4.9.7
#                          servers and ours: outputs and the plain_acl.yml each change leaves, diffed
#   make compat-ha-kill    the master SIGKILLed mid-stream 100 times (Java pair, then ours): nothing
#                          acknowledged may be missing from the slave (compat-ha-kill-short: 2 rounds)
#   make compat-controller controller mode (compat/controller-suite.sh, ControllerModeTest) for the
#                          Java controller + brokers (the reference) and the mixes with ours, 2 and 3 brokers
#   make compat-controller-kill  controller mode's master SIGKILLed mid-stream 100 times (Java, then
#                          ours), the control (acks that do not wait for slaves must show a loss) and
#                          the master SIGSTOPped (compat/controller-kill.sh; -short: 2 rounds + stop, ours)
#   make compat-controller-ha  three controllers: the leader and the master killed together, the
#                          master cut off by network namespaces (Java's, then ours; as root)
#   make bench-controller  controller mode's SyncStateSet cost with 1, 16 and 64 senders, Java's
#                          controller and brokers against ours, ratios (bench/controller-bench.sh)
#   make compat-ha-bench   replication throughput, SYNC_MASTER's added latency, slave catch-up:
#                          the Java pair and ours in one run, a table with ratios
#   make compat-metrics    the Prometheus exporters of the Java 5.3.3 broker and ours scraped after
#                          the same workload: names, label sets and counters compared
#   make compat-console    the web consoles (rocketmq-dashboard 1.0.0 and 2.1.0, CONSOLE_JARS) in
#                          headless Chromium against the Java 4.9.7 and 5.3.3 servers, then ours,
#                          pages compared (compat/console/run.sh; skipped without the jars or Chromium)
#   make compat-fastjson   the fastjson differential: every body kind through ours and the real
#                          fastjson of 4.9.7 and 5.3.3 (seeds and FASTJSON_MUTATIONS mutations each)
#   make fixtures          regenerate every fixture the Java side writes (compat/fixtures.sh)
#   make fuzz              fuzz the frame decoder, the SQL92 parser and the body reader against
#                          fastjson (FUZZTIME each, default 5m)
#   make bench             every benchmark beside Java's in one report (bench/bench-all.sh, about
#                          2 hours); make bench-broker: Java's benchmark tools and rmqbench against
#                          the Java broker and ours, in one run, a markdown table with ratios;
#                          make bench-smoke: each step of make bench briefly
#   make bench-floor       the CPU a message costs a server that stores nothing (rmqbench
#                          null-broker) beside the Java broker and ours (bench/floor-bench.sh)
#   make bench-scale       cost curves: 10 -> 10,000 topics and 10 -> 5,000 heartbeating clients,
#                          the Java 4.9.7 servers and ours in one run (bench/scale-bench.sh)
#   make bench-backlog     a new group catching up on a cold backlog (BACKLOG_SIZES MiB) while a
#                          producer sends: the Java broker and ours in one run, a table with ratios
#   make bench-grpc        the 5.x clients' gRPC path in local mode, the Java 5.3.3 broker's proxy
#                          and ours in one run (bench/grpc-bench.sh): rmqbench grpc-produce's
#                          throughput, latency and server CPU per message, then rmqbench grpc-idle's
#                          IDLE_CLIENTS (2000) idle Telemetry streams and long polls: server memory;
#                          a table with Go ÷ Java ratios
#   make bench-curves      cost curves (bench/curves-bench.sh): queues per topic 1 -> 1024 and
#                          SYNC_FLUSH senders 1 -> 256, Java 4.9.7 and ours per point, one table
#                          per curve with ratios (CURVES="queues syncflush" picks them)
#   make gobench           Go benchmarks with allocations
#   make slowloris         our name server and broker on loopback, each under SLOWLORIS_CONNS (2000)
#                          connections trickling a frame while a normal client calls; server RSS

GO        ?= go
BIN       := bin
BINARIES  := rmqgo-namesrv rmqgo-broker rmqgo-proxy rmqgo-controller rmqbench rmqstore rmqadmin
FUZZTIME  ?= 5m

# The linters of make lint, run through the Go toolchain at pinned versions:
# go run pkg@version fetches and builds them on first use (build cache
# afterwards) and leaves go.mod alone, so nothing is installed beforehand.
# staticcheck v0.8.2 is its release 2026.2.2; misspell is golangci's fork.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
MISSPELL    ?= $(GO) run github.com/golangci/misspell/cmd/misspell@v0.8.0

# Where the scripts find this project's name server, broker and rmqbench
# (make build puts them in bin/): passed to every target that starts them.
SERVERS := RMQGO_NAMESRV_BIN=$(CURDIR)/$(BIN)/rmqgo-namesrv RMQGO_BROKER_BIN=$(CURDIR)/$(BIN)/rmqgo-broker RMQGO_PROXY_BIN=$(CURDIR)/$(BIN)/rmqgo-proxy RMQGO_CONTROLLER_BIN=$(CURDIR)/$(BIN)/rmqgo-controller RMQBENCH_BIN=$(CURDIR)/$(BIN)/rmqbench

.PHONY: all build run test needs unit lint proto compat-console compat-console-4 compat-console-5 compat-console-4-mqadmin dist dist-test image image-console image-size container-test compat compat-store compat-fastjson compat-metrics compat-mqadmin compat-goadmin compat-mqadmin-acl compat-ha compat-ha-suite compat-ha-kill compat-ha-kill-short compat-controller compat-controller-ha compat-controller-kill compat-controller-kill-short bench-controller compat-ha-bench compat-tls compat-tls-reference compat-reference compat-reference-4 compat-reference-5 compat-acl compat-acl-reference compat-acl2 compat-acl2-reference compat-proxy-cluster compat-proxy-cluster-reference compat-proxy-pair compat-proxy-pair-reference compat-mqadmin-acl2 compat-acl2-rocksdb fixtures fuzz bench bench-smoke bench-broker bench-floor bench-recovery bench-scale bench-backlog gobench slowloris clean bench-curves bench-grpc

all: build

build:
	@for b in $(BINARIES); do $(GO) build -o $(BIN)/$$b ./cmd/$$b || exit 1; done

# The gRPC API of the 5.x clients (package proxy/apiv2), generated again
# from the rocketmq-proto 2.0.4 jar on Maven Central (proxy/apiv2/gen).
proto:
	sh proxy/apiv2/gen/gen.sh

# The name server (9876) and a broker registered with it (10911, store in
# ~/store), both on embedded defaults, until Ctrl-C stops them.
run: build
	@sh $(BIN)/mqnamesrv & ns=$$!; trap 'kill $$ns 2>/dev/null' EXIT INT TERM; \
	sh $(BIN)/mqbroker -n 127.0.0.1:9876

# needs first: it installs what the suites need where it can (root,
# apt-get) and otherwise says which suites will skip themselves. The last
# three slots run side by side: the smoke's figures mean nothing, the
# console suites wait for pages and mqadmin-compare for JVMs to start, not
# for time (each takes ports of its own).
test: needs lint unit dist-test container-test compat
	$(MAKE) -j3 --output-sync=target bench-smoke compat-console-5 compat-console-4-mqadmin

# make test's third slot: the 1.0.0 console, then mqadmin's 26 common
# commands against the Java servers and ours on the 4.x line, outputs diffed.
compat-console-4-mqadmin: compat-console-4
	MQA_NAMESRV_PORT=27876 MQA_BROKER_PORT=27911 $(SERVERS) sh compat/mqadmin-compare.sh 4

needs:
	@sh compat/needs.sh

dist:
	sh distribution/dist.sh 4
	sh distribution/dist.sh 5

dist-test: dist
	sh distribution/dist-test.sh 4
	sh distribution/dist-test.sh 5

image:
	sh distribution/image/build-images.sh

# The jars are not in this repository (no package registry has them):
# CONSOLE_JARS names the folder holding rocketmq-dashboard-1.0.0.jar and
# -2.1.0.jar; unset, or a jar missing, the consoles are skipped in one line.
# The first build debootstraps the Java base (localhost/rmqgo-base:java17,
# kept: made only when missing).
image-console:
	CONSOLE_JARS="$(CONSOLE_JARS)" sh distribution/image/console-image.sh

# Not part of make test: it debootstraps a Debian root file system and
# fetches the Java servers' jars (about 400 MB of images).
image-size: image
	sh distribution/image/java-standin.sh

container-test:
	@if command -v podman >/dev/null 2>&1; then \
		$(MAKE) image && $(MAKE) image-console && sh compat/container/seed-test.sh && \
		if command -v podman-compose >/dev/null 2>&1; then sh compat/container/compose-test.sh; \
		else echo "container-test: the compose files skipped, no podman-compose here (apt-get install podman-compose)"; fi; \
	else \
		echo "container-test: skipped, no podman here (apt-get install podman podman-compose runc busybox-static)"; \
	fi

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	cd compat/goclient && $(GO) vet ./... && $(STATICCHECK) ./...
	cd compat/gov5 && $(GO) vet ./... && $(STATICCHECK) ./...
	cd compat/console && $(GO) vet ./... && $(STATICCHECK) ./...
	$(MISSPELL) -error $$(git ls-files)

unit:
	$(GO) test -race -count=1 ./...

# The suite against this project's name server and broker, then this name
# server with the reference Java broker, on both client lines; each run also
# runs the other clients' suites (Go, Node.js, Spring, and Python on the C++
# client's core; COMPAT_CLIENTS). In each run StoreHandoverTest restarts
# broker-a as the other implementation on the same store and back
# (COMPAT_HANDOVER_IMPL), and on the 5.x line TimerHandoverTest does so with
# timer messages in flight (about 100 s), and PopHandoverTest with POPs in
# flight, there and back (about 100 s, in the run on ours only: it covers
# both directions); the 5.x run on ours starts broker-a
# with the proxy inside (PROXY=1) and adds the gRPC clients' tests
# (rocketmq-client-java 5.0.8, tag grpc, and compat/gov5); then our proxy
# in cluster mode in front of our broker serves the 5.x remoting clients on
# its remoting port (ProxyRemotingTest, about a minute), and two of our
# proxies share a group's consumers (ProxyPairTest, about a minute). Before them
# compat-store: the Java store code
# (rocketmq-store 4.9.7 and 5.3.3) reads a store this project wrote, record
# by record; and compat-fastjson. Then the suites of servers set up apart
# (retention, ACL 1.0, ACL 2.0, TLS in enforcing mode, our master and slave
# on the 4.x line: the other mixes are make compat-ha); mqadmin's 26 common
# commands against the Java servers and ours on the 4.x line, outputs diffed,
# run in make test's last stage (compat-console-4-mqadmin; both lines: make
# compat-mqadmin, outside CI for time). The metrics
# comparison is make compat-metrics (its fixed exporter port can be taken on
# a shared machine).

compat: build compat-store compat-fastjson
	NAMESRV_IMPL=go BROKER_IMPL=go COMPAT_HANDOVER_IMPL=java $(SERVERS) sh compat/run-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=go COMPAT_HANDOVER_IMPL=java PROXY=1 $(SERVERS) sh compat/run-suite.sh 5
	NAMESRV_IMPL=go BROKER_IMPL=go PROXY_IMPL=go COMPAT_CLIENTS="" $(SERVERS) sh compat/proxy-cluster-suite.sh -Dtest=ProxyRemotingTest
	PROXY_IMPL=go PROXY2_IMPL=go $(SERVERS) sh compat/proxy-pair-suite.sh
	NAMESRV_IMPL=go BROKER_IMPL=java COMPAT_HANDOVER_IMPL=go $(SERVERS) sh compat/run-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=java COMPAT_HANDOVER_IMPL=go $(SERVERS) sh compat/run-suite.sh 5
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/retention-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/retention-suite.sh 5
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl-suite.sh 5
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl2-suite.sh
	NAMESRV_IMPL=go BROKER_IMPL=go ACL2_STRATEGY=stateful $(SERVERS) sh compat/acl2-suite.sh
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl2-start-check.sh
	sh compat/acl2-rocksdb.sh
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 5
	TLS_MODE=permissive NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 4
	MASTER_IMPL=go SLAVE_IMPL=go $(SERVERS) sh compat/ha-suite.sh 4
	$(MAKE) compat-ha-kill-short
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-suite.sh
	$(MAKE) compat-controller-kill-short

# The metrics exporters (metricsExporterType=PROM) of the Java 5.3.3 broker
# and ours after the same workload (compat/metrics-compare.sh; scrapes in
# compat/target/metrics/). About 3 minutes.
compat-metrics:
	sh compat/metrics-compare.sh

# The web consoles driven through their pages in headless Chromium
# (compat/console/, a Go test with chromedp): rocketmq-dashboard 1.0.0 on
# the Java 4.9.7 servers, then on ours as 4.x (compat-console-4), and
# 2.1.0 with its ACL 2.0 pages on the Java 5.3.3 servers, then on ours as
# 5.x (compat-console-5); each page's text compared (known-differences.txt
# names what differs and why); pages, screenshots and logs in
# compat/target/console-<line>/. The jars are on no package registry:
# CONSOLE_JARS names their folder (.ci/run passes it); without them, or
# without Chromium, each is skipped in one line. Their servers start on
# their own first ports, so they can run beside another suite (2.1.0 takes
# port 8082, which its pages call). About 6 minutes each.
CONSOLE_JARS ?=
compat-console: compat-console-4 compat-console-5

compat-console-4: build
	NAMESRV_PORT=24876 BROKER_PORT=24911 CONSOLE_JARS="$(CONSOLE_JARS)" $(SERVERS) sh compat/console/run.sh 4

compat-console-5: build
	NAMESRV_PORT=25876 BROKER_PORT=25911 CONSOLE_JARS="$(CONSOLE_JARS)" $(SERVERS) sh compat/console/run.sh 5

compat-store:
	RMQGO_STORETOOL=$(CURDIR)/compat/storetool/run.sh $(GO) test -count=1 -run 'TestJavaReadsOurStore|TestJavaRecoversOurCrashedStore' -v ./store/inspect/

# The fastjson differential (internal/protocol/oracle_*_test.go): the seeds
# of compat/fastjson/seeds (what Java, Go, C++ and Node.js clients write, and
# fastjson's edge cases) and FASTJSON_MUTATIONS mutations of each, read by
# ours and by the real classes and fastjson of each Java line; the two must
# agree but for the differences the test names.
FASTJSON_MUTATIONS ?= 30
FASTJSON_ORACLE := RMQGO_FASTJSON_ORACLE=$(CURDIR)/compat/fastjson/run.sh

compat-fastjson:
	$(FASTJSON_ORACLE) RMQGO_FASTJSON_MUTATIONS=$(FASTJSON_MUTATIONS) $(GO) test -count=1 -v -run TestFastjsonDifferential ./internal/protocol/

fixtures:
	sh compat/fixtures.sh

# 26 mqadmin commands against the Java servers and ours, side by side, on
# both lines; fails when a masked output differs (compat/mqadmin-compare.sh,
# outputs in compat/target/mqadmin-compare-<line>/). About 10 minutes a line.
compat-mqadmin: build
	sh compat/mqadmin-compare.sh 4
	sh compat/mqadmin-compare.sh 5

# The same run with this project's mqadmin (MQADMIN_IMPL=go): its commands
# (GOADMIN_COMMANDS in compat/mqadmin-lib.sh) through bin/mqadmin on the
# Java servers and on ours, each output diffed against Java's mqadmin on
# the Java servers; the other commands (the state) run with Java's. About
# 15 minutes a line.
compat-goadmin: build
	MQADMIN_IMPL=go sh compat/mqadmin-compare.sh 4
	MQADMIN_IMPL=go sh compat/mqadmin-compare.sh 5

# TLS (compat/tls-suite.sh, docs/tls.md): the name server and the broker in
# tls.server.mode=enforcing with Java's test mode (a self-signed
# certificate), the Java clients with -Dtls.enable=true; ProducerSendTest,
# PushConsumerTest and TlsEnforcingTest (plaintext is closed); then the 5.x
# line with a CA-signed certificate the clients verify (TLS_CERTS=1, made
# with openssl); then line 4 in permissive mode (TLS_MODE=permissive:
# TlsPermissiveTest, plaintext answered on the TLS port). About 5 minutes
# for ours, 7 for the Java servers.
compat-tls: build
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 5
	TLS_CERTS=1 NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 5
	TLS_MODE=permissive NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/tls-suite.sh 4

compat-tls-reference:
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/tls-suite.sh 4
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/tls-suite.sh 5
	TLS_CERTS=1 NAMESRV_IMPL=java BROKER_IMPL=java sh compat/tls-suite.sh 5
	TLS_MODE=permissive NAMESRV_IMPL=java BROKER_IMPL=java sh compat/tls-suite.sh 4

# mqadmin 4.9.8's ACL 1.0 commands (updateAclConfig, deleteAclConfig,
# clusterAclConfigVersion, updateGlobalWhiteAddr) and refused calls (wrong
# secret, unsigned, unknown key, non-admin) against the Java 4.9.7 servers
# and ours, both with aclEnable=true and compat/acl/plain_acl.yml; fails when a
# masked output or plain_acl.yml snapshot differs (compat/mqadmin-compare.sh --acl1,
# outputs in compat/target/mqadmin-acl-compare-4/). About 4 minutes; 4.x only
# (5.3.3 has no ACL 1.0).
compat-mqadmin-acl: build
	sh compat/mqadmin-compare.sh --acl1 4

# Replication (issue 15): a SYNC_MASTER and its slave in every mix of Java
# 4.9.7 and ours, N messages to the master, the two commitlogs compared with cmp
# (compat/ha-pair.sh; the Java pair first, the reference). About 2 minutes
# a mix.
compat-ha: build
	MASTER_ROLE=SYNC_MASTER MASTER_IMPL=java SLAVE_IMPL=java $(SERVERS) sh compat/ha-pair.sh
	MASTER_ROLE=SYNC_MASTER MASTER_IMPL=go SLAVE_IMPL=java $(SERVERS) sh compat/ha-pair.sh
	MASTER_ROLE=SYNC_MASTER MASTER_IMPL=java SLAVE_IMPL=go $(SERVERS) sh compat/ha-pair.sh
	MASTER_ROLE=SYNC_MASTER MASTER_IMPL=go SLAVE_IMPL=go $(SERVERS) sh compat/ha-pair.sh
	$(MAKE) compat-ha-suite

# The Java clients against a master and its slave in every mix
# (compat/ha-suite.sh, HaSuiteTest: the pair in clusterList, metadata made
# on the master on the slave, a consumer fed by the slave while the master
# is stopped, a stopped slave catching up). About 5 minutes a mix;
# HA_LINE=5 for the 5.3.3 servers.
HA_LINE ?= 4
compat-ha-suite: build
	for mix in java/java go/java java/go go/go; do \
	  MASTER_IMPL=$${mix%/*} SLAVE_IMPL=$${mix#*/} $(SERVERS) sh compat/ha-suite.sh $(HA_LINE) || exit 1; \
	done

# The kill test (compat/ha-kill.sh): a SYNC_MASTER + SYNC_FLUSH master
# SIGKILLed at a random moment of a Java producer's synchronous stream,
# HA_KILL_ROUNDS (100) times in a row; every acknowledged message must be
# read back from the slave while the master is down. The Java pair first
# (the reference), then ours. About 25 minutes for the Java pair, 15 for
# ours; not in CI. compat-ha-kill-short (in make compat): 2 rounds of ours, about 1 minute.
HA_KILL_ROUNDS ?= 100
compat-ha-kill: build
	ROUNDS=$(HA_KILL_ROUNDS) MASTER_IMPL=java SLAVE_IMPL=java $(SERVERS) sh compat/ha-kill.sh
	ROUNDS=$(HA_KILL_ROUNDS) MASTER_IMPL=go SLAVE_IMPL=go $(SERVERS) sh compat/ha-kill.sh

compat-ha-kill-short: build
	ROUNDS=2 MASTER_IMPL=go SLAVE_IMPL=go $(SERVERS) sh compat/ha-kill.sh

# Controller mode (RIP-44): one controller and a broker set in controller
# mode (compat/controller-suite.sh, the Java tests tagged "controller":
# registration, a master SIGKILLed under load and the election, the old
# master back as a slave with the same commitlog). The Java controller and
# brokers first (the reference), then the mixes with ours; 2 and 3 brokers.
# 1-3 minutes a run (ours with two brokers: 45 s).
compat-controller: build
	CONTROLLER_IMPL=java CONTROLLER_BROKERS="java java" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=java CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=java CONTROLLER_BROKERS="java go" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="java java" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=java CONTROLLER_BROKERS="java java java" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go go" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go java" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=java-namesrv CONTROLLER_BROKERS="java java" $(SERVERS) sh compat/controller-suite.sh
	CONTROLLER_IMPL=go-namesrv CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-suite.sh
	$(SERVERS) sh compat/mqadmin-controller-compare.sh java go
	MQCC_RUN=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/mqadmin-controller-compare.sh java go

# Three controllers (compat/controller-ha-suite.sh, as root: network
# namespaces): the controller leader and the master SIGKILLed together, and
# the master cut off from the controllers and its slaves (no SEND_OK from
# it after the cut, nothing acknowledged lost). Java's first, then ours;
# about 5 minutes each; not in CI.
compat-controller-ha: build
	CONTROLLER_IMPL=java CONTROLLER_BROKERS="java java java" $(SERVERS) sh compat/controller-ha-suite.sh
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go go" $(SERVERS) sh compat/controller-ha-suite.sh

# The kill test of controller mode (compat/controller-kill.sh): brokers with
# allAckInSyncStateSet=true under a Java producer's synchronous sends, the
# master SIGKILLed at a random moment CONTROLLER_KILL_ROUNDS (100) times; a
# new master must be elected, the killed broker rejoins as a slave, and every
# acknowledged message must be read back from the last master. The Java
# controller + brokers first (the reference), then ours; then the control
# (allAckInSyncStateSet=false, inSyncReplicas=1: must lose acks; ours until a
# round loses one, up to 100 rounds) and the stop mode (the master SIGSTOPped
# past its controller heartbeat timeout: no SEND_OK from it after the
# election), ours. About 35 minutes for the Java kill rounds (20 s a round:
# a Java broker restarts in 5-12 s and is back in the SyncStateSet 10-17 s
# after), 7 for ours, 1-5 for the control and 1 for the stop rounds; not in
# CI. compat-controller-kill-short: 2 kill rounds and 1 stop round of ours,
# about 1.5 minutes.
CONTROLLER_KILL_ROUNDS ?= 100
compat-controller-kill: build
	ROUNDS=$(CONTROLLER_KILL_ROUNDS) CONTROLLER_IMPL=java CONTROLLER_BROKERS="java java" $(SERVERS) sh compat/controller-kill.sh kill
	ROUNDS=$(CONTROLLER_KILL_ROUNDS) CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-kill.sh kill
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-kill.sh control
	CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-kill.sh stop

compat-controller-kill-short: build
	ROUNDS=2 CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-kill.sh kill
	ROUNDS=1 CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go" $(SERVERS) sh compat/controller-kill.sh stop

# What a controller-mode SyncStateSet (allAckInSyncStateSet=true) costs a
# send, Java's controller and brokers against ours in one run, with 1, 16
# and 64 synchronous senders (bench/controller-bench.sh; tables in
# bench/target/controller-bench-run-N.out/table.md). About 3 minutes a
# sender count; run it on a quiet machine.
bench-controller: build
	for n in 1 16 64; do THREADS=$$n $(SERVERS) sh bench/controller-bench.sh || exit 1; done

# Replication throughput and the latency SYNC_MASTER adds, the Java pair and
# ours in one run (bench/ha-bench.sh): a lone ASYNC_MASTER, with its slave,
# SYNC_MASTER with its slave, and the slave's catch-up rate; a markdown
# table with Go ÷ Java ratios in bench/target/ha-bench-run.out/table.md.
# About 5 minutes; run it on a quiet machine.
compat-ha-bench: build
	$(SERVERS) sh bench/ha-bench.sh

compat-reference: compat-reference-4 compat-reference-5

compat-reference-4:
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/run-suite.sh 4
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/retention-suite.sh 4

compat-reference-5:
	NAMESRV_IMPL=java BROKER_IMPL=java PROXY=1 sh compat/run-suite.sh 5
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/retention-suite.sh 5

# The tests tagged "acl" (compat/acl-suite.sh: aclEnable=true and compat/acl/plain_acl.yml)
# against ours (in make compat) and against the Java servers, on both lines; facts in
# compat/acl-facts.md. About 1.5 minutes a line.
compat-acl: build
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl-suite.sh 4
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl-suite.sh 5

compat-acl-reference:
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/acl-suite.sh 4
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/acl-suite.sh 5

# The tests tagged "acl2" (compat/acl2-suite.sh: 5.3.3's ACL 2.0,
# authenticationEnabled and authorizationEnabled with the Local metadata
# providers, users and ACLs made through DefaultMQAdminExt) against ours (in
# make compat) and against the Java 5.3.3 servers. About 1.5 minutes each.
# Then compat/acl2-start-check.sh: an unknown strategy or provider class
# fails a line-5 broker's start and is ignored by a line-4 broker.
compat-acl2: build
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl2-suite.sh
	NAMESRV_IMPL=go BROKER_IMPL=go ACL2_STRATEGY=stateful $(SERVERS) sh compat/acl2-suite.sh
	NAMESRV_IMPL=go BROKER_IMPL=go $(SERVERS) sh compat/acl2-start-check.sh
	NAMESRV_IMPL=go BROKER_IMPL=go ACL2_PROXY=cluster PROXY_IMPL=go MVN_TEST_FLAGS="-B -ntp -Dtest=ProxyRemotingAcl2Test" $(SERVERS) sh compat/acl2-suite.sh

compat-acl2-reference:
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/acl2-suite.sh
	NAMESRV_IMPL=java BROKER_IMPL=java ACL2_STRATEGY=stateful sh compat/acl2-suite.sh
	NAMESRV_IMPL=java BROKER_IMPL=java sh compat/acl2-start-check.sh
	NAMESRV_IMPL=java BROKER_IMPL=java ACL2_PROXY=cluster PROXY_IMPL=java MVN_TEST_FLAGS="-B -ntp -Dtest=ProxyRemotingAcl2Test" sh compat/acl2-suite.sh

# The gRPC clients' tests (tag grpc: rocketmq-client-java 5.0.8's GrpcClientTest,
# GrpcSimpleConsumerTest, ProxyRemotingTest (remoting clients on the proxy's remoting
# port) ..., and compat/gov5) through a proxy that is a server of its own in
# cluster mode (ref-servers.sh PROXY=cluster, compat/proxy-cluster-suite.sh), each proxy in
# front of the other's broker: the Java 5.3.3 proxy (ProxyStartup -pm cluster) in front of our
# name server and broker, then ours (bin/rmqgo-proxy -pm cluster) in front of our name server and
# the Java 5.3.3 broker; -reference: all Java. Not in make compat (time). About 4 minutes each.
compat-proxy-cluster: build
	NAMESRV_IMPL=go BROKER_IMPL=go PROXY_IMPL=java $(SERVERS) sh compat/proxy-cluster-suite.sh
	NAMESRV_IMPL=go BROKER_IMPL=java PROXY_IMPL=go $(SERVERS) sh compat/proxy-cluster-suite.sh

compat-proxy-cluster-reference:
	NAMESRV_IMPL=java BROKER_IMPL=java PROXY_IMPL=java sh compat/proxy-cluster-suite.sh

# Two cluster-mode proxies side by side sharing their consumers (HeartbeatSyncer;
# compat/proxy-pair-suite.sh, ProxyPairTest): the Java 5.3.3 proxy beside ours in front of our
# broker, then ours beside Java's in front of the Java broker; -reference: two Java proxies and
# the Java servers. About 2 minutes each. make compat runs two of ours.
compat-proxy-pair: build
	PROXY_IMPL=java PROXY2_IMPL=go $(SERVERS) sh compat/proxy-pair-suite.sh
	NAMESRV_IMPL=java BROKER_IMPL=java PROXY_IMPL=go PROXY2_IMPL=java $(SERVERS) sh compat/proxy-pair-suite.sh

compat-proxy-pair-reference:
	NAMESRV_IMPL=java BROKER_IMPL=java PROXY_IMPL=java PROXY2_IMPL=java sh compat/proxy-pair-suite.sh

# mqadmin 5.3.3's ACL 2.0 commands (createUser ... listAcl) and refused calls
# against the Java 5.3.3 servers and ours (compat/mqadmin-compare.sh --acl2,
# outputs in compat/target/mqadmin-acl2-compare/). About 5 minutes.
compat-mqadmin-acl2: build
	sh compat/mqadmin-compare.sh --acl2

# Issue 17: the users and ACLs of ACL 2.0 where and as the Java 5.3.3 broker
# keeps them (RocksDB config/users, config/acls; internal/rocksdb), proven
# with Java's ConfigRocksDBStorage and with one store moved between the
# Java broker and ours both ways (compat/acl2-rocksdb.sh). 129 s measured,
# 244 s on a busy machine (11 checks).
compat-acl2-rocksdb: build
	sh compat/acl2-rocksdb.sh

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecodeSplit -fuzztime $(FUZZTIME) ./remoting/
	$(GO) test -run '^$$' -fuzz FuzzJSONHeaderFastPath -fuzztime $(FUZZTIME) ./remoting/
	$(GO) test -run '^$$' -fuzz FuzzCompile -fuzztime $(FUZZTIME) ./internal/sql92/
	$(GO) test -run '^$$' -fuzz FuzzDecoders -fuzztime $(FUZZTIME) ./internal/rocksdb/
	$(GO) test -run '^$$' -fuzz FuzzCheck -fuzztime $(FUZZTIME) ./internal/acl/
	$(GO) test -run '^$$' -fuzz FuzzAuthorizeRequest -fuzztime $(FUZZTIME) ./internal/auth/
	$(FASTJSON_ORACLE) $(GO) test -run '^$$' -fuzz FuzzFastjsonDifferential -fuzztime $(FUZZTIME) ./internal/protocol/

# Every benchmark of ours beside Java's in one run, one report
# (bench/target/bench-all/report.md; about 2 hours; STEPS picks some, see
# the header of bench/bench-all.sh). bench-smoke runs each step briefly
# (CI); bench-broker is its first step alone (a few minutes; PHASE_SECS,
# default 30 s, per tool and broker; see bench/broker-bench.sh).
bench: build
	$(SERVERS) sh bench/bench-all.sh

# make test runs these steps of make bench briefly (a few minutes): the
# scripts work, against Java's servers and ours; the figures mean nothing.
SMOKE_STEPS ?= throughput floor curves scale backlog grpc
bench-smoke: build
	$(SERVERS) SMOKE=1 STEPS="$(SMOKE_STEPS)" sh bench/bench-all.sh

bench-broker: build
	$(SERVERS) sh bench/broker-bench.sh

# The remoting path's own CPU floor (rmqbench null-broker) beside the Java
# broker and ours, in one run (bench/floor-bench.sh; about 10 minutes).
bench-floor: build
	$(SERVERS) sh bench/floor-bench.sh

# Cost curves (issue 16 item 3): one bench/broker-bench.sh run per point,
# a markdown table per curve (bench/curves-bench.sh; about 3 minutes a point).
CURVES ?= queues syncflush
bench-curves: build
	CURVES="$(CURVES)" $(SERVERS) sh bench/curves-bench.sh

# Crash recovery time (issue 16 item 4): a store grown by our broker under
# load to each of RECOVERY_SIZES GiB, SIGKILLed, and ours and the Java 4.9.7
# broker each timed to "boot success" on a copy (bench/recovery-bench.sh;
# needs about 2 x (largest + 2) GiB of disk, about 15 minutes for 1 5 10).
RECOVERY_SIZES ?= 1 5 10
bench-recovery: build
	SIZES="$(RECOVERY_SIZES)" $(SERVERS) sh bench/recovery-bench.sh

# Two cost curves of issue 16 (bench/scale-bench.sh): 10 -> 10,000 topics
# (REGISTER_BROKER body and time, route queries, broker start, memory) and
# 10 -> 5,000 heartbeating client connections (broker CPU per heartbeat,
# memory, p99), the Java 4.9.7 servers then ours in one run; markdown
# tables with Go ÷ Java ratios. About 12 minutes.
bench-scale: build
	$(SERVERS) sh bench/scale-bench.sh

# Catching up on a cold backlog (issue 16 item 3): for each of BACKLOG_SIZES
# MiB of 1 KiB messages, the Java 4.9.7 broker then ours: fill, restart
# with the store out of the page cache, a new group reads from the first
# offset while a producer sends at RATE (bench/backlog-bench.sh; needs
# about the largest size + 1 GiB of disk, about 20 minutes for 1024 4096).
BACKLOG_SIZES ?= 1024 4096
bench-backlog: build
	BACKLOGS_MB="$(BACKLOG_SIZES)" $(SERVERS) sh bench/backlog-bench.sh

# The 5.x gRPC path in local mode (bench/grpc-bench.sh; about 5 minutes):
# PHASE_SECS (30) of grpc-produce and IDLE_SECS (30) of IDLE_CLIENTS (2000)
# idle clients on each broker, a table in
# bench/target/grpc-bench-run.out/table.md.
bench-grpc: build
	$(SERVERS) sh bench/grpc-bench.sh

# Stops only the servers it started; see the header of bench/slowloris.sh.
slowloris: build
	$(SERVERS) sh bench/slowloris.sh

gobench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -f $(addprefix $(BIN)/,$(BINARIES))
	rm -rf compat/target bench/target
