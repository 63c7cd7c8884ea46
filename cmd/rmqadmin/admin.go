package main

// The admin client: what Java's DefaultMQAdminExt does for the commands
// here, over the project's remoting client. Requests carry the version of
// the line's tools (V4_9_8 = 409, V5_3_3 = 479), JSON headers and language
// JAVA, as MQAdminStartup's; each call waits at most 5 s (the admin's
// timeoutMillis). Failures read as Java's exceptions do in mqadmin's
// stack trace (RemotingConnectException, MQBrokerException,
// MQClientException).

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// callTimeout is DefaultMQAdminExt's timeoutMillis.
const callTimeout = 5 * time.Second

// Versions the tools of each line put in their requests (MQVersion.CURRENT_VERSION).
const (
	version4 int32 = 409 // V4_9_8
	version5 int32 = 479 // V5_3_3
)

// Names and prefixes of MixAll (wire values: do not change).
const (
	retryGroupTopicPrefix = "%RETRY%"
	dlqGroupTopicPrefix   = "%DLQ%"
	masterID              = 0
	defaultTopic          = "TBW102"
	faqURL                = "\nFor more information, please visit the url, http://rocketmq.apache.org/docs/faq/"
)

// admin makes the calls of one mqadmin run.
type admin struct {
	client   *remoting.Client
	line     protocol.Line
	namesrvs []string
}

// newAdmin returns an admin for line talking to the ';' separated name
// server list.
func newAdmin(line protocol.Line, namesrvs string) *admin {
	var list []string
	for _, a := range strings.Split(namesrvs, ";") {
		if a = strings.TrimSpace(a); a != "" {
			list = append(list, a)
		}
	}
	return &admin{client: remoting.NewClient(remoting.ClientOptions{DialTimeout: callTimeout}), line: line, namesrvs: list}
}

// close drops the connections.
func (a *admin) close() { a.client.Close() }

// request is a request as the line's mqadmin makes it.
func (a *admin) request(code remoting.RequestCode, ext map[string]string, body []byte) *remoting.Command {
	req := remoting.NewRequest(code, ext)
	req.Version = version4
	if a.line >= protocol.Line5 {
		req.Version = version5
	}
	req.SerializeType = remoting.SerializeJSON
	req.Body = body
	return req
}

// call sends one request to addr and waits for its answer.
func (a *admin) call(addr string, code remoting.RequestCode, ext map[string]string, body []byte) (*remoting.Command, error) {
	resp, err := a.client.InvokeTimeout(addr, a.request(code, ext, body), callTimeout)
	if err != nil {
		return nil, fmt.Errorf("org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to [%s] failed (%v)", addr, err)
	}
	return resp, nil
}

// broker calls a broker and wants SUCCESS: anything else reads as an
// MQBrokerException.
func (a *admin) broker(addr string, code remoting.RequestCode, ext map[string]string, body []byte) (*remoting.Command, error) {
	resp, err := a.call(addr, code, ext, body)
	if err != nil {
		return nil, err
	}
	if remoting.ResponseCode(resp.Code) != remoting.Success {
		return nil, brokerError(resp, addr)
	}
	return resp, nil
}

// clientError is Java's MQClientException: a response code (-1 for none)
// and a message.
type clientError struct {
	code int32
	desc string
}

func (e *clientError) Error() string {
	return fmt.Sprintf("org.apache.rocketmq.client.exception.MQClientException: CODE: %d  DESC: %s%s", e.code, e.desc, faqURL)
}

// brokerRefusal is Java's MQBrokerException: a broker's answer other than
// SUCCESS.
type brokerRefusal struct {
	code       int32
	desc, addr string
}

func (e *brokerRefusal) Error() string {
	return fmt.Sprintf("org.apache.rocketmq.client.exception.MQBrokerException: CODE: %d  DESC: %s BROKER: %s%s", e.code, e.desc, e.addr, faqURL)
}

// brokerError is the MQBrokerException of a refusal.
func brokerError(resp *remoting.Command, addr string) error {
	return &brokerRefusal{code: resp.Code, desc: resp.Remark, addr: addr}
}

