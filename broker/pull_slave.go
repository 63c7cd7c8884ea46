package broker

// Pulls served by a slave, and the broker a pull answer suggests
// (PullMessageProcessor, suggestWhichBrokerId):
//
//   - every broker suggests, with slaveReadEnable, the group's
//     whichBrokerWhenConsumeSlowly when the store says the reader is
//     behind (store.GetResult.SuggestPullingFromSlave: the last message
//     read is more than accessMessageInMemoryMaxRatio percent of the
//     physical memory behind the commitlog's end), else the group's
//     brokerId; without slaveReadEnable, the master (0).
//   - a slave without slaveReadEnable: 4.x serves the pull all the same
//     (the PULL_RETRY_IMMEDIATELY it sets is overwritten by the status's
//     code) suggesting the master; 5.x refuses it before reading it:
//     SYSTEM_BUSY "[REJECTREQUEST]system busy, start flow control for a
//     while" (rejectRequest).
//   - 5.x, on a slave (brokerId > 0) whose reader is not behind: suggests
//     the master, and a pull that found nothing is PULL_RETRY_IMMEDIATELY
//     (no long polling).
//   - PULL_OFFSET_MOVED on a slave without offsetCheckInSlave becomes
//     PULL_RETRY_IMMEDIATELY suggesting the group's brokerId, with no
//     OFFSET_MOVED_EVENT (and the store keeps the offset asked for:
//     store.Options.OffsetCheckInSlave).
//   - 4.x records no offset a pull commits on a slave; 5.x does. Offsets
//     committed with UPDATE_CONSUMER_OFFSET (Java clients send them to the
//     slave while the master is away) are kept on both lines until the
//     master's come back with the next sync (slave_sync.go).

import (
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// rejectRequestRemark is the remark of a request a processor rejects
// (NettyRemotingAbstract).
const rejectRequestRemark = "[REJECTREQUEST]system busy, start flow control for a while"

// isSlave tells brokerRole=SLAVE.
func isSlave(set *settings) bool { return set.Store.BrokerRole == conf.Slave }

// rejectsPulls is 5.x's rejectRequest: a slave without slaveReadEnable.
func (s *pullService) rejectsPulls(set *settings) bool {
	return s.line.slaveRejectsPulls() && isSlave(set) && !set.Broker.SlaveReadEnable
}

// commitsPullOffsets tells whether a pull's commit offset is recorded.
func (s *pullService) commitsPullOffsets(set *settings) bool {
	return !isSlave(set) || s.line.slaveCommitsPullOffsets()
}

// suggestBroker is the suggestWhichBrokerId rule: the master unless
// slaveReadEnable lets a reader go to a slave.
func suggestBroker(gc protocol.SubscriptionGroupConfig, res *store.GetResult, set *settings) int64 {
	if !set.Broker.SlaveReadEnable {
		return protocol.MasterID
	}
	if res.SuggestPullingFromSlave {
		return gc.WhichBrokerWhenConsumeSlowly
	}
	return gc.BrokerID
}

// slaveAnswer adjusts a pull's code and suggested broker on a slave.
func (s *pullService) slaveAnswer(code remoting.ResponseCode, suggest int64, gc protocol.SubscriptionGroupConfig,
	res *store.GetResult, set *settings) (remoting.ResponseCode, int64) {
	if s.line.slaveSendsIdlePullsToMaster() && set.Broker.BrokerId != protocol.MasterID && !res.SuggestPullingFromSlave {
		suggest = protocol.MasterID
		if res.Status != store.GetFound {
			code = remoting.PullRetryImmediately
		}
	}
	if code == remoting.PullOffsetMoved && isSlave(set) && !set.Store.OffsetCheckInSlave {
		code, suggest = remoting.PullRetryImmediately, gc.BrokerID
	}
	return code, suggest
}
