package tlsconf

import (
	"crypto/tls"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

// servedIssuer handshakes with server and returns the issuer CN of the
// certificate it served, or the client's error.
func servedIssuer(t *testing.T, server *tls.Config) (string, error) {
	t.Helper()
	a, b := net.Pipe()
	go func() {
		_ = tls.Server(a, server).Handshake()
		_ = a.Close()
	}()
	c := tls.Client(b, &tls.Config{InsecureSkipVerify: true})
	defer b.Close()
	if err := c.Handshake(); err != nil {
		return "", err
	}
	return c.ConnectionState().PeerCertificates[0].Issuer.CommonName, nil
}

func copyFile(t *testing.T, from, to string) {
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, data, 0o600))
}

func TestServerConfigFollowsTheCertificateFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := newPKI(t, dir, "a"), newPKI(t, dir, "b")
	c := conf.TLSConfig{Mode: conf.TLSModeEnforcing, ServerCertPath: filepath.Join(dir, "cert.pem"),
		ServerKeyPath: filepath.Join(dir, "key.pem"), ServerNeedClientAuth: "none"}
	mode, cfg, err := ForServer(c, zaptest.NewLogger(t))
	require.NoError(t, err)
	assert.Equal(t, remoting.TLSEnforcing, mode)
	require.NotNil(t, cfg, "the server runs, closing TLS connections until the files load")
	_, err = servedIssuer(t, cfg)
	assert.Error(t, err, "no certificate yet")

	copyFile(t, a.certPath, c.ServerCertPath)
	copyFile(t, a.keyPath, c.ServerKeyPath)
	issuer, err := servedIssuer(t, cfg)
	require.NoError(t, err)
	assert.Equal(t, "a CA", issuer)

	copyFile(t, b.certPath, c.ServerCertPath)
	issuer, err = servedIssuer(t, cfg)
	require.NoError(t, err)
	assert.Equal(t, "a CA", issuer, "a certificate without its key keeps the one in use")

	copyFile(t, b.keyPath, c.ServerKeyPath)
	issuer, err = servedIssuer(t, cfg)
	require.NoError(t, err)
	assert.Equal(t, "b CA", issuer)
}

func TestTestModeAndDisabledModeDoNotReload(t *testing.T) {
	log := zaptest.NewLogger(t)
	mode, cfg, err := ForServer(conf.TLSConfig{Mode: conf.TLSModeDisabled}, log)
	require.NoError(t, err)
	assert.Equal(t, remoting.TLSDisabled, mode)
	assert.Nil(t, cfg)
	_, cfg, err = ForServer(testMode(conf.TLSModePermissive), log)
	require.NoError(t, err)
	require.NotNil(t, cfg)
	assert.Nil(t, cfg.GetConfigForClient)
	issuer, err := servedIssuer(t, cfg)
	require.NoError(t, err)
	assert.Equal(t, "localhost", issuer, "self-signed")
}

func TestClientConfigIsBuiltOnlyWithUseTLS(t *testing.T) {
	log := zaptest.NewLogger(t)
	cfg, err := ForClient(conf.TLSConfig{}, false, log)
	require.NoError(t, err)
	assert.Nil(t, cfg)
	cfg, err = ForClient(testMode(conf.TLSModeEnforcing), true, log)
	require.NoError(t, err)
	assert.True(t, cfg.InsecureSkipVerify)
	_, err = ForClient(conf.TLSConfig{ClientAuthServer: true, ClientTrustCertPath: "/does/not/exist"}, true, log)
	assert.ErrorContains(t, err, "Failed to create SSLContext")
}

func TestSettingsJavaDoesNotStartWithAreFatal(t *testing.T) {
	dir := t.TempDir()
	p := newPKI(t, dir, "a")
	log := zaptest.NewLogger(t)
	base := conf.TLSConfig{Mode: conf.TLSModePermissive, ServerNeedClientAuth: "none"}
	_, _, err := ForServer(base, log)
	assert.ErrorIs(t, err, ErrNoCertificate, "Java: NullPointerException keyCertChain")

	enc := filepath.Join(dir, "enc.pem")
	writePEM(t, enc, "ENCRYPTED PRIVATE KEY", []byte{1, 2, 3})
	for name, key := range map[string]string{"encrypted": enc, "a certificate as the key": p.certPath} {
		c := base
		c.ServerCertPath, c.ServerKeyPath = p.certPath, key
		_, _, err = ForServer(c, log)
		assert.ErrorIs(t, err, ErrInvalidKey, "%s: Java: IllegalArgumentException", name)
	}

	c := base
	c.ServerCertPath, c.ServerKeyPath = p.certPath, newPKI(t, dir, "b").keyPath
	_, cfg, err := ForServer(c, log)
	require.NoError(t, err, "a key that does not match: Java starts, without TLS")
	_, err = servedIssuer(t, cfg)
	assert.Error(t, err)
}
