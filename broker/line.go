package broker

// The release line the broker speaks as, chosen once at start
// (Options.Line, RMQGO_LINE=5): 4.9.8 or 5.3.3. Everything that differs
// between the two Java brokers is a method of line, named for what it
// decides, so the rest of the broker asks the line instead of testing
// which one it is, and this file lists every difference:
//
//   - identity: the version ordinal and description the broker reports,
//     the FAQ page its "not exist" remarks link;
//   - codes: the request codes only 5.x serves (routes.go asks
//     servesFiveOnlyCodes);
//   - messages: how properties are encoded; 5.x stamps MSG_REGION and TRACE_ON on sends, answers a
//     send's unique key as transactionId, writes its own store host on a
//     sent-back message, knows timer messages, writes "n," op bodies and
//     tells the producer the half topic and broker name in a check-back,
//     keeps the discarded half messages in TRANS_CHECK_MAX_TIME_TOPIC, and
//     writes no OFFSET_MOVED_EVENT;
//   - offsets: where a new group starts (startsFromZero), server-side
//     offset resets, how a time finds an offset (timeSearch);
//   - topics and groups: 5.x's built-in and system topics, attributes,
//     INVALID_PARAMETER for a refused topic change, the group-delete flag
//     name, an empty group body refused, no slave check on group changes,
//     max(read, write) queues in topic stats, the mapping data version in
//     topic tables;
//   - replication: which broker of a pair runs the master-only services,
//     how a slave answers pulls and syncs from its master;
//   - config and runtime info: the config text sorted, 5.x's runtime keys,
//     the earliest-message rule of 4.x.
//
// The shapes of JSON bodies and config files of each line are protocol's
// (protocol.Line, which line embeds and passes to the encoders).

