package broker

// QUERY_MESSAGE (12): QueryMessageProcessor.queryMessage, messages by key;
// VIEW_MESSAGE_BY_ID (33), header offset: the record at a commitlog offset.
//
// Header: topic, key, maxNum, beginTimestamp, endTimestamp; the extra
// field _UNIQUE_KEY_QUERY=true (a lookup by message id) asks for
// defaultQueryMaxNum results. Response header: indexLastUpdateTimestamp,
// indexLastUpdatePhyoffset. SUCCESS carries the whole records as the body
// (sent from the mapped commitlog); nothing found is QUERY_NOT_FOUND "can
// not find message, maybe time range not correct". The client compares the
// keys (the index may return records whose key hash collides).

import (
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// uniqueKeyQueryFlag is MixAll.UNIQUE_MSG_QUERY_FLAG.
const uniqueKeyQueryFlag = "_UNIQUE_KEY_QUERY"

// queryStore is what message lookups need of the store.
type queryStore interface {
	QueryMessages(topic, key string, maxNum int, begin, end int64) *store.QueryResult
	ReadRecord(offset int64) (data []byte, release func(), ok bool)
}

// queryService finds messages by key and by offset.
type queryService struct {
	replier
	log      *zap.Logger
	settings *liveSettings
	store    queryStore
}

// queryMessage serves QUERY_MESSAGE.
func (s *queryService) queryMessage(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	maxNum, err := cmd.ExtInt32("maxNum")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	begin, err := cmd.ExtInt64("beginTimestamp")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	end, err := cmd.ExtInt64("endTimestamp")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	if cmd.ExtString(uniqueKeyQueryFlag) == "true" {
		maxNum = s.settings.load().Store.DefaultQueryMaxNum
	}
	res := s.store.QueryMessages(cmd.ExtString("topic"), cmd.ExtString("key"), int(maxNum), begin, end)
	resp := s.replyOK(cmd)
	resp.SetExt("indexLastUpdateTimestamp", itoa(res.IndexLastUpdateTimestamp))
	resp.SetExt("indexLastUpdatePhyoffset", itoa(res.IndexLastUpdatePhyOffset))
	if len(res.Messages) == 0 {
		res.Release()
		resp.Code = int32(remoting.QueryNotFound)
		resp.SetRemark("can not find message, maybe time range not correct")
		return resp
	}
	sendRecords(s.log, req, resp, &res.GetResult)
	return nil
}

// viewMessageByID serves VIEW_MESSAGE_BY_ID: the record at a commitlog
// offset.
func (s *queryService) viewMessageByID(req *remoting.Request) *remoting.Command {
	off, err := req.Cmd.ExtInt64("offset")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	data, release, ok := s.store.ReadRecord(off)
	if !ok {
		return s.reply(req.Cmd, remoting.SystemError, "can not find message by the offset, "+itoa(off))
	}
	defer release()
	return s.replyBody(req.Cmd, append([]byte(nil), data...))
}
