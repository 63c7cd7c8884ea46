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
	md, _ := metadata.FromIncomingContext(ctx)
	get := func(k string) string {
		if v := md.Get(k); len(v) > 0 {
			return v[0]
		}
		return ""
	}
	c := clientInfo{id: get(mdClientID), language: get(mdLanguage), version: get(mdClientVersion), namespace: get(mdNamespace)}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		c.remote = p.Addr.String()
	}
	return c
}
