package namesrv

// REGISTER_BROKER (103), DefaultRequestProcessor.registerBroker (5.x; the
// 4.9.8 registerBrokerWithFilterServer is the same path).
//
// Request header: brokerName, brokerAddr, clusterName, haServerAddr,
// brokerId (all req); compressed (boolean), bodyCrc32 (Integer, 0 = not
// checked); 5.x heartbeatTimeoutMillis (opt Long), enableActingMaster (opt
// Boolean), extField __ZONE_NAME.
// Body: brokers at or above V3_0_11 send RegisterBrokerBody (JSON, or the
// zlib form when compressed); older ones a bare TopicConfigSerializeWrapper.
// No body means DataVersion {counter 0, timestamp 0}.
// Response: SUCCESS, header haServerAddr / masterAddr (a slave learns its
// master), body the ORDER_TOPIC_CONFIG KVTable when that namespace exists
// (5.x: only with returnOrderTopicConfigToBroker). SYSTEM_ERROR
// "crc32 not match"; SYSTEM_ERROR "register broker failed" (5.x: a
// single-topic registration before the broker registered); SYSTEM_ERROR
// for a body that does not decode (Java: "Failed to decode
// RegisterBrokerBody" from the processor's exception).
//
// Oneway registrations (broker setting registerBrokerOneway) get no answer.
// Differences from Java: the 5.x NOTIFY_MIN_BROKER_ID_CHANGE push
// (notifyMinBrokerIdChanged, default off) is not sent.

import (
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (ns *NameServer) registerBroker(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	r, resp := decodeRegistration(cmd)
	if resp != nil {
		return resp
	}
	r.ch = req.Ch
	res, ok := ns.routes.registerBroker(r)
	if !ok {
		return systemError(cmd, "register broker failed")
	}
	if req.Ch != nil && req.Ch.Closed() {
		// The connection closed while this was queued: its OnClose may have
		// come before the registration marked it, so drop the broker here.
		ns.routes.onChannelClosed(req.Ch)
	}
	resp = success(cmd)
	for k, v := range res.Header() {
		resp.SetExt(k, v)
	}
	if ns.cfg.returnOrderTopicConfigToBroker.Load() {
		if table := ns.kv.list(protocol.NamespaceOrderTopicConfig); table != nil {
			kv := protocol.KVTable{Table: table}
			resp.Body = kv.AppendJSON(nil)
		}
	}
	return resp
}

// decodeRegistration reads the header and body of a REGISTER_BROKER
// request, or returns the error response.
func decodeRegistration(cmd *remoting.Command) (*registration, *remoting.Command) {
	h := readHeader(cmd)
	r := &registration{
		name: h.str("brokerName"), addr: h.str("brokerAddr"), cluster: h.str("clusterName"),
		haServerAddr: h.str("haServerAddr"), id: h.long("brokerId"),
		zoneName: cmd.ExtString(protocol.ExtZoneName), enableActingMaster: h.optBool("enableActingMaster"),
	}
	if resp := h.reject(); resp != nil {
		return nil, resp
	}
	if ms, ok := h.optLong("heartbeatTimeoutMillis"); ok && ms > 0 {
		r.heartbeatTimeout = time.Duration(ms) * time.Millisecond
	}
	if crc, ok := h.optLong("bodyCrc32"); ok && crc != 0 && int32(crc) != protocol.BodyCRC32(cmd.Body) {
		return nil, systemError(cmd, "crc32 not match")
	}
	if err := decodeRegisterBody(cmd, r); err != nil {
		return nil, systemError(cmd, "Failed to decode RegisterBrokerBody: "+err.Error())
	}
	return r, nil
}

// decodeRegisterBody fills r's topic configs and filter servers from the
// body, in the form the broker's version implies.
func decodeRegisterBody(cmd *remoting.Command, r *registration) error {
	if len(cmd.Body) == 0 {
		r.wrapper = &protocol.TopicConfigSerializeWrapper{TopicConfigTable: map[string]protocol.TopicConfig{}}
		if cmd.Version >= protocol.VersionV3_0_11 {
			r.filterServers = []string{}
		}
		return nil
	}
	if cmd.Version < protocol.VersionV3_0_11 {
		w, err := protocol.DecodeTopicConfigSerializeWrapper(cmd.Body)
		r.wrapper = w
		return err
	}
	body, err := protocol.DecodeRegisterBrokerBody(cmd.Body, cmd.ExtBool("compressed"), cmd.Version)
	if err != nil {
		return err
	}
	r.wrapper, r.filterServers = &body.TopicConfigSerializeWrapper, body.FilterServerList
	return nil
}
