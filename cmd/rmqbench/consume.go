package main

// rmqbench consume: long-polling PULL_MESSAGE (11) on every read queue of
// a topic, the way a Java push consumer (and so
// org.apache.rocketmq.example.benchmark.Consumer) pulls, counting the
// messages and their end-to-end latency (receive time - born timestamp):
//
//	rmqbench consume -n 127.0.0.1:9876 -t BenchmarkTest -g benchmark_consumer -d 35s
//
// The requests, in order:
//
//   - GET_ROUTEINFO_BY_TOPIC (105) to the name server, once a second until
//     the topic exists; every read queue of every master is pulled.
//   - HEART_BEAT (34) to each master with the group as a push consumer
//     (CONSUME_PASSIVELY, CLUSTERING, subscription "*" with subVersion =
//     start time), again every 20 s. The pulls then carry no subscription
//     (no SUBSCRIPTION bit), so the broker uses the one registered here,
//     as it does for Java push consumers (postSubscriptionWhenPull=false).
//   - QUERY_CONSUMER_OFFSET (14) per queue; when the group has no offset
//     (any answer but SUCCESS), -from last asks GET_MAX_OFFSET (30) and
//     -from first starts at 0.
//   - PULL_MESSAGE (11) per queue, one in flight each: sysFlag SUSPEND
//     (long polling, suspendTimeoutMillis -suspend) plus COMMIT_OFFSET with
//     commitOffset = the offset consumed so far once it is above 0, as the
//     push consumer sends it. FOUND (0): the body is commitlog records,
//     decoded with store.DecodeRecord; PULL_NOT_FOUND (19),
//     PULL_RETRY_IMMEDIATELY (20), PULL_OFFSET_MOVED (21): pull again at
//     nextBeginOffset; SUBSCRIPTION_NOT_EXIST/NOT_LATEST (24/25):
//     heartbeat again; other answers and transport errors: wait 1 s.
//   - at the end, UPDATE_CONSUMER_OFFSET (15, sync) per queue and
//     UNREGISTER_CLIENT (35), as a consumer's shutdown does.
//
// One rmqbench consume takes all the queues: it does not rebalance with
// other members of its group. It stops after -d, or earlier once -count
// messages arrived, or with -until-caught-up once every queue was read to
// its end (a backlog consumed while producers may still be sending: the
// result then has caughtUpSec, and the messages and MB a second until
// then). Consume TPS is taken over the time between the first
// and the last message received. The run ends with a summary line and one
// JSON line (see benchLine).

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// PullSysFlag bits (wire values: do not change).
const (
	pullCommitOffset int32 = 0x1
	pullSuspend      int32 = 0x2
	pullSubscription int32 = 0x4
)

// consumeFlags are rmqbench consume's options.
type consumeFlags struct {
	namesrv  string
	topic    string
	group    string
	from     string
	duration time.Duration
	count    int64
	batch    int
	suspend  time.Duration
	timeout  time.Duration
	progress time.Duration
	binary   bool
	// untilCaughtUp stops the run once every queue was read to its end.
	untilCaughtUp bool
}

func (f *consumeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.namesrv, "n", "127.0.0.1:9876", "name server address (the first of a ';' list)")
	fs.StringVar(&f.topic, "t", "BenchmarkTest", "topic")
	fs.StringVar(&f.group, "g", "rmqbench_consumer", "consumer group")
	fs.StringVar(&f.from, "from", "last", "where a group without a committed offset starts: last or first")
	fs.DurationVar(&f.duration, "d", 30*time.Second, "how long to consume")
	fs.Int64Var(&f.count, "count", 0, "stop earlier, once this many messages arrived")
	fs.IntVar(&f.batch, "batch", 32, "maxMsgNums of a pull")
	fs.DurationVar(&f.suspend, "suspend", 15*time.Second, "long-polling time the broker may hold a pull (suspendTimeoutMillis)")
	fs.DurationVar(&f.timeout, "timeout", 3*time.Second, "timeout of the other requests")
	fs.DurationVar(&f.progress, "progress", 5*time.Second, "progress report interval (0: none)")
	fs.BoolVar(&f.binary, "rocketmq-header", false, "send ROCKETMQ binary headers (as Java's benchmark tools do) instead of JSON")
	fs.BoolVar(&f.untilCaughtUp, "until-caught-up", false,
		"stop once every queue was read to its end (a pull's nextBeginOffset reached its maxOffset) and report how long that took")
}

