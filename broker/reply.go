package broker

// Replies: every handler starts its response here, so each one carries the
// broker's version, and the few ways Java answers a bad request are
// written once.

import (
	"strconv"

	"github.com/rmqgo/rmqgo/remoting"
)

// replier starts responses stamped with the broker's version. Handler
// families embed it.
type replier struct {
	version int32
}

// reply is a response with code and remark.
func (r replier) reply(req *remoting.Command, code remoting.ResponseCode, remark string) *remoting.Command {
	resp := remoting.NewResponse(req, code, remark)
	resp.Version = r.version
	return resp
}

// replyOK is SUCCESS without a body.
func (r replier) replyOK(req *remoting.Command) *remoting.Command {
	return r.reply(req, remoting.Success, "")
}

// replyBody is SUCCESS with body.
func (r replier) replyBody(req *remoting.Command, body []byte) *remoting.Command {
	resp := r.replyOK(req)
	resp.Body = body
	return resp
}

// replyFailure answers f.
func (r replier) replyFailure(req *remoting.Command, f *failure) *remoting.Command {
	return r.reply(req, f.code, f.remark)
}

// replyHeaderError answers a header Java's decodeCommandCustomHeader
// refuses: SYSTEM_ERROR with the reason.
func (r replier) replyHeaderError(req *remoting.Command, err error) *remoting.Command {
	return r.reply(req, remoting.SystemError, err.Error())
}

// requireFields checks the header fields Java marks @CFNotNull: the
// answer for the first one missing (SYSTEM_ERROR, the text of Java's
// RemotingCommandException), nil when all are there.
func (r replier) requireFields(req *remoting.Command, keys ...string) *remoting.Command {
	for _, k := range keys {
		if _, ok := req.Ext(k); !ok {
			return r.reply(req, remoting.SystemError, "the custom field <"+k+"> is null")
		}
	}
	return nil
}

// failure is a response code with its remark: why a request was refused.
type failure struct {
	code   remoting.ResponseCode
	remark string
}

// fail sets f on a response already started (one that carries extra
// fields whatever the outcome, as a send's does).
func fail(resp *remoting.Command, f *failure) *remoting.Command {
	resp.Code = int32(f.code)
	resp.SetRemark(f.remark)
	return resp
}

// itoa formats a number for a header field.
func itoa[T int32 | int64 | int](v T) string { return strconv.FormatInt(int64(v), 10) }
