package namesrv

// The KV config codes, DefaultRequestProcessor with KVConfigManager:
//
//	PUT_KV_CONFIG (100)            header namespace, key, value; SUCCESS, or SYSTEM_ERROR
//	                               "namespace or key is null".
//	GET_KV_CONFIG (101)            header namespace, key; SUCCESS with header value, or
//	                               QUERY_NOT_FOUND "No config item, Namespace: <ns> Key: <k>".
//	DELETE_KV_CONFIG (102)         header namespace, key; SUCCESS (the namespace stays).
//	GET_KVLIST_BY_NAMESPACE (219)  header namespace; SUCCESS with a KVTable body, or
//	                               QUERY_NOT_FOUND "No config item, Namespace: <ns>".
//
// Every change is written to kvConfigPath before the answer. Difference
// from Java: a failed write answers SYSTEM_ERROR (Java logs it and answers
// SUCCESS); the change stays in memory either way. A PUT without value is
// Java's null value: the namespace is created, the key has no value.

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (ns *NameServer) putKVConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	namespace, okNS := cmd.Ext("namespace")
	key, okKey := cmd.Ext("key")
	if !okNS || !okKey {
		return systemError(cmd, "namespace or key is null")
	}
	value, hasValue := cmd.Ext("value")
	if err := ns.kv.put(namespace, key, value, hasValue); err != nil {
		return systemError(cmd, err.Error())
	}
	return success(cmd)
}

func (ns *NameServer) getKVConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	namespace, key := extOrNull(cmd, "namespace"), extOrNull(cmd, "key")
	value, ok := ns.kv.get(namespace, key)
	if !ok {
		return remoting.NewResponse(cmd, remoting.QueryNotFound, "No config item, Namespace: "+namespace+" Key: "+key)
	}
	resp := success(cmd)
	resp.SetExt("value", value)
	return resp
}

func (ns *NameServer) deleteKVConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if err := ns.kv.remove(extOrNull(cmd, "namespace"), extOrNull(cmd, "key")); err != nil {
		return systemError(cmd, err.Error())
	}
	return success(cmd)
}

func (ns *NameServer) getKVListByNamespace(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	namespace := extOrNull(cmd, "namespace")
	table := ns.kv.list(namespace)
	if table == nil {
		return remoting.NewResponse(cmd, remoting.QueryNotFound, "No config item, Namespace: "+namespace)
	}
	resp := success(cmd)
	kv := protocol.KVTable{Table: table}
	resp.Body = kv.AppendJSON(nil)
	return resp
}

// extOrNull returns a header field, or "null" as Java prints a missing one.
func extOrNull(cmd *remoting.Command, key string) string {
	if v, ok := cmd.Ext(key); ok {
		return v
	}
	return "null"
}
