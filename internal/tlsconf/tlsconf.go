package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

// Errors that fail a server's start, as the exceptions Java's
// loadSslContext does not catch do (NullPointerException "keyCertChain",
// IllegalArgumentException "Input stream does not contain valid private
// key"); other failures (files missing or unreadable, a bad certificate, a
// key that does not match) leave the server running without TLS until
// the files load (reload.go), as Java's caught IOException and
// CertificateException do.
var (
	ErrNoCertificate = errors.New("tlsconf: tls.server.certPath and tls.server.keyPath are needed when tls.test.mode.enable is false")
	ErrInvalidKey    = errors.New("tlsconf: the key file does not contain a valid private key")
	// ErrEncryptedKey is an ErrInvalidKey: a key that needs a password
	// (Java 4.9.7 cannot read OpenSSL 3's encrypted PKCS#8 either).
	ErrEncryptedKey = fmt.Errorf("%w: encrypted private keys are not supported; give an unencrypted PKCS#8 key", ErrInvalidKey)
)

// Fatal tells whether err from Server should fail the start.
func Fatal(err error) bool {
	return errors.Is(err, ErrNoCertificate) || errors.Is(err, ErrInvalidKey)
}

// Mode is the server's remoting.TLSMode for tls.server.mode. A zero
// TLSConfig (Mode ""), which conf.LoadTLS never returns, is disabled, so
// that servers built from bare defaults in tests serve plaintext only.
func Mode(c conf.TLSConfig) remoting.TLSMode {
	if c.Mode == "" {
		return remoting.TLSDisabled
	}
	return remoting.ParseTLSMode(c.Mode)
}

// Server builds the config a server serves TLS connections with; in
// disabled mode it returns nil and no error.
func Server(c conf.TLSConfig) (*tls.Config, error) {
	if Mode(c) == remoting.TLSDisabled {
		return nil, nil
	}
	if c.TestModeEnable {
		return &tls.Config{GetCertificate: selfSigned(), ClientAuth: tls.VerifyClientCertIfGiven}, nil
	}
	if c.ServerCertPath == "" || c.ServerKeyPath == "" {
		return nil, ErrNoCertificate
	}
	cert, err := loadKeyPair(c.ServerCertPath, c.ServerKeyPath)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}}
	auth := strings.ToLower(c.ServerNeedClientAuth) // untrimmed, as parseClientAuthMode
	if !c.ServerAuthClient {
		cfg.ClientAuth = map[string]tls.ClientAuthType{"optional": tls.RequestClientCert,
			"require": tls.RequireAnyClientCert}[auth]
		return cfg, nil
	}
	cfg.ClientAuth = map[string]tls.ClientAuthType{"optional": tls.VerifyClientCertIfGiven,
		"require": tls.RequireAndVerifyClientCert}[auth]
	if c.ServerTrustCertPath != "" {
		if cfg.ClientCAs, err = loadPool(c.ServerTrustCertPath); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// selfSigned generates the test mode's certificate on the first TLS
// handshake, not at start, so that a server no TLS client talks to does
// not pay for an RSA key (Java makes it at start).
func selfSigned() func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	var once sync.Once
	var cert tls.Certificate
	var err error
	return func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		once.Do(func() { cert, err = remoting.SelfSignedCertificate() })
		if err != nil {
			return nil, err
		}
		return &cert, nil
	}
}

// Client builds the config of the broker's outbound TLS connections.
func Client(c conf.TLSConfig) (*tls.Config, error) {
	cfg := &tls.Config{InsecureSkipVerify: true}
	if c.TestModeEnable {
		return cfg, nil
	}
	if c.ClientAuthServer {
		roots, err := clientRoots(c.ClientTrustCertPath)
		if err != nil {
			return nil, err
		}
		cfg.VerifyPeerCertificate = verifyChain(roots)
	}
	if c.ClientCertPath != "" && c.ClientKeyPath != "" {
		cert, err := loadKeyPair(c.ClientCertPath, c.ClientKeyPath)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// clientRoots is the pool at path, or the system's when path is empty.
func clientRoots(path string) (*x509.CertPool, error) {
	if path == "" {
		return x509.SystemCertPool()
	}
	return loadPool(path)
}

// verifyChain checks a server's chain against roots, without the host
// name (the config skips Go's own check, which always includes it).
func verifyChain(roots *x509.CertPool) func([][]byte, [][]*x509.Certificate) error {
	return func(raw [][]byte, _ [][]*x509.Certificate) error {
		if len(raw) == 0 {
			return errors.New("tlsconf: the server sent no certificate")
		}
		certs := make([]*x509.Certificate, len(raw))
		for i, der := range raw {
			cert, err := x509.ParseCertificate(der)
			if err != nil {
				return fmt.Errorf("tlsconf: server certificate: %w", err)
			}
			certs[i] = cert
		}
		inter := x509.NewCertPool()
		for _, cert := range certs[1:] {
			inter.AddCert(cert)
		}
		_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
		return err
	}
}

// loadKeyPair reads a PEM certificate chain and its unencrypted key.
func loadKeyPair(certPath, keyPath string) (tls.Certificate, error) {
	certPEM, err := os.ReadFile(certPath)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("tlsconf: %w", err)
	}
	keyPEM, err := os.ReadFile(keyPath)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("tlsconf: %w", err)
	}
	if err := checkKeyPEM(keyPEM); err != nil {
		return tls.Certificate{}, fmt.Errorf("%w: %s", err, keyPath)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("tlsconf: %s, %s: %w", certPath, keyPath, err)
	}
	return cert, nil
}

// checkKeyPEM refuses what holds no private key, or an encrypted one.
func checkKeyPEM(data []byte) error {
	block, _ := pem.Decode(data)
	switch {
	case block == nil || !strings.HasSuffix(block.Type, "PRIVATE KEY"):
		return ErrInvalidKey
	case block.Type == "ENCRYPTED PRIVATE KEY" || strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED"):
		return ErrEncryptedKey
	}
	return nil
}

// loadPool reads the PEM certificates at path.
func loadPool(path string) (*x509.CertPool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tlsconf: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("tlsconf: no PEM certificate in %s", path)
	}
	return pool, nil
}
