package remoting

import "strconv"

// Code tables of Apache RocketMQ 4.9.8 and 5.3.3, from RequestCode.java,
// ResponseCode.java and RemotingSysResponseCode.java at the tags
// rocketmq-all-4.9.8 and rocketmq-all-5.3.3. Each constant is named after
// Java's constant and carries Java's number; the trailing comment gives the
// Java name and marks codes that only one version defines.
//
// Wire values: do not change.
//
// The ROCKETMQ binary header carries the code in 16 bits (writeShort), so
// codes above 32767 (the 5.x POP family, 200050...) only survive in JSON
// headers; Java has the same limit.

// RequestCode is the code of a request frame (the "code" of a command whose
// flag has the response bit clear).
type RequestCode int32

// Request codes. Every code of 4.9.8 keeps its number in 5.3.3 except 50-53
// (ACL 1.0), which 5.3.x removed; no number is used twice.
const (
	SendMessage                          RequestCode = 10     // SEND_MESSAGE
	PullMessage                          RequestCode = 11     // PULL_MESSAGE
	QueryMessage                         RequestCode = 12     // QUERY_MESSAGE
	QueryBrokerOffset                    RequestCode = 13     // QUERY_BROKER_OFFSET
	QueryConsumerOffset                  RequestCode = 14     // QUERY_CONSUMER_OFFSET
	UpdateConsumerOffset                 RequestCode = 15     // UPDATE_CONSUMER_OFFSET
	UpdateAndCreateTopic                 RequestCode = 17     // UPDATE_AND_CREATE_TOPIC
	UpdateAndCreateTopicList             RequestCode = 18     // UPDATE_AND_CREATE_TOPIC_LIST, 5.x
	GetAllTopicConfig                    RequestCode = 21     // GET_ALL_TOPIC_CONFIG
	GetTopicConfigList                   RequestCode = 22     // GET_TOPIC_CONFIG_LIST
	GetTopicNameList                     RequestCode = 23     // GET_TOPIC_NAME_LIST
	UpdateBrokerConfig                   RequestCode = 25     // UPDATE_BROKER_CONFIG
	GetBrokerConfig                      RequestCode = 26     // GET_BROKER_CONFIG
	TriggerDeleteFiles                   RequestCode = 27     // TRIGGER_DELETE_FILES
	GetBrokerRuntimeInfo                 RequestCode = 28     // GET_BROKER_RUNTIME_INFO
	SearchOffsetByTimestamp              RequestCode = 29     // SEARCH_OFFSET_BY_TIMESTAMP
	GetMaxOffset                         RequestCode = 30     // GET_MAX_OFFSET
	GetMinOffset                         RequestCode = 31     // GET_MIN_OFFSET
	GetEarliestMsgStoretime              RequestCode = 32     // GET_EARLIEST_MSG_STORETIME
	ViewMessageById                      RequestCode = 33     // VIEW_MESSAGE_BY_ID
	HeartBeat                            RequestCode = 34     // HEART_BEAT
	UnregisterClient                     RequestCode = 35     // UNREGISTER_CLIENT
	ConsumerSendMsgBack                  RequestCode = 36     // CONSUMER_SEND_MSG_BACK
	EndTransaction                       RequestCode = 37     // END_TRANSACTION
	GetConsumerListByGroup               RequestCode = 38     // GET_CONSUMER_LIST_BY_GROUP
	CheckTransactionState                RequestCode = 39     // CHECK_TRANSACTION_STATE
	NotifyConsumerIdsChanged             RequestCode = 40     // NOTIFY_CONSUMER_IDS_CHANGED
	LockBatchMq                          RequestCode = 41     // LOCK_BATCH_MQ
	UnlockBatchMq                        RequestCode = 42     // UNLOCK_BATCH_MQ
	GetAllConsumerOffset                 RequestCode = 43     // GET_ALL_CONSUMER_OFFSET
	GetAllDelayOffset                    RequestCode = 45     // GET_ALL_DELAY_OFFSET
	CheckClientConfig                    RequestCode = 46     // CHECK_CLIENT_CONFIG
	GetClientConfig                      RequestCode = 47     // GET_CLIENT_CONFIG, 5.x
	UpdateAndCreateAclConfig             RequestCode = 50     // UPDATE_AND_CREATE_ACL_CONFIG, 4.9.8 only (ACL 1.0, removed in 5.3.x)
	DeleteAclConfig                      RequestCode = 51     // DELETE_ACL_CONFIG, 4.9.8 only (ACL 1.0, removed in 5.3.x)
	GetBrokerClusterAclInfo              RequestCode = 52     // GET_BROKER_CLUSTER_ACL_INFO, 4.9.8 only (ACL 1.0, removed in 5.3.x)
	UpdateGlobalWhiteAddrsConfig         RequestCode = 53     // UPDATE_GLOBAL_WHITE_ADDRS_CONFIG, 4.9.8 only (ACL 1.0, removed in 5.3.x)
	GetBrokerClusterAclConfig            RequestCode = 54     // GET_BROKER_CLUSTER_ACL_CONFIG, 4.9.7 (4.9.8 dropped it; older dashboards call it)
	GetTimerCheckPoint                   RequestCode = 60     // GET_TIMER_CHECK_POINT, 5.x
	GetTimerMetrics                      RequestCode = 61     // GET_TIMER_METRICS, 5.x
	PutKvConfig                          RequestCode = 100    // PUT_KV_CONFIG
	GetKvConfig                          RequestCode = 101    // GET_KV_CONFIG
	DeleteKvConfig                       RequestCode = 102    // DELETE_KV_CONFIG
	RegisterBroker                       RequestCode = 103    // REGISTER_BROKER
	UnregisterBroker                     RequestCode = 104    // UNREGISTER_BROKER
	GetRouteinfoByTopic                  RequestCode = 105    // GET_ROUTEINFO_BY_TOPIC
	GetBrokerClusterInfo                 RequestCode = 106    // GET_BROKER_CLUSTER_INFO
	UpdateAndCreateSubscriptiongroup     RequestCode = 200    // UPDATE_AND_CREATE_SUBSCRIPTIONGROUP
	GetAllSubscriptiongroupConfig        RequestCode = 201    // GET_ALL_SUBSCRIPTIONGROUP_CONFIG
	GetTopicStatsInfo                    RequestCode = 202    // GET_TOPIC_STATS_INFO
	GetConsumerConnectionList            RequestCode = 203    // GET_CONSUMER_CONNECTION_LIST
	GetProducerConnectionList            RequestCode = 204    // GET_PRODUCER_CONNECTION_LIST
	WipeWritePermOfBroker                RequestCode = 205    // WIPE_WRITE_PERM_OF_BROKER
	GetAllTopicListFromNameserver        RequestCode = 206    // GET_ALL_TOPIC_LIST_FROM_NAMESERVER
	DeleteSubscriptiongroup              RequestCode = 207    // DELETE_SUBSCRIPTIONGROUP
	GetConsumeStats                      RequestCode = 208    // GET_CONSUME_STATS
	SuspendConsumer                      RequestCode = 209    // SUSPEND_CONSUMER
	ResumeConsumer                       RequestCode = 210    // RESUME_CONSUMER
	ResetConsumerOffsetInConsumer        RequestCode = 211    // RESET_CONSUMER_OFFSET_IN_CONSUMER
	ResetConsumerOffsetInBroker          RequestCode = 212    // RESET_CONSUMER_OFFSET_IN_BROKER
	AdjustConsumerThreadPool             RequestCode = 213    // ADJUST_CONSUMER_THREAD_POOL
	WhoConsumeTheMessage                 RequestCode = 214    // WHO_CONSUME_THE_MESSAGE
	DeleteTopicInBroker                  RequestCode = 215    // DELETE_TOPIC_IN_BROKER
	DeleteTopicInNamesrv                 RequestCode = 216    // DELETE_TOPIC_IN_NAMESRV
	RegisterTopicInNamesrv               RequestCode = 217    // REGISTER_TOPIC_IN_NAMESRV, 5.x
	GetKvlistByNamespace                 RequestCode = 219    // GET_KVLIST_BY_NAMESPACE
	ResetConsumerClientOffset            RequestCode = 220    // RESET_CONSUMER_CLIENT_OFFSET
	GetConsumerStatusFromClient          RequestCode = 221    // GET_CONSUMER_STATUS_FROM_CLIENT
	InvokeBrokerToResetOffset            RequestCode = 222    // INVOKE_BROKER_TO_RESET_OFFSET
	InvokeBrokerToGetConsumerStatus      RequestCode = 223    // INVOKE_BROKER_TO_GET_CONSUMER_STATUS
	GetTopicsByCluster                   RequestCode = 224    // GET_TOPICS_BY_CLUSTER
	UpdateAndCreateSubscriptiongroupList RequestCode = 225    // UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST, 5.x
	QueryTopicConsumeByWho               RequestCode = 300    // QUERY_TOPIC_CONSUME_BY_WHO
	RegisterFilterServer                 RequestCode = 301    // REGISTER_FILTER_SERVER
	RegisterMessageFilterClass           RequestCode = 302    // REGISTER_MESSAGE_FILTER_CLASS
	QueryConsumeTimeSpan                 RequestCode = 303    // QUERY_CONSUME_TIME_SPAN
	GetSystemTopicListFromNs             RequestCode = 304    // GET_SYSTEM_TOPIC_LIST_FROM_NS
	GetSystemTopicListFromBroker         RequestCode = 305    // GET_SYSTEM_TOPIC_LIST_FROM_BROKER
	CleanExpiredConsumequeue             RequestCode = 306    // CLEAN_EXPIRED_CONSUMEQUEUE
	GetConsumerRunningInfo               RequestCode = 307    // GET_CONSUMER_RUNNING_INFO
	QueryCorrectionOffset                RequestCode = 308    // QUERY_CORRECTION_OFFSET
	ConsumeMessageDirectly               RequestCode = 309    // CONSUME_MESSAGE_DIRECTLY
	SendMessageV2                        RequestCode = 310    // SEND_MESSAGE_V2
	GetUnitTopicList                     RequestCode = 311    // GET_UNIT_TOPIC_LIST
	GetHasUnitSubTopicList               RequestCode = 312    // GET_HAS_UNIT_SUB_TOPIC_LIST
	GetHasUnitSubUnunitTopicList         RequestCode = 313    // GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST
	CloneGroupOffset                     RequestCode = 314    // CLONE_GROUP_OFFSET
	ViewBrokerStatsData                  RequestCode = 315    // VIEW_BROKER_STATS_DATA
	CleanUnusedTopic                     RequestCode = 316    // CLEAN_UNUSED_TOPIC
	GetBrokerConsumeStats                RequestCode = 317    // GET_BROKER_CONSUME_STATS
	UpdateNamesrvConfig                  RequestCode = 318    // UPDATE_NAMESRV_CONFIG
	GetNamesrvConfig                     RequestCode = 319    // GET_NAMESRV_CONFIG
	SendBatchMessage                     RequestCode = 320    // SEND_BATCH_MESSAGE
	QueryConsumeQueue                    RequestCode = 321    // QUERY_CONSUME_QUEUE
	QueryDataVersion                     RequestCode = 322    // QUERY_DATA_VERSION
	ResumeCheckHalfMessage               RequestCode = 323    // RESUME_CHECK_HALF_MESSAGE
	SendReplyMessage                     RequestCode = 324    // SEND_REPLY_MESSAGE
	SendReplyMessageV2                   RequestCode = 325    // SEND_REPLY_MESSAGE_V2
	PushReplyMessageToClient             RequestCode = 326    // PUSH_REPLY_MESSAGE_TO_CLIENT
	AddWritePermOfBroker                 RequestCode = 327    // ADD_WRITE_PERM_OF_BROKER
	GetAllProducerInfo                   RequestCode = 328    // GET_ALL_PRODUCER_INFO
	DeleteExpiredCommitlog               RequestCode = 329    // DELETE_EXPIRED_COMMITLOG
	QueryTopicsByConsumer                RequestCode = 343    // QUERY_TOPICS_BY_CONSUMER, 5.x
	QuerySubscriptionByConsumer          RequestCode = 345    // QUERY_SUBSCRIPTION_BY_CONSUMER, 5.x
	GetTopicConfig                       RequestCode = 351    // GET_TOPIC_CONFIG, 5.x
	GetSubscriptiongroupConfig           RequestCode = 352    // GET_SUBSCRIPTIONGROUP_CONFIG, 5.x
	UpdateAndGetGroupForbidden           RequestCode = 353    // UPDATE_AND_GET_GROUP_FORBIDDEN, 5.x
	CheckRocksdbCqWriteProgress          RequestCode = 354    // CHECK_ROCKSDB_CQ_WRITE_PROGRESS, 5.x
	ExportRocksdbConfigToJson            RequestCode = 355    // EXPORT_ROCKSDB_CONFIG_TO_JSON, 5.x
	LitePullMessage                      RequestCode = 361    // LITE_PULL_MESSAGE, 5.x
	RecallMessage                        RequestCode = 370    // RECALL_MESSAGE, 5.x
	QueryAssignment                      RequestCode = 400    // QUERY_ASSIGNMENT, 5.x
	SetMessageRequestMode                RequestCode = 401    // SET_MESSAGE_REQUEST_MODE, 5.x
	GetAllMessageRequestMode             RequestCode = 402    // GET_ALL_MESSAGE_REQUEST_MODE, 5.x
	UpdateAndCreateStaticTopic           RequestCode = 513    // UPDATE_AND_CREATE_STATIC_TOPIC, 5.x
	GetBrokerMemberGroup                 RequestCode = 901    // GET_BROKER_MEMBER_GROUP, 5.x
	AddBroker                            RequestCode = 902    // ADD_BROKER, 5.x
	RemoveBroker                         RequestCode = 903    // REMOVE_BROKER, 5.x
	BrokerHeartbeat                      RequestCode = 904    // BROKER_HEARTBEAT, 5.x
	NotifyMinBrokerIdChange              RequestCode = 905    // NOTIFY_MIN_BROKER_ID_CHANGE, 5.x
	ExchangeBrokerHaInfo                 RequestCode = 906    // EXCHANGE_BROKER_HA_INFO, 5.x
	GetBrokerHaStatus                    RequestCode = 907    // GET_BROKER_HA_STATUS, 5.x
	ResetMasterFlushOffset               RequestCode = 908    // RESET_MASTER_FLUSH_OFFSET, 5.x
	ControllerAlterSyncStateSet          RequestCode = 1001   // CONTROLLER_ALTER_SYNC_STATE_SET, 5.x
	ControllerElectMaster                RequestCode = 1002   // CONTROLLER_ELECT_MASTER, 5.x
	ControllerRegisterBroker             RequestCode = 1003   // CONTROLLER_REGISTER_BROKER, 5.x
	ControllerGetReplicaInfo             RequestCode = 1004   // CONTROLLER_GET_REPLICA_INFO, 5.x
	ControllerGetMetadataInfo            RequestCode = 1005   // CONTROLLER_GET_METADATA_INFO, 5.x
	ControllerGetSyncStateData           RequestCode = 1006   // CONTROLLER_GET_SYNC_STATE_DATA, 5.x
	GetBrokerEpochCache                  RequestCode = 1007   // GET_BROKER_EPOCH_CACHE, 5.x
	NotifyBrokerRoleChanged              RequestCode = 1008   // NOTIFY_BROKER_ROLE_CHANGED, 5.x
	UpdateControllerConfig               RequestCode = 1009   // UPDATE_CONTROLLER_CONFIG, 5.x
	GetControllerConfig                  RequestCode = 1010   // GET_CONTROLLER_CONFIG, 5.x
	CleanBrokerData                      RequestCode = 1011   // CLEAN_BROKER_DATA, 5.x
	ControllerGetNextBrokerId            RequestCode = 1012   // CONTROLLER_GET_NEXT_BROKER_ID, 5.x
	ControllerApplyBrokerId              RequestCode = 1013   // CONTROLLER_APPLY_BROKER_ID, 5.x
	BrokerCloseChannelRequest            RequestCode = 1014   // BROKER_CLOSE_CHANNEL_REQUEST, 5.x (declared short in Java)
	CheckNotActiveBrokerRequest          RequestCode = 1015   // CHECK_NOT_ACTIVE_BROKER_REQUEST, 5.x (declared short in Java)
	GetBrokerLiveInfoRequest             RequestCode = 1016   // GET_BROKER_LIVE_INFO_REQUEST, 5.x (declared short in Java)
	GetSyncStateDataRequest              RequestCode = 1017   // GET_SYNC_STATE_DATA_REQUEST, 5.x (declared short in Java)
	RaftBrokerHeartBeatEventRequest      RequestCode = 1018   // RAFT_BROKER_HEART_BEAT_EVENT_REQUEST, 5.x (declared short in Java)
	UpdateColdDataFlowCtrConfig          RequestCode = 2001   // UPDATE_COLD_DATA_FLOW_CTR_CONFIG, 5.x
	RemoveColdDataFlowCtrConfig          RequestCode = 2002   // REMOVE_COLD_DATA_FLOW_CTR_CONFIG, 5.x
	GetColdDataFlowCtrInfo               RequestCode = 2003   // GET_COLD_DATA_FLOW_CTR_INFO, 5.x
	SetCommitlogReadMode                 RequestCode = 2004   // SET_COMMITLOG_READ_MODE, 5.x
	AuthCreateUser                       RequestCode = 3001   // AUTH_CREATE_USER, 5.x
	AuthUpdateUser                       RequestCode = 3002   // AUTH_UPDATE_USER, 5.x
	AuthDeleteUser                       RequestCode = 3003   // AUTH_DELETE_USER, 5.x
	AuthGetUser                          RequestCode = 3004   // AUTH_GET_USER, 5.x
	AuthListUser                         RequestCode = 3005   // AUTH_LIST_USER, 5.x
	AuthCreateAcl                        RequestCode = 3006   // AUTH_CREATE_ACL, 5.x
	AuthUpdateAcl                        RequestCode = 3007   // AUTH_UPDATE_ACL, 5.x
	AuthDeleteAcl                        RequestCode = 3008   // AUTH_DELETE_ACL, 5.x
	AuthGetAcl                           RequestCode = 3009   // AUTH_GET_ACL, 5.x
	AuthListAcl                          RequestCode = 3010   // AUTH_LIST_ACL, 5.x
	PopMessage                           RequestCode = 200050 // POP_MESSAGE, 5.x
	AckMessage                           RequestCode = 200051 // ACK_MESSAGE, 5.x
	PeekMessage                          RequestCode = 200052 // PEEK_MESSAGE, 5.x
	ChangeMessageInvisibletime           RequestCode = 200053 // CHANGE_MESSAGE_INVISIBLETIME, 5.x
	Notification                         RequestCode = 200054 // NOTIFICATION, 5.x
	PollingInfo                          RequestCode = 200055 // POLLING_INFO, 5.x
	PopRollback                          RequestCode = 200056 // POP_ROLLBACK, 5.x
	BatchAckMessage                      RequestCode = 200151 // BATCH_ACK_MESSAGE, 5.x
)

