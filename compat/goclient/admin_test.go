// The Go client's admin package: a topic made with CreateTopic shows in the
// name server's FetchAllTopicList with its queues in FetchPublishMessageQueues,
// and is gone from the list after DeleteTopic.
package goclient

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/admin"
)

func TestAdminCreateListAndDeleteTopic(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_admin", 3)
	ctx := context.Background()

	eventually(t, routeWait, "FetchAllTopicList lists "+topic, func() error {
		return listed(ctx, a.adm, topic, true)
	})
	mqs, err := a.adm.FetchPublishMessageQueues(ctx, topic)
	if err != nil {
		t.Fatalf("FetchPublishMessageQueues: %v", err)
	}
	seen := map[int]bool{}
	for _, q := range mqs {
		if q.Topic != topic {
			t.Errorf("queue %v is not of %s", q, topic)
		}
		seen[q.QueueId] = true
	}
	if len(mqs) != 3 || !seen[0] || !seen[1] || !seen[2] {
		t.Errorf("FetchPublishMessageQueues: %v, want queues 0, 1 and 2", mqs)
	}

	err = a.adm.DeleteTopic(ctx,
		admin.WithTopicDelete(topic),
		admin.WithBrokerAddrDelete(a.srv.broker),
		admin.WithNameSrvAddr(a.srv.namesrv))
	if err != nil {
		t.Fatalf("DeleteTopic: %v", err)
	}
	eventually(t, routeWait, "FetchAllTopicList no longer lists "+topic, func() error {
		return listed(ctx, a.adm, topic, false)
	})
}

// listed is nil when the name server's topic list holds topic (want true)
// or does not (want false).
func listed(ctx context.Context, adm admin.Admin, topic string, want bool) error {
	list, err := adm.FetchAllTopicList(ctx)
	if err != nil {
		return fmt.Errorf("FetchAllTopicList: %w", err)
	}
	has := false
	for _, name := range list.TopicList {
		if name == topic {
			has = true
		}
	}
	if has != want {
		return fmt.Errorf("%s listed: %v (%d topics)", topic, has, len(list.TopicList))
	}
	return nil
}
