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
//	recall.go                                           recallService (5.x): RECALL_MESSAGE, and the recall
//	                                                    handle a send of a timer message is answered with
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
//	admin_controller.go                                 controllerAdmin (5.x): NOTIFY_BROKER_ROLE_CHANGED,
//	                                                    GET_BROKER_EPOCH_CACHE
//	query_assignment.go allocate.go topic_routes.go    requestModes (5.x): PULL or POP per group and
//	                                                    topic, QUERY_ASSIGNMENT's share of the route's queues
//	admin_timer.go                                      timerSync (5.x): a slave's timer checkpoint and metrics
//	pop.go pop_queue.go pop_polling.go pop_notify.go    popService (5.x): POP_MESSAGE, the queues it reads,
//	                                                    the pops held for messages; NOTIFICATION,
//	                                                    POLLING_INFO, PEEK_MESSAGE
//	pop_ack.go pop_invisible.go                         ackService (5.x): ACK, BATCH_ACK, CHANGE_INVISIBLETIME
//	pop_records.go pop_revive.go                        the revive topic's ck/ack records, and the revive
//	                                                    service that puts unacked pops into the retry topic
//	acl_admin.go                                        aclAdmin (4.x): the ACL 1.0 admin codes
//	auth_admin.go                                       authAdmin (5.x): the ACL 2.0 user and ACL admin codes
//
// Access control, checked before any handler runs:
//
//	acl.go           ACL 1.0 (aclEnable): the accounts of plain_acl.yml
//	                 against each request, as PlainAccessValidator checks it
//	auth.go          ACL 2.0 (authenticationEnabled, authorizationEnabled):
//	                 authenticate, then authorize, as Java's pipelines do
//
// Metrics (metricsExporterType=PROM), as 5.3.3's BrokerMetricsManager:
//
//	metrics.go        the instruments recorded by the handlers, their names
//	                  and labels, and the differences from Java's
//	metrics_scrape.go one scrape: the recorded series and the gauges read now
//	metrics_server.go the exporter's HTTP server (GET /metrics)
//
// Tables (each owns its lock and its config/*.json file): topics.go,
// groups.go, offsets.go, consumer_filters.go (with bloom_filter.go),
// clients.go; the request modes' messageRequestMode.json (5.x) beside
// their codes in query_assignment.go; orderly POP's consumerOrderInfo.json
// (5.x) and its lock-free wake-up timers in pop_order.go. Background services: register.go (name-server
// registration), replication.go (HA roles) with slave_sync.go (a slave's
// copy of its master's tables), schedule.go (delay levels), the 5.x
// timers (below), transaction_check.go, broker_stats.go with stats_items.go and
// stats_log.go, runtime_info.go's sampler. Message properties as Java's
// broker holds and writes them: properties.go. A subscription expression
// built as Java's FilterAPI builds it: subscription.go. The encoder of the
// small response bodies whose field order Java does not depend on:
// client_data.go.
//
// The 5.x timers, Java's TimerMessageStore on Java's files (store/timer_*.go):
//
//	timer.go          the put side (TIMER_* to rmq_sys_wheel_timer) and the broker.conf keys
//	timer_service.go  timerService: its state, the tick, the flush of the checkpoint
//	timer_enqueue.go  the timer queue into the wheel (roll and delete units)
//	timer_dequeue.go  the slots out to their topics
//	timer_recover.go  the start on a store, Java's or ours (and rmqgoTimer.json once)
//	timer_slots.go    the index of the slots that hold units; what the metrics read
//
// Controller mode (enableControllerMode, 5.x): a controller gives the
// broker its id and role and elects a new master when one dies:
//
//	replicas.go             replicasManager: fencing, the controller leader, the controller id,
//	                        heartbeats to the controllers, asking to be elected
//	replicas_sync.go        the replica-info poll and the master's SyncStateSet
//	replicas_roles.go       when the role changes (a newer master epoch), and roleChanger
//	role_switch.go          what a role change does: settings, store, HA, services, registration
//	master_services.go      the master-only services started and stopped at run time
//	controller_identity.go  brokerIdentity and brokerIdentity-temp
//
// Lock order, where two locks are held at once, is in docs/locks.md.
package broker
