// Package archtest holds the tests that keep the shape docs/architecture.md
// draws. It has no code of its own.
//
//	imports_test.go        the import direction: cmd -> broker -> store,
//	                       broker -> remoting, namesrv -> remoting, and conf,
//	                       store and remoting importing no other package of
//	                       this project except small internal helpers
//	broker_shape_test.go   inside broker/: services built by broker/wire.go with
//	                       the few things they use, nothing pointing back at
//	                       Broker
package archtest