func (f *consumeFlags) validate() error {
	switch {
	case f.duration <= 0:
		return errors.New("-d must be positive")
	case f.batch < 1:
		return errors.New("-batch must be at least 1")
	case f.from != "last" && f.from != "first":
		return errors.New("-from must be last or first")
	}
	return nil
}

func runConsume(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("consume", stderr)
	var f consumeFlags
	f.register(fs)
	if !parseChecked(fs, args, stderr, f.validate) {
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, f.duration)
	defer cancel()
	client := remoting.NewClient(remoting.ClientOptions{})
	defer client.Close()
	c := &consumer{f: &f, w: &wire{client: client, timeout: f.timeout, serialize: serializeType(f.binary)},
		clientID: newClientID(), subVersion: time.Now().UnixMilli(), stop: cancel, stats: newConsumeStats()}
	offsets, err := c.prepare(ctx, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench consume:", err)
		return 1
	}
	fmt.Fprintf(stdout, "consume: started: topic=%s group=%s, %d queues of %v, long polling %s\n",
		f.topic, f.group, len(c.queues), brokerAddrs(c.queues), f.suspend)
	res := c.run(ctx, offsets, stdout)
	fmt.Fprintln(stdout, res.human())
	if res.CaughtUpSec > 0 {
		fmt.Fprintf(stdout, "consume: caught up after %.1f s: %d messages, %.0f msg/s, %.1f MB/s\n",
			res.CaughtUpSec, res.CaughtUpMessages, res.CaughtUpTPS, res.CaughtUpMBps)
	}
	printCodes(stdout, c.stats.codeResults())
	c.stats.printSlow(stdout)
	fmt.Fprintln(stdout, res.json())
	if res.Messages == 0 {
		return 1
	}
	return 0
}

// consumer is one rmqbench consume run.
type consumer struct {
	f          *consumeFlags
	w          *wire
	queues     []messageQueue
	clientID   string
	subVersion int64
	stats      *consumeStats
	// caught follows the queues' ends (-until-caught-up), else nil.
	caught *catchUp
	// stop ends the run (-count reached).
	stop context.CancelFunc
}

// prepare finds the queues, registers the group and reads where each
// queue starts.
func (c *consumer) prepare(ctx context.Context, out io.Writer) ([]int64, error) {
	route, err := c.w.waitRoute(ctx, firstAddr(c.f.namesrv), c.f.topic, func() {
		fmt.Fprintf(out, "consume: no route for %s yet; asking again every second\n", c.f.topic)
	})
	if err != nil {
		return nil, err
	}
	if c.queues = routeQueues(route, false, 0); len(c.queues) == 0 {
		return nil, fmt.Errorf("no readable queue with a master in the route of %s", c.f.topic)
	}
	if err := c.heartbeat(); err != nil {
		return nil, err
	}
	offsets := make([]int64, len(c.queues))
	for i, q := range c.queues {
		if offsets[i], err = c.startOffset(q); err != nil {
			return nil, fmt.Errorf("start offset of %s: %w", q, err)
		}
	}
	return offsets, nil
}

// heartbeat registers the group as a push consumer of the topic.
func (c *consumer) heartbeat() error {
	sub := subscriptionData{CodeSet: []int32{}, ExpressionType: "TAG", SubString: "*", SubVersion: c.subVersion,
		TagsSet: []string{}, Topic: c.f.topic}
	return c.w.heartbeat(brokerAddrs(c.queues), &heartbeatData{ClientID: c.clientID,
		ConsumerDataSet: []consumerData{{ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET", ConsumeType: "CONSUME_PASSIVELY",
			GroupName: c.f.group, MessageModel: "CLUSTERING", SubscriptionDataSet: []subscriptionData{sub}}},
		ProducerDataSet: []producerData{{GroupName: clientInnerProducer}}})
}

