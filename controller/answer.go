package controller

// What the request handlers share: reading a header as Java's reflective
// decoder fills one, and the answer a state-machine request computes
// before its events commit (docs/reference/controller.md §3.3).

import (
	"strconv"

	"github.com/rmqgo/rmqgo/remoting"
)

// answer is a request's result: the response's code, remark, header
// fields (in the order given) and body, and the events to commit first.
type answer struct {
	code   remoting.ResponseCode
	remark string
	header []field
	body   []byte
	events []event
}

type field struct{ key, value string }

func fail(code remoting.ResponseCode, remark string) answer {
	return answer{code: code, remark: remark}
}

func (a *answer) set(key, value string) { a.header = append(a.header, field{key, value}) }

func (a *answer) setLong(key string, n int64) { a.set(key, strconv.FormatInt(n, 10)) }

// response turns the answer into the response to req.
func (a answer) response(req *remoting.Command) *remoting.Command {
	resp := remoting.NewResponse(req, a.code, a.remark)
	for _, f := range a.header {
		resp.SetExt(f.key, f.value)
	}
	resp.Body = a.body
	return resp
}

// header reads request fields. Java's decoder only logs a missing or
// unparsable field and leaves the header class's initializer in place, so
// every reader here takes that initializer as its default.
type header struct{ cmd *remoting.Command }

func (h header) str(key, def string) string {
	if v, ok := h.cmd.Ext(key); ok {
		return v
	}
	return def
}

func (h header) long(key string, def int64) int64 {
	if v, ok := h.cmd.Ext(key); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	}
	return def
}

func (h header) int(key string, def int32) int32 {
	if v, ok := h.cmd.Ext(key); ok {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			return int32(n)
		}
	}
	return def
}

// bool is Boolean.parseBoolean: "true" in any case is true.
func (h header) bool(key string, def bool) bool {
	if v, ok := h.cmd.Ext(key); ok {
		return len(v) == 4 && (v[0]|0x20) == 't' && (v[1]|0x20) == 'r' && (v[2]|0x20) == 'u' && (v[3]|0x20) == 'e'
	}
	return def
}

// nullable prints an id as Java prints a Long that may be null.
func nullable(id int64) string {
	if id == 0 {
		return "null"
	}
	return strconv.FormatInt(id, 10)
}
