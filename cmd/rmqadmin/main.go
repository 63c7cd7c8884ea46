package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// env is what a command reads besides its options.
type env struct {
	line   protocol.Line
	stdout io.Writer
	stderr io.Writer
}

// command is one SubCommand: its name and description as Java lists them,
// its own options (for line), and what it does.
type command struct {
	name string
	desc string
	// javaClass is the SubCommand's simple name, for failure messages.
	javaClass string
	options   func(line protocol.Line) []option
	run       func(a *admin, c cmdLine, e env) error
}

// commands lists the commands in MQAdminStartup's order.
func commands() []command {
	return []command{
		{"updateTopic", "Update or create topic", "UpdateTopicSubCommand", updateTopicOptions, runUpdateTopic},
		{"deleteTopic", "Delete topic from broker and NameServer.", "DeleteTopicSubCommand", deleteTopicOptions, runDeleteTopic},
		{"updateSubGroup", "Update or create subscription group", "UpdateSubGroupSubCommand", updateSubGroupOptions, runUpdateSubGroup},
		{"deleteSubGroup", "Delete subscription group from broker.", "DeleteSubscriptionGroupCommand", deleteSubGroupOptions, runDeleteSubGroup},
		{"updateBrokerConfig", "Update broker's config", "UpdateBrokerConfigSubCommand", updateBrokerConfigOptions, runUpdateBrokerConfig},
		{"topicRoute", "Examine topic route info", "TopicRouteSubCommand", topicRouteOptions, runTopicRoute},
		{"topicStatus", "Examine topic Status info", "TopicStatusSubCommand", topicStatusOptions, runTopicStatus},
		{"topicClusterList", "get cluster info for topic", "TopicClusterSubCommand", topicClusterOptions, runTopicClusterList},
		{"brokerStatus", "Fetch broker runtime status data", "BrokerStatusSubCommand", brokerStatusOptions, runBrokerStatus},
		{"queryMsgById", "Query Message by Id", "QueryMsgByIdSubCommand", queryMsgByIDOptions, runQueryMsgByID},
		{"queryMsgByKey", "Query Message by Key", "QueryMsgByKeySubCommand", queryMsgByKeyOptions, runQueryMsgByKey},
		{"queryMsgByUniqueKey", "Query Message by Unique key", "QueryMsgByUniqueKeySubCommand", queryMsgByUniqueKeyOptions, runQueryMsgByUniqueKey},
		{"producerConnection", "Query producer's socket connection and client version", "ProducerConnectionSubCommand", producerConnectionOptions, runProducerConnection},
		{"consumerConnection", "Query consumer's socket connection, client version and subscription", "ConsumerConnectionSubCommand", consumerConnectionOptions, runConsumerConnection},
		{"consumerProgress", "Query consumers's progress, speed", "ConsumerProgressSubCommand", consumerProgressOptions, runConsumerProgress},
		{"clusterList", "List all of clusters", "ClusterListSubCommand", clusterListOptions, runClusterList},
		{"topicList", "Fetch all topic list from name server", "TopicListSubCommand", topicListOptions, runTopicList},
		{"resetOffsetByTime", "Reset consumer offset by timestamp(without client restart).", "ResetOffsetByTimeCommand", resetOffsetByTimeOptions, runResetOffsetByTime},
		{"getBrokerConfig", "Get broker config by cluster or special broker!", "GetBrokerConfigCommand", getBrokerConfigOptions, runGetBrokerConfig},
	}
}