// queueHeader is the header of the offset requests on q.
func (c *consumer) queueHeader(q messageQueue) map[string]string {
	return map[string]string{"consumerGroup": c.f.group, "topic": c.f.topic, "queueId": strconv.Itoa(int(q.id))}
}

// startOffset is the group's committed offset of q, else where -from says.
func (c *consumer) startOffset(q messageQueue) (int64, error) {
	resp, err := c.w.call(q.addr, c.w.request(remoting.QueryConsumerOffset, c.queueHeader(q)))
	if err != nil {
		return 0, err
	}
	if resp.Code == int32(remoting.Success) {
		return resp.ExtInt64("offset")
	}
	if c.f.from == "first" {
		return 0, nil
	}
	resp, err = c.w.call(q.addr, c.w.request(remoting.GetMaxOffset,
		map[string]string{"topic": c.f.topic, "queueId": strconv.Itoa(int(q.id))}))
	if err != nil {
		return 0, err
	}
	if resp.Code != int32(remoting.Success) {
		return 0, fmt.Errorf("GET_MAX_OFFSET: %s (%d) %s", remoting.ResponseCode(resp.Code), resp.Code, resp.Remark)
	}
	return resp.ExtInt64("offset")
}

// run pulls every queue until ctx ends, then commits and unregisters.
func (c *consumer) run(ctx context.Context, offsets []int64, out io.Writer) *benchLine {
	start := time.Now()
	if c.f.untilCaughtUp {
		c.caught = newCatchUp(c.queues, start)
	}
	stopReport := c.stats.reportEvery(c.f.progress, start, out)
	go c.heartbeatEvery(ctx, 20*time.Second, out)
	var wg sync.WaitGroup
	for i, q := range c.queues {
		wg.Add(1)
		go func() {
			defer wg.Done()
			offsets[i] = c.pullQueue(ctx, q, offsets[i])
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopReport()
	c.shutdown(offsets, out)
	res := c.stats.result(c.f, len(c.queues), elapsed)
	if c.caught != nil {
		c.caught.fill(res)
	}
	return res
}

// heartbeatEvery repeats the heartbeat until ctx ends.
func (c *consumer) heartbeatEvery(ctx context.Context, every time.Duration, out io.Writer) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if err := c.heartbeat(); err != nil && ctx.Err() == nil {
				fmt.Fprintln(out, "consume:", err)
			}
		}
	}
}

// shutdown commits the offsets and leaves the group.
func (c *consumer) shutdown(offsets []int64, out io.Writer) {
	for i, q := range c.queues {
		h := c.queueHeader(q)
		h["commitOffset"] = strconv.FormatInt(offsets[i], 10)
		if _, err := c.w.call(q.addr, c.w.request(remoting.UpdateConsumerOffset, h)); err != nil {
			fmt.Fprintf(out, "consume: committing %s: %v\n", q, err)
		}
	}
	for _, addr := range brokerAddrs(c.queues) {
		req := c.w.request(remoting.UnregisterClient, map[string]string{"clientID": c.clientID, "consumerGroup": c.f.group})
		if _, err := c.w.call(addr, req); err != nil {
			fmt.Fprintf(out, "consume: unregistering from %s: %v\n", addr, err)
		}
	}
}

// pullQueue pulls q from offset until ctx ends and returns the offset
// reached.
func (c *consumer) pullQueue(ctx context.Context, q messageQueue, offset int64) int64 {
	for ctx.Err() == nil {
		resp, err := c.pull(ctx, q, offset)
		if ctx.Err() != nil {
			break
		}
		next, ok := c.handlePull(q, offset, resp, err)
		offset = next
		if !ok {
			pause(ctx, time.Second)
		}
	}
	return offset
}