// requestCodeNames maps each request code to Java's constant name.
var requestCodeNames = map[RequestCode]string{
	SendMessage:                          "SEND_MESSAGE",
	PullMessage:                          "PULL_MESSAGE",
	QueryMessage:                         "QUERY_MESSAGE",
	QueryBrokerOffset:                    "QUERY_BROKER_OFFSET",
	QueryConsumerOffset:                  "QUERY_CONSUMER_OFFSET",
	UpdateConsumerOffset:                 "UPDATE_CONSUMER_OFFSET",
	UpdateAndCreateTopic:                 "UPDATE_AND_CREATE_TOPIC",
	UpdateAndCreateTopicList:             "UPDATE_AND_CREATE_TOPIC_LIST",
	GetAllTopicConfig:                    "GET_ALL_TOPIC_CONFIG",
	GetTopicConfigList:                   "GET_TOPIC_CONFIG_LIST",
	GetTopicNameList:                     "GET_TOPIC_NAME_LIST",
	UpdateBrokerConfig:                   "UPDATE_BROKER_CONFIG",
	GetBrokerConfig:                      "GET_BROKER_CONFIG",
	TriggerDeleteFiles:                   "TRIGGER_DELETE_FILES",
	GetBrokerRuntimeInfo:                 "GET_BROKER_RUNTIME_INFO",
	SearchOffsetByTimestamp:              "SEARCH_OFFSET_BY_TIMESTAMP",
	GetMaxOffset:                         "GET_MAX_OFFSET",
	GetMinOffset:                         "GET_MIN_OFFSET",
	GetEarliestMsgStoretime:              "GET_EARLIEST_MSG_STORETIME",
	ViewMessageById:                      "VIEW_MESSAGE_BY_ID",
	HeartBeat:                            "HEART_BEAT",
	UnregisterClient:                     "UNREGISTER_CLIENT",
	ConsumerSendMsgBack:                  "CONSUMER_SEND_MSG_BACK",
	EndTransaction:                       "END_TRANSACTION",
	GetConsumerListByGroup:               "GET_CONSUMER_LIST_BY_GROUP",
	CheckTransactionState:                "CHECK_TRANSACTION_STATE",
	NotifyConsumerIdsChanged:             "NOTIFY_CONSUMER_IDS_CHANGED",
	LockBatchMq:                          "LOCK_BATCH_MQ",
	UnlockBatchMq:                        "UNLOCK_BATCH_MQ",
	GetAllConsumerOffset:                 "GET_ALL_CONSUMER_OFFSET",
	GetAllDelayOffset:                    "GET_ALL_DELAY_OFFSET",
	CheckClientConfig:                    "CHECK_CLIENT_CONFIG",
	GetClientConfig:                      "GET_CLIENT_CONFIG",
	UpdateAndCreateAclConfig:             "UPDATE_AND_CREATE_ACL_CONFIG",
	DeleteAclConfig:                      "DELETE_ACL_CONFIG",
	GetBrokerClusterAclInfo:              "GET_BROKER_CLUSTER_ACL_INFO",
	UpdateGlobalWhiteAddrsConfig:         "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG",
	GetBrokerClusterAclConfig:            "GET_BROKER_CLUSTER_ACL_CONFIG",
	GetTimerCheckPoint:                   "GET_TIMER_CHECK_POINT",
	GetTimerMetrics:                      "GET_TIMER_METRICS",
	PutKvConfig:                          "PUT_KV_CONFIG",
	GetKvConfig:                          "GET_KV_CONFIG",
	DeleteKvConfig:                       "DELETE_KV_CONFIG",
	RegisterBroker:                       "REGISTER_BROKER",
	UnregisterBroker:                     "UNREGISTER_BROKER",
	GetRouteinfoByTopic:                  "GET_ROUTEINFO_BY_TOPIC",
	GetBrokerClusterInfo:                 "GET_BROKER_CLUSTER_INFO",
	UpdateAndCreateSubscriptiongroup:     "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP",
	GetAllSubscriptiongroupConfig:        "GET_ALL_SUBSCRIPTIONGROUP_CONFIG",
	GetTopicStatsInfo:                    "GET_TOPIC_STATS_INFO",
	GetConsumerConnectionList:            "GET_CONSUMER_CONNECTION_LIST",
	GetProducerConnectionList:            "GET_PRODUCER_CONNECTION_LIST",
	WipeWritePermOfBroker:                "WIPE_WRITE_PERM_OF_BROKER",
	GetAllTopicListFromNameserver:        "GET_ALL_TOPIC_LIST_FROM_NAMESERVER",
	DeleteSubscriptiongroup:              "DELETE_SUBSCRIPTIONGROUP",
	GetConsumeStats:                      "GET_CONSUME_STATS",
	SuspendConsumer:                      "SUSPEND_CONSUMER",
	ResumeConsumer:                       "RESUME_CONSUMER",
	ResetConsumerOffsetInConsumer:        "RESET_CONSUMER_OFFSET_IN_CONSUMER",
	ResetConsumerOffsetInBroker:          "RESET_CONSUMER_OFFSET_IN_BROKER",
	AdjustConsumerThreadPool:             "ADJUST_CONSUMER_THREAD_POOL",
	WhoConsumeTheMessage:                 "WHO_CONSUME_THE_MESSAGE",
	DeleteTopicInBroker:                  "DELETE_TOPIC_IN_BROKER",
	DeleteTopicInNamesrv:                 "DELETE_TOPIC_IN_NAMESRV",
	RegisterTopicInNamesrv:               "REGISTER_TOPIC_IN_NAMESRV",
	GetKvlistByNamespace:                 "GET_KVLIST_BY_NAMESPACE",
	ResetConsumerClientOffset:            "RESET_CONSUMER_CLIENT_OFFSET",
	GetConsumerStatusFromClient:          "GET_CONSUMER_STATUS_FROM_CLIENT",
	InvokeBrokerToResetOffset:            "INVOKE_BROKER_TO_RESET_OFFSET",
	InvokeBrokerToGetConsumerStatus:      "INVOKE_BROKER_TO_GET_CONSUMER_STATUS",
	GetTopicsByCluster:                   "GET_TOPICS_BY_CLUSTER",
	UpdateAndCreateSubscriptiongroupList: "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST",
	QueryTopicConsumeByWho:               "QUERY_TOPIC_CONSUME_BY_WHO",
	RegisterFilterServer:                 "REGISTER_FILTER_SERVER",
	RegisterMessageFilterClass:           "REGISTER_MESSAGE_FILTER_CLASS",
	QueryConsumeTimeSpan:                 "QUERY_CONSUME_TIME_SPAN",
	GetSystemTopicListFromNs:             "GET_SYSTEM_TOPIC_LIST_FROM_NS",
	GetSystemTopicListFromBroker:         "GET_SYSTEM_TOPIC_LIST_FROM_BROKER",
	CleanExpiredConsumequeue:             "CLEAN_EXPIRED_CONSUMEQUEUE",
	GetConsumerRunningInfo:               "GET_CONSUMER_RUNNING_INFO",
	QueryCorrectionOffset:                "QUERY_CORRECTION_OFFSET",
	ConsumeMessageDirectly:               "CONSUME_MESSAGE_DIRECTLY",
	SendMessageV2:                        "SEND_MESSAGE_V2",
	GetUnitTopicList:                     "GET_UNIT_TOPIC_LIST",
	GetHasUnitSubTopicList:               "GET_HAS_UNIT_SUB_TOPIC_LIST",
	GetHasUnitSubUnunitTopicList:         "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST",
	CloneGroupOffset:                     "CLONE_GROUP_OFFSET",
	ViewBrokerStatsData:                  "VIEW_BROKER_STATS_DATA",
	CleanUnusedTopic:                     "CLEAN_UNUSED_TOPIC",
	GetBrokerConsumeStats:                "GET_BROKER_CONSUME_STATS",
	UpdateNamesrvConfig:                  "UPDATE_NAMESRV_CONFIG",
	GetNamesrvConfig:                     "GET_NAMESRV_CONFIG",
	SendBatchMessage:                     "SEND_BATCH_MESSAGE",
	QueryConsumeQueue:                    "QUERY_CONSUME_QUEUE",
	QueryDataVersion:                     "QUERY_DATA_VERSION",
	ResumeCheckHalfMessage:               "RESUME_CHECK_HALF_MESSAGE",
	SendReplyMessage:                     "SEND_REPLY_MESSAGE",
	SendReplyMessageV2:                   "SEND_REPLY_MESSAGE_V2",
	PushReplyMessageToClient:             "PUSH_REPLY_MESSAGE_TO_CLIENT",
	AddWritePermOfBroker:                 "ADD_WRITE_PERM_OF_BROKER",
	GetAllProducerInfo:                   "GET_ALL_PRODUCER_INFO",
	DeleteExpiredCommitlog:               "DELETE_EXPIRED_COMMITLOG",
	QueryTopicsByConsumer:                "QUERY_TOPICS_BY_CONSUMER",
	QuerySubscriptionByConsumer:          "QUERY_SUBSCRIPTION_BY_CONSUMER",
	GetTopicConfig:                       "GET_TOPIC_CONFIG",
	GetSubscriptiongroupConfig:           "GET_SUBSCRIPTIONGROUP_CONFIG",
	UpdateAndGetGroupForbidden:           "UPDATE_AND_GET_GROUP_FORBIDDEN",
	CheckRocksdbCqWriteProgress:          "CHECK_ROCKSDB_CQ_WRITE_PROGRESS",
	ExportRocksdbConfigToJson:            "EXPORT_ROCKSDB_CONFIG_TO_JSON",
	LitePullMessage:                      "LITE_PULL_MESSAGE",
	RecallMessage:                        "RECALL_MESSAGE",
	QueryAssignment:                      "QUERY_ASSIGNMENT",
	SetMessageRequestMode:                "SET_MESSAGE_REQUEST_MODE",
	GetAllMessageRequestMode:             "GET_ALL_MESSAGE_REQUEST_MODE",
	UpdateAndCreateStaticTopic:           "UPDATE_AND_CREATE_STATIC_TOPIC",
	GetBrokerMemberGroup:                 "GET_BROKER_MEMBER_GROUP",
	AddBroker:                            "ADD_BROKER",
	RemoveBroker:                         "REMOVE_BROKER",
	BrokerHeartbeat:                      "BROKER_HEARTBEAT",
	NotifyMinBrokerIdChange:              "NOTIFY_MIN_BROKER_ID_CHANGE",
	ExchangeBrokerHaInfo:                 "EXCHANGE_BROKER_HA_INFO",
	GetBrokerHaStatus:                    "GET_BROKER_HA_STATUS",
	ResetMasterFlushOffset:               "RESET_MASTER_FLUSH_OFFSET",
	ControllerAlterSyncStateSet:          "CONTROLLER_ALTER_SYNC_STATE_SET",
	ControllerElectMaster:                "CONTROLLER_ELECT_MASTER",
	ControllerRegisterBroker:             "CONTROLLER_REGISTER_BROKER",
	ControllerGetReplicaInfo:             "CONTROLLER_GET_REPLICA_INFO",
	ControllerGetMetadataInfo:            "CONTROLLER_GET_METADATA_INFO",
	ControllerGetSyncStateData:           "CONTROLLER_GET_SYNC_STATE_DATA",
	GetBrokerEpochCache:                  "GET_BROKER_EPOCH_CACHE",
	NotifyBrokerRoleChanged:              "NOTIFY_BROKER_ROLE_CHANGED",
	UpdateControllerConfig:               "UPDATE_CONTROLLER_CONFIG",
	GetControllerConfig:                  "GET_CONTROLLER_CONFIG",
	CleanBrokerData:                      "CLEAN_BROKER_DATA",
	ControllerGetNextBrokerId:            "CONTROLLER_GET_NEXT_BROKER_ID",
	ControllerApplyBrokerId:              "CONTROLLER_APPLY_BROKER_ID",
	BrokerCloseChannelRequest:            "BROKER_CLOSE_CHANNEL_REQUEST",
	CheckNotActiveBrokerRequest:          "CHECK_NOT_ACTIVE_BROKER_REQUEST",
	GetBrokerLiveInfoRequest:             "GET_BROKER_LIVE_INFO_REQUEST",
	GetSyncStateDataRequest:              "GET_SYNC_STATE_DATA_REQUEST",
	RaftBrokerHeartBeatEventRequest:      "RAFT_BROKER_HEART_BEAT_EVENT_REQUEST",
	UpdateColdDataFlowCtrConfig:          "UPDATE_COLD_DATA_FLOW_CTR_CONFIG",
	RemoveColdDataFlowCtrConfig:          "REMOVE_COLD_DATA_FLOW_CTR_CONFIG",
	GetColdDataFlowCtrInfo:               "GET_COLD_DATA_FLOW_CTR_INFO",
	SetCommitlogReadMode:                 "SET_COMMITLOG_READ_MODE",
	AuthCreateUser:                       "AUTH_CREATE_USER",
	AuthUpdateUser:                       "AUTH_UPDATE_USER",
	AuthDeleteUser:                       "AUTH_DELETE_USER",
	AuthGetUser:                          "AUTH_GET_USER",
	AuthListUser:                         "AUTH_LIST_USER",
	AuthCreateAcl:                        "AUTH_CREATE_ACL",
	AuthUpdateAcl:                        "AUTH_UPDATE_ACL",
	AuthDeleteAcl:                        "AUTH_DELETE_ACL",
	AuthGetAcl:                           "AUTH_GET_ACL",
	AuthListAcl:                          "AUTH_LIST_ACL",
	PopMessage:                           "POP_MESSAGE",
	AckMessage:                           "ACK_MESSAGE",
	PeekMessage:                          "PEEK_MESSAGE",
	ChangeMessageInvisibletime:           "CHANGE_MESSAGE_INVISIBLETIME",
	Notification:                         "NOTIFICATION",
	PollingInfo:                          "POLLING_INFO",
	PopRollback:                          "POP_ROLLBACK",
	BatchAckMessage:                      "BATCH_ACK_MESSAGE",
}

