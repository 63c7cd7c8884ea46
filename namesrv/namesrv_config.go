package namesrv

// UPDATE_NAMESRV_CONFIG (318) and GET_NAMESRV_CONFIG (319),
// DefaultRequestProcessor.updateConfig / getConfig.
//
// 318: no header; body java.util.Properties text. SUCCESS (also with no
// body: nothing changes); SYSTEM_ERROR "string2Properties error" for text
// Properties.load refuses; NO_PERMISSION "Can not update config in black
// list." when a key is in the black list (configBlackList,
// configStorePath, kvConfigPath, rocketmqHome and the configured list).
// 319: no header; SUCCESS with the properties text as body (no body when
// it is blank).
//
// The flags Java reads per request (orderMessageEnable,
// enableAllTopicList, ...) take effect at once; the ConfigSource persists
// and reports everything. Without a ConfigSource, 318 answers SYSTEM_ERROR.

import (
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

func (ns *NameServer) updateNamesrvConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	ns.log.Info("updateConfig called", zap.String("client", remoteAddr(req)))
	if len(cmd.Body) == 0 {
		return success(cmd)
	}
	parsed, err := conf.ParseProperties(cmd.Body, "UPDATE_NAMESRV_CONFIG")
	if err != nil {
		return systemError(cmd, "string2Properties error")
	}
	props := parsed.Map()
	black := ns.opts.blackList()
	for key := range props {
		if black[key] {
			return remoting.NewResponse(cmd, remoting.NoPermission, "Can not update config in black list.")
		}
	}
	if ns.opts.Config == nil {
		return systemError(cmd, "the name server has no updatable configuration")
	}
	if err := ns.opts.Config.Update(props); err != nil {
		return systemError(cmd, err.Error())
	}
	ns.cfg.apply(props)
	return success(cmd)
}

func (ns *NameServer) getNamesrvConfig(req *remoting.Request) *remoting.Command {
	resp := success(req.Cmd)
	if ns.opts.Config != nil {
		if text := ns.opts.Config.PropertiesText(); strings.TrimSpace(text) != "" {
			resp.Body = []byte(text)
		}
	}
	return resp
}
