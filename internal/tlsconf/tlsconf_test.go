package tlsconf

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

// pki is a CA and a certificate it signed, written as PEM files.
type pki struct {
	caPath, certPath, keyPath string
}

func writePEM(t *testing.T, path, typ string, der []byte) {
	require.NoError(t, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600))
}

// newPKI makes a CA and a leaf for "some.host" under dir, named by prefix.
func newPKI(t *testing.T, dir, prefix string) pki {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: prefix + " CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	require.NoError(t, err)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "some.host"},
		DNSNames: []string{"some.host"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	require.NoError(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	p := pki{filepath.Join(dir, prefix+"-ca.pem"), filepath.Join(dir, prefix+"-cert.pem"), filepath.Join(dir, prefix+"-key.pem")}
	writePEM(t, p.caPath, "CERTIFICATE", caDER)
	writePEM(t, p.certPath, "CERTIFICATE", leafDER)
	writePEM(t, p.keyPath, "PRIVATE KEY", keyDER)
	return p
}

// handshake runs both ends of a TLS handshake over a pipe and returns
// the client's and the server's errors.
func handshake(t *testing.T, server, client *tls.Config) (clientErr, serverErr error) {
	t.Helper()
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() {
		s := tls.Server(a, server)
		err := s.Handshake()
		if err == nil {
			_, err = s.Write([]byte{1}) // the client sees the server's verdict on its certificate
		}
		_ = a.Close()
		done <- err
	}()
	c := tls.Client(b, client)
	clientErr = c.Handshake()
	if clientErr == nil {
		_, clientErr = c.Read(make([]byte, 1))
	}
	_ = b.Close()
	return clientErr, <-done
}

func testMode(mode string) conf.TLSConfig {
	return conf.TLSConfig{Mode: mode, TestModeEnable: true, ServerNeedClientAuth: "none"}
}

func TestDisabledModeHasNoServerConfig(t *testing.T) {
	cfg, err := Server(testMode(conf.TLSModeDisabled))
	require.NoError(t, err)
	assert.Nil(t, cfg)
	assert.Equal(t, remoting.TLSDisabled, Mode(testMode(conf.TLSModeDisabled)))
	assert.Equal(t, remoting.TLSEnforcing, Mode(testMode(conf.TLSModeEnforcing)))
	assert.Equal(t, remoting.TLSDisabled, Mode(conf.TLSConfig{}), "a zero config")
}

func TestTestModeServesASelfSignedCertificateToAnyClient(t *testing.T) {
	c := testMode(conf.TLSModePermissive)
	c.ServerCertPath, c.ServerKeyPath = "/does/not/exist", "/nor/this"
	server, err := Server(c)
	require.NoError(t, err, "test mode ignores the configured files")
	c.ClientAuthServer = true
	client, err := Client(c)
	require.NoError(t, err)
	cerr, serr := handshake(t, server, client)
	require.NoError(t, cerr)
	require.NoError(t, serr)
	cert, err := server.GetCertificate(nil)
	require.NoError(t, err)
	assert.Equal(t, "localhost", cert.Leaf.Subject.CommonName)
}

func TestConfiguredCertificatesAndServerAuthentication(t *testing.T) {
	dir := t.TempDir()
	srv, other := newPKI(t, dir, "server"), newPKI(t, dir, "other")
	c := conf.TLSConfig{Mode: conf.TLSModeEnforcing, ServerCertPath: srv.certPath, ServerKeyPath: srv.keyPath,
		ServerNeedClientAuth: "none"}
	server, err := Server(c)
	require.NoError(t, err)

	client, err := Client(c)
	require.NoError(t, err)
	cerr, _ := handshake(t, server, client)
	assert.NoError(t, cerr, "without authServer any certificate is trusted")

	c.ClientAuthServer, c.ClientTrustCertPath = true, srv.caPath
	client, err = Client(c)
	require.NoError(t, err)
	cerr, _ = handshake(t, server, client)
	assert.NoError(t, cerr, "the chain is verified, not the host name")

	c.ClientTrustCertPath = other.caPath
	client, err = Client(c)
	require.NoError(t, err)
	cerr, _ = handshake(t, server, client)
	assert.Error(t, cerr, "a server the trusted CA did not sign is refused")
}

func TestClientAuthentication(t *testing.T) {
	dir := t.TempDir()
	srv, cli, other := newPKI(t, dir, "server"), newPKI(t, dir, "client"), newPKI(t, dir, "other")
	base := conf.TLSConfig{Mode: conf.TLSModeEnforcing, ServerCertPath: srv.certPath, ServerKeyPath: srv.keyPath,
		ServerNeedClientAuth: "REQUIRE", ServerAuthClient: true, ServerTrustCertPath: cli.caPath}
	server, err := Server(base)
	require.NoError(t, err)

	anonymous, err := Client(base)
	require.NoError(t, err)
	_, serr := handshake(t, server, anonymous)
	assert.Error(t, serr, "require refuses a client without a certificate")

	for name, p := range map[string]pki{"trusted": cli, "untrusted": other} {
		c := base
		c.ClientCertPath, c.ClientKeyPath = p.certPath, p.keyPath
		client, err := Client(c)
		require.NoError(t, err)
		_, serr := handshake(t, server, client)
		if name == "trusted" {
			assert.NoError(t, serr, name)
		} else {
			assert.Error(t, serr, name)
		}
	}

	base.ServerAuthClient = false
	server, err = Server(base)
	require.NoError(t, err)
	c := base
	c.ClientCertPath, c.ClientKeyPath = other.certPath, other.keyPath
	client, err := Client(c)
	require.NoError(t, err)
	_, serr = handshake(t, server, client)
	assert.NoError(t, serr, "without authClient any client certificate is accepted")
	assert.Equal(t, tls.RequireAnyClientCert, server.ClientAuth)

	for in, want := range map[string]tls.ClientAuthType{"none": tls.NoClientCert, "Optional": tls.RequestClientCert,
		"bogus": tls.NoClientCert, "": tls.NoClientCert, " require": tls.NoClientCert} {
		base.ServerNeedClientAuth = in
		server, err = Server(base)
		require.NoError(t, err)
		assert.Equal(t, want, server.ClientAuth, in)
	}
}

func TestMissingOrEncryptedKeysAreErrors(t *testing.T) {
	dir := t.TempDir()
	srv := newPKI(t, dir, "server")
	_, err := Server(conf.TLSConfig{Mode: conf.TLSModePermissive})
	assert.ErrorContains(t, err, "tls.server.certPath")
	enc := filepath.Join(dir, "enc.pem")
	writePEM(t, enc, "ENCRYPTED PRIVATE KEY", []byte{1, 2, 3})
	_, err = Server(conf.TLSConfig{Mode: conf.TLSModePermissive, ServerCertPath: srv.certPath, ServerKeyPath: enc})
	assert.ErrorIs(t, err, ErrEncryptedKey)
	_, err = Client(conf.TLSConfig{ClientAuthServer: true, ClientTrustCertPath: srv.keyPath})
	assert.ErrorContains(t, err, "no PEM certificate")
}
