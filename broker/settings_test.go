package broker

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// UPDATE_BROKER_CONFIG while sends and pulls run: every request reads one
// published snapshot of the settings (run with -race, this fails on a
// handler that reads the configs an update writes), no send is lost, and
// the running broker takes the last values.
func TestConfigUpdatesWhileSendsAndPullsRun(t *testing.T) {
	b, _, _ := brokerConfigFixture(t, protocol.Line4)
	const senders, perSender, updates = 4, 50, 40
	var wg sync.WaitGroup
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(t, nil)
			for i := range perSender {
				body := []byte(fmt.Sprintf("m-%d-%d", s, i))
				resp := invoke(t, c, b.Addr(), withBody(sendRequest("TU", int32(s), body, map[string]string{"TAGS": "A"}), body))
				assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		c := newClient(t, nil)
		for i := range updates {
			props := fmt.Sprintf("longPollingEnable=%t\nslaveReadEnable=%t\nshortPollingTimeMills=%d\ntraceOn=%t\n",
				i%2 == 0, i%3 == 0, 100+i, i%2 == 1)
			resp := invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.UpdateBrokerConfig, nil), []byte(props)))
			assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		}
	}()
	pulled := pullWhileSending(t, b, senders, &wg)
	assert.Equal(t, senders*perSender, pulled, "every message sent is pulled")
	set := b.settings.load()
	assert.Equal(t, int64(100+updates-1), set.Broker.ShortPollingTimeMills)
	assert.Equal(t, ms(int64(100+updates-1)), set.ShortPolling, "the durations come with the snapshot")
}

// pullWhileSending pulls every queue of TU until the senders are done and
// the queues are drained, and returns how many messages it got.
func pullWhileSending(t *testing.T, b *Broker, queues int, senders *sync.WaitGroup) int {
	t.Helper()
	done := make(chan struct{})
	go func() { senders.Wait(); close(done) }()
	c := newClient(t, nil)
	next := make([]int64, queues)
	total := 0
	pullAll := func() {
		for q := range queues {
			resp := invoke(t, c, b.Addr(), pullRequest("GU", "TU", int32(q), next[q], "*", protocol.PullFlagSubscription, 0))
			if resp.Code != int32(remoting.Success) {
				continue
			}
			recs := decodeRecords(t, resp.Body)
			total += len(recs)
			next[q] += int64(len(recs))
		}
	}
	for {
		select {
		case <-done:
			dispatched(t, b)
			for before := -1; before != total; {
				before = total
				pullAll()
			}
			return total
		default:
			pullAll()
		}
	}
}

func TestSettingsSnapshotIsACopy(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	live := newLiveSettings(c)
	c.Broker.BrokerPermission = 2
	require.Equal(t, int32(6), live.load().Broker.BrokerPermission, "a change of the configs is not seen until published")
	live.publish(c)
	assert.Equal(t, int32(2), live.load().Broker.BrokerPermission)
}