// ResponseCode is the code of a response frame. Java's ResponseCode extends
// RemotingSysResponseCode, so the table includes that class's codes 0-4.
type ResponseCode int32

// Response codes. 209, 210 and 211 have one name in 4.9.8 (ACL 1.0 admin
// failures) and another in 5.x (POP polling and broker lookup); both names
// are kept with the same number. The negative RPC_* codes are 5.x
// client-side results and are never sent.
const (
	RpcTimeOut                           ResponseCode = -1006 // RPC_TIME_OUT, 5.x
	RpcSendToChannelFailed               ResponseCode = -1004 // RPC_SEND_TO_CHANNEL_FAILED, 5.x
	RpcAddrIsNull                        ResponseCode = -1002 // RPC_ADDR_IS_NULL, 5.x
	RpcUnknown                           ResponseCode = -1000 // RPC_UNKNOWN, 5.x
	Success                              ResponseCode = 0     // SUCCESS
	SystemError                          ResponseCode = 1     // SYSTEM_ERROR
	SystemBusy                           ResponseCode = 2     // SYSTEM_BUSY
	RequestCodeNotSupported              ResponseCode = 3     // REQUEST_CODE_NOT_SUPPORTED
	TransactionFailed                    ResponseCode = 4     // TRANSACTION_FAILED
	FlushDiskTimeout                     ResponseCode = 10    // FLUSH_DISK_TIMEOUT
	SlaveNotAvailable                    ResponseCode = 11    // SLAVE_NOT_AVAILABLE
	FlushSlaveTimeout                    ResponseCode = 12    // FLUSH_SLAVE_TIMEOUT
	MessageIllegal                       ResponseCode = 13    // MESSAGE_ILLEGAL
	ServiceNotAvailable                  ResponseCode = 14    // SERVICE_NOT_AVAILABLE
	VersionNotSupported                  ResponseCode = 15    // VERSION_NOT_SUPPORTED
	NoPermission                         ResponseCode = 16    // NO_PERMISSION
	TopicNotExist                        ResponseCode = 17    // TOPIC_NOT_EXIST
	TopicExistAlready                    ResponseCode = 18    // TOPIC_EXIST_ALREADY
	PullNotFound                         ResponseCode = 19    // PULL_NOT_FOUND
	PullRetryImmediately                 ResponseCode = 20    // PULL_RETRY_IMMEDIATELY
	PullOffsetMoved                      ResponseCode = 21    // PULL_OFFSET_MOVED
	QueryNotFound                        ResponseCode = 22    // QUERY_NOT_FOUND
	SubscriptionParseFailed              ResponseCode = 23    // SUBSCRIPTION_PARSE_FAILED
	SubscriptionNotExist                 ResponseCode = 24    // SUBSCRIPTION_NOT_EXIST
	SubscriptionNotLatest                ResponseCode = 25    // SUBSCRIPTION_NOT_LATEST
	SubscriptionGroupNotExist            ResponseCode = 26    // SUBSCRIPTION_GROUP_NOT_EXIST
	FilterDataNotExist                   ResponseCode = 27    // FILTER_DATA_NOT_EXIST
	FilterDataNotLatest                  ResponseCode = 28    // FILTER_DATA_NOT_LATEST
	InvalidParameter                     ResponseCode = 29    // INVALID_PARAMETER, 5.x
	TransactionShouldCommit              ResponseCode = 200   // TRANSACTION_SHOULD_COMMIT
	TransactionShouldRollback            ResponseCode = 201   // TRANSACTION_SHOULD_ROLLBACK
	TransactionStateUnknow               ResponseCode = 202   // TRANSACTION_STATE_UNKNOW
	TransactionStateGroupWrong           ResponseCode = 203   // TRANSACTION_STATE_GROUP_WRONG
	NoBuyerId                            ResponseCode = 204   // NO_BUYER_ID
	NotInCurrentUnit                     ResponseCode = 205   // NOT_IN_CURRENT_UNIT
	ConsumerNotOnline                    ResponseCode = 206   // CONSUMER_NOT_ONLINE
	ConsumeMsgTimeout                    ResponseCode = 207   // CONSUME_MSG_TIMEOUT
	NoMessage                            ResponseCode = 208   // NO_MESSAGE
	PollingFull                          ResponseCode = 209   // POLLING_FULL, 5.x
	UpdateAndCreateAclConfigFailed       ResponseCode = 209   // UPDATE_AND_CREATE_ACL_CONFIG_FAILED, 4.9.8 only (5.x reuses the number)
	DeleteAclConfigFailed                ResponseCode = 210   // DELETE_ACL_CONFIG_FAILED, 4.9.8 only (5.x reuses the number)
	PollingTimeout                       ResponseCode = 210   // POLLING_TIMEOUT, 5.x
	BrokerNotExist                       ResponseCode = 211   // BROKER_NOT_EXIST, 5.x
	UpdateGlobalWhiteAddrsConfigFailed   ResponseCode = 211   // UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED, 4.9.8 only (5.x reuses the number)
	BrokerDispatchNotComplete            ResponseCode = 212   // BROKER_DISPATCH_NOT_COMPLETE, 5.x
	BroadcastConsumption                 ResponseCode = 213   // BROADCAST_CONSUMPTION, 5.x
	FlowControl                          ResponseCode = 215   // FLOW_CONTROL
	NotLeaderForQueue                    ResponseCode = 501   // NOT_LEADER_FOR_QUEUE, 5.x
	IllegalOperation                     ResponseCode = 604   // ILLEGAL_OPERATION, 5.x
	GoAway                               ResponseCode = 1500  // GO_AWAY, 5.x
	ControllerFencedMasterEpoch          ResponseCode = 2000  // CONTROLLER_FENCED_MASTER_EPOCH, 5.x
	ControllerFencedSyncStateSetEpoch    ResponseCode = 2001  // CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, 5.x
	ControllerInvalidMaster              ResponseCode = 2002  // CONTROLLER_INVALID_MASTER, 5.x
	ControllerInvalidReplicas            ResponseCode = 2003  // CONTROLLER_INVALID_REPLICAS, 5.x
	ControllerMasterNotAvailable         ResponseCode = 2004  // CONTROLLER_MASTER_NOT_AVAILABLE, 5.x
	ControllerInvalidRequest             ResponseCode = 2005  // CONTROLLER_INVALID_REQUEST, 5.x
	ControllerBrokerNotAlive             ResponseCode = 2006  // CONTROLLER_BROKER_NOT_ALIVE, 5.x
	ControllerNotLeader                  ResponseCode = 2007  // CONTROLLER_NOT_LEADER, 5.x
	ControllerBrokerMetadataNotExist     ResponseCode = 2008  // CONTROLLER_BROKER_METADATA_NOT_EXIST, 5.x
	ControllerInvalidCleanBrokerMetadata ResponseCode = 2009  // CONTROLLER_INVALID_CLEAN_BROKER_METADATA, 5.x
	ControllerBrokerNeedToBeRegistered   ResponseCode = 2010  // CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, 5.x
	ControllerMasterStillExist           ResponseCode = 2011  // CONTROLLER_MASTER_STILL_EXIST, 5.x
	ControllerElectMasterFailed          ResponseCode = 2012  // CONTROLLER_ELECT_MASTER_FAILED, 5.x
	ControllerAlterSyncStateSetFailed    ResponseCode = 2013  // CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, 5.x
	ControllerBrokerIdInvalid            ResponseCode = 2014  // CONTROLLER_BROKER_ID_INVALID, 5.x
	ControllerJraftInternalError         ResponseCode = 2015  // CONTROLLER_JRAFT_INTERNAL_ERROR, 5.x
	ControllerBrokerLiveInfoNotExists    ResponseCode = 2016  // CONTROLLER_BROKER_LIVE_INFO_NOT_EXISTS, 5.x
	UserNotExist                         ResponseCode = 3001  // USER_NOT_EXIST, 5.x
	PolicyNotExist                       ResponseCode = 3002  // POLICY_NOT_EXIST, 5.x
)

