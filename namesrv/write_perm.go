package namesrv

// WIPE_WRITE_PERM_OF_BROKER (205) and ADD_WRITE_PERM_OF_BROKER (327),
// DefaultRequestProcessor.wipeWritePermOfBroker / addWritePermOfBroker.
//
// Request header: brokerName (req).
// Response: SUCCESS, header wipeTopicCount (205) / addTopicCount (327),
// the number of topics whose queue data of that broker changed. Wipe
// clears the write bit; add sets the permission to read|write (6). Both
// last only until the broker's next registration with a new DataVersion.

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

func (ns *NameServer) wipeWritePermOfBroker(req *remoting.Request) *remoting.Command {
	return ns.changeWritePerm(req, true, "wipeTopicCount")
}

func (ns *NameServer) addWritePermOfBroker(req *remoting.Request) *remoting.Command {
	return ns.changeWritePerm(req, false, "addTopicCount")
}

func (ns *NameServer) changeWritePerm(req *remoting.Request, wipe bool, countKey string) *remoting.Command {
	h := readHeader(req.Cmd)
	name := h.str("brokerName")
	if resp := h.reject(); resp != nil {
		return resp
	}
	n := ns.routes.changeWritePerm(name, wipe)
	ns.log.Info("write perm of broker changed", zap.String("brokerName", name), zap.Bool("wipe", wipe),
		zap.Int("topics", n), zap.String("client", remoteAddr(req)))
	resp := success(req.Cmd)
	resp.SetExt(countKey, strconv.Itoa(n))
	return resp
}

// remoteAddr is the caller's address for logs.
func remoteAddr(req *remoting.Request) string {
	if req.Ch == nil {
		return ""
	}
	return req.Ch.RemoteAddr()
}
