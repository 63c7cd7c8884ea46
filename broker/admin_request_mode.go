package broker

// GET_ALL_MESSAGE_REQUEST_MODE (402, 5.x): the message request modes
// (MessageRequestModeManager, set with SET_MESSAGE_REQUEST_MODE 401 for
// 5.x POP consumers), which a 5.x slave copies from its master
// (SlaveSynchronize.syncMessageRequestMode). Body:
//
//	{"messageRequestModeMap":{}}
//
// Difference from Java: this broker keeps no request modes (401 is not
// served), so the table is always empty; a Java slave of this master
// copies the empty table instead of logging a failed sync every minute.

import "github.com/rmqgo/rmqgo/remoting"

// emptyRequestModes is MessageRequestModeSerializeWrapper with no modes.
const emptyRequestModes = `{"messageRequestModeMap":{}}`

// requestModes serves the request-mode codes.
type requestModes struct {
	replier
}

// getAllMessageRequestMode serves GET_ALL_MESSAGE_REQUEST_MODE.
func (m *requestModes) getAllMessageRequestMode(req *remoting.Request) *remoting.Command {
	return m.replyBody(req.Cmd, []byte(emptyRequestModes))
}