// responseCodeNames maps each response code to Java's constant name; where
// the versions disagree (209-211) it holds the 5.x name, and
// responseCodeNames498 the 4.9.8 one.
var responseCodeNames = map[ResponseCode]string{
	RpcTimeOut:                           "RPC_TIME_OUT",
	RpcSendToChannelFailed:               "RPC_SEND_TO_CHANNEL_FAILED",
	RpcAddrIsNull:                        "RPC_ADDR_IS_NULL",
	RpcUnknown:                           "RPC_UNKNOWN",
	Success:                              "SUCCESS",
	SystemError:                          "SYSTEM_ERROR",
	SystemBusy:                           "SYSTEM_BUSY",
	RequestCodeNotSupported:              "REQUEST_CODE_NOT_SUPPORTED",
	TransactionFailed:                    "TRANSACTION_FAILED",
	FlushDiskTimeout:                     "FLUSH_DISK_TIMEOUT",
	SlaveNotAvailable:                    "SLAVE_NOT_AVAILABLE",
	FlushSlaveTimeout:                    "FLUSH_SLAVE_TIMEOUT",
	MessageIllegal:                       "MESSAGE_ILLEGAL",
	ServiceNotAvailable:                  "SERVICE_NOT_AVAILABLE",
	VersionNotSupported:                  "VERSION_NOT_SUPPORTED",
	NoPermission:                         "NO_PERMISSION",
	TopicNotExist:                        "TOPIC_NOT_EXIST",
	TopicExistAlready:                    "TOPIC_EXIST_ALREADY",
	PullNotFound:                         "PULL_NOT_FOUND",
	PullRetryImmediately:                 "PULL_RETRY_IMMEDIATELY",
	PullOffsetMoved:                      "PULL_OFFSET_MOVED",
	QueryNotFound:                        "QUERY_NOT_FOUND",
	SubscriptionParseFailed:              "SUBSCRIPTION_PARSE_FAILED",
	SubscriptionNotExist:                 "SUBSCRIPTION_NOT_EXIST",
	SubscriptionNotLatest:                "SUBSCRIPTION_NOT_LATEST",
	SubscriptionGroupNotExist:            "SUBSCRIPTION_GROUP_NOT_EXIST",
	FilterDataNotExist:                   "FILTER_DATA_NOT_EXIST",
	FilterDataNotLatest:                  "FILTER_DATA_NOT_LATEST",
	InvalidParameter:                     "INVALID_PARAMETER",
	TransactionShouldCommit:              "TRANSACTION_SHOULD_COMMIT",
	TransactionShouldRollback:            "TRANSACTION_SHOULD_ROLLBACK",
	TransactionStateUnknow:               "TRANSACTION_STATE_UNKNOW",
	TransactionStateGroupWrong:           "TRANSACTION_STATE_GROUP_WRONG",
	NoBuyerId:                            "NO_BUYER_ID",
	NotInCurrentUnit:                     "NOT_IN_CURRENT_UNIT",
	ConsumerNotOnline:                    "CONSUMER_NOT_ONLINE",
	ConsumeMsgTimeout:                    "CONSUME_MSG_TIMEOUT",
	NoMessage:                            "NO_MESSAGE",
	PollingFull:                          "POLLING_FULL",
	PollingTimeout:                       "POLLING_TIMEOUT",
	BrokerNotExist:                       "BROKER_NOT_EXIST",
	BrokerDispatchNotComplete:            "BROKER_DISPATCH_NOT_COMPLETE",
	BroadcastConsumption:                 "BROADCAST_CONSUMPTION",
	FlowControl:                          "FLOW_CONTROL",
	NotLeaderForQueue:                    "NOT_LEADER_FOR_QUEUE",
	IllegalOperation:                     "ILLEGAL_OPERATION",
	GoAway:                               "GO_AWAY",
	ControllerFencedMasterEpoch:          "CONTROLLER_FENCED_MASTER_EPOCH",
	ControllerFencedSyncStateSetEpoch:    "CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH",
	ControllerInvalidMaster:              "CONTROLLER_INVALID_MASTER",
	ControllerInvalidReplicas:            "CONTROLLER_INVALID_REPLICAS",
	ControllerMasterNotAvailable:         "CONTROLLER_MASTER_NOT_AVAILABLE",
	ControllerInvalidRequest:             "CONTROLLER_INVALID_REQUEST",
	ControllerBrokerNotAlive:             "CONTROLLER_BROKER_NOT_ALIVE",
	ControllerNotLeader:                  "CONTROLLER_NOT_LEADER",
	ControllerBrokerMetadataNotExist:     "CONTROLLER_BROKER_METADATA_NOT_EXIST",
	ControllerInvalidCleanBrokerMetadata: "CONTROLLER_INVALID_CLEAN_BROKER_METADATA",
	ControllerBrokerNeedToBeRegistered:   "CONTROLLER_BROKER_NEED_TO_BE_REGISTERED",
	ControllerMasterStillExist:           "CONTROLLER_MASTER_STILL_EXIST",
	ControllerElectMasterFailed:          "CONTROLLER_ELECT_MASTER_FAILED",
	ControllerAlterSyncStateSetFailed:    "CONTROLLER_ALTER_SYNC_STATE_SET_FAILED",
	ControllerBrokerIdInvalid:            "CONTROLLER_BROKER_ID_INVALID",
	ControllerJraftInternalError:         "CONTROLLER_JRAFT_INTERNAL_ERROR",
	ControllerBrokerLiveInfoNotExists:    "CONTROLLER_BROKER_LIVE_INFO_NOT_EXISTS",
	UserNotExist:                         "USER_NOT_EXIST",
	PolicyNotExist:                       "POLICY_NOT_EXIST",
}

