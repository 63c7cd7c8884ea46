package proxy

// What a broker asks a gRPC client, relayed on the client's Telemetry
// stream (GrpcClientChannel, ClientActivity.report*, docs/reference/
// proxy.md §6.6), answered to the broker as the response to its request:
//
//	GET_CONSUMER_RUNNING_INFO (307), jstackEnable=true
//	    -> print_thread_stack_trace_command{nonce}
//	    <- {status, thread_stack_trace{nonce, thread_stack_trace}}
//	    => OK: SUCCESS, body ConsumerRunningInfo with only jstack set;
//	       VERIFY_FIFO_MESSAGE_UNSUPPORTED: NO_PERMISSION "forbidden to
//	       verify message"; else SYSTEM_ERROR "verify message failed"
//	GET_CONSUMER_RUNNING_INFO, jstackEnable=false: no answer at all
//	CONSUME_MESSAGE_DIRECTLY (309), body: the message
//	    -> verify_message_command{nonce, message}
//	    <- {status, verify_message_result{nonce}}
//	    => SUCCESS, body ConsumeMessageDirectlyResult: consumeResult
//	       CR_SUCCESS (OK), CR_LATER (FAILED_TO_CONSUME_MESSAGE),
//	       CR_RETURN_NULL (MESSAGE_CORRUPTED), none otherwise; remark
//	       "from gRPC client"
//
// Nonces count from "0" per proxy. A question the client leaves
// unanswered for grpcProxyRelayRequestTimeoutInSeconds (5 s), or that
// finds no stream to go on, is answered SYSTEM_BUSY "call remote timeout".
// The broker asks on the client's own connection (registration.go), so
// only local mode with the broker in process relays these; a cluster-mode
// proxy relays CHECK_TRANSACTION_STATE only, as Java's.

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// relayTable holds the questions waiting for a client's answer, by nonce.
type relayTable struct {
	mu   sync.Mutex
	next uint64
	m    map[string]chan *apiv2.TelemetryCommand
}

// add registers a question and returns its nonce and where its answer
// comes.
func (t *relayTable) add() (string, chan *apiv2.TelemetryCommand) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]chan *apiv2.TelemetryCommand{}
	}
	nonce := strconv.FormatUint(t.next, 10)
	t.next++
	ch := make(chan *apiv2.TelemetryCommand, 1)
	t.m[nonce] = ch
	return nonce, ch
}

// answer hands a client's answer to its question; false when none waits.
func (t *relayTable) answer(nonce string, cmd *apiv2.TelemetryCommand) bool {
	t.mu.Lock()
	ch, ok := t.m[nonce]
	delete(t.m, nonce)
	t.mu.Unlock()
	if ok {
		ch <- cmd
	}
	return ok
}

// drop forgets a question that timed out.
func (t *relayTable) drop(nonce string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, nonce)
}

// takeAnswer serves a client's ThreadStackTrace or VerifyMessageResult
// (false for another command).
func (m *messaging) takeAnswer(cmd *apiv2.TelemetryCommand) bool {
	switch {
	case cmd.GetThreadStackTrace() != nil:
		m.relays.answer(cmd.GetThreadStackTrace().GetNonce(), cmd)
	case cmd.GetVerifyMessageResult() != nil:
		m.relays.answer(cmd.GetVerifyMessageResult().GetNonce(), cmd)
	default:
		return false
	}
	return true
}

