package proxy

// A request's context: who the client is, from the x-mq-* metadata its
// SDK sends with every call (ContextInitPipeline), and where it came from.

import (
	"context"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

// The metadata keys (GrpcConstants).
const (
	mdClientID      = "x-mq-client-id"
	mdLanguage      = "x-mq-language"
	mdClientVersion = "x-mq-client-version"
	mdNamespace     = "x-mq-namespace"
)

// clientInfo is what a request says of its client.
type clientInfo struct {
	id, language, version, namespace string
	remote                           string // host:port of the connection
}

// clientOf reads the request's metadata.
func clientOf(ctx context.Context) clientInfo {
	c := clientInfo{id: mdValue(ctx, mdClientID), language: mdValue(ctx, mdLanguage),
		version: mdValue(ctx, mdClientVersion), namespace: mdValue(ctx, mdNamespace)}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		c.remote = p.Addr.String()
	}
	return c
}

// mdValue is the first value of the request's metadata key k ("" when it
// has none). It looks the key up where metadata.FromIncomingContext would
// copy the whole metadata for each question.
func mdValue(ctx context.Context, k string) string {
	if v := metadata.ValueFromIncomingContext(ctx, k); len(v) > 0 {
		return v[0]
	}
	return ""
}
