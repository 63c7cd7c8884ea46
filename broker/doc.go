// Package broker will hold the broker's request handlers, grouped by
// concern (send, pull, heartbeat, offsets, transactions, admin), and its
// background services. It is built on store and remoting; see the open
// issues for where it stands.
package broker
