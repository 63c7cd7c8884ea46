package main

// resetOffsetByTime -g GROUP -t TOPIC -s now|MILLIS|yyyy-MM-dd#HH:mm:ss:SSS
// [-f true] (tools/command/offset/ResetOffsetByTimeCommand):
// INVOKE_BROKER_TO_RESET_OFFSET (222, header topic, group, timestamp,
// isForce; 5.x also queueId -1 and offset -1) to each broker of the topic's
// route; the broker moves the online consumers' offsets and answers them.
// 4.x sends "now" as -1 (the broker's now), 5.x as the current time; the
// table lists the queues in the order Java's HashMap of them iterates.
//
// Differences from Java: an offline group (CONSUMER_NOT_ONLINE), which
// Java resets through the old per-queue path, and 5.x's -b/-q/-o (one
// queue) are not here.

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func resetOffsetByTimeOptions(line protocol.Line) []option {
	opts := []option{
		{short: "g", long: "group", hasArg: true, required: true, desc: "set the consumer group"},
		{short: "t", long: "topic", hasArg: true, required: true, desc: "set the topic"},
		{short: "s", long: "timestamp", hasArg: true, required: true, desc: "set the timestamp[now|currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]"},
	}
	if line < protocol.Line5 {
		return append(opts,
			option{short: "f", long: "force", hasArg: true, desc: "set the force rollback by timestamp switch[true|false]"},
			option{short: "c", long: "cplus", desc: "reset c++ client offset"})
	}
	return append(opts,
		option{short: "f", long: "force", hasArg: true, desc: "set the force rollback by timestamp switch[true|false]. Deprecated."},
		option{short: "b", long: "broker", hasArg: true, desc: "broker addr"},
		option{short: "q", long: "queue", hasArg: true, desc: "queue id"},
		option{short: "o", long: "offset", hasArg: true, desc: "Expect queue offset, not support old version broker"},
		option{short: "c", long: "cluster", hasArg: true, desc: "Cluster name or lmq parent topic, lmq is used to find the route."})
}

// resetTimestamp reads -s: now (-1 on 4.x, the current time on 5.x),
// milliseconds, or yyyy-MM-dd#HH:mm:ss:SSS in the local time zone.
func resetTimestamp(s string, line protocol.Line) (int64, error) {
	if s == "now" {
		if line >= protocol.Line5 {
			return time.Now().UnixMilli(), nil
		}
		return -1, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return ms, nil
	}
	t, err := time.ParseInLocation("2006-01-02#15:04:05:000", s, time.Local)
	if err != nil {
		return 0, fmt.Errorf("java.lang.NullPointerException: the timestamp %q is neither now, milliseconds nor yyyy-MM-dd#HH:mm:ss:SSS", s)
	}
	return t.UnixMilli(), nil
}

func runResetOffsetByTime(a *admin, c cmdLine, e env) error {
	if c.has("b") || c.has("q") || c.has("o") || (e.line < protocol.Line5 && c.has("c")) {
		return fmt.Errorf("resetOffsetByTime with -b/-q/-o or -c is not in this mqadmin: use Apache RocketMQ's rocketmq-tools")
	}
	group, topic, stamp := c.get("g"), c.get("t"), c.get("s")
	ts, err := resetTimestamp(stamp, e.line)
	if err != nil {
		return err
	}
	force := !c.has("f") || javaBool(c.get("f"))
	offsets, err := resetByTimestamp(a, topic, group, ts, force)
	if err != nil {
		return err
	}
	intro := "rollback consumer offset by specified group[%s], topic[%s], force[%t], timestamp(string)[%s], timestamp(long)[%d]\n"
	if e.line >= protocol.Line5 {
		intro = "start reset consumer offset by specified, group[%s], topic[%s], force[%t], timestamp(string)[%s], timestamp(long)[%d]\n"
	}
	fmt.Fprintf(e.stdout, intro, group, topic, force, stamp, ts)
	fmt.Fprintf(e.stdout, "%-40s  %-40s  %-40s\n", "#brokerName", "#queueId", "#offset")
	for _, q := range hashMapQueueOrder(offsets) {
		fmt.Fprintf(e.stdout, "%-40s  %-40d  %-40d\n", frontStringAtLeast(q.BrokerName, 32), q.QueueID, offsets[q])
	}
	return nil
}

// resetByTimestamp is resetOffsetByTimestamp: each broker of the route
// resets the group's offsets on its queues of topic.
func resetByTimestamp(a *admin, topic, group string, ts int64, force bool) (map[protocol.MessageQueue]int64, error) {
	route, err := a.route(topic)
	if err != nil {
		return nil, err
	}
	h := map[string]string{"topic": topic, "group": group, "timestamp": strconv.FormatInt(ts, 10), "isForce": strconv.FormatBool(force)}
	if a.line >= protocol.Line5 {
		h["queueId"], h["offset"] = "-1", "-1"
	}
	all := map[protocol.MessageQueue]int64{}
	for _, addr := range routeMasters(route) {
		resp, err := a.call(addr, remoting.InvokeBrokerToResetOffset, h, nil)
		if err != nil {
			return nil, err
		}
		if remoting.ResponseCode(resp.Code) != remoting.Success || resp.Body == nil {
			return nil, &clientError{code: resp.Code, desc: resp.Remark}
		}
		body, err := protocol.DecodeResetOffsetBody(resp.Body)
		if err != nil {
			return nil, err
		}
		for q, o := range body.OffsetTable {
			all[q] = o
		}
	}
	return all, nil
}

// hashMapQueueOrder is the order Java iterates the queues: decoded into
// a HashMap (16 buckets, grown), then putAll into a new one (sized for
// them).
func hashMapQueueOrder[V any](m map[protocol.MessageQueue]V) []protocol.MessageQueue {
	qs := sortedQueues(m)
	for _, size := range []int{grownCapacity(16, len(qs)), putAllCapacity(len(qs))} {
		hashes := make([]int32, len(qs))
		for i, q := range qs {
			hashes[i] = messageQueueHash(q)
		}
		next := make([]protocol.MessageQueue, 0, len(qs))
		for _, i := range hashOrder(hashes, size) {
			next = append(next, qs[i])
		}
		qs = next
	}
	return qs
}

// messageQueueHash is MessageQueue.hashCode.
func messageQueueHash(q protocol.MessageQueue) int32 {
	h := int32(1)
	h = 31*h + javaStringHash(q.BrokerName)
	h = 31*h + q.QueueID
	return 31*h + javaStringHash(q.Topic)
}
