// Package storeconf turns the broker.conf store keys (conf's
// MessageStoreConfig) into the store's plain Options, and refuses the Java
// store modes this project does not implement. The broker and the store
// inspection command share it.
//
// The files:
//
//	storeconf.go  the store Options from conf.MessageStoreConfig, and the refusals
package storeconf
