package main

// Message queries (tools/command/message):
//
//   - queryMsgByKey -t TOPIC -k KEY (5.x also -b -e -m -c): QUERY_MESSAGE
//     (12, header topic, key, maxNum 64, beginTimestamp 0, endTimestamp
//     Long.MAX_VALUE, ext _UNIQUE_KEY_QUERY=false) to each broker of the
//     route; the records whose KEYS hold the key, "%-50s %4d %40d" (the
//     message id is the UNIQ_KEY when there is one, as MessageClientExt's).
//   - queryMsgByUniqueKey -t TOPIC -i UNIQ_KEY: QUERY_MESSAGE with
//     _UNIQUE_KEY_QUERY=true, maxNum 32; the earliest stored message with
//     the id, printed as queryMsgById prints (no OffsetID line).
//   - queryMsgById -i OFFSET_MSGID[,...] (5.x also requires -t):
//     VIEW_MESSAGE_BY_ID (33, header offset) to the store host the id
//     encodes; the message as QueryMsgByIdSubCommand.printMsg prints it
//     (its body written to /tmp/rocketmq/msgbodys/<msgId>, as Java does),
//     then each consumer group's MessageTrack (QUERY_TOPIC_CONSUME_BY_WHO,
//     GET_CONSUMER_CONNECTION_LIST 203, GET_CONSUME_STATS).
//
// Differences from Java: queryMsgById's -g/-d (push to a client) and -s
// (resend) and 5.x's lookup by unique key are not here; compressed bodies
// are written as stored.

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Names of MessageConst and MixAll, and codes the queries read (wire
// values: do not change).
const (
	propertyKeys        = "KEYS"
	propertyTags        = "TAGS"
	propertyUniqKey     = "UNIQ_KEY"
	uniqueKeyQueryFlag  = "_UNIQUE_KEY_QUERY"
	msgBodyDir          = "/tmp/rocketmq/msgbodys"
	queryNotFound       = 22  // QUERY_NOT_FOUND
	consumerNotOnline   = 206 // CONSUMER_NOT_ONLINE
	noMessage           = 208 // NO_MESSAGE
	getConsumerConnList = remoting.RequestCode(203)
)

func queryMsgByKeyOptions(line protocol.Line) []option {
	if line < protocol.Line5 {
		return []option{
			{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"},
			{short: "k", long: "msgKey", hasArg: true, required: true, desc: "Message Key"},
		}
	}
	return []option{
		{short: "t", long: "topic", hasArg: true, required: true, desc: "Topic name"},
		{short: "k", long: "msgKey", hasArg: true, required: true, desc: "Message Key"},
		{short: "b", long: "beginTimestamp", hasArg: true, desc: "Begin timestamp(ms). default:0, eg:1676730526212"},
		{short: "e", long: "endTimestamp", hasArg: true, desc: "End timestamp(ms). default:Long.MAX_VALUE, eg:1676730526212"},
		{short: "m", long: "maxNum", hasArg: true, desc: "The maximum number of messages returned by the query, default:64"},
		{short: "c", long: "cluster", hasArg: true, desc: "Cluster name or lmq parent topic, lmq is used to find the route."},
	}
}

func runQueryMsgByKey(a *admin, c cmdLine, e env) error {
	begin, end, maxNum := int64(0), int64(math.MaxInt64), int64(64)
	for _, f := range []struct {
		key string
		dst *int64
	}{{"b", &begin}, {"e", &end}, {"m", &maxNum}} {
		if c.has(f.key) {
			v, err := javaLong(c.get(f.key))
			if err != nil {
				return err
			}
			*f.dst = v
		}
	}
	msgs, err := queryMessages(a, c.get("t"), c.get("k"), maxNum, begin, end, false)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%-50s %4s %40s\n", "#Message ID", "#QID", "#Offset")
	for _, m := range msgs {
		fmt.Fprintf(e.stdout, "%-50s %4d %40d\n", clientMsgID(&m), m.QueueID, m.QueueOffset)
	}
	return nil
}

// queryMessages is MQAdminImpl.queryMessage: every broker of the route
// asked, the records of topic whose KEYS hold key, or (uniq) the earliest
// stored one whose message id is key.
func queryMessages(a *admin, topic, key string, maxNum, begin, end int64, uniq bool) ([]store.Record, error) {
	route, err := a.route(topic)
	if err != nil {
		return nil, err
	}
	h := map[string]string{"topic": topic, "key": key, "maxNum": strconv.FormatInt(maxNum, 10),
		"beginTimestamp": strconv.FormatInt(begin, 10), "endTimestamp": strconv.FormatInt(end, 10), uniqueKeyQueryFlag: strconv.FormatBool(uniq)}
	var out []store.Record
	for _, addr := range routeMasters(route) {
		resp, err := a.call(addr, remoting.QueryMessage, h, nil)
		if err != nil {
			return nil, err
		}
		if resp.Code == queryNotFound {
			continue
		}
		if remoting.ResponseCode(resp.Code) != remoting.Success {
			return nil, brokerError(resp, addr)
		}
		recs, err := decodeRecords(resp.Body)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			switch {
			case uniq && clientMsgID(&r) == key:
				if len(out) == 0 || out[0].StoreTimestamp > r.StoreTimestamp {
					out = []store.Record{r}
				}
			case !uniq && r.Topic == topic && hasKey(&r, key):
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		return nil, &clientError{code: noMessage, desc: "query message by key finished, but no message."}
	}
	return out, nil
}

// hasKey reports whether the record's KEYS (space separated) hold key.
func hasKey(r *store.Record, key string) bool {
	keys, ok := r.Property(propertyKeys)
	return ok && slices.Contains(strings.Split(keys, " "), key)
}

// decodeRecords splits a body of stored records (MessageDecoder.decodes).
func decodeRecords(body []byte) ([]store.Record, error) {
	var out []store.Record
	for len(body) >= 4 {
		size := int(int32(uint32(body[0])<<24 | uint32(body[1])<<16 | uint32(body[2])<<8 | uint32(body[3])))
		if size <= 0 || size > len(body) {
			return out, fmt.Errorf("rmqadmin: a stored record of %d bytes in a body of %d", size, len(body))
		}
		r, err := store.DecodeRecord(body[:size])
		if err != nil {
			return out, err
		}
		out = append(out, r)
		body = body[size:]
	}
	return out, nil
}

// clientMsgID is MessageClientExt.getMsgId: the UNIQ_KEY, else the offset
// message id.
func clientMsgID(r *store.Record) string {
	if id, ok := r.Property(propertyUniqKey); ok && id != "" {
		return id
	}
	return r.MsgID()
}

func queryMsgByIDOptions(line protocol.Line) []option {
	opts := []option{
		{short: "i", long: "msgId", hasArg: true, required: true, desc: "Message Id"},
		{short: "g", long: "consumerGroup", hasArg: true, desc: "consumer group name"},
		{short: "d", long: "clientId", hasArg: true, desc: "The consumer's client id"},
		{short: "s", long: "sendMessage", hasArg: true, desc: "resend message"},
		{short: "u", long: "unitName", hasArg: true, desc: "unit name"},
	}
	if line >= protocol.Line5 {
		opts = append(opts,
			option{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"},
			option{short: "c", long: "cluster", hasArg: true, desc: "Cluster name or lmq parent topic, lmq is used to find the route."},
			option{short: "f", long: "bodyFormat", hasArg: true, desc: "print message body by the specified format"})
	}
	return opts
}

func runQueryMsgByID(a *admin, c cmdLine, e env) error {
	if (c.has("g") && c.has("d")) || c.has("s") {
		return fmt.Errorf("queryMsgById -g/-d and -s are not in this mqadmin: use Apache RocketMQ's rocketmq-tools")
	}
	for _, id := range strings.Split(c.get("i"), ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		r, err := viewMessage(a, id)
		if err != nil {
			return err
		}
		if err := printMsg(a, e, &r, true, 0); err != nil {
			return err
		}
	}
	return nil
}

func queryMsgByUniqueKeyOptions(line protocol.Line) []option {
	opts := []option{
		{short: "i", long: "msgId", hasArg: true, required: true, desc: "Message Id"},
		{short: "g", long: "consumerGroup", hasArg: true, desc: "consumer group name"},
		{short: "d", long: "clientId", hasArg: true, desc: "The consumer's client id"},
		{short: "t", long: "topic", hasArg: true, required: true, desc: "The topic of msg"},
		{short: "a", long: "showAll", desc: "Print all message, the limit is 32"},
	}
	if line >= protocol.Line5 {
		opts = append(opts, option{short: "c", long: "cluster", hasArg: true, desc: "Cluster name or lmq parent topic, lmq is used to find the route."})
	}
	return opts
}

// runQueryMsgByUniqueKey is QueryMsgByUniqueKeySubCommand.queryById: the
// earliest message stored with the id (which is all the broker's query
// gives back, so -a shows that one too).
func runQueryMsgByUniqueKey(a *admin, c cmdLine, e env) error {
	if c.has("g") && c.has("d") {
		return fmt.Errorf("queryMsgByUniqueKey -g/-d is not in this mqadmin: use Apache RocketMQ's rocketmq-tools")
	}
	msgs, err := queryMessages(a, c.get("t"), c.get("i"), 32, 0, math.MaxInt64, true)
	if err != nil {
		return err
	}
	return printMsg(a, e, &msgs[0], false, 0)
}

// viewMessage is viewMessage by offset message id: VIEW_MESSAGE_BY_ID to
// the store host the id names.
func viewMessage(a *admin, id string) (store.Record, error) {
	host, offset, err := store.DecodeMessageID(id)
	if err != nil {
		return store.Record{}, &clientError{code: noMessage, desc: "query message by id finished, but no message."}
	}
	addr := host.String()
	resp, err := a.broker(addr, remoting.ViewMessageById, map[string]string{"offset": strconv.FormatInt(offset, 10)}, nil)
	if err != nil {
		return store.Record{}, err
	}
	return store.DecodeRecord(resp.Body)
}

// printMsg is QueryMsgByIdSubCommand.printMsg (offsetID) and
// QueryMsgByUniqueKeySubCommand.showMessage (the index-th message found).
func printMsg(a *admin, e env, r *store.Record, offsetID bool, index int) error {
	path, err := writeBody(r, index)
	if err != nil {
		return err
	}
	field := func(name, value string) { fmt.Fprintf(e.stdout, "%-20s %s\n", name, value) }
	tags, hasTags := r.Property(propertyTags)
	keys, hasKeys := r.Property(propertyKeys)
	if offsetID {
		field("OffsetID:", r.MsgID())
	}
	field("Topic:", r.Topic)
	field("Tags:", "["+orNull(tags, hasTags)+"]")
	field("Keys:", "["+orNull(keys, hasKeys)+"]")
	field("Queue ID:", strconv.Itoa(int(r.QueueID)))
	field("Queue Offset:", strconv.FormatInt(r.QueueOffset, 10))
	field("CommitLog Offset:", strconv.FormatInt(r.PhysicalOffset, 10))
	field("Reconsume Times:", strconv.Itoa(int(r.ReconsumeTimes)))
	field("Born Timestamp:", humanString2(r.BornTimestamp))
	field("Store Timestamp:", humanString2(r.StoreTimestamp))
	field("Born Host:", javaAddr(r.BornHost))
	field("Store Host:", javaAddr(r.StoreHost))
	field("System Flag:", strconv.Itoa(int(r.SysFlag)))
	capacity := 16
	if e.line >= protocol.Line5 {
		capacity = 128
	}
	field("Properties:", javaHashMapString(propertyPairs(r.Properties), capacity))
	field("Message Body Path:", path)
	tracks := messageTracks(a, r)
	if len(tracks) == 0 {
		fmt.Fprint(e.stdout, "\n\nWARN: No Consumer")
		return nil
	}
	fmt.Fprint(e.stdout, "\n\n")
	for _, t := range tracks {
		fmt.Fprint(e.stdout, t)
	}
	return nil
}

// writeBody writes the body where Java's createBodyFile does (a suffix
// _index past the first message).
func writeBody(r *store.Record, index int) (string, error) {
	if err := os.MkdirAll(msgBodyDir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(msgBodyDir, clientMsgID(r))
	if index > 0 {
		path += "_" + strconv.Itoa(index)
	}
	return path, os.WriteFile(path, r.Body, 0o644)
}

// javaAddr is RemotingHelper.parseSocketAddressAddr: host address and port.
func javaAddr(ap netip.AddrPort) string {
	return ap.Addr().Unmap().String() + ":" + strconv.Itoa(int(ap.Port()))
}

// propertyPairs is the record's properties in their stored order.
func propertyPairs(props []byte) [][2]string {
	var out [][2]string
	for _, kv := range strings.Split(string(props), "\x02") {
		if k, v, ok := strings.Cut(kv, "\x01"); ok && k != "" {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// messageTracks is DefaultMQAdminExtImpl.messageTrackDetail: for each
// group consuming the topic, whether it consumed the message.
func messageTracks(a *admin, r *store.Record) []string {
	route, err := a.route(r.Topic)
	if err != nil {
		return nil
	}
	var out []string
	for _, g := range consumeByWho(a, route, r.Topic) {
		trackType, desc := trackOf(a, g, r)
		out = append(out, fmt.Sprintf("MessageTrack [consumerGroup=%s, trackType=%s, exceptionDesc=%s]", g, trackType, desc))
	}
	return out
}

// trackOf is one group's track type and exception description.
func trackOf(a *admin, group string, r *store.Record) (string, string) {
	cc, err := consumerConnection(a, group, "")
	var refused *brokerRefusal
	switch {
	case errors.As(err, &refused):
		return notOnlineOr(refused.code), fmt.Sprintf("CODE:%d DESC:%s", refused.code, refused.desc)
	case err != nil:
		return "UNKNOWN", err.Error() // Java: the exception and its first stack frame
	}
	switch cc.ConsumeType {
	case "CONSUME_ACTIVELY":
		return "PULL", "null"
	case "CONSUME_PASSIVELY":
	default:
		return "UNKNOWN", "null"
	}
	consumed, err := consumedBy(a, group, r)
	var failed *clientError
	switch {
	case errors.As(err, &failed):
		return notOnlineOr(failed.code), fmt.Sprintf("CODE:%d DESC:%s", failed.code, failed.desc)
	case errors.As(err, &refused):
		return notOnlineOr(refused.code), fmt.Sprintf("CODE:%d DESC:%s", refused.code, refused.desc)
	case err != nil:
		return "UNKNOWN", err.Error()
	}
	if !consumed {
		return "NOT_CONSUME_YET", "null"
	}
	tags, _ := r.Property(propertyTags)
	if sub, ok := cc.SubscriptionTable[r.Topic]; ok && len(sub.TagsSet) > 0 &&
		!slices.Contains(sub.TagsSet, tags) && !slices.Contains(sub.TagsSet, "*") {
		return "CONSUMED_BUT_FILTERED", "null"
	}
	return "CONSUMED", "null"
}

// notOnlineOr is the track type of a failure with code: NOT_ONLINE for
// CONSUMER_NOT_ONLINE, else UNKNOWN.
func notOnlineOr(code int32) string {
	if code == consumerNotOnline {
		return "NOT_ONLINE"
	}
	return "UNKNOWN"
}

// consumerConnection is examineConsumerConnectionInfo, of the broker at
// addr or else one of the group's retry topic route.
func consumerConnection(a *admin, group, addr string) (*protocol.ConsumerConnection, error) {
	if addr == "" {
		route, err := a.route(retryGroupTopicPrefix + group)
		if err != nil {
			return nil, err
		}
		masters := routeMasters(route)
		if len(masters) == 0 {
			return nil, &clientError{code: -1, desc: "No broker for the group " + group}
		}
		addr = masters[0]
	}
	resp, err := a.broker(addr, getConsumerConnList, map[string]string{"consumerGroup": group}, nil)
	if err != nil {
		return nil, err
	}
	cc, err := protocol.DecodeConsumerConnection(resp.Body)
	if err != nil {
		return nil, err
	}
	if len(cc.ConnectionSet) == 0 {
		return nil, &clientError{code: consumerNotOnline, desc: "Not found the consumer group connection"}
	}
	return cc, nil
}

// consumedBy is DefaultMQAdminExtImpl.consumed: the group's committed
// offset on the message's queue of its store host's broker is past it.
func consumedBy(a *admin, group string, r *store.Record) (bool, error) {
	stats, err := examineConsumeStats(a, group, a.line)
	if err != nil {
		return false, err
	}
	ci, err := a.clusterInfo()
	if err != nil {
		return false, err
	}
	for q, w := range stats.OffsetTable {
		if q.Topic != r.Topic || q.QueueID != r.QueueID {
			continue
		}
		b, ok := ci.BrokerAddrTable[q.BrokerName]
		if !ok {
			continue
		}
		if addr, ok := b.BrokerAddrs.Get(masterID); ok && addr == javaAddr(r.StoreHost) && w.ConsumerOffset > r.QueueOffset {
			return true, nil
		}
	}
	return false, nil
}