// responseCodeNames498 holds the 4.9.8 names of the numbers 5.x reuses.
var responseCodeNames498 = map[ResponseCode]string{
	UpdateAndCreateAclConfigFailed:     "UPDATE_AND_CREATE_ACL_CONFIG_FAILED",
	DeleteAclConfigFailed:              "DELETE_ACL_CONFIG_FAILED",
	UpdateGlobalWhiteAddrsConfigFailed: "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED",
}

// String returns Java's constant name, or "UNKNOWN(<n>)" for a number that
// neither 4.9.8 nor 5.3.3 defines.
func (c RequestCode) String() string {
	if n, ok := requestCodeNames[c]; ok {
		return n
	}
	return unknownCode(int32(c))
}

// String returns Java's constant name (the 5.x name for 209-211), or
// "UNKNOWN(<n>)" for a number that neither 4.9.8 nor 5.3.3 defines.
func (c ResponseCode) String() string {
	if n, ok := responseCodeNames[c]; ok {
		return n
	}
	return unknownCode(int32(c))
}

// Name498 returns the name 4.9.8 gives the code: the same as String except
// for 209-211.
func (c ResponseCode) Name498() string {
	if n, ok := responseCodeNames498[c]; ok {
		return n
	}
	return c.String()
}

// RequestCodeByName returns the request code with Java's constant name name.
// It scans the table, so it is meant for tools and tests, not hot paths.
func RequestCodeByName(name string) (RequestCode, bool) {
	for c, n := range requestCodeNames {
		if n == name {
			return c, true
		}
	}
	return 0, false
}

// ResponseCodeByName returns the response code with Java's constant name
// name, accepting the 4.9.8 and the 5.x names of 209-211. It scans the
// table, so it is meant for tools and tests, not hot paths.
func ResponseCodeByName(name string) (ResponseCode, bool) {
	for c, n := range responseCodeNames {
		if n == name {
			return c, true
		}
	}
	for c, n := range responseCodeNames498 {
		if n == name {
			return c, true
		}
	}
	return 0, false
}

func unknownCode(n int32) string {
	return "UNKNOWN(" + strconv.FormatInt(int64(n), 10) + ")"
}
