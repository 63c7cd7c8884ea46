package remoting

// TLS modes of a server, as Java's TlsMode, and the self-signed
// certificate Java's test mode (tls.test.mode.enable) serves with.
// server_tls.go says how a TLS connection is served; internal/tlsconf
// builds the crypto/tls configs from Java's TlsSystemConfig keys;
// docs/tls.md is the operator's view.

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"time"
)

// TLSMode is what a server does with TLS and plaintext connections, as
// Java's TlsMode (tls.server.mode).
type TLSMode int

// The modes. The zero value is TLSDisabled, so that a server built
// without TLS settings serves plaintext only; Java's default,
// permissive, is conf.LoadTLS's.
const (
	// TLSDisabled serves plaintext; a connection that opens with a TLS
	// handshake is closed.
	TLSDisabled TLSMode = iota
	// TLSPermissive serves TLS and plaintext connections on one port.
	TLSPermissive
	// TLSEnforcing serves TLS; a plaintext connection is closed.
	TLSEnforcing
)

// String returns Java's name of the mode.
func (m TLSMode) String() string {
	switch m {
	case TLSDisabled:
		return "disabled"
	case TLSPermissive:
		return "permissive"
	case TLSEnforcing:
		return "enforcing"
	}
	return fmt.Sprintf("TLSMode(%d)", int(m))
}

// ParseTLSMode reads a mode as TlsMode.parse does: the exact lower-case
// name, anything else permissive.
func ParseTLSMode(s string) TLSMode {
	switch s {
	case "disabled":
		return TLSDisabled
	case "enforcing":
		return TLSEnforcing
	}
	return TLSPermissive
}

// tlsHandshakeByte is the first byte of a TLS record carrying a handshake
// (content type 22): what Java's HandshakeHandler looks for.
const tlsHandshakeByte = 0x16

// selfSignedValidity is how long a generated certificate is valid: Netty's
// SelfSignedCertificate is valid from a year ago to the end of 9999; a
// hundred years from a year ago serves the same purpose.
const selfSignedValidity = 100 * 365 * 24 * time.Hour

// SelfSignedCertificate generates what Netty's SelfSignedCertificate
// holds: an RSA 2048 key and a certificate for CN=localhost signed by
// itself, valid from a year ago.
func SelfSignedCertificate() (tls.Certificate, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("remoting: self-signed key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("remoting: self-signed serial: %w", err)
	}
	notBefore := time.Now().Add(-365 * 24 * time.Hour)
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		NotBefore:    notBefore,
		NotAfter:     notBefore.Add(selfSignedValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("remoting: self-signed certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("remoting: self-signed certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}
