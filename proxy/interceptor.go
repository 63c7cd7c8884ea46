package proxy

// What every call goes through before its RPC (GrpcMessagingApplication's
// pipeline): a call without x-mq-client-id is answered with its response
// message holding only Status(CLIENT_ID_REQUIRED, "client id cannot be
// empty"), on a successful gRPC call; the RPCs Java does not implement
// answer UNIMPLEMENTED with Java's text first.

import (
	"context"
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

// unaryPipeline checks a unary call.
func unaryPipeline(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	name := strings.TrimPrefix(info.FullMethod, servicePrefix)
	if unimplemented[name] {
		return nil, unimplementedError(name)
	}
	if strings.TrimSpace(clientOf(ctx).id) == "" {
		if build, ok := statusOnly[name]; ok {
			return build(clientIDRequired()), nil
		}
	}
	return handler(ctx, req)
}

// streamPipeline checks a streaming call (ReceiveMessage, Telemetry).
func streamPipeline(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	name := strings.TrimPrefix(info.FullMethod, servicePrefix)
	if unimplemented[name] {
		return unimplementedError(name)
	}
	if strings.TrimSpace(clientOf(ss.Context()).id) == "" {
		switch name {
		case "ReceiveMessage":
			return ss.SendMsg(&apiv2.ReceiveMessageResponse{Content: &apiv2.ReceiveMessageResponse_Status{Status: clientIDRequired()}})
		case "Telemetry":
			return ss.SendMsg(&apiv2.TelemetryCommand{Status: clientIDRequired()})
		}
	}
	return handler(srv, ss)
}
