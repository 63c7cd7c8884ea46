#!/bin/sh
# Regenerates package apiv2 (proxy/apiv2/*.pb.go) from rocketmq-proto 2.0.4,
# the apache/rocketmq-apis v2.0.4 build the 5.3.3 proxy pins, taken from
# Maven Central by name: its jar has no .proto files, so Descriptors.java
# dumps the descriptors its classes carry (descriptors/rocketmq-proto-2.0.4.binpb,
# committed with the generated code), and main.go hands them to the pinned
# protoc-gen-go and protoc-gen-go-grpc. Needs Java 17, Maven and Go; run
# from anywhere (make proto).
set -eu
cd "$(dirname "$0")"
mvn -q -B -Dstyle.color=never compile dependency:build-classpath -Dmdep.outputFile="$PWD/target/classpath.txt"
java -cp "target/classes:$(cat target/classpath.txt)" org.rmqgo.protogen.Descriptors descriptors/rocketmq-proto-2.0.4.binpb
cd ../../..
go run ./proxy/apiv2/gen proxy/apiv2/gen/descriptors/rocketmq-proto-2.0.4.binpb proxy/apiv2