// namesrv calls the name servers in turn until one answers SUCCESS.
func (a *admin) namesrv(code remoting.RequestCode, ext map[string]string) (*remoting.Command, error) {
	if len(a.namesrvs) == 0 {
		return nil, fmt.Errorf("org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to null failed (no name server: use -n or NAMESRV_ADDR)")
	}
	var last error
	for _, addr := range a.namesrvs {
		resp, err := a.call(addr, code, ext, nil)
		if err != nil {
			last = err
			continue
		}
		if remoting.ResponseCode(resp.Code) != remoting.Success {
			return resp, &clientError{code: resp.Code, desc: resp.Remark}
		}
		return resp, nil
	}
	return nil, last
}

// clusterInfo is examineBrokerClusterInfo (GET_BROKER_CLUSTER_INFO).
func (a *admin) clusterInfo() (*protocol.ClusterInfo, error) {
	resp, err := a.namesrv(remoting.GetBrokerClusterInfo, nil)
	if err != nil {
		return nil, err
	}
	return protocol.DecodeClusterInfo(resp.Body)
}

// route is examineTopicRouteInfo (GET_ROUTEINFO_BY_TOPIC).
func (a *admin) route(topic string) (*protocol.TopicRouteData, error) {
	resp, err := a.namesrv(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic})
	if err != nil {
		if resp != nil && remoting.ResponseCode(resp.Code) == remoting.TopicNotExist {
			return nil, &clientError{code: int32(remoting.TopicNotExist), desc: "No topic route info in name server for the topic: " + topic}
		}
		return nil, err
	}
	return protocol.DecodeTopicRouteData(resp.Body)
}

// errNoCluster is CommandUtil's complaint about an unknown cluster.
func errNoCluster() error {
	//lint:ignore ST1005 CommandUtil's message, which mqadmin prints verbatim (its final period too)
	return fmt.Errorf("java.lang.Exception: Make sure the specified clusterName exists or the name server connected to is correct.")
}

// clusterBrokers is the broker data of a cluster's brokers, by name.
func clusterBrokers(ci *protocol.ClusterInfo, cluster string) ([]protocol.BrokerData, error) {
	names, ok := ci.ClusterAddrTable[cluster]
	if !ok {
		return nil, errNoCluster()
	}
	names = append([]string(nil), names...)
	sort.Strings(names)
	var out []protocol.BrokerData
	for _, n := range names {
		if b, ok := ci.BrokerAddrTable[n]; ok {
			out = append(out, b)
		}
	}
	return out, nil
}

// masterAddrs is CommandUtil.fetchMasterAddrByClusterName.
func (a *admin) masterAddrs(cluster string) ([]string, error) {
	return a.clusterAddrs(cluster, func(b protocol.BrokerData) []string {
		if addr, ok := b.BrokerAddrs.Get(masterID); ok {
			return []string{addr}
		}
		return nil
	})
}

// allAddrs is CommandUtil.fetchMasterAndSlaveAddrByClusterName.
func (a *admin) allAddrs(cluster string) ([]string, error) {
	return a.clusterAddrs(cluster, func(b protocol.BrokerData) []string {
		var out []string
		for _, ba := range sortedAddrs(b.BrokerAddrs) {
			out = append(out, ba.Addr)
		}
		return out
	})
}

// clusterAddrs is the addresses pick takes from each broker of cluster, in
// broker name order.
func (a *admin) clusterAddrs(cluster string, pick func(protocol.BrokerData) []string) ([]string, error) {
	ci, err := a.clusterInfo()
	if err != nil {
		return nil, err
	}
	brokers, err := clusterBrokers(ci, cluster)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, b := range brokers {
		out = append(out, pick(b)...)
	}
	return out, nil
}

// sortedAddrs is a broker's addresses by id (a HashMap<Long,String> of
// small ids iterates so).
func sortedAddrs(addrs protocol.BrokerAddrs) protocol.BrokerAddrs {
	s := addrs.Clone()
	sort.Slice(s, func(i, j int) bool { return s[i].ID < s[j].ID })
	return s
}

// routeMasters is the master address of each broker of a route, in the
// route's order.
func routeMasters(route *protocol.TopicRouteData) []string {
	var out []string
	for _, b := range route.BrokerDatas {
		if addr, ok := b.BrokerAddrs.Get(masterID); ok {
			out = append(out, addr)
		}
	}
	return out
}
