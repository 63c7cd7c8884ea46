package controller

// UPDATE_CONTROLLER_CONFIG (1009) and GET_CONTROLLER_CONFIG (1010), served
// by every controller from its own configuration
// (docs/reference/controller.md §2.3).
//
// 1009: body java.util.Properties text. SUCCESS (also with no body);
// SYSTEM_ERROR "string2Properties error" for text Properties.load
// refuses; NO_PERMISSION "Can not update config in black list." for a key
// of the black list. enableElectUncleanMaster, processReadEvent,
// notifyBrokerRoleChanged and electMasterMaxRetryCount take effect at once.
// 1010: SUCCESS with the properties text, key=value lines sorted by key.

import (
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

func (c *Controller) updateControllerConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	c.log.Info("updateConfig called", zap.String("client", req.Ch.RemoteAddr()))
	if len(cmd.Body) == 0 {
		return remoting.NewResponse(cmd, remoting.Success, "")
	}
	parsed, err := conf.ParseProperties(cmd.Body, "UPDATE_CONTROLLER_CONFIG")
	if err != nil {
		return remoting.NewResponse(cmd, remoting.SystemError, "string2Properties error")
	}
	props := parsed.Map()
	black := c.opts.blackList()
	for key := range props {
		if black[key] {
			return remoting.NewResponse(cmd, remoting.NoPermission, "Can not update config in black list.")
		}
	}
	if c.opts.Config == nil {
		return remoting.NewResponse(cmd, remoting.SystemError, "the controller has no updatable configuration")
	}
	if err := c.opts.Config.Update(props); err != nil {
		return remoting.NewResponse(cmd, remoting.SystemError, err.Error())
	}
	c.settings.apply(props)
	return remoting.NewResponse(cmd, remoting.Success, "")
}

func (c *Controller) getControllerConfig(req *remoting.Request) *remoting.Command {
	resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
	if c.opts.Config != nil {
		resp.Body = []byte(c.opts.Config.PropertiesText())
	}
	return resp
}

// apply takes the keys it knows as properties2Object sets them.
func (s *settings) apply(props map[string]string) {
	for key, value := range props {
		value = strings.TrimSpace(value)
		switch key {
		case "enableElectUncleanMaster":
			s.unclean.Store(strings.EqualFold(value, "true"))
		case "processReadEvent":
			s.processRead.Store(strings.EqualFold(value, "true"))
		case "notifyBrokerRoleChanged":
			s.notify.Store(strings.EqualFold(value, "true"))
		case "electMasterMaxRetryCount":
			if n, err := strconv.Atoi(value); err == nil {
				s.electRetries.Store(int64(n))
			}
		}
	}
}
