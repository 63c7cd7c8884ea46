package broker

import (
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// Handler families and their pools, as BrokerController.registerProcessor
// assigns codes to executors.
type pools struct {
	send, pull, query, admin, client, heartbeat, consumer, endTx *remoting.Pool
}

// newRouter is the dispatch table of one server (main or VIP).
func (b *Broker) newRouter() *remoting.Router {
	r := remoting.NewRouter(b.log)
	p := b.newPools(r)
	b.serverPools = append(b.serverPools, p)
	for code, h := range b.sendHandlers() {
		r.Handle(code, p.send, h)
	}
	r.Handle(remoting.PullMessage, p.pull, b.pullMessage)
	// 5.x lite pull consumers pull with their own code; served on both
	// lines (a 4.9.8 broker would refuse it).
	r.Handle(remoting.LitePullMessage, p.pull, b.pullMessage)
	r.Handle(remoting.HeartBeat, p.heartbeat, b.heartbeat)
	for code, h := range b.clientHandlers() {
		r.Handle(code, p.client, h)
	}
	for code, h := range b.consumerHandlers() {
		r.Handle(code, p.consumer, h)
	}
	for code, h := range b.queryHandlers() {
		r.Handle(code, p.query, h)
	}
	for code, h := range b.adminHandlers() {
		r.Handle(code, p.admin, h)
	}
	r.Handle(remoting.GetBrokerRuntimeInfo, p.admin, b.getBrokerRuntimeInfo)
	r.Handle(remoting.InvokeBrokerToResetOffset, p.admin, b.resetOffset)
	for code, h := range b.statsHandlers() {
		r.Handle(code, p.admin, h)
	}
	for code, h := range b.endTxHandlers() {
		r.Handle(code, p.endTx, h)
	}
	r.SetFallback(b.notSupported)
	return r
}

// newPools sizes the pools from broker.conf.
func (b *Broker) newPools(r *remoting.Router) pools {
	c := b.opts.Configs.Broker
	n := func(v int32) int { return int(max(v, 1)) }
	return pools{
		send: r.NewPool(remoting.PoolOptions{Name: "send", Workers: n(c.SendMessageThreadPoolNums), Queue: n(c.SendThreadPoolQueueCapacity),
			MaxWait: ms(c.WaitTimeMillsInSendQueue), BusyRemark: sendQueueBusyRemark}),
		pull:      r.NewPool(remoting.PoolOptions{Name: "pull", Workers: n(c.PullMessageThreadPoolNums), Queue: n(c.PullThreadPoolQueueCapacity)}),
		query:     r.NewPool(remoting.PoolOptions{Name: "query", Workers: n(c.QueryMessageThreadPoolNums), Queue: n(c.QueryThreadPoolQueueCapacity)}),
		admin:     r.NewPool(remoting.PoolOptions{Name: "admin", Workers: n(c.AdminBrokerThreadPoolNums), Queue: 10000}),
		client:    r.NewPool(remoting.PoolOptions{Name: "client", Workers: n(c.ClientManageThreadPoolNums), Queue: n(c.ClientManagerThreadPoolQueueCapacity)}),
		heartbeat: r.NewPool(remoting.PoolOptions{Name: "heartbeat", Workers: n(c.HeartbeatThreadPoolNums), Queue: n(c.HeartbeatThreadPoolQueueCapacity)}),
		consumer:  r.NewPool(remoting.PoolOptions{Name: "consumer", Workers: n(c.ConsumerManageThreadPoolNums), Queue: n(c.ConsumerManagerThreadPoolQueueCapacity)}),
		endTx:     r.NewPool(remoting.PoolOptions{Name: "endTransaction", Workers: n(c.EndTransactionThreadPoolNums), Queue: n(c.EndTransactionPoolQueueCapacity)}),
	}
}

// sendQueueBusyRemark is BrokerFastFailure's remark for a send that
// waited too long in its queue.
func sendQueueBusyRemark(waited time.Duration, queued int) string {
	return fmt.Sprintf("[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: %dms, size of queue: %d",
		waited.Milliseconds(), queued)
}

// notSupported answers a code no handler serves, as AdminBrokerProcessor's
// getUnknownCmdResponse does.
func (b *Broker) notSupported(req *remoting.Request) *remoting.Command {
	b.log.Warn("request type not supported", zap.Int32("code", req.Cmd.Code), zap.String("remote", req.Ch.RemoteAddr()))
	return remoting.NewResponse(req.Cmd, remoting.RequestCodeNotSupported,
		fmt.Sprintf(" request type %d not supported", req.Cmd.Code))
}
