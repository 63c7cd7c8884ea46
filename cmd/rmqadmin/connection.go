package main

// Connection commands (tools/command/connection):
//
//   - consumerConnection -g GROUP [-b ADDR]: GET_CONSUMER_CONNECTION_LIST
//     (203, header consumerGroup) to a broker of the %RETRY%GROUP route (or
//     -b); the connections, the subscriptions (in the ConcurrentHashMap's
//     order), consume type, message model and where to consume from.
//   - producerConnection -g GROUP -t TOPIC: GET_PRODUCER_CONNECTION_LIST
//     (204, header producerGroup) to a broker of the topic's route.
//
// Both lines print the same. Differences from Java: of several
// connections, Java prints its HashSet's order, this prints them by client
// id; of several brokers, Java asks one at random, this the first.

import (
	"fmt"
	"sort"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// getProducerConnList is GET_PRODUCER_CONNECTION_LIST (wire value: do not change).
const getProducerConnList = remoting.RequestCode(204)

func consumerConnectionOptions(protocol.Line) []option {
	return []option{
		{short: "g", long: "consumerGroup", hasArg: true, required: true, desc: "consumer group name"},
		{short: "b", long: "brokerAddr", hasArg: true, desc: "broker address"},
	}
}

func runConsumerConnection(a *admin, c cmdLine, e env) error {
	cc, err := consumerConnection(a, c.get("g"), c.get("b"))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%-36s %-22s %-10s %s\n", "#ClientId", "#ClientAddr", "#Language", "#Version")
	for _, conn := range sortedConnections(cc.ConnectionSet) {
		fmt.Fprintf(e.stdout, "%-36s %-22s %-10s %s\n", conn.ClientID, conn.ClientAddr, conn.Language, remoting.VersionName(conn.Version))
	}
	fmt.Fprintf(e.stdout, "\nBelow is subscription:\n%-20s %s\n", "#Topic", "#SubExpression")
	topics := make([]string, 0, len(cc.SubscriptionTable))
	for t := range cc.SubscriptionTable {
		topics = append(topics, t)
	}
	sort.Strings(topics) // the order they were put in is unknown; sorted, then hashed
	for _, i := range javaHashOrder(topics) {
		sd := cc.SubscriptionTable[topics[i]]
		fmt.Fprintf(e.stdout, "%-20s %s\n", sd.Topic, sd.SubString)
	}
	fmt.Fprintf(e.stdout, "\nConsumeType: %s\nMessageModel: %s\nConsumeFromWhere: %s\n", cc.ConsumeType, cc.MessageModel, cc.ConsumeFromWhere)
	return nil
}

// sortedConnections is the connections by client id and address.
func sortedConnections(conns []protocol.Connection) []protocol.Connection {
	s := append([]protocol.Connection(nil), conns...)
	sort.Slice(s, func(i, j int) bool {
		if s[i].ClientID != s[j].ClientID {
			return s[i].ClientID < s[j].ClientID
		}
		return s[i].ClientAddr < s[j].ClientAddr
	})
	return s
}

func producerConnectionOptions(protocol.Line) []option {
	return []option{
		{short: "g", long: "producerGroup", hasArg: true, required: true, desc: "producer group name"},
		{short: "t", long: "topic", hasArg: true, required: true, desc: "topic name"},
	}
}

func runProducerConnection(a *admin, c cmdLine, e env) error {
	route, err := a.route(c.get("t"))
	if err != nil {
		return err
	}
	var conns []protocol.Connection
	if masters := routeMasters(route); len(masters) > 0 {
		resp, err := a.broker(masters[0], getProducerConnList, map[string]string{"producerGroup": c.get("g")}, nil)
		if err != nil {
			return err
		}
		pc, err := protocol.DecodeProducerConnection(resp.Body)
		if err != nil {
			return err
		}
		conns = pc.ConnectionSet
	}
	if len(conns) == 0 {
		return &clientError{code: -1, desc: "Not found the producer group connection"}
	}
	for i, conn := range sortedConnections(conns) {
		fmt.Fprintf(e.stdout, "%04d  %-32s %-22s %-8s %s\n", i+1, conn.ClientID, conn.ClientAddr, conn.Language, remoting.VersionName(conn.Version))
	}
	return nil
}