import (
	"strings"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/sql92"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// line is the broker's release line.
type line struct {
	protocol.Line
}

// newLine is the line of Options.Line (4.x for anything below 5).
func newLine(l protocol.Line) line {
	if l >= protocol.Line5 {
		return line{protocol.Line5}
	}
	return line{protocol.Line4}
}

// five reports the 5.x line; prefer the named methods below.
func (l line) five() bool { return l.Line >= protocol.Line5 }

// version is the MQVersion ordinal the broker reports.
func (l line) version() int32 {
	if l.five() {
		return protocol.VersionV5_3_3
	}
	return protocol.VersionV4_9_8
}

// versionDesc is the runtime info's brokerVersionDesc.
func (l line) versionDesc() string {
	if l.five() {
		return "V5_3_3"
	}
	return "V4_9_8"
}

// faq is FAQUrl.suggestTodo of the line: every URL there is the FAQ page,
// whose address 5.x changed.
func (l line) faq() string {
	if l.five() {
		return "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."
	}
	return "\nSee http://rocketmq.apache.org/docs/faq/ for further details."
}

// servesFiveOnlyCodes: the codes a 4.9.x broker answers
// REQUEST_CODE_NOT_SUPPORTED are served.
func (l line) servesFiveOnlyCodes() bool { return l.five() }

// stampsRegionAndTrace: every sent message gets MSG_REGION and TRACE_ON
// (5.x buildMsgContext; 4.9.7 only with a send hook, which a plain broker
// has not).
func (l line) stampsRegionAndTrace() bool { return l.five() }

// answersTransactionID: a send answers the message's unique key as
// transactionId (5.x SendMessageProcessor).
func (l line) answersTransactionID() bool { return l.five() }

// sendBackStampsOwnHost: a sent-back message is stored with the broker's
// own store host (5.x), not the original message's (4.x).
func (l line) sendBackStampsOwnHost() bool { return l.five() }

// hasTimers: TIMER_DELIVER_MS, TIMER_DELAY_SEC and TIMER_DELAY_MS delay a
// message (5.x); 4.x delivers it at once.
func (l line) hasTimers() bool { return l.five() }

// opBody is the body of the op message that marks the half message at
// queue offset off done: "5" (4.x) or "5," (5.x, whose op messages may
// list several offsets).
func (l line) opBody(off int64) string {
	if l.five() {
		return itoa(off) + ","
	}
	return itoa(off)
}

// propertyMapCapacity is the initial capacity of the HashMap
// MessageDecoder.string2messageProperties makes (4.9.8: the default 16,
// 5.x: 128); with the insertion order it fixes the order properties are
// written back in.
func (l line) propertyMapCapacity() int {
	if l.five() {
		return 128
	}
	return 16
}

// storesWait: a plain send is stored with its WAIT property (5.x); 4.9.x
// leaves it out.
func (l line) storesWait() bool { return l.five() }

// keepsLastPropertySeparator: messageProperties2String ends with a
// separator (5.x); 4.9.8 drops the last one.
func (l line) keepsLastPropertySeparator() bool { return l.five() }

// answersPullSysFlags: a pull's answer carries the topic's and the group's
// sys flags (5.x).
func (l line) answersPullSysFlags() bool { return l.five() }

// checkNamesHalfTopic: CHECK_TRANSACTION_STATE carries the half message's
// topic and the broker name (5.x).
func (l line) checkNamesHalfTopic() bool { return l.five() }

// keepsDiscardedHalves: a half message checked too often is written to
// TRANS_CHECK_MAX_TIME_TOPIC (5.x); 4.x only logs it.
func (l line) keepsDiscardedHalves() bool { return l.five() }

// writesOffsetMovedEvents: PULL_OFFSET_MOVED writes an OFFSET_MOVED_EVENT
// message (4.x; 5.x no longer calls generateOffsetMovedEvent).
func (l line) writesOffsetMovedEvents() bool { return !l.five() }

// startsFromZero decides QUERY_CONSUMER_OFFSET for a group without an
// offset on a queue whose message 0 is (found) or is not there, and is or
// is not in memory: 4.x answers 0 unless message 0 is "in disk"
// (checkInDiskByConsumeOffset); 5.x only when it exists and is in memory
// (checkInMemByConsumeOffset).
func (l line) startsFromZero(found, inMemory bool) bool {
	if l.five() {
		return found && inMemory
	}
	return !found || inMemory
}

// timeSearch is how a time finds a queue offset (SEARCH_OFFSET_BY_TIMESTAMP,
// resets by time): 4.x takes the message nearest the time and knows no
// boundary; 5.x reads the request's boundaryType as BoundaryType.getType
// does ("upper" in any case is UPPER, anything else LOWER).
func (l line) timeSearch(boundaryType string) store.TimeSearch {
	switch {
	case !l.five():
		return store.Nearest
	case strings.EqualFold(boundaryType, "upper"):
		return store.Upper
	}
	return store.Lower
}

// resetsOffsetsOnServer: INVOKE_BROKER_TO_RESET_OFFSET resets the offsets
// in the broker, which answers the group's next pulls PULL_OFFSET_MOVED
// (5.x); 4.x asks the clients to reset them.
func (l line) resetsOffsetsOnServer() bool { return l.five() }

// hasAttributes: topics and groups carry 5.x attributes, altered by
// UPDATE_AND_CREATE_TOPIC's attributes header and the group's config.
func (l line) hasAttributes() bool { return l.five() }

// makesFiveSystemTopics: the broker makes 5.x's built-in topics at start
// (pop revive, broker-member sync, the transaction and timer topics).
func (l line) makesFiveSystemTopics() bool { return l.five() }

// hasSysTransGroup: CID_RMQ_SYS_TRANS is a built-in group (5.x).
func (l line) hasSysTransGroup() bool { return l.five() }

// sqlDialect is the SQL92 grammar of the line's filter (5.x's parser
// takes more than 4.x's).
func (l line) sqlDialect() sql92.Dialect {
	if l.five() {
		return sql92.Dialect5
	}
	return sql92.Dialect4
}

// topicChangeRefusal is the code of a refused topic create, update or
// delete: SYSTEM_ERROR (4.x), INVALID_PARAMETER (5.x).
func (l line) topicChangeRefusal() remoting.ResponseCode {
	if l.five() {
		return remoting.InvalidParameter
	}
	return remoting.SystemError
}

// validatesDeletedTopicName: DELETE_TOPIC_IN_BROKER checks the topic name
// as a create does (4.x); 5.x only asks for one that is not blank.
func (l line) validatesDeletedTopicName() bool { return !l.five() }

// groupDeleteOffsetFlag is the header flag of DELETE_SUBSCRIPTIONGROUP
// that removes the group's offsets.
func (l line) groupDeleteOffsetFlag() string {
	if l.five() {
		return "cleanOffset"
	}
	return "removeOffset"
}

// refusesEmptyGroupBody: UPDATE_AND_CREATE_SUBSCRIPTIONGROUP without a body
// is SYSTEM_ERROR (5.x's NullPointerException); 4.x answers SUCCESS.
func (l line) refusesEmptyGroupBody() bool { return l.five() }

// slaveRefusesAdminChanges: a SLAVE answers topic and group creates and
// deletes with SYSTEM_ERROR (4.x validateSlave; 5.3.3 keeps the method but
// calls it nowhere).
func (l line) slaveRefusesAdminChanges() bool { return !l.five() }

// statsQueueCount is how many queues GET_TOPIC_STATS_INFO lists: the write
// queues (4.x), or the larger of read and write queues (5.x).
func (l line) statsQueueCount(read, write int32) int32 {
	if l.five() {
		return max(read, write)
	}
	return write
}

// hasMappingDataVersion: topic tables (REGISTER_BROKER, GET_ALL_TOPIC_CONFIG)
// carry mappingDataVersion (5.x).
func (l line) hasMappingDataVersion() bool { return l.five() }

// sortsConfigText: GET_BROKER_CONFIG's text is sorted by key (5.x
// MixAll.properties2String(props, true)).
func (l line) sortsConfigText() bool { return l.five() }

// reportsCleanFailure: CLEAN_EXPIRED_CONSUMEQUEUE answers a failure
// SYSTEM_ERROR (5.x); 4.x answers SUCCESS whatever happened.
func (l line) reportsCleanFailure() bool { return l.five() }

// registersActingMaster: REGISTER_BROKER carries enableActingMaster (5.x).
func (l line) registersActingMaster() bool { return l.five() }

// hasFiveRuntimeKeys: the runtime info lists 5.x's brokerActive, timer
// and litePull/ack pool keys.
func (l line) hasFiveRuntimeKeys() bool { return l.five() }

// earliestNeedsTwoMessages: the runtime info's earliest message time is
// read as 4.9.x reads it, which finds nothing until the first commitlog
// file holds 2*maxMessageSize bytes past the min offset.
func (l line) earliestNeedsTwoMessages() bool { return !l.five() }

// runsMasterServices tells whether a broker runs what Java runs on a
// master only (delayed-message and timer delivery, the transaction
// check-back): 4.x when brokerRole is not SLAVE (startProcessorByHa,
// handleScheduleMessageService), 5.x when brokerId is 0
// (changeSpecialServiceStatus).
func (l line) runsMasterServices(brokerID int64, role conf.BrokerRole) bool {
	if l.five() {
		return brokerID == protocol.MasterID
	}
	return role != conf.Slave
}

// slaveRejectsPulls tells whether a slave without slaveReadEnable answers
// every pull SYSTEM_BUSY (5.x's PullMessageProcessor.rejectRequest); a
// 4.x slave serves it, suggesting the master.
func (l line) slaveRejectsPulls() bool { return l.five() }

// slaveCommitsPullOffsets tells whether a slave records the offset a
// pull commits (5.x); 4.x's storeOffsetEnable leaves it out on a slave.
func (l line) slaveCommitsPullOffsets() bool { return l.five() }

// slaveSendsIdlePullsToMaster tells whether a slave (brokerId > 0) whose
// reader is not behind suggests the master and answers a pull that found
// nothing PULL_RETRY_IMMEDIATELY (5.x, with minBrokerIdInGroup 0 as it is
// without enableSlaveActingMaster).
func (l line) slaveSendsIdlePullsToMaster() bool { return l.five() }
