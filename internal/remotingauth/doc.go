// Package remotingauth is what a remoting request asks ACL 2.0's
// authorization for: 5.3.3's DefaultAuthorizationContextBuilder for the
// remoting protocol, shared by the broker's port (broker/auth.go) and the
// proxy's remoting port (proxy/remoting_auth.go). The decisions are
// internal/auth's.
//
//	contexts.go   Contexts: the codes' switch and the annotated request headers
package remotingauth
