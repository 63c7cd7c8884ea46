// Package gov5 proves that Go services built on the RocketMQ 5 Go client
// (github.com/apache/rocketmq-clients/golang/v5, v5.1.3), which speaks gRPC
// to a proxy, work against the proxy inside broker-a (ref-servers.sh
// PROXY=1, `mqbroker --enable-proxy`, local mode): sync and async sends, the
// SimpleConsumer (receive, ack, change invisible duration), the
// PushConsumer (retries with the delivery attempt), FIFO message groups,
// delivery timestamps, transactions with their check-back, tag and SQL92
// filters, and the answer to a send to a missing topic.
//
// The tests talk to the servers through the Go v5 client only, but for the
// set-up an operator makes with mqadmin: topics with their message.type
// attribute and consumer groups are created on BROKER_ADDR with remoting
// requests (UPDATE_AND_CREATE_TOPIC, UPDATE_AND_CREATE_SUBSCRIPTIONGROUP),
// and the transaction test reads the topic's queue offsets. They read
// PROXY_ADDR, NAMESRV_ADDR and BROKER_ADDR from the environment
// (compat/ref-servers.sh writes them to $RUN_DIR/env.sh) and skip when
// PROXY_ADDR is unset. See README.md.
package gov5
