// Command rmqadmin is the distribution's bin/mqadmin: the most used
// commands of Apache RocketMQ's mqadmin (rocketmq-tools' MQAdminStartup)
// with the same arguments and the same output, without a JVM.
//
//	sh bin/mqadmin clusterList -n 127.0.0.1:9876
//	sh bin/mqadmin updateTopic -n 127.0.0.1:9876 -c DefaultCluster -t TopicTest -r 8 -w 8
//	NAMESRV_ADDR=127.0.0.1:9876 sh bin/mqadmin topicStatus -t TopicTest
//	sh bin/mqadmin help topicRoute
//
// The release line picks the output format and the request version:
// RMQGO_LINE=4 prints as mqadmin 4.9.8, RMQGO_LINE=5 as 5.3.3 (bin/mqadmin
// reads it from bin/rmqgo-line; 4 when unset). The name servers are -n,
// else NAMESRV_ADDR. As Java's, it exits 0 once a command ran, also when
// the command failed (the failure is printed as Java's stack trace head on
// stderr); a bad command line exits 1.
//
// Commands, by file: topic.go (updateTopic, deleteTopic, topicList,
// topicRoute, topicStatus, topicClusterList), group.go (updateSubGroup,
// deleteSubGroup, consumerProgress), broker.go (clusterList,
// brokerStatus, getBrokerConfig, updateBrokerConfig), message.go
// (queryMsgByKey, queryMsgByUniqueKey, queryMsgById), connection.go
// (consumerConnection, producerConnection), offset.go
// (resetOffsetByTime). The others of Java's list answer that they need
// Java's rocketmq-tools.
//
// The files:
//
//	main.go        the command table, main, and the run of one command
//	options.go     Commons CLI's parsing and help text of MQAdminStartup
//	admin.go       the admin client (DefaultMQAdminExt's calls) over remoting
//	format.go      Java's number, date and HashMap formatting as mqadmin prints them
//	topic.go       the topic commands
//	group.go       the consumer group commands
//	broker.go      the cluster and broker commands
//	message.go     the message queries
//	connection.go  the connection commands
//	offset.go      resetOffsetByTime
package main