// relay sends the client of req's connection the command made with a new
// nonce and answers req, later, with what answer makes of the client's
// answer, or SYSTEM_BUSY "call remote timeout".
func (m *messaging) relay(req *remoting.Request, command func(nonce string) *apiv2.TelemetryCommand,
	answer func(*apiv2.TelemetryCommand) *remoting.Command) {
	nonce, answered := m.relays.add()
	if cs := m.streams.get(clientOfChannel(req.Ch)); cs != nil {
		if err := cs.send(command(nonce)); err != nil {
			m.log.Warn("relay to the client failed", zap.Int32("code", req.Cmd.Code), zap.Error(err))
		}
	}
	timeout := time.Duration(m.cfg.GrpcProxyRelayRequestTimeoutInSeconds) * time.Second
	go func() {
		t := time.NewTimer(timeout)
		defer t.Stop()
		var resp *remoting.Command
		select {
		case cmd := <-answered:
			resp = answer(cmd)
		case <-t.C:
			m.relays.drop(nonce)
			resp = remoting.NewResponse(req.Cmd, remoting.SystemBusy, "call remote timeout")
		case <-m.stop:
			return
		}
		resp.Opaque, resp.Flag = req.Cmd.Opaque, resp.Flag|remoting.FlagResponse
		if err := req.Ch.Send(resp); err != nil {
			m.log.Debug("relayed answer not sent", zap.Error(err))
		}
	}()
}

// consumerRunningInfo relays GET_CONSUMER_RUNNING_INFO with jstackEnable;
// without it Java's proxy answers nothing.
func (m *messaging) consumerRunningInfo(req *remoting.Request) *remoting.Command {
	if !req.Cmd.ExtBool("jstackEnable") {
		return nil
	}
	m.relay(req, func(nonce string) *apiv2.TelemetryCommand {
		return &apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_PrintThreadStackTraceCommand{
			PrintThreadStackTraceCommand: &apiv2.PrintThreadStackTraceCommand{Nonce: nonce}}}
	}, func(cmd *apiv2.TelemetryCommand) *remoting.Command {
		switch cmd.GetStatus().GetCode() {
		case apiv2.Code_OK:
			resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
			resp.Body = runningInfoWithJstack(cmd.GetThreadStackTrace().GetThreadStackTrace())
			return resp
		case apiv2.Code_VERIFY_FIFO_MESSAGE_UNSUPPORTED:
			return remoting.NewResponse(req.Cmd, remoting.NoPermission, "forbidden to verify message")
		default:
			return remoting.NewResponse(req.Cmd, remoting.SystemError, "verify message failed")
		}
	})
	return nil
}

// consumeMessageDirectly relays CONSUME_MESSAGE_DIRECTLY.
func (m *messaging) consumeMessageDirectly(req *remoting.Request) *remoting.Command {
	rec, err := store.DecodeRecord(req.Cmd.Body)
	if err != nil {
		return remoting.NewResponse(req.Cmd, remoting.SystemError, "the message is not readable: "+err.Error())
	}
	msg := toMessage(&rec, store.ParseProperties(string(rec.Properties)))
	m.relay(req, func(nonce string) *apiv2.TelemetryCommand {
		return &apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_VerifyMessageCommand{
			VerifyMessageCommand: &apiv2.VerifyMessageCommand{Nonce: nonce, Message: msg}}}
	}, func(cmd *apiv2.TelemetryCommand) *remoting.Command {
		resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
		resp.Body = consumeDirectlyResult(cmd.GetStatus().GetCode())
		return resp
	})
	return nil
}

// runningInfoWithJstack is a new ConsumerRunningInfo with only jstack set,
// as fastjson writes it.
func runningInfoWithJstack(jstack string) []byte {
	quoted, _ := json.Marshal(jstack)
	b := append([]byte(`{"jstack":`), quoted...)
	return append(b, `,"mqPopTable":{},"mqTable":{},"properties":{},"statusTable":{},"subscriptionSet":[],"userConsumerInfo":{}}`...)
}

// consumeDirectlyResult is buildConsumeMessageDirectlyResult's
// ConsumeMessageDirectlyResult, as fastjson writes it (a null
// consumeResult left out).
func consumeDirectlyResult(code apiv2.Code) []byte {
	result := map[apiv2.Code]string{apiv2.Code_OK: "CR_SUCCESS", apiv2.Code_FAILED_TO_CONSUME_MESSAGE: "CR_LATER",
		apiv2.Code_MESSAGE_CORRUPTED: "CR_RETURN_NULL"}[code]
	b := []byte(`{"autoCommit":true,`)
	if result != "" {
		b = append(b, `"consumeResult":"`+result+`",`...)
	}
	return append(b, `"order":false,"remark":"from gRPC client","spentTimeMills":0}`...)
}