// javaOnly is the commands of Java's mqadmin (4.9.8 and 5.3.3) this one
// does not have.
func javaOnly() []string {
	return strings.Fields(`addBroker addWritePerm allocateMQ brokerConsumeStats checkMsgSendRT
checkRocksdbCqWriteProgress cleanBrokerMetadata cleanExpiredCQ cleanUnusedTopic cloneGroupOffset
clusterAclConfigVersion clusterRT consumeMessage consumerStatus copyAcl copyUser
createAcl createUser deleteAcl deleteAclConfig deleteExpiredCommitLog deleteKvConfig deleteUser
dumpCompactionLog electMaster exportConfigs exportMetadata exportMetadataInRocksDB exportMetrics
exportPopRecord getAcl getBrokerEpoch getColdDataFlowCtrInfo getConsumerConfig getControllerConfig
getControllerMetaData getNamesrvConfig getSyncStateSet getUser haStatus listAcl listUser printMsg
printMsgByQueue producer queryCq queryMsgByOffset
queryMsgTraceById remappingStaticTopic removeBroker removeColdDataFlowCtrGroupConfig
resetMasterFlushOffset rocksDBConfigToJson sendMessage sendMsgStatus
setCommitLogReadAheadMode setConsumeMode skipAccumulatedMessage startMonitoring statsAll updateAcl
updateAclConfig updateColdDataFlowCtrGroupConfig updateControllerConfig updateGlobalWhiteAddr
updateKvConfig updateNamesrvConfig updateOrderConf updateStaticTopic updateSubGroupList
updateTopicList updateTopicPerm updateUser wipeWritePerm`)
}

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run is MQAdminStartup.main0: no arguments print the command list,
// "help CMD" a command's usage, "CMD args..." runs it.
func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	e := env{line: lineOf(getenv("RMQGO_LINE")), stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printCommandList(stdout)
		return 0
	}
	if len(args) == 2 && args[0] == "help" {
		if cmd, ok := findCommand(args[1]); ok {
			printHelp(stdout, "mqadmin "+cmd.name, allOptions(cmd, e.line))
		} else {
			notHere(stdout, args[1])
		}
		return 0
	}
	cmd, ok := findCommand(args[0])
	if !ok {
		notHere(stdout, args[0])
		return 0
	}
	return runCommand(cmd, args[1:], getenv, e)
}

// runCommand parses a command's options and runs it.
func runCommand(cmd command, args []string, getenv func(string) string, e env) int {
	opts := allOptions(cmd, e.line)
	c, err := parse("mqadmin "+cmd.name, opts, args, e.stdout, e.stderr)
	if err != nil {
		return 1
	}
	if c.has("h") {
		printHelp(e.stdout, "mqadmin "+cmd.name, opts)
		return 0
	}
	namesrvs := getenv("NAMESRV_ADDR")
	if c.has("n") {
		namesrvs = c.get("n")
	}
	a := newAdmin(e.line, namesrvs)
	defer a.close()
	if err := cmd.run(a, c, e); err != nil {
		fmt.Fprintf(e.stderr, "org.apache.rocketmq.tools.command.SubCommandException: %s command failed\nCaused by: %v\n", cmd.javaClass, err)
	}
	return 0
}

// allOptions is ServerUtil's -h and -n and the command's own.
func allOptions(cmd command, line protocol.Line) []option {
	return append(commonOptions(), cmd.options(line)...)
}

// lineOf reads RMQGO_LINE: 5 (or 5.x) is Line5, anything else Line4.
func lineOf(v string) protocol.Line {
	if strings.HasPrefix(strings.TrimSpace(v), "5") {
		return protocol.Line5
	}
	return protocol.Line4
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// printCommandList is MQAdminStartup.printHelp over this mqadmin's
// commands, and a note on the others.
func printCommandList(w io.Writer) {
	fmt.Fprintf(w, "The most commonly used mqadmin commands are:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "   %-20s %s\n", c.name, c.desc)
	}
	fmt.Fprintf(w, "\nSee 'mqadmin help <command>' for more information on a specific command.\n")
	fmt.Fprintf(w, "This mqadmin (rmqgo) has the commands above; the other commands of Apache RocketMQ's mqadmin\n"+
		"(%s ...) need its rocketmq-tools and a JVM.\n", strings.Join(javaOnly()[:6], ", "))
}

// notHere answers a command this mqadmin does not have: Java's message
// for an unknown name, a pointer to Java's tools for one of theirs.
func notHere(w io.Writer, name string) {
	if slices.Contains(javaOnly(), name) {
		fmt.Fprintf(w, "The sub command %s is not in this mqadmin (rmqgo); run it with Apache RocketMQ's rocketmq-tools mqadmin.\n", name)
		return
	}
	fmt.Fprintf(w, "The sub command %s not exist.\n", name)
}
