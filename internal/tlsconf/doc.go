// Package tlsconf builds the crypto/tls configs of the servers and of the
// broker's outbound connections from Java's TlsSystemConfig keys
// (conf.TLSConfig), as TlsHelper.buildSslContext builds its SslContexts.
//
// Server (buildSslContext(false)):
//
//   - tls.test.mode.enable=true (the default): a self-signed certificate
//     generated on the first TLS handshake (Java makes it at start;
//     Netty's SelfSignedCertificate: RSA 2048,
//     CN=localhost), whatever certificate is configured; client
//     certificates are optional and verified against the system's roots
//     when given (Netty's ClientAuth.OPTIONAL with the JDK's trust).
//   - otherwise tls.server.certPath and tls.server.keyPath (PEM; the key
//     PKCS#8 as Netty wants it, or PKCS#1/SEC1, which Go also reads);
//     tls.server.need.client.auth none/optional/require (any case, anything
//     else none); with tls.server.authClient=true client certificates are
//     verified against tls.server.trustCertPath (the system's roots when
//     empty), otherwise any is accepted, as InsecureTrustManagerFactory.
//
// Client (buildSslContext(true)): in test mode, or without
// tls.client.authServer, any server certificate is trusted; with it, the
// chain is verified against tls.client.trustCertPath (the system's roots
// when empty) but, as Netty's handler made without a peer host, not the
// host name. tls.client.certPath and tls.client.keyPath, outside test
// mode, give the certificate sent when a server asks for one.
//
// Differences: encrypted keys (tls.server.keyPassword,
// tls.client.keyPassword) are not supported, since Go's standard library
// does not decrypt PKCS#8; such a key is an error. Java registers a
// DecryptionStrategy hook for its own key formats; there is none here.
//
// The files:
//
//	tlsconf.go  Mode, Server and Client: the crypto/tls configs from the keys
//	load.go     ForServer and ForClient: what the servers' mains call
//	reload.go   new configs when the certificate, key or trust files change
package tlsconf
