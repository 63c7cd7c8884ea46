// Package broker is the RocketMQ broker: the request families that serve
// Java's broker codes, the tables they share, and the background services,
// over the store (package store) and the remoting server (package
// remoting). Start here; every room is one file or a few.
//
// The house:
//
//	broker.go      Broker: the lifecycle (Start, Close) of what wire.go builds
//	wire.go        the one place everything is built, each service with the
//	               few things it uses; nothing holds a *Broker
//	routes.go      every request code -> pool -> handler, 4.x/5.x gating
//	reply.go       the response helpers every handler starts from
//	settings.go    the live settings: an immutable snapshot, swapped on update
//	line.go        every difference between the 4.9.8 and 5.3.3 brokers
//	store_views.go the narrow views of the store the services take
//	options.go     Options, and the broker's identity (addresses)
//
// Request families (one struct each, its codes in the file's header):
//
//	send.go send_batch.go send_checks.go send_back.go   sendService
//	pull.go pull_slave.go pull_holds.go offset_moved.go pullService, long polling
//	query_message.go                                    queryService
//	heartbeat.go queue_locks.go                         clientService
//	consumer_offsets.go reset_offset.go admin_clone_offset.go   offsetService
//	admin_topic.go topic_config_query.go admin_clean.go attributes.go   topicAdmin
//	admin_group.go                                      groupAdmin
//	admin_stats.go admin_consumer.go admin_offsets.go admin_time_span.go
//	admin_connections.go                                statsAdmin
//	admin_broker_config.go                              configAdmin
//	call_consumer.go consumer_status.go                 consumerCalls
//	runtime_info.go                                     runtimeInfo
//	transaction.go transaction_check.go                 transactionService
//	admin_ha_status.go                                  haStatus (5.x)
//	admin_request_mode.go                               requestModes (5.x)
//
// Tables (each owns its lock and its config/*.json file): topics.go,
// groups.go, offsets.go, consumer_filters.go (with bloom_filter.go),
// clients.go. Background services: register.go (name-server
// registration), replication.go (HA roles) with slave_sync.go (a slave's
// copy of its master's tables), schedule.go (delay levels), timer.go (5.x timers),
// transaction_check.go, broker_stats.go with stats_items.go and
// stats_log.go, runtime_info.go's sampler. Message properties as Java's
// broker holds and writes them: properties.go.
//
// Lock order, where two locks are held at once, is in docs/locks.md.
package broker
