package broker

// QUERY_MESSAGE (12): QueryMessageProcessor.queryMessage, messages by key.
//
// Header: topic, key, maxNum, beginTimestamp, endTimestamp; the extra
// field _UNIQUE_KEY_QUERY=true (a lookup by message id) asks for
// defaultQueryMaxNum results. Response header: indexLastUpdateTimestamp,
// indexLastUpdatePhyoffset. SUCCESS carries the whole records as the body
// (sent from the mapped commitlog); nothing found is QUERY_NOT_FOUND "can
// not find message, maybe time range not correct". The client compares the
// keys (the index may return records whose key hash collides).

import (
	"github.com/rmqgo/rmqgo/remoting"
)

// uniqueKeyQueryFlag is MixAll.UNIQUE_MSG_QUERY_FLAG.
const uniqueKeyQueryFlag = "_UNIQUE_KEY_QUERY"

// queryHandlers are the codes of the query pool.
func (b *Broker) queryHandlers() map[remoting.RequestCode]remoting.Handler {
	return map[remoting.RequestCode]remoting.Handler{
		remoting.QueryMessage:    b.queryMessage,
		remoting.ViewMessageById: b.viewMessageByID,
	}
}

// queryMessage serves QUERY_MESSAGE.
func (b *Broker) queryMessage(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	maxNum, err := cmd.ExtInt32("maxNum")
	if err != nil {
		return b.headerError(req, err)
	}
	begin, err := cmd.ExtInt64("beginTimestamp")
	if err != nil {
		return b.headerError(req, err)
	}
	end, err := cmd.ExtInt64("endTimestamp")
	if err != nil {
		return b.headerError(req, err)
	}
	if cmd.ExtString(uniqueKeyQueryFlag) == "true" {
		maxNum = b.opts.Configs.Store.DefaultQueryMaxNum
	}
	res := b.store.QueryMessages(cmd.ExtString("topic"), cmd.ExtString("key"), int(maxNum), begin, end)
	resp := b.response(cmd, remoting.Success, "")
	resp.SetExt("indexLastUpdateTimestamp", itoa(res.IndexLastUpdateTimestamp))
	resp.SetExt("indexLastUpdatePhyoffset", itoa(res.IndexLastUpdatePhyOffset))
	if len(res.Messages) == 0 {
		res.Release()
		resp.Code = int32(remoting.QueryNotFound)
		resp.SetRemark("can not find message, maybe time range not correct")
		return resp
	}
	b.sendPullBody(req, resp, &res.GetResult)
	return nil
}
