package remoting

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// javaCode is one constant as a Java source file declares it.
type javaCode struct {
	num  int32
	name string
}

// Every constant of apache/rocketmq@rocketmq-all-4.9.8:
// common/src/main/java/org/apache/rocketmq/common/protocol/RequestCode.java,
// in the file's order.
var java498RequestCodes = []javaCode{
	{10, "SEND_MESSAGE"},
	{11, "PULL_MESSAGE"},
	{12, "QUERY_MESSAGE"},
	{13, "QUERY_BROKER_OFFSET"},
	{14, "QUERY_CONSUMER_OFFSET"},
	{15, "UPDATE_CONSUMER_OFFSET"},
	{17, "UPDATE_AND_CREATE_TOPIC"},
	{21, "GET_ALL_TOPIC_CONFIG"},
	{22, "GET_TOPIC_CONFIG_LIST"},
	{23, "GET_TOPIC_NAME_LIST"},
	{25, "UPDATE_BROKER_CONFIG"},
	{26, "GET_BROKER_CONFIG"},
	{27, "TRIGGER_DELETE_FILES"},
	{28, "GET_BROKER_RUNTIME_INFO"},
	{29, "SEARCH_OFFSET_BY_TIMESTAMP"},
	{30, "GET_MAX_OFFSET"},
	{31, "GET_MIN_OFFSET"},
	{32, "GET_EARLIEST_MSG_STORETIME"},
	{33, "VIEW_MESSAGE_BY_ID"},
	{34, "HEART_BEAT"},
	{35, "UNREGISTER_CLIENT"},
	{36, "CONSUMER_SEND_MSG_BACK"},
	{37, "END_TRANSACTION"},
	{38, "GET_CONSUMER_LIST_BY_GROUP"},
	{39, "CHECK_TRANSACTION_STATE"},
	{40, "NOTIFY_CONSUMER_IDS_CHANGED"},
	{41, "LOCK_BATCH_MQ"},
	{42, "UNLOCK_BATCH_MQ"},
	{43, "GET_ALL_CONSUMER_OFFSET"},
	{45, "GET_ALL_DELAY_OFFSET"},
	{46, "CHECK_CLIENT_CONFIG"},
	{50, "UPDATE_AND_CREATE_ACL_CONFIG"},
	{51, "DELETE_ACL_CONFIG"},
	{52, "GET_BROKER_CLUSTER_ACL_INFO"},
	{53, "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG"},
	{100, "PUT_KV_CONFIG"},
	{101, "GET_KV_CONFIG"},
	{102, "DELETE_KV_CONFIG"},
	{103, "REGISTER_BROKER"},
	{104, "UNREGISTER_BROKER"},
	{105, "GET_ROUTEINFO_BY_TOPIC"},
	{106, "GET_BROKER_CLUSTER_INFO"},
	{200, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP"},
	{201, "GET_ALL_SUBSCRIPTIONGROUP_CONFIG"},
	{202, "GET_TOPIC_STATS_INFO"},
	{203, "GET_CONSUMER_CONNECTION_LIST"},
	{204, "GET_PRODUCER_CONNECTION_LIST"},
	{205, "WIPE_WRITE_PERM_OF_BROKER"},
	{206, "GET_ALL_TOPIC_LIST_FROM_NAMESERVER"},
	{207, "DELETE_SUBSCRIPTIONGROUP"},
	{208, "GET_CONSUME_STATS"},
	{209, "SUSPEND_CONSUMER"},
	{210, "RESUME_CONSUMER"},
	{211, "RESET_CONSUMER_OFFSET_IN_CONSUMER"},
	{212, "RESET_CONSUMER_OFFSET_IN_BROKER"},
	{213, "ADJUST_CONSUMER_THREAD_POOL"},
	{214, "WHO_CONSUME_THE_MESSAGE"},
	{215, "DELETE_TOPIC_IN_BROKER"},
	{216, "DELETE_TOPIC_IN_NAMESRV"},
	{219, "GET_KVLIST_BY_NAMESPACE"},
	{220, "RESET_CONSUMER_CLIENT_OFFSET"},
	{221, "GET_CONSUMER_STATUS_FROM_CLIENT"},
	{222, "INVOKE_BROKER_TO_RESET_OFFSET"},
	{223, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS"},
	{300, "QUERY_TOPIC_CONSUME_BY_WHO"},
	{224, "GET_TOPICS_BY_CLUSTER"},
	{301, "REGISTER_FILTER_SERVER"},
	{302, "REGISTER_MESSAGE_FILTER_CLASS"},
	{303, "QUERY_CONSUME_TIME_SPAN"},
	{304, "GET_SYSTEM_TOPIC_LIST_FROM_NS"},
	{305, "GET_SYSTEM_TOPIC_LIST_FROM_BROKER"},
	{306, "CLEAN_EXPIRED_CONSUMEQUEUE"},
	{307, "GET_CONSUMER_RUNNING_INFO"},
	{308, "QUERY_CORRECTION_OFFSET"},
	{309, "CONSUME_MESSAGE_DIRECTLY"},
	{310, "SEND_MESSAGE_V2"},
	{311, "GET_UNIT_TOPIC_LIST"},
	{312, "GET_HAS_UNIT_SUB_TOPIC_LIST"},
	{313, "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST"},
	{314, "CLONE_GROUP_OFFSET"},
	{315, "VIEW_BROKER_STATS_DATA"},
	{316, "CLEAN_UNUSED_TOPIC"},
	{317, "GET_BROKER_CONSUME_STATS"},
	{318, "UPDATE_NAMESRV_CONFIG"},
	{319, "GET_NAMESRV_CONFIG"},
	{320, "SEND_BATCH_MESSAGE"},
	{321, "QUERY_CONSUME_QUEUE"},
	{322, "QUERY_DATA_VERSION"},
	{323, "RESUME_CHECK_HALF_MESSAGE"},
	{324, "SEND_REPLY_MESSAGE"},
	{325, "SEND_REPLY_MESSAGE_V2"},
	{326, "PUSH_REPLY_MESSAGE_TO_CLIENT"},
	{327, "ADD_WRITE_PERM_OF_BROKER"},
	{328, "GET_ALL_PRODUCER_INFO"},
	{329, "DELETE_EXPIRED_COMMITLOG"},
}

// Every constant of apache/rocketmq@rocketmq-all-5.3.3:
// remoting/src/main/java/org/apache/rocketmq/remoting/protocol/RequestCode.java,
// in the file's order (1014-1018 are declared short there).
var java533RequestCodes = []javaCode{
	{10, "SEND_MESSAGE"},
	{11, "PULL_MESSAGE"},
	{12, "QUERY_MESSAGE"},
	{13, "QUERY_BROKER_OFFSET"},
	{14, "QUERY_CONSUMER_OFFSET"},
	{15, "UPDATE_CONSUMER_OFFSET"},
	{17, "UPDATE_AND_CREATE_TOPIC"},
	{18, "UPDATE_AND_CREATE_TOPIC_LIST"},
	{21, "GET_ALL_TOPIC_CONFIG"},
	{22, "GET_TOPIC_CONFIG_LIST"},
	{23, "GET_TOPIC_NAME_LIST"},
	{25, "UPDATE_BROKER_CONFIG"},
	{26, "GET_BROKER_CONFIG"},
	{27, "TRIGGER_DELETE_FILES"},
	{28, "GET_BROKER_RUNTIME_INFO"},
	{29, "SEARCH_OFFSET_BY_TIMESTAMP"},
	{30, "GET_MAX_OFFSET"},
	{31, "GET_MIN_OFFSET"},
	{32, "GET_EARLIEST_MSG_STORETIME"},
	{33, "VIEW_MESSAGE_BY_ID"},
	{34, "HEART_BEAT"},
	{35, "UNREGISTER_CLIENT"},
	{36, "CONSUMER_SEND_MSG_BACK"},
	{37, "END_TRANSACTION"},
	{38, "GET_CONSUMER_LIST_BY_GROUP"},
	{39, "CHECK_TRANSACTION_STATE"},
	{40, "NOTIFY_CONSUMER_IDS_CHANGED"},
	{41, "LOCK_BATCH_MQ"},
	{42, "UNLOCK_BATCH_MQ"},
	{43, "GET_ALL_CONSUMER_OFFSET"},
	{45, "GET_ALL_DELAY_OFFSET"},
	{46, "CHECK_CLIENT_CONFIG"},
	{47, "GET_CLIENT_CONFIG"},
	{60, "GET_TIMER_CHECK_POINT"},
	{61, "GET_TIMER_METRICS"},
	{200050, "POP_MESSAGE"},
	{200051, "ACK_MESSAGE"},
	{200151, "BATCH_ACK_MESSAGE"},
	{200052, "PEEK_MESSAGE"},
	{200053, "CHANGE_MESSAGE_INVISIBLETIME"},
	{200054, "NOTIFICATION"},
	{200055, "POLLING_INFO"},
	{200056, "POP_ROLLBACK"},
	{100, "PUT_KV_CONFIG"},
	{101, "GET_KV_CONFIG"},
	{102, "DELETE_KV_CONFIG"},
	{103, "REGISTER_BROKER"},
	{104, "UNREGISTER_BROKER"},
	{105, "GET_ROUTEINFO_BY_TOPIC"},
	{106, "GET_BROKER_CLUSTER_INFO"},
	{200, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP"},
	{201, "GET_ALL_SUBSCRIPTIONGROUP_CONFIG"},
	{202, "GET_TOPIC_STATS_INFO"},
	{203, "GET_CONSUMER_CONNECTION_LIST"},
	{204, "GET_PRODUCER_CONNECTION_LIST"},
	{205, "WIPE_WRITE_PERM_OF_BROKER"},
	{206, "GET_ALL_TOPIC_LIST_FROM_NAMESERVER"},
	{207, "DELETE_SUBSCRIPTIONGROUP"},
	{208, "GET_CONSUME_STATS"},
	{209, "SUSPEND_CONSUMER"},
	{210, "RESUME_CONSUMER"},
	{211, "RESET_CONSUMER_OFFSET_IN_CONSUMER"},
	{212, "RESET_CONSUMER_OFFSET_IN_BROKER"},
	{213, "ADJUST_CONSUMER_THREAD_POOL"},
	{214, "WHO_CONSUME_THE_MESSAGE"},
	{215, "DELETE_TOPIC_IN_BROKER"},
	{216, "DELETE_TOPIC_IN_NAMESRV"},
	{217, "REGISTER_TOPIC_IN_NAMESRV"},
	{219, "GET_KVLIST_BY_NAMESPACE"},
	{220, "RESET_CONSUMER_CLIENT_OFFSET"},
	{221, "GET_CONSUMER_STATUS_FROM_CLIENT"},
	{222, "INVOKE_BROKER_TO_RESET_OFFSET"},
	{223, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS"},
	{300, "QUERY_TOPIC_CONSUME_BY_WHO"},
	{224, "GET_TOPICS_BY_CLUSTER"},
	{225, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST"},
	{343, "QUERY_TOPICS_BY_CONSUMER"},
	{345, "QUERY_SUBSCRIPTION_BY_CONSUMER"},
	{301, "REGISTER_FILTER_SERVER"},
	{302, "REGISTER_MESSAGE_FILTER_CLASS"},
	{303, "QUERY_CONSUME_TIME_SPAN"},
	{304, "GET_SYSTEM_TOPIC_LIST_FROM_NS"},
	{305, "GET_SYSTEM_TOPIC_LIST_FROM_BROKER"},
	{306, "CLEAN_EXPIRED_CONSUMEQUEUE"},
	{307, "GET_CONSUMER_RUNNING_INFO"},
	{308, "QUERY_CORRECTION_OFFSET"},
	{309, "CONSUME_MESSAGE_DIRECTLY"},
	{310, "SEND_MESSAGE_V2"},
	{311, "GET_UNIT_TOPIC_LIST"},
	{312, "GET_HAS_UNIT_SUB_TOPIC_LIST"},
	{313, "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST"},
	{314, "CLONE_GROUP_OFFSET"},
	{315, "VIEW_BROKER_STATS_DATA"},
	{316, "CLEAN_UNUSED_TOPIC"},
	{317, "GET_BROKER_CONSUME_STATS"},
	{318, "UPDATE_NAMESRV_CONFIG"},
	{319, "GET_NAMESRV_CONFIG"},
	{320, "SEND_BATCH_MESSAGE"},
	{321, "QUERY_CONSUME_QUEUE"},
	{322, "QUERY_DATA_VERSION"},
	{323, "RESUME_CHECK_HALF_MESSAGE"},
	{324, "SEND_REPLY_MESSAGE"},
	{325, "SEND_REPLY_MESSAGE_V2"},
	{326, "PUSH_REPLY_MESSAGE_TO_CLIENT"},
	{327, "ADD_WRITE_PERM_OF_BROKER"},
	{328, "GET_ALL_PRODUCER_INFO"},
	{329, "DELETE_EXPIRED_COMMITLOG"},
	{351, "GET_TOPIC_CONFIG"},
	{352, "GET_SUBSCRIPTIONGROUP_CONFIG"},
	{353, "UPDATE_AND_GET_GROUP_FORBIDDEN"},
	{354, "CHECK_ROCKSDB_CQ_WRITE_PROGRESS"},
	{355, "EXPORT_ROCKSDB_CONFIG_TO_JSON"},
	{361, "LITE_PULL_MESSAGE"},
	{370, "RECALL_MESSAGE"},
	{400, "QUERY_ASSIGNMENT"},
	{401, "SET_MESSAGE_REQUEST_MODE"},
	{402, "GET_ALL_MESSAGE_REQUEST_MODE"},
	{513, "UPDATE_AND_CREATE_STATIC_TOPIC"},
	{901, "GET_BROKER_MEMBER_GROUP"},
	{902, "ADD_BROKER"},
	{903, "REMOVE_BROKER"},
	{904, "BROKER_HEARTBEAT"},
	{905, "NOTIFY_MIN_BROKER_ID_CHANGE"},
	{906, "EXCHANGE_BROKER_HA_INFO"},
	{907, "GET_BROKER_HA_STATUS"},
	{908, "RESET_MASTER_FLUSH_OFFSET"},
	{1001, "CONTROLLER_ALTER_SYNC_STATE_SET"},
	{1002, "CONTROLLER_ELECT_MASTER"},
	{1003, "CONTROLLER_REGISTER_BROKER"},
	{1004, "CONTROLLER_GET_REPLICA_INFO"},
	{1005, "CONTROLLER_GET_METADATA_INFO"},
	{1006, "CONTROLLER_GET_SYNC_STATE_DATA"},
	{1007, "GET_BROKER_EPOCH_CACHE"},
	{1008, "NOTIFY_BROKER_ROLE_CHANGED"},
	{1009, "UPDATE_CONTROLLER_CONFIG"},
	{1010, "GET_CONTROLLER_CONFIG"},
	{1011, "CLEAN_BROKER_DATA"},
	{1012, "CONTROLLER_GET_NEXT_BROKER_ID"},
	{1013, "CONTROLLER_APPLY_BROKER_ID"},
	{1014, "BROKER_CLOSE_CHANNEL_REQUEST"},
	{1015, "CHECK_NOT_ACTIVE_BROKER_REQUEST"},
	{1016, "GET_BROKER_LIVE_INFO_REQUEST"},
	{1017, "GET_SYNC_STATE_DATA_REQUEST"},
	{1018, "RAFT_BROKER_HEART_BEAT_EVENT_REQUEST"},
	{2001, "UPDATE_COLD_DATA_FLOW_CTR_CONFIG"},
	{2002, "REMOVE_COLD_DATA_FLOW_CTR_CONFIG"},
	{2003, "GET_COLD_DATA_FLOW_CTR_INFO"},
	{2004, "SET_COMMITLOG_READ_MODE"},
	{3001, "AUTH_CREATE_USER"},
	{3002, "AUTH_UPDATE_USER"},
	{3003, "AUTH_DELETE_USER"},
	{3004, "AUTH_GET_USER"},
	{3005, "AUTH_LIST_USER"},
	{3006, "AUTH_CREATE_ACL"},
	{3007, "AUTH_UPDATE_ACL"},
	{3008, "AUTH_DELETE_ACL"},
	{3009, "AUTH_GET_ACL"},
	{3010, "AUTH_LIST_ACL"},
}

// Every constant of apache/rocketmq@rocketmq-all-4.9.8:
// remoting/src/main/java/org/apache/rocketmq/remoting/protocol/RemotingSysResponseCode.java
// (0-4) followed by
// common/src/main/java/org/apache/rocketmq/common/protocol/ResponseCode.java,
// which extends it.
var java498ResponseCodes = []javaCode{
	{0, "SUCCESS"},
	{1, "SYSTEM_ERROR"},
	{2, "SYSTEM_BUSY"},
	{3, "REQUEST_CODE_NOT_SUPPORTED"},
	{4, "TRANSACTION_FAILED"},
	{10, "FLUSH_DISK_TIMEOUT"},
	{11, "SLAVE_NOT_AVAILABLE"},
	{12, "FLUSH_SLAVE_TIMEOUT"},
	{13, "MESSAGE_ILLEGAL"},
	{14, "SERVICE_NOT_AVAILABLE"},
	{15, "VERSION_NOT_SUPPORTED"},
	{16, "NO_PERMISSION"},
	{17, "TOPIC_NOT_EXIST"},
	{18, "TOPIC_EXIST_ALREADY"},
	{19, "PULL_NOT_FOUND"},
	{20, "PULL_RETRY_IMMEDIATELY"},
	{21, "PULL_OFFSET_MOVED"},
	{22, "QUERY_NOT_FOUND"},
	{23, "SUBSCRIPTION_PARSE_FAILED"},
	{24, "SUBSCRIPTION_NOT_EXIST"},
	{25, "SUBSCRIPTION_NOT_LATEST"},
	{26, "SUBSCRIPTION_GROUP_NOT_EXIST"},
	{27, "FILTER_DATA_NOT_EXIST"},
	{28, "FILTER_DATA_NOT_LATEST"},
	{200, "TRANSACTION_SHOULD_COMMIT"},
	{201, "TRANSACTION_SHOULD_ROLLBACK"},
	{202, "TRANSACTION_STATE_UNKNOW"},
	{203, "TRANSACTION_STATE_GROUP_WRONG"},
	{204, "NO_BUYER_ID"},
	{205, "NOT_IN_CURRENT_UNIT"},
	{206, "CONSUMER_NOT_ONLINE"},
	{207, "CONSUME_MSG_TIMEOUT"},
	{208, "NO_MESSAGE"},
	{209, "UPDATE_AND_CREATE_ACL_CONFIG_FAILED"},
	{210, "DELETE_ACL_CONFIG_FAILED"},
	{211, "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED"},
	{215, "FLOW_CONTROL"},
}

// Every constant of apache/rocketmq@rocketmq-all-5.3.3:
// remoting/src/main/java/org/apache/rocketmq/remoting/protocol/RemotingSysResponseCode.java
// (0-4) followed by
// remoting/src/main/java/org/apache/rocketmq/remoting/protocol/ResponseCode.java.
var java533ResponseCodes = []javaCode{
	{0, "SUCCESS"},
	{1, "SYSTEM_ERROR"},
	{2, "SYSTEM_BUSY"},
	{3, "REQUEST_CODE_NOT_SUPPORTED"},
	{4, "TRANSACTION_FAILED"},
	{10, "FLUSH_DISK_TIMEOUT"},
	{11, "SLAVE_NOT_AVAILABLE"},
	{12, "FLUSH_SLAVE_TIMEOUT"},
	{13, "MESSAGE_ILLEGAL"},
	{14, "SERVICE_NOT_AVAILABLE"},
	{15, "VERSION_NOT_SUPPORTED"},
	{16, "NO_PERMISSION"},
	{17, "TOPIC_NOT_EXIST"},
	{18, "TOPIC_EXIST_ALREADY"},
	{19, "PULL_NOT_FOUND"},
	{20, "PULL_RETRY_IMMEDIATELY"},
	{21, "PULL_OFFSET_MOVED"},
	{22, "QUERY_NOT_FOUND"},
	{23, "SUBSCRIPTION_PARSE_FAILED"},
	{24, "SUBSCRIPTION_NOT_EXIST"},
	{25, "SUBSCRIPTION_NOT_LATEST"},
	{26, "SUBSCRIPTION_GROUP_NOT_EXIST"},
	{27, "FILTER_DATA_NOT_EXIST"},
	{28, "FILTER_DATA_NOT_LATEST"},
	{29, "INVALID_PARAMETER"},
	{200, "TRANSACTION_SHOULD_COMMIT"},
	{201, "TRANSACTION_SHOULD_ROLLBACK"},
	{202, "TRANSACTION_STATE_UNKNOW"},
	{203, "TRANSACTION_STATE_GROUP_WRONG"},
	{204, "NO_BUYER_ID"},
	{205, "NOT_IN_CURRENT_UNIT"},
	{206, "CONSUMER_NOT_ONLINE"},
	{207, "CONSUME_MSG_TIMEOUT"},
	{208, "NO_MESSAGE"},
	{209, "POLLING_FULL"},
	{210, "POLLING_TIMEOUT"},
	{211, "BROKER_NOT_EXIST"},
	{212, "BROKER_DISPATCH_NOT_COMPLETE"},
	{213, "BROADCAST_CONSUMPTION"},
	{215, "FLOW_CONTROL"},
	{501, "NOT_LEADER_FOR_QUEUE"},
	{604, "ILLEGAL_OPERATION"},
	{-1000, "RPC_UNKNOWN"},
	{-1002, "RPC_ADDR_IS_NULL"},
	{-1004, "RPC_SEND_TO_CHANNEL_FAILED"},
	{-1006, "RPC_TIME_OUT"},
	{1500, "GO_AWAY"},
	{2000, "CONTROLLER_FENCED_MASTER_EPOCH"},
	{2001, "CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH"},
	{2002, "CONTROLLER_INVALID_MASTER"},
	{2003, "CONTROLLER_INVALID_REPLICAS"},
	{2004, "CONTROLLER_MASTER_NOT_AVAILABLE"},
	{2005, "CONTROLLER_INVALID_REQUEST"},
	{2006, "CONTROLLER_BROKER_NOT_ALIVE"},
	{2007, "CONTROLLER_NOT_LEADER"},
	{2008, "CONTROLLER_BROKER_METADATA_NOT_EXIST"},
	{2009, "CONTROLLER_INVALID_CLEAN_BROKER_METADATA"},
	{2010, "CONTROLLER_BROKER_NEED_TO_BE_REGISTERED"},
	{2011, "CONTROLLER_MASTER_STILL_EXIST"},
	{2012, "CONTROLLER_ELECT_MASTER_FAILED"},
	{2013, "CONTROLLER_ALTER_SYNC_STATE_SET_FAILED"},
	{2014, "CONTROLLER_BROKER_ID_INVALID"},
	{2015, "CONTROLLER_JRAFT_INTERNAL_ERROR"},
	{2016, "CONTROLLER_BROKER_LIVE_INFO_NOT_EXISTS"},
	{3001, "USER_NOT_EXIST"},
	{3002, "POLICY_NOT_EXIST"},
}

func TestCodesRequestTableMatchesJava(t *testing.T) {
	for version, codes := range map[string][]javaCode{"4.9.8": java498RequestCodes, "5.3.3": java533RequestCodes} {
		for _, j := range codes {
			c := RequestCode(j.num)
			assert.Equal(t, j.name, c.String(), "%s %d", version, j.num)
			got, ok := RequestCodeByName(j.name)
			assert.True(t, ok, "%s %s", version, j.name)
			assert.Equal(t, c, got, "%s %s", version, j.name)
		}
	}
	// and GET_BROKER_CLUSTER_ACL_CONFIG (54) of 4.9.7, which 4.9.8 dropped
	assert.Len(t, requestCodeNames, len(union(java498RequestCodes, java533RequestCodes))+1,
		"the table has exactly the codes of 4.9.8 and 5.3.3, and 4.9.7's 54")
}

func TestCodesResponseTableMatchesJava(t *testing.T) {
	for _, j := range java533ResponseCodes {
		c := ResponseCode(j.num)
		assert.Equal(t, j.name, c.String(), "5.3.3 %d", j.num)
		got, ok := ResponseCodeByName(j.name)
		assert.True(t, ok, j.name)
		assert.Equal(t, c, got, j.name)
	}
	for _, j := range java498ResponseCodes {
		c := ResponseCode(j.num)
		assert.Equal(t, j.name, c.Name498(), "4.9.8 %d", j.num)
		got, ok := ResponseCodeByName(j.name)
		assert.True(t, ok, j.name)
		assert.Equal(t, c, got, j.name)
	}
	assert.Len(t, responseCodeNames, len(union(java498ResponseCodes, java533ResponseCodes)))
}

// The numbers 4.9.8 and 5.x give different names: the only such clash in
// either table.
func TestCodesResponseNumbersReusedBy5x(t *testing.T) {
	want := map[ResponseCode][2]string{
		209: {"UPDATE_AND_CREATE_ACL_CONFIG_FAILED", "POLLING_FULL"},
		210: {"DELETE_ACL_CONFIG_FAILED", "POLLING_TIMEOUT"},
		211: {"UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED", "BROKER_NOT_EXIST"},
	}
	old, cur := byNumber(java498ResponseCodes), byNumber(java533ResponseCodes)
	clashes := map[ResponseCode][2]string{}
	for n, name := range old {
		if other, ok := cur[n]; ok && other != name {
			clashes[ResponseCode(n)] = [2]string{name, other}
		}
	}
	assert.Equal(t, want, clashes)
	assert.Equal(t, UpdateAndCreateAclConfigFailed, PollingFull)
	assert.Equal(t, DeleteAclConfigFailed, PollingTimeout)
	assert.Equal(t, UpdateGlobalWhiteAddrsConfigFailed, BrokerNotExist)
	for c, names := range want {
		assert.Equal(t, names[0], c.Name498())
		assert.Equal(t, names[1], c.String())
	}

	// Request codes: no number changed name and no name changed number.
	oldReq, curReq := byNumber(java498RequestCodes), byNumber(java533RequestCodes)
	for n, name := range oldReq {
		if other, ok := curReq[n]; ok {
			assert.Equal(t, name, other, "request %d", n)
		}
	}
}

func TestCodesNoDuplicatesWithinAVersion(t *testing.T) {
	for version, codes := range map[string][]javaCode{
		"4.9.8 requests": java498RequestCodes, "5.3.3 requests": java533RequestCodes,
		"4.9.8 responses": java498ResponseCodes, "5.3.3 responses": java533ResponseCodes,
	} {
		nums, names := map[int32]string{}, map[string]int32{}
		for _, j := range codes {
			if prev, dup := nums[j.num]; dup {
				t.Errorf("%s: %d is both %s and %s", version, j.num, prev, j.name)
			}
			if prev, dup := names[j.name]; dup {
				t.Errorf("%s: %s is both %d and %d", version, j.name, prev, j.num)
			}
			nums[j.num], names[j.name] = j.name, j.num
		}
	}
	seen := map[string]bool{}
	for _, n := range requestCodeNames {
		assert.False(t, seen[n], "request name %s twice", n)
		seen[n] = true
	}
	seen = map[string]bool{}
	for _, n := range responseCodeNames {
		assert.False(t, seen[n], "response name %s twice", n)
		seen[n] = true
	}
}

// The Go identifiers, spot-checked against the numbers of the Java files.
func TestCodesConstants(t *testing.T) {
	req := map[RequestCode]int32{
		SendMessage: 10, PullMessage: 11, QueryMessage: 12, QueryConsumerOffset: 14, UpdateConsumerOffset: 15,
		UpdateAndCreateTopic: 17, GetAllTopicConfig: 21, GetBrokerConfig: 26, GetBrokerRuntimeInfo: 28,
		SearchOffsetByTimestamp: 29, GetMaxOffset: 30, GetMinOffset: 31, ViewMessageById: 33, HeartBeat: 34,
		UnregisterClient: 35, ConsumerSendMsgBack: 36, EndTransaction: 37, GetConsumerListByGroup: 38,
		CheckTransactionState: 39, NotifyConsumerIdsChanged: 40, LockBatchMq: 41, UnlockBatchMq: 42,
		UpdateAndCreateAclConfig: 50, UpdateGlobalWhiteAddrsConfig: 53, PutKvConfig: 100, GetKvConfig: 101,
		RegisterBroker: 103, UnregisterBroker: 104, GetRouteinfoByTopic: 105, GetBrokerClusterInfo: 106,
		UpdateAndCreateSubscriptiongroup: 200, GetTopicStatsInfo: 202, GetConsumerConnectionList: 203,
		GetAllTopicListFromNameserver: 206, GetConsumeStats: 208, DeleteTopicInBroker: 215,
		DeleteTopicInNamesrv: 216, RegisterTopicInNamesrv: 217, GetKvlistByNamespace: 219,
		ResetConsumerClientOffset: 220, InvokeBrokerToResetOffset: 222, GetTopicsByCluster: 224,
		QueryTopicConsumeByWho: 300, GetSystemTopicListFromNs: 304, GetConsumerRunningInfo: 307,
		ConsumeMessageDirectly: 309, SendMessageV2: 310, ViewBrokerStatsData: 315, SendBatchMessage: 320,
		QueryDataVersion: 322, AddWritePermOfBroker: 327, DeleteExpiredCommitlog: 329, GetTopicConfig: 351,
		LitePullMessage: 361, RecallMessage: 370, QueryAssignment: 400, BrokerHeartbeat: 904,
		ControllerAlterSyncStateSet: 1001, ControllerApplyBrokerId: 1013, RaftBrokerHeartBeatEventRequest: 1018,
		SetCommitlogReadMode: 2004, AuthCreateUser: 3001, AuthListAcl: 3010, PopMessage: 200050,
		AckMessage: 200051, PopRollback: 200056, BatchAckMessage: 200151,
	}
	for c, n := range req {
		assert.Equal(t, n, int32(c), c.String())
	}
	resp := map[ResponseCode]int32{
		Success: 0, SystemError: 1, SystemBusy: 2, RequestCodeNotSupported: 3, TransactionFailed: 4,
		FlushDiskTimeout: 10, SlaveNotAvailable: 11, FlushSlaveTimeout: 12, MessageIllegal: 13,
		ServiceNotAvailable: 14, VersionNotSupported: 15, NoPermission: 16, TopicNotExist: 17,
		TopicExistAlready: 18, PullNotFound: 19, PullRetryImmediately: 20, PullOffsetMoved: 21,
		QueryNotFound: 22, SubscriptionParseFailed: 23, SubscriptionNotExist: 24, SubscriptionNotLatest: 25,
		SubscriptionGroupNotExist: 26, FilterDataNotExist: 27, FilterDataNotLatest: 28, InvalidParameter: 29,
		TransactionShouldCommit: 200, TransactionStateGroupWrong: 203, ConsumerNotOnline: 206,
		ConsumeMsgTimeout: 207, NoMessage: 208, BrokerDispatchNotComplete: 212, BroadcastConsumption: 213,
		FlowControl: 215, NotLeaderForQueue: 501, IllegalOperation: 604, RpcUnknown: -1000, RpcTimeOut: -1006,
		GoAway: 1500, ControllerFencedMasterEpoch: 2000, ControllerBrokerLiveInfoNotExists: 2016,
		UserNotExist: 3001, PolicyNotExist: 3002,
	}
	for c, n := range resp {
		assert.Equal(t, n, int32(c), c.String())
	}
}

// The ROCKETMQ binary header writes the code with writeShort: every 4.9.8
// code fits; only the 5.x POP codes do not.
func TestCodesFitBinaryHeader(t *testing.T) {
	for _, j := range java498RequestCodes {
		assert.LessOrEqual(t, j.num, int32(math.MaxInt16), j.name)
	}
	var wide []string
	for c, n := range requestCodeNames {
		if c > math.MaxInt16 {
			wide = append(wide, n)
		}
	}
	assert.ElementsMatch(t, []string{"POP_MESSAGE", "ACK_MESSAGE", "PEEK_MESSAGE", "CHANGE_MESSAGE_INVISIBLETIME",
		"NOTIFICATION", "POLLING_INFO", "POP_ROLLBACK", "BATCH_ACK_MESSAGE"}, wide)
}

func TestCodesUnknown(t *testing.T) {
	assert.Equal(t, "UNKNOWN(9999)", RequestCode(9999).String())
	assert.Equal(t, "UNKNOWN(-1)", RequestCode(-1).String())
	assert.Equal(t, "UNKNOWN(30)", ResponseCode(30).String())
	assert.Equal(t, "UNKNOWN(-7)", ResponseCode(-7).Name498())
	_, ok := RequestCodeByName("NO_SUCH_CODE")
	assert.False(t, ok)
	_, ok = ResponseCodeByName("")
	assert.False(t, ok)
}

// LanguageCode.java of both tags: JAVA((byte) 0) ... RUST((byte) 12), and
// 5.3.3 adds NODE_JS((byte) 13).
func TestCodesLanguage(t *testing.T) {
	java := []string{"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY", "OTHER", "HTTP", "GO", "PHP",
		"OMS", "RUST", "NODE_JS"}
	for b, name := range java {
		l := LanguageCode(b)
		require.True(t, l.Known(), name)
		assert.Equal(t, name, l.String())
		got, ok := ParseLanguage(name)
		assert.True(t, ok, name)
		assert.Equal(t, l, got, name)
	}
	assert.Equal(t, LanguageCode(9), LanguageGo)
	assert.Equal(t, LanguageCode(13), LanguageNodeJS)
	assert.False(t, LanguageCode(14).Known())
	assert.Equal(t, "UNKNOWN(14)", LanguageCode(14).String())

	// fastjson matches enum names without regard to case.
	for _, name := range []string{"java", "Go", "node_js"} {
		_, ok := ParseLanguage(name)
		assert.True(t, ok, name)
	}
	got, _ := ParseLanguage("Go")
	assert.Equal(t, LanguageGo, got)
	for _, name := range []string{"", "COBOL", "JAVA ", "NODEJS"} {
		_, ok := ParseLanguage(name)
		assert.False(t, ok, name)
	}
}

func union(a, b []javaCode) map[int32]bool {
	u := map[int32]bool{}
	for _, j := range append(append([]javaCode(nil), a...), b...) {
		u[j.num] = true
	}
	return u
}

func byNumber(codes []javaCode) map[int32]string {
	m := map[int32]string{}
	for _, j := range codes {
		m[j.num] = j.name
	}
	return m
}
