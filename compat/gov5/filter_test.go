package gov5

import (
	"fmt"
	"strconv"
	"testing"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// A SimpleConsumer subscribed with TagA||TagB receives the messages of those
// tags only (a topic of one queue, the last message sent is one of them: any
// other would have come before it).
func TestTagFilterReceivesOnlyItsTags(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_tag", 1, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_tag", false, 16)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	tags := []string{"TagA", "TagC", "TagB", "", "TagC", "TagAB", "TagB", "TagA"}
	wanted := map[string]string{}
	for i, tag := range tags {
		body := fmt.Sprintf("tag %q %d of %s", tag, i, topic)
		id := send(t, p, message(topic, body, tag, fmt.Sprintf("tag-%d", i)))
		if tag == "TagA" || tag == "TagB" {
			wanted[id] = body
		}
	}
	c := newSimpleConsumer(t, srv, group, topic, rmq.NewFilterExpressionWithType("TagA||TagB", rmq.TAG))
	onlyThese(t, c, wanted, "TagA||TagB")
}

// A SimpleConsumer subscribed with the SQL92 filter a > 5 AND color = 'red'
// receives the messages whose user properties match only
// (enablePropertyFilter=true in ref-servers.sh's broker.conf).
func TestSql92FilterReceivesOnlyMatchingProperties(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_sql", 1, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_sql", false, 16)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	wanted := map[string]string{}
	for i := 0; i <= 10; i++ {
		color := "blue"
		if i%2 == 0 {
			color = "red"
		}
		body := fmt.Sprintf("sql a=%d %s of %s", i, color, topic)
		m := message(topic, body, "TagS", fmt.Sprintf("sql-%d", i))
		m.AddProperty("a", strconv.Itoa(i))
		m.AddProperty("color", color)
		id := send(t, p, m)
		if i > 5 && color == "red" {
			wanted[id] = body // 6, 8 and 10, the last sent
		}
	}
	filter := "a > 5 AND color = 'red'"
	c := newSimpleConsumer(t, srv, group, topic, rmq.NewFilterExpressionWithType(filter, rmq.SQL92))
	onlyThese(t, c, wanted, filter)
}

// onlyThese receives until every wanted message came, failing on any other
// and on any that comes twice.
func onlyThese(t *testing.T, c rmq.SimpleConsumer, wanted map[string]string, filter string) {
	t.Helper()
	got := map[string]bool{}
	receiveUntil(t, c, minInvisible*3, deliveryWait, "the messages "+filter+" selects", func(d delivery) {
		if _, ok := wanted[d.id()]; !ok {
			t.Fatalf("%s let through %q (tag %s, properties %v)", filter, d.body(), str(d.mv.GetTag()), d.mv.GetProperties())
		}
		if got[d.id()] {
			t.Fatalf("received twice: %q", d.body())
		}
		got[d.id()] = true
		ack(t, c, d)
	}, func([]delivery) bool { return len(got) == len(wanted) })
}
