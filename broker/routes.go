package broker

// The routing table: every request code the broker serves, the pool that
// runs it and its handler, as BrokerController.registerProcessor assigns
// codes to executors. Codes no route names are answered
// REQUEST_CODE_NOT_SUPPORTED as Java answers them (notSupported); the
// codes marked fiveOnly are served by a 5.x broker only, a 4.9.x broker
// does not know them. One table serves the main port and the VIP port
// (listenPort - 2), each with pools of its own.

import (
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

// poolKind is a handler family's pool (one of Java's executors).
type poolKind int

// The pools, as BrokerController names its executors.
const (
	sendPool poolKind = iota
	pullPool
	queryPool
	adminPool
	clientPool
	heartbeatPool
	consumerPool
	endTxPool
	poolKinds
)

// pools are one server's pools, by kind.
type pools [poolKinds]*remoting.Pool

// handlers are the request families, each a service with the few things
// it uses (see wire.go).
type handlers struct {
	send    *sendService
	recall  *recallService
	pull    *pullService
	query   *queryService
	clients *clientService
	offsets *offsetService
	topics  *topicAdmin
	groups  *groupAdmin
	stats   *statsAdmin
	config  *configAdmin
	calls   *consumerCalls
	runtime *runtimeInfo
	tx      *transactionService
	acl     *aclAdmin
	auth    *authAdmin
	modes   *requestModes
	pop     *popService
	acks    *ackService
	ha      *haStatus
	// ctl serves the controller-mode codes (admin_controller.go).
	ctl *controllerAdmin
	// timerSync answers a Java slave's timer syncs.
	timerSync *timerSync
}

// route is one code's pool and handler.
type route struct {
	code     remoting.RequestCode
	pool     poolKind
	handler  remoting.Handler
	fiveOnly bool
	// fourOnly codes are gone from 5.3.3 (ACL 1.0's).
	fourOnly bool
}

// routes is the table.
func (h *handlers) routes() []route {
	o := h.offsets
	return []route{
		{code: remoting.SendMessage, pool: sendPool, handler: h.send.sendMessage},
		{code: remoting.SendMessageV2, pool: sendPool, handler: h.send.sendMessage},
		{code: remoting.SendBatchMessage, pool: sendPool, handler: h.send.sendMessage},
		{code: remoting.ConsumerSendMsgBack, pool: sendPool, handler: h.send.consumerSendMsgBack},
		{code: remoting.RecallMessage, pool: sendPool, handler: h.recall.recallMessage, fiveOnly: true},

		{code: remoting.PullMessage, pool: pullPool, handler: h.pull.pullMessage},
		// 5.x lite pull consumers pull with their own code; served on
		// both lines (a 4.9.8 broker would refuse it).
		{code: remoting.LitePullMessage, pool: pullPool, handler: h.pull.pullMessage},

		// POP (5.x): pops on the pull pool; acks and changes of invisible
		// time on their own pool in Java (ackMessageExecutor), on the
		// consumer pool here.
		{code: remoting.PopMessage, pool: pullPool, handler: h.pop.popMessage, fiveOnly: true},
		{code: remoting.Notification, pool: pullPool, handler: h.pop.notification, fiveOnly: true},
		{code: remoting.PollingInfo, pool: pullPool, handler: h.pop.pollingInfo, fiveOnly: true},
		{code: remoting.PeekMessage, pool: pullPool, handler: h.pop.peekMessage, fiveOnly: true},
		{code: remoting.AckMessage, pool: consumerPool, handler: h.acks.ackMessage, fiveOnly: true},
		{code: remoting.BatchAckMessage, pool: consumerPool, handler: h.acks.batchAckMessage, fiveOnly: true},
		{code: remoting.ChangeMessageInvisibletime, pool: consumerPool, handler: h.acks.changeInvisibleTime, fiveOnly: true},

		{code: remoting.QueryMessage, pool: queryPool, handler: h.query.queryMessage},
		{code: remoting.ViewMessageById, pool: queryPool, handler: h.query.viewMessageByID},

		{code: remoting.HeartBeat, pool: heartbeatPool, handler: h.clients.heartbeat},
		{code: remoting.UnregisterClient, pool: clientPool, handler: h.clients.unregisterClient},
		{code: remoting.CheckClientConfig, pool: clientPool, handler: h.clients.checkClientConfig},
		{code: remoting.GetConsumerListByGroup, pool: consumerPool, handler: h.clients.getConsumerListByGroup},
		{code: remoting.LockBatchMq, pool: adminPool, handler: h.clients.lockBatchMQ},
		{code: remoting.UnlockBatchMq, pool: adminPool, handler: h.clients.unlockBatchMQ},

		{code: remoting.QueryConsumerOffset, pool: consumerPool, handler: o.queryConsumerOffset},
		{code: remoting.UpdateConsumerOffset, pool: consumerPool, handler: o.updateConsumerOffset},
		{code: remoting.GetMaxOffset, pool: adminPool, handler: o.queueOffsetAnswer("offset", o.store.MaxOffset)},
		{code: remoting.GetMinOffset, pool: adminPool, handler: o.queueOffsetAnswer("offset", o.store.MinOffset)},
		{code: remoting.GetEarliestMsgStoretime, pool: adminPool, handler: o.queueOffsetAnswer("timestamp", o.store.EarliestMessageTime)},
		{code: remoting.SearchOffsetByTimestamp, pool: adminPool, handler: o.searchOffsetByTimestamp},
		{code: remoting.InvokeBrokerToResetOffset, pool: adminPool, handler: o.resetOffset},
		{code: remoting.CloneGroupOffset, pool: adminPool, handler: o.cloneGroupOffset},

		{code: remoting.UpdateAndCreateTopic, pool: adminPool, handler: h.topics.updateAndCreateTopic},
		{code: remoting.DeleteTopicInBroker, pool: adminPool, handler: h.topics.deleteTopicInBroker},
		{code: remoting.GetAllTopicConfig, pool: adminPool, handler: h.topics.getAllTopicConfig},
		{code: remoting.GetSystemTopicListFromBroker, pool: adminPool, handler: h.topics.getSystemTopicList},
		// 5.x's, served on both lines: the 5.x dashboard asks a 4.x broker.
		{code: remoting.GetTopicConfig, pool: adminPool, handler: h.topics.getTopicConfig},
		{code: remoting.CleanExpiredConsumequeue, pool: adminPool, handler: h.topics.cleanExpiredConsumeQueue},
		{code: remoting.CleanUnusedTopic, pool: adminPool, handler: h.topics.cleanUnusedTopic},

		{code: remoting.UpdateAndCreateSubscriptiongroup, pool: adminPool, handler: h.groups.updateAndCreateSubscriptionGroup},
		{code: remoting.UpdateAndCreateSubscriptiongroupList, pool: adminPool, handler: h.groups.updateAndCreateSubscriptionGroupList, fiveOnly: true},
		{code: remoting.GetAllSubscriptiongroupConfig, pool: adminPool, handler: h.groups.getAllSubscriptionGroup},
		{code: remoting.GetSubscriptiongroupConfig, pool: adminPool, handler: h.groups.getSubscriptionGroup, fiveOnly: true},
		{code: remoting.DeleteSubscriptiongroup, pool: adminPool, handler: h.groups.deleteSubscriptionGroup},

		{code: remoting.GetConsumeStats, pool: adminPool, handler: h.stats.getConsumeStats},
		{code: remoting.GetBrokerConsumeStats, pool: adminPool, handler: h.stats.getBrokerConsumeStats},
		{code: remoting.GetTopicStatsInfo, pool: adminPool, handler: h.stats.getTopicStatsInfo},
		{code: remoting.GetAllConsumerOffset, pool: adminPool, handler: h.stats.getAllConsumerOffset},
		{code: remoting.GetAllDelayOffset, pool: adminPool, handler: h.stats.getAllDelayOffset},
		{code: remoting.QueryAssignment, pool: adminPool, handler: h.modes.queryAssignment, fiveOnly: true},
		{code: remoting.SetMessageRequestMode, pool: adminPool, handler: h.modes.setMessageRequestMode, fiveOnly: true},
		{code: remoting.GetAllMessageRequestMode, pool: adminPool, handler: h.modes.getAllMessageRequestMode, fiveOnly: true},
		{code: remoting.GetBrokerHaStatus, pool: adminPool, handler: h.ha.getBrokerHaStatus, fiveOnly: true},
		{code: remoting.NotifyBrokerRoleChanged, pool: adminPool, handler: h.ctl.notifyBrokerRoleChanged, fiveOnly: true},
		{code: remoting.GetBrokerEpochCache, pool: adminPool, handler: h.ctl.getBrokerEpochCache, fiveOnly: true},
		{code: remoting.GetTimerCheckPoint, pool: adminPool, handler: h.timerSync.getTimerCheckPoint, fiveOnly: true},
		{code: remoting.GetTimerMetrics, pool: adminPool, handler: h.timerSync.getTimerMetrics, fiveOnly: true},
		{code: remoting.ViewBrokerStatsData, pool: adminPool, handler: h.stats.viewBrokerStatsData},
		{code: remoting.QueryConsumeTimeSpan, pool: adminPool, handler: h.stats.queryConsumeTimeSpan},
		{code: remoting.GetConsumerConnectionList, pool: adminPool, handler: h.stats.getConsumerConnectionList},
		{code: remoting.GetProducerConnectionList, pool: adminPool, handler: h.stats.getProducerConnectionList},
		{code: remoting.QueryTopicConsumeByWho, pool: adminPool, handler: h.stats.queryTopicConsumeByWho},
		{code: remoting.QueryTopicsByConsumer, pool: adminPool, handler: h.stats.queryTopicsByConsumer, fiveOnly: true},
		{code: remoting.QuerySubscriptionByConsumer, pool: adminPool, handler: h.stats.querySubscriptionByConsumer, fiveOnly: true},

		{code: remoting.GetConsumerRunningInfo, pool: adminPool, handler: h.calls.getConsumerRunningInfo},
		{code: remoting.ConsumeMessageDirectly, pool: adminPool, handler: h.calls.consumeMessageDirectly},
		{code: remoting.InvokeBrokerToGetConsumerStatus, pool: adminPool, handler: h.calls.getConsumerStatus},

		{code: remoting.GetBrokerConfig, pool: adminPool, handler: h.config.getBrokerConfig},
		{code: remoting.UpdateBrokerConfig, pool: adminPool, handler: h.config.updateBrokerConfig},
		{code: remoting.GetBrokerRuntimeInfo, pool: adminPool, handler: h.runtime.getBrokerRuntimeInfo},

		{code: remoting.EndTransaction, pool: endTxPool, handler: h.tx.endTransaction},

		{code: remoting.UpdateAndCreateAclConfig, pool: adminPool, handler: h.acl.updateAccessConfig, fourOnly: true},
		{code: remoting.DeleteAclConfig, pool: adminPool, handler: h.acl.deleteAccessConfig, fourOnly: true},
		{code: remoting.GetBrokerClusterAclInfo, pool: adminPool, handler: h.acl.getAclVersion, fourOnly: true},
		{code: remoting.UpdateGlobalWhiteAddrsConfig, pool: adminPool, handler: h.acl.updateGlobalWhiteAddrs, fourOnly: true},
		{code: remoting.GetBrokerClusterAclConfig, pool: adminPool, handler: h.acl.getAclConfig, fourOnly: true},
		{code: remoting.AuthCreateUser, pool: adminPool, handler: h.auth.createUser, fiveOnly: true},
		{code: remoting.AuthUpdateUser, pool: adminPool, handler: h.auth.updateUser, fiveOnly: true},
		{code: remoting.AuthDeleteUser, pool: adminPool, handler: h.auth.deleteUser, fiveOnly: true},
		{code: remoting.AuthGetUser, pool: adminPool, handler: h.auth.getUser, fiveOnly: true},
		{code: remoting.AuthListUser, pool: adminPool, handler: h.auth.listUser, fiveOnly: true},
		{code: remoting.AuthCreateAcl, pool: adminPool, handler: h.auth.putAcl, fiveOnly: true},
		{code: remoting.AuthUpdateAcl, pool: adminPool, handler: h.auth.putAcl, fiveOnly: true},
		{code: remoting.AuthDeleteAcl, pool: adminPool, handler: h.auth.deleteAcl, fiveOnly: true},
		{code: remoting.AuthGetAcl, pool: adminPool, handler: h.auth.getAcl, fiveOnly: true},
		{code: remoting.AuthListAcl, pool: adminPool, handler: h.auth.listAcl, fiveOnly: true},
	}
}

// newRouter is the dispatch table of one server: the routes the line
// serves, on pools of that server sized from broker.conf.
func newRouter(routes []route, l line, set *settings, log *zap.Logger, guards ...requestGuard) (*remoting.Router, pools) {
	r := remoting.NewRouter(log)
	p := newPools(r, set)
	for _, rt := range routes {
		if rt.fiveOnly && !l.servesFiveOnlyCodes() || rt.fourOnly && l.servesFiveOnlyCodes() {
			continue
		}
		r.Handle(rt.code, p[rt.pool], guarded(rt.handler, guards))
	}
	r.SetFallback(guarded(func(req *remoting.Request) *remoting.Command { return notSupported(log, req) }, guards))
	return r, p
}

// requestGuard checks a request before its handler runs (ACL 1.0's
// aclGuard, ACL 2.0's authGuard).
type requestGuard interface {
	wrap(h remoting.Handler) remoting.Handler
}

// guarded wraps a handler in the guards, the first checking first.
func guarded(h remoting.Handler, guards []requestGuard) remoting.Handler {
	for i := len(guards) - 1; i >= 0; i-- {
		h = guards[i].wrap(h)
	}
	return h
}

// newPools sizes the pools from broker.conf.
func newPools(r *remoting.Router, set *settings) pools {
	c := set.Broker
	n := func(v int32) int { return int(max(v, 1)) }
	pool := func(name string, workers, queue int32) *remoting.Pool {
		return r.NewPool(remoting.PoolOptions{Name: name, Workers: n(workers), Queue: n(queue)})
	}
	var p pools
	p[sendPool] = r.NewPool(remoting.PoolOptions{Name: "send", Workers: sendWorkers(set), Queue: n(c.SendThreadPoolQueueCapacity),
		MaxWait: set.WaitInSendQueue, BusyRemark: sendQueueBusyRemark})
	p[pullPool] = r.NewPool(remoting.PoolOptions{Name: "pull", Workers: n(c.PullMessageThreadPoolNums),
		Queue: n(c.PullThreadPoolQueueCapacity), PerConnection: pullsPerConnection})
	p[queryPool] = pool("query", c.QueryMessageThreadPoolNums, c.QueryThreadPoolQueueCapacity)
	p[adminPool] = pool("admin", c.AdminBrokerThreadPoolNums, 10000)
	p[clientPool] = pool("client", c.ClientManageThreadPoolNums, c.ClientManagerThreadPoolQueueCapacity)
	p[heartbeatPool] = pool("heartbeat", c.HeartbeatThreadPoolNums, c.HeartbeatThreadPoolQueueCapacity)
	p[consumerPool] = pool("consumer", c.ConsumerManageThreadPoolNums, c.ConsumerManagerThreadPoolQueueCapacity)
	p[endTxPool] = pool("endTransaction", c.EndTransactionThreadPoolNums, c.EndTransactionPoolQueueCapacity)
	return p
}

// pullsPerConnection bounds the pulls of one connection the pull pool
// holds, queued or served (parked ones not counted): further frames of
// that connection wait undecoded until one is answered or parked. A Java
// consumer keeps one pull a queue in flight; a client that pipelines pulls
// and reads none of the answers held ~1.5 KB of decoded request and
// answer for each (docs/memory.md).
const pullsPerConnection = 4

// waitingSendWorkers is the least number of send workers of a broker whose
// puts wait for the disk (SYNC_FLUSH) or a slave (SYNC_MASTER). It bounds
// a group commit's size: with 64, 256 synchronous senders on SYNC_FLUSH
// queued four fsyncs deep and about one send in ten was answered
// SYSTEM_BUSY (waitTimeMillsInSendQueue), where Java, whose puts wait on
// futures, answered under one in three hundred (bench/curves-bench.sh,
// docs/cost-curves.md). A parked worker is a goroutine: 256 cost about
// a megabyte.
const waitingSendWorkers = 256

// sendWorkers is sendMessageThreadPoolNums, raised to waitingSendWorkers
// when a put may wait for a flush or a slave's ack. Java's send processor
// hands such a put to a CompletableFuture and frees its thread, so its few
// threads are never the limit. A send here that waits for replicas is
// answered later too (sendOutcome.answerLater) and frees its worker; a
// SYNC_FLUSH put and a consumer's send-back still wait in theirs, and two
// workers waiting a round trip each capped a SYNC_MASTER near 4,000 sends
// a second whatever the number of producers (bench/ha-bench.sh). Group
// commit and the slave's acks serve every waiting put at once, so more
// waiting workers mean bigger groups, not more work.
func sendWorkers(set *settings) int {
	n := int(max(set.Broker.SendMessageThreadPoolNums, 1))
	if set.Store.FlushDiskType == conf.SyncFlush || set.Store.BrokerRole == conf.SyncMaster || set.Broker.EnableControllerMode {
		// a controller-mode broker may become a master whose puts wait for
		// their SyncStateSet, whatever broker.conf's brokerRole says
		n = max(n, waitingSendWorkers)
	}
	return n
}

// sendQueueBusyRemark is BrokerFastFailure's remark for a send that
// waited too long in its queue.
func sendQueueBusyRemark(waited time.Duration, queued int) string {
	return fmt.Sprintf("[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: %dms, size of queue: %d",
		waited.Milliseconds(), queued)
}

// notSupported answers a code no route serves, as AdminBrokerProcessor's
// getUnknownCmdResponse does.
func notSupported(log *zap.Logger, req *remoting.Request) *remoting.Command {
	log.Warn("request type not supported", zap.Int32("code", req.Cmd.Code), zap.String("remote", req.Ch.RemoteAddr()))
	return remoting.NewResponse(req.Cmd, remoting.RequestCodeNotSupported,
		fmt.Sprintf(" request type %d not supported", req.Cmd.Code))
}
