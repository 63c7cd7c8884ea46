package main

// rmqbench null-broker: a server that answers what rmqbench produce sends
// (GET_ROUTEINFO_BY_TOPIC 105, HEART_BEAT 34, SEND_MESSAGE 10 and
// SEND_MESSAGE_V2 310) through this project's remoting package, as the
// broker does, but stores nothing: every send is answered SUCCESS with a
// made-up id and offset. Under the same load, its CPU per message is the
// floor the remoting path (the kernel's reads and writes, the event loop,
// frame coding, the hand-off to a pool) sets for any broker built on it;
// docs/cpu.md compares it with the broker's and Java's.
//
// The route it gives names one broker, "null", with 4 queues, at its own
// address, for every topic; point produce's -n at it.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// nullMsgID is the id every stored-nothing send is answered with.
const nullMsgID = "7F00000100002A9F0000000000000000"

// nullBroker answers sends without storing them.
type nullBroker struct {
	route  atomic.Pointer[[]byte] // the route body, naming the bound address
	offset atomic.Int64
}

// startNullBroker listens on addr (port 0 picks one). Sends are handled by
// a pool of workers, as the broker's send pool does, or, with inline, on
// the event loop that decoded them (the way the router answers codes it
// does not know).
func startNullBroker(addr string, workers int, inline bool) (*remoting.Server, error) {
	nb := &nullBroker{}
	r := remoting.NewRouter(nil)
	pool := r.NewPool(remoting.PoolOptions{Name: "send", Workers: workers, Queue: 10000})
	r.Handle(remoting.GetRouteinfoByTopic, pool, nb.answerRoute)
	r.Handle(remoting.HeartBeat, pool, answerSuccess)
	if inline {
		r.SetFallback(nb.answerSend)
	} else {
		r.Handle(remoting.SendMessage, pool, nb.answerSend)
		r.Handle(remoting.SendMessageV2, pool, nb.answerSend)
	}
	s := remoting.NewServer(remoting.ServerOptions{Addr: addr, Router: r})
	if err := s.Start(); err != nil {
		return nil, err
	}
	route := nullRoute(s.Addr()).AppendJSON(nil, fastjson.Fastjson)
	nb.route.Store(&route)
	return s, nil
}

// nullRoute is the route the null broker gives for every topic: itself, as
// broker "null" of cluster "null", with 4 read and write queues.
func nullRoute(addr string) *protocol.TopicRouteData {
	return &protocol.TopicRouteData{
		BrokerDatas: []protocol.BrokerData{{Cluster: "null", BrokerName: "null",
			BrokerAddrs: protocol.BrokerAddrs{{ID: 0, Addr: addr}}}},
		QueueDatas: []protocol.QueueData{{BrokerName: "null", ReadQueueNums: 4, WriteQueueNums: 4,
			Perm: protocol.PermRead | protocol.PermWrite}},
	}
}

func (nb *nullBroker) answerRoute(req *remoting.Request) *remoting.Command {
	resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
	resp.Body = *nb.route.Load()
	return resp
}

func (nb *nullBroker) answerSend(req *remoting.Request) *remoting.Command {
	resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
	resp.SetExt("msgId", nullMsgID)
	resp.SetExt("queueId", "0")
	resp.SetExt("queueOffset", strconv.FormatInt(nb.offset.Add(1), 10))
	return resp
}

func answerSuccess(req *remoting.Request) *remoting.Command {
	return remoting.NewResponse(req.Cmd, remoting.Success, "")
}

func runNullBroker(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("null-broker", stderr)
	addr := fs.String("addr", "127.0.0.1:10911", "listen address")
	workers := fs.Int("workers", 1, "send workers (the broker's sendMessageThreadPoolNums)")
	inline := fs.Bool("inline", false, "answer sends on the event loop instead of a pool")
	if !parseChecked(fs, args, stderr, nil) {
		return 2
	}
	s, err := startNullBroker(*addr, *workers, *inline)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench null-broker:", err)
		return 1
	}
	fmt.Fprintf(stdout, "null-broker: listening on %s, pid %d\n", s.Addr(), os.Getpid())
	<-ctx.Done()
	_ = s.Shutdown()
	return 0
}
