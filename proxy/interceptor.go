package proxy

// What every call goes through before its RPC (GrpcMessagingApplication's
// pipeline), on every unary request, ReceiveMessage's request and every
// message of a Telemetry stream: ACL 2.0 (auth.go), then the client id. A
// refusal is the RPC's response message holding only its status, on a
// successful gRPC call (a Telemetry stream then ends): a call without
// x-mq-client-id gets Status(CLIENT_ID_REQUIRED, "client id cannot be
// empty"). The RPCs Java does not implement answer UNIMPLEMENTED with
// Java's text first.

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

const servicePrefix = "/apache.rocketmq.v2.MessagingService/"

// unimplemented are the RPCs Java's proxy leaves to the generated base.
var unimplemented = map[string]bool{"PullMessage": true, "UpdateOffset": true, "GetOffset": true, "QueryOffset": true}

// unimplementedError is grpc-java's answer to such an RPC.
func unimplementedError(name string) error {
	return grpcstatus.Error(codes.Unimplemented, "Method apache.rocketmq.v2.MessagingService/"+name+" is unimplemented")
}

// statusOnly builds an RPC's response holding only a status.
var statusOnly = map[string]func(*apiv2.Status) proto.Message{
	"QueryRoute":      func(s *apiv2.Status) proto.Message { return &apiv2.QueryRouteResponse{Status: s} },
	"Heartbeat":       func(s *apiv2.Status) proto.Message { return &apiv2.HeartbeatResponse{Status: s} },
	"SendMessage":     func(s *apiv2.Status) proto.Message { return &apiv2.SendMessageResponse{Status: s} },
	"QueryAssignment": func(s *apiv2.Status) proto.Message { return &apiv2.QueryAssignmentResponse{Status: s} },
	"AckMessage":      func(s *apiv2.Status) proto.Message { return &apiv2.AckMessageResponse{Status: s} },
	"ForwardMessageToDeadLetterQueue": func(s *apiv2.Status) proto.Message {
		return &apiv2.ForwardMessageToDeadLetterQueueResponse{Status: s}
	},
	"EndTransaction": func(s *apiv2.Status) proto.Message { return &apiv2.EndTransactionResponse{Status: s} },
	"NotifyClientTermination": func(s *apiv2.Status) proto.Message {
		return &apiv2.NotifyClientTerminationResponse{Status: s}
	},
	"ChangeInvisibleDuration": func(s *apiv2.Status) proto.Message {
		return &apiv2.ChangeInvisibleDurationResponse{Status: s}
	},
	"RecallMessage": func(s *apiv2.Status) proto.Message { return &apiv2.RecallMessageResponse{Status: s} },
}

// clientIDRequired is the status of a call without a client id.
func clientIDRequired() *apiv2.Status {
	return status(apiv2.Code_CLIENT_ID_REQUIRED, "client id cannot be empty")
}

// pipeline runs the checks; gate is nil without ACL 2.0.
type pipeline struct {
	gate *authGate
}

// check is the checks of one request message: nil when it passes.
func (p pipeline) check(ctx context.Context, req proto.Message) *apiv2.Status {
	if st := p.gate.check(ctx, req); st != nil {
		return st
	}
	if strings.TrimSpace(mdValue(ctx, mdClientID)) == "" {
		return clientIDRequired()
	}
	return nil
}

// unary checks a unary call.
func (p pipeline) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	name := strings.TrimPrefix(info.FullMethod, servicePrefix)
	if unimplemented[name] {
		return nil, unimplementedError(name)
	}
	if build, ok := statusOnly[name]; ok {
		if m, isMsg := req.(proto.Message); isMsg {
			if st := p.check(ctx, m); st != nil {
				return build(st), nil
			}
		}
	}
	return handler(ctx, req)
}

// errAnswered ends a stream whose refusal was sent: the call ends OK.
var errAnswered = errors.New("proxy: refused, the status answered")

// stream checks each message a streaming call receives (ReceiveMessage's
// request, Telemetry's commands).
func (p pipeline) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	name := strings.TrimPrefix(info.FullMethod, servicePrefix)
	if unimplemented[name] {
		return unimplementedError(name)
	}
	answer := func(st *apiv2.Status) any { return &apiv2.TelemetryCommand{Status: st} }
	if name == "ReceiveMessage" {
		answer = func(st *apiv2.Status) any {
			return &apiv2.ReceiveMessageResponse{Content: &apiv2.ReceiveMessageResponse_Status{Status: st}}
		}
	}
	err := handler(srv, &checkedStream{ServerStream: ss, p: p, answer: answer})
	if errors.Is(err, errAnswered) {
		return nil
	}
	return err
}

// checkedStream runs the checks on each message received.
type checkedStream struct {
	grpc.ServerStream
	p      pipeline
	answer func(*apiv2.Status) any
}

func (s *checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	if msg, ok := m.(proto.Message); ok {
		if st := s.p.check(s.Context(), msg); st != nil {
			if err := s.ServerStream.SendMsg(s.answer(st)); err != nil {
				return err
			}
			return errAnswered
		}
	}
	return nil
}
