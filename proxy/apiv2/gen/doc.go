// Command gen generates package apiv2 (the gRPC API of RocketMQ 5's
// clients, apache/rocketmq-apis v2.0.4) without protoc: gen.sh dumps the
// FileDescriptorSet the rocketmq-proto 2.0.4 jar on Maven Central carries,
// and this program hands it to protoc-gen-go and protoc-gen-go-grpc, as
// protoc would, and writes what they generate into the package.
//
// Usage: go run ./proxy/apiv2/gen <descriptors.binpb> <out dir>
//
// The files:
//
//	main.go  the descriptors handed to the plugins, their files written
package main
