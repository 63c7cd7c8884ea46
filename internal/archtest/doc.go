// Package archtest holds the test that keeps the import direction of
// ARCHITECTURE.md: cmd -> broker -> store, broker -> remoting,
// namesrv -> remoting, and conf, store and remoting importing no other
// package of this project except small internal helpers.
package archtest
