package namesrv

import (
	"fmt"
	"strconv"

	"github.com/rmqgo/rmqgo/remoting"
)

// header reads a request's custom header fields as Java's
// decodeCommandCustomHeader fills a header class. The first required field
// that is missing or does not parse is remembered; reject then answers
// SYSTEM_ERROR. (Java only logs such a field and leaves it null, which
// then fails with a NullPointerException: also a SYSTEM_ERROR.)
type header struct {
	cmd     *remoting.Command
	problem string
}

func readHeader(cmd *remoting.Command) *header { return &header{cmd: cmd} }

// str returns a required string field.
func (h *header) str(key string) string {
	v, ok := h.cmd.Ext(key)
	if !ok && h.problem == "" {
		h.problem = fmt.Sprintf("the custom field <%s> is null", key)
	}
	return v
}

// long returns a required Long field.
func (h *header) long(key string) int64 {
	v, ok := h.cmd.Ext(key)
	if !ok {
		if h.problem == "" {
			h.problem = fmt.Sprintf("the custom field <%s> is null", key)
		}
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil && h.problem == "" {
		h.problem = fmt.Sprintf("the custom field <%s> is not a long: %q", key, v)
	}
	return n
}

// optLong returns an optional Long field; ok is false when absent or bad.
func (h *header) optLong(key string) (int64, bool) {
	v, present := h.cmd.Ext(key)
	if !present {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// optBool returns an optional Boolean field (Boolean.parseBoolean); nil
// when absent.
func (h *header) optBool(key string) *bool {
	if _, present := h.cmd.Ext(key); !present {
		return nil
	}
	b := h.cmd.ExtBool(key)
	return &b
}

// reject returns the SYSTEM_ERROR response for a bad header, or nil.
func (h *header) reject() *remoting.Command {
	if h.problem == "" {
		return nil
	}
	return remoting.NewResponse(h.cmd, remoting.SystemError, h.problem)
}

// success returns an empty SUCCESS response to req.
func success(req *remoting.Command) *remoting.Command {
	return remoting.NewResponse(req, remoting.Success, "")
}

// systemError returns a SYSTEM_ERROR response with remark.
func systemError(req *remoting.Command, remark string) *remoting.Command {
	return remoting.NewResponse(req, remoting.SystemError, remark)
}
