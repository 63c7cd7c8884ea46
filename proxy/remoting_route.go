package proxy

// GET_ROUTEINFO_BY_TOPIC on the remoting port (GetTopicRouteActivity,
// docs/reference/proxy-remoting.md §3): the name servers' route of the
// topic with every address of every broker (master and slaves) replaced
// by this port's advertised address, remotingAccessAddr:remotingListenPort
// (in local mode by the broker's host at the gRPC port, as Java's local
// proxy answers). The queue data is the name servers'; zone names,
// order-topic config and static-topic mappings are dropped. Encoded as the
// name server encodes it: Standard JSON for version >= V4_9_4 or
// acceptStandardJsonOnly.
//
//	{"brokerDatas":[{"brokerAddrs":{"0":"10.0.0.5:8080","1":"10.0.0.5:8080"},"brokerName":"broker-a",
//	  "cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},"queueDatas":[...]}

import (
	"errors"
	"net"
	"strconv"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// route is GET_ROUTEINFO_BY_TOPIC.
func (p *remotingPort) route(req *remoting.Request) *remoting.Command {
	topic := req.Cmd.ExtString("topic")
	r, err := p.brokers.clientRoute(topic)
	if errors.Is(err, errTopicNotFound) {
		return answer(req, remoting.TopicNotExist, err.Error())
	}
	if err != nil {
		return answer(req, remoting.SystemError, err.Error())
	}
	out := &protocol.TopicRouteData{QueueDatas: r.QueueDatas, FilterServerTable: map[string][]string{}}
	for _, bd := range r.BrokerDatas {
		nb := protocol.BrokerData{Cluster: bd.Cluster, BrokerName: bd.BrokerName}
		for _, a := range bd.BrokerAddrs {
			nb.BrokerAddrs = append(nb.BrokerAddrs, protocol.BrokerAddr{ID: a.ID, Addr: p.advertised(a.Addr)})
		}
		out.BrokerDatas = append(out.BrokerDatas, nb)
	}
	style := fastjson.Fastjson
	if req.Cmd.Version >= protocol.VersionV4_9_4 || req.Cmd.ExtBool("acceptStandardJsonOnly") {
		style = fastjson.Standard
	}
	resp := answer(req, remoting.Success, "")
	resp.Body = out.AppendJSON(make([]byte, 0, 256), style)
	return resp
}

// advertised is the address a route gives for a broker at brokerAddr.
func (p *remotingPort) advertised(brokerAddr string) string {
	if p.local {
		host, _, err := net.SplitHostPort(brokerAddr)
		if err != nil {
			host = brokerAddr
		}
		return net.JoinHostPort(host, strconv.Itoa(p.cfg.GrpcServerPort))
	}
	port := strconv.Itoa(p.cfg.RemotingListenPort)
	if _, bound, err := net.SplitHostPort(p.Addr()); err == nil {
		port = bound // the same, unless the config asked for any free port (0)
	}
	return net.JoinHostPort(p.accessHost, port)
}
