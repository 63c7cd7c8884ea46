// The set-up an operator makes with mqadmin, as remoting requests to the
// broker and the name server: a topic with its 5.x message.type attribute,
// a consumer group (FIFO or not, with its retries), and the queue offsets of
// a topic.
package gov5

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

var (
	adminOnce   sync.Once
	adminClient *remoting.Client
)

// admin is the one remoting client of the process (connections per address).
func admin() *remoting.Client {
	adminOnce.Do(func() { adminClient = remoting.NewClient(remoting.ClientOptions{}) })
	return adminClient
}

// invoke sends a request and fails the test unless the answer is SUCCESS (0).
func invoke(t *testing.T, addr string, req *remoting.Command, what string) *remoting.Command {
	t.Helper()
	resp, err := admin().InvokeTimeout(addr, req, 10*time.Second)
	if err != nil {
		t.Fatalf("%s at %s: %v", what, addr, err)
	}
	if resp.Code != 0 {
		t.Fatalf("%s at %s: code %d, %s", what, addr, resp.Code, resp.Remark)
	}
	return resp
}

// newTopic creates a topic of that many queues on broker-a with the
// attribute message.type (NORMAL, FIFO, DELAY, TRANSACTION), as `mqadmin
// updateTopic -a +message.type=...` does, and waits until the name server
// routes it, so that the proxy finds it at the first QueryRoute.
func newTopic(t *testing.T, srv servers, prefix string, queues int, messageType string) string {
	t.Helper()
	topic := unique(prefix)
	q := strconv.Itoa(queues)
	invoke(t, srv.broker, remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{
		"topic": topic, "defaultTopic": "TBW102", "readQueueNums": q, "writeQueueNums": q, "perm": "6",
		"topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false",
		"attributes": "+message.type=" + messageType,
	}), "create topic "+topic)
	eventually(t, routeWait, "the name server routes "+topic, func() error {
		resp, err := admin().InvokeTimeout(srv.namesrv,
			remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic}), 5*time.Second)
		if err != nil {
			return err
		}
		if resp.Code != 0 {
			return fmt.Errorf("code %d, %s", resp.Code, resp.Remark)
		}
		return nil
	})
	return topic
}

// newGroup creates a consumer group on broker-a, as `mqadmin updateSubGroup`
// does: fifo is consumeMessageOrderly (what the proxy gives the client as
// its subscription's fifo flag), retryMaxTimes + 1 the delivery attempts.
func newGroup(t *testing.T, srv servers, prefix string, fifo bool, retryMaxTimes int) string {
	t.Helper()
	group := unique(prefix)
	body, err := json.Marshal(map[string]any{
		"groupName":                      group,
		"consumeEnable":                  true,
		"consumeFromMinEnable":           true,
		"consumeBroadcastEnable":         true,
		"consumeMessageOrderly":          fifo,
		"retryQueueNums":                 1,
		"retryMaxTimes":                  retryMaxTimes,
		"brokerId":                       0,
		"whichBrokerWhenConsumeSlowly":   1,
		"notifyConsumerIdsChangedEnable": true,
		"groupSysFlag":                   0,
		"consumeTimeoutMinute":           15,
	})
	if err != nil {
		t.Fatal(err)
	}
	req := remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroup, nil)
	req.Body = body
	invoke(t, srv.broker, req, "create group "+group)
	return group
}

// queued is the number of messages in the queues of topic on broker-a (max
// offset minus min offset of each of its queues).
func queued(t *testing.T, srv servers, topic string, queues int) int64 {
	t.Helper()
	var sum int64
	for q := 0; q < queues; q++ {
		offset := func(code remoting.RequestCode) int64 {
			resp := invoke(t, srv.broker, remoting.NewRequest(code, map[string]string{
				"topic": topic, "queueId": strconv.Itoa(q)}), fmt.Sprintf("offset of %s queue %d", topic, q))
			v, _ := resp.ExtFields.Get("offset")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("offset of %s queue %d: %q", topic, q, v)
			}
			return n
		}
		sum += offset(remoting.GetMaxOffset) - offset(remoting.GetMinOffset)
	}
	return sum
}
