// Package goclient proves that Go services built on the Apache RocketMQ Go
// client (github.com/apache/rocketmq-client-go/v2, its release v2.1.2 and its
// master) work against a name server and broker: sends of every kind, push
// consumers (concurrent, orderly, clustering, broadcasting), tag and SQL92
// filters, delay levels, retries to the dead letter queue, transactions with
// their check-back, lite pull, the admin topic calls, and one process that
// runs many producer and consumer groups at once.
//
// The tests talk to the servers only through the Go client. They read
// NAMESRV_ADDR and BROKER_ADDR from the environment (compat/ref-servers.sh
// writes them to $RUN_DIR/env.sh) and skip when NAMESRV_ADDR is unset; run.sh
// runs them against both client versions. See README.md.
package goclient
