package namesrv

// GET_ROUTEINFO_BY_TOPIC (105), ClientRequestProcessor (5.x; 4.9.8 has it
// in DefaultRequestProcessor).
//
// Request header: topic (req), acceptStandardJsonOnly (opt Boolean); 5.x
// zone routing reads extFields __ZONE_MODE / __ZONE_NAME.
// Response: SUCCESS with a TopicRouteData body, no header; TOPIC_NOT_EXIST
// (17) "No topic route info in name server for the topic: <t>" + the FAQ
// hint; SYSTEM_ERROR "name server not ready" while needWaitForService.
//
// Body style: Standard (quoted brokerId keys, \uXXXX) when the request's
// version >= V4_9_4 or acceptStandardJsonOnly, else the default fastjson
// style. With orderMessageEnable the KV value ORDER_TOPIC_CONFIG/<topic>
// becomes orderTopicConf. In zone mode (ZoneRouteRPCHook) brokers of
// other zones that have a master are filtered out and the body is
// re-encoded in the default style, as Java re-encodes it.
//
// Differences from Java: queueDatas and brokerDatas are sorted by broker
// name. In ClusterTest mode a topic unknown here is fetched from the
// product environment's name server; 5.x's ClusterTestRequestProcessor
// answers every request code with a route lookup, which is not copied.

import (
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// faqApplyTopic is FAQUrl.suggestTodo(APPLY_TOPIC_URL) of 5.3.3.
const faqApplyTopic = "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."

func (ns *NameServer) getRouteInfoByTopic(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if ns.cfg.needWaitForService.Load() && ns.opts.Now().Sub(ns.started) < time.Duration(ns.cfg.waitSecondsForService.Load())*time.Second {
		ns.log.Warn("name server not ready", zap.Int32("code", cmd.Code))
		return systemError(cmd, "name server not ready")
	}
	topic, ok := cmd.Ext("topic")
	route := ns.routes.pickupRoute(topic)
	if route != nil && (ns.cfg.orderMessageEnable.Load() || ns.opts.ClusterTest) {
		route.OrderTopicConf, _ = ns.kv.get(protocol.NamespaceOrderTopicConfig, topic)
	}
	if route == nil && ns.fetcher != nil {
		route = ns.fetchProductRoute(topic)
	}
	if route == nil {
		if !ok {
			topic = "null"
		}
		return remoting.NewResponse(cmd, remoting.TopicNotExist,
			"No topic route info in name server for the topic: "+topic+faqApplyTopic)
	}
	style := routeStyle(cmd, ns.opts.ClusterTest)
	if zone := cmd.ExtString(protocol.ExtZoneName); cmd.ExtBool(protocol.ExtZoneMode) && strings.TrimSpace(zone) != "" {
		filterByZone(route, zone)
		style = fastjson.Fastjson
	}
	resp := success(cmd)
	resp.Body = route.AppendJSON(make([]byte, 0, 256), style)
	return resp
}

// routeStyle picks the encoding: Standard for clients at or above V4_9_4
// or asking for it; the default style for older clients and always in
// ClusterTest mode (ClusterTestRequestProcessor encodes plainly).
func routeStyle(cmd *remoting.Command, clusterTest bool) fastjson.Style {
	if !clusterTest && (cmd.Version >= protocol.VersionV4_9_4 || cmd.ExtBool("acceptStandardJsonOnly")) {
		return fastjson.Standard
	}
	return fastjson.Fastjson
}

// filterByZone is ZoneRouteRPCHook.filterByZoneName: brokers of another
// zone are dropped unless they have no master (then a client may still
// read from their slaves), with their queues and filter servers.
func filterByZone(route *protocol.TopicRouteData, zone string) {
	removed := map[string]protocol.BrokerData{}
	kept := route.BrokerDatas[:0]
	for _, bd := range route.BrokerDatas {
		if bd.BrokerAddrs == nil {
			continue
		}
		if _, hasMaster := bd.BrokerAddrs.Get(protocol.MasterID); !hasMaster || strings.EqualFold(bd.ZoneName, zone) {
			kept = append(kept, bd)
		} else {
			removed[bd.BrokerName] = bd
		}
	}
	route.BrokerDatas = kept
	queues := route.QueueDatas[:0]
	for _, q := range route.QueueDatas {
		if _, gone := removed[q.BrokerName]; !gone {
			queues = append(queues, q)
		}
	}
	route.QueueDatas = queues
	for _, bd := range removed {
		for _, e := range bd.BrokerAddrs {
			delete(route.FilterServerTable, e.Addr)
		}
	}
}

// fetchProductRoute is ClusterTestRequestProcessor's fallback: the route
// from the product environment's name server, or nil.
func (ns *NameServer) fetchProductRoute(topic string) *protocol.TopicRouteData {
	req := remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic})
	resp, err := ns.fetcher.InvokeTimeout(ns.opts.ProductEnvNamesrvAddr, req, 3*time.Second)
	if err != nil || resp.Code != int32(remoting.Success) {
		ns.log.Info("get route info by topic from product environment failed",
			zap.String("envName", ns.opts.ProductEnvName), zap.String("topic", topic), zap.Error(err))
		return nil
	}
	route, err := protocol.DecodeTopicRouteData(resp.Body)
	if err != nil {
		ns.log.Info("route from product environment does not parse", zap.String("topic", topic), zap.Error(err))
		return nil
	}
	return route
}