// pull sends one long-polling PULL_MESSAGE; it may wait up to -suspend for
// the broker's answer, plus a margin (Java's push consumer waits 30 s for
// a 15 s suspend).
func (c *consumer) pull(ctx context.Context, q messageQueue, offset int64) (*remoting.Command, error) {
	sysFlag := pullSuspend
	if offset > 0 {
		sysFlag |= pullCommitOffset
	}
	h := c.queueHeader(q)
	h["queueOffset"] = strconv.FormatInt(offset, 10)
	h["maxMsgNums"] = strconv.Itoa(c.f.batch)
	h["sysFlag"] = strconv.Itoa(int(sysFlag))
	h["commitOffset"] = strconv.FormatInt(offset, 10)
	h["suspendTimeoutMillis"] = strconv.FormatInt(c.f.suspend.Milliseconds(), 10)
	h["subVersion"] = strconv.FormatInt(c.subVersion, 10)
	h["expressionType"] = "TAG"
	h["bname"] = q.broker
	ctx, cancel := context.WithTimeout(ctx, c.f.suspend+15*time.Second)
	defer cancel()
	return c.w.client.Invoke(ctx, q.addr, c.w.request(remoting.PullMessage, h))
}

// handlePull records a pull's outcome and returns the next offset, and
// false when the next pull should wait a little.
func (c *consumer) handlePull(q messageQueue, offset int64, resp *remoting.Command, err error) (int64, bool) {
	if err != nil {
		c.stats.failed(err)
		return offset, false
	}
	c.stats.answered(resp.Code)
	switch remoting.ResponseCode(resp.Code) {
	case remoting.Success, remoting.PullNotFound, remoting.PullRetryImmediately, remoting.PullOffsetMoved:
	case remoting.SubscriptionNotExist, remoting.SubscriptionNotLatest:
		_ = c.heartbeat()
		return offset, false
	default:
		return offset, false
	}
	next, err := resp.ExtInt64("nextBeginOffset")
	if err != nil {
		c.stats.failed(fmt.Errorf("pull answer from %s: %w", q, err))
		return offset, false
	}
	if resp.Code == int32(remoting.Success) {
		if err := c.receive(resp.Body); err != nil {
			c.stats.failed(fmt.Errorf("pull body from %s: %w", q, err))
		}
	}
	c.checkCaughtUp(q, next, resp)
	return next, true
}

// checkCaughtUp ends a -until-caught-up run once this answer brought the
// last queue to its end.
func (c *consumer) checkCaughtUp(q messageQueue, next int64, resp *remoting.Command) {
	if c.caught == nil {
		return
	}
	end, err := resp.ExtInt64("maxOffset")
	if err != nil {
		return
	}
	received, bytes := c.stats.totals()
	if c.caught.answered(q, next, end, received, bytes) {
		c.stop()
	}
}

// receive records the messages of a pull body.
func (c *consumer) receive(body []byte) error {
	now := time.Now()
	var msgs []arrival
	err := decodePullBody(body, func(r *store.Record) {
		msgs = append(msgs, arrival{broker: r.StoreHost, queueID: r.QueueID, queueOffset: r.QueueOffset, bornMillis: r.BornTimestamp, storedMillis: r.StoreTimestamp})
	})
	c.stats.receivedBytes(len(body))
	if total := c.stats.received(now, msgs); c.f.count > 0 && total >= uint64(c.f.count) {
		c.stop()
	}
	return err
}

// errBadBody is returned for a pull body that is not whole records.
var errBadBody = errors.New("rmqbench: bad pull body")

// decodePullBody calls fn for each record of body: commitlog records back
// to back, each starting with its total size.
func decodePullBody(body []byte, fn func(*store.Record)) error {
	for len(body) > 0 {
		if len(body) < 4 {
			return fmt.Errorf("%w: %d bytes left", errBadBody, len(body))
		}
		size := int(int32(binary.BigEndian.Uint32(body)))
		if size < 4 || size > len(body) {
			return fmt.Errorf("%w: record size %d with %d bytes left", errBadBody, size, len(body))
		}
		r, err := store.DecodeRecord(body[:size])
		if err != nil {
			return err
		}
		fn(&r)
		body = body[size:]
	}
	return nil
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
