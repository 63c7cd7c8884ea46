package conf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tlsEnv(props map[string]string) Env {
	return Env{SysProps: props}
}

func TestTLSDefaultsAreTlsSystemConfigs(t *testing.T) {
	c, err := LoadTLS(tlsEnv(map[string]string{"tls.config.file": filepath.Join(t.TempDir(), "none")}), false)
	require.NoError(t, err)
	assert.Equal(t, TLSConfig{Mode: TLSModePermissive, ConfigFile: c.ConfigFile, TestModeEnable: true,
		ServerNeedClientAuth: "none"}, c)
	assert.Equal(t, DefaultTLSConfigFile, tlsFromSysProps(tlsEnv(nil)).ConfigFile)
}

func TestTLSModeIsParsedAsTlsModeParse(t *testing.T) {
	for in, want := range map[string]string{"disabled": TLSModeDisabled, "enforcing": TLSModeEnforcing,
		"permissive": TLSModePermissive, "Enforcing": TLSModePermissive, " enforcing": TLSModePermissive, "": TLSModePermissive} {
		assert.Equal(t, want, tlsFromSysProps(tlsEnv(map[string]string{"tls.server.mode": in})).Mode, "%q", in)
	}
}

func TestTLSSystemProperties(t *testing.T) {
	c := tlsFromSysProps(tlsEnv(map[string]string{
		"tls.enable": "TRUE", "tls.test.mode.enable": "false", "tls.server.need.client.auth": "require",
		"tls.server.certPath": "/c.pem", "tls.server.keyPath": "/k.pem", "tls.server.keyPassword": "pw",
		"tls.server.authClient": "true", "tls.server.trustCertPath": "/ca.pem",
		"tls.client.certPath": "/cc.pem", "tls.client.keyPath": "/ck.pem", "tls.client.keyPassword": "cpw",
		"tls.client.authServer": "yes", "tls.client.trustCertPath": "/cca.pem",
	}))
	assert.True(t, c.Enable)
	assert.False(t, c.TestModeEnable)
	assert.Equal(t, "require", c.ServerNeedClientAuth)
	assert.Equal(t, []string{"/c.pem", "/k.pem", "pw", "/ca.pem"},
		[]string{c.ServerCertPath, c.ServerKeyPath, c.ServerKeyPassword, c.ServerTrustCertPath})
	assert.True(t, c.ServerAuthClient)
	assert.Equal(t, []string{"/cc.pem", "/ck.pem", "cpw", "/cca.pem"},
		[]string{c.ClientCertPath, c.ClientKeyPath, c.ClientKeyPassword, c.ClientTrustCertPath})
	assert.False(t, c.ClientAuthServer, "Boolean.parseBoolean(\"yes\") is false")
}

func writeTLSFile(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "tls.properties")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestTLSConfigFileOverridesSystemPropertiesExceptModeAndEnable(t *testing.T) {
	path := writeTLSFile(t, "tls.test.mode.enable=false\n"+
		"tls.server.certPath=/file/c.pem\ntls.server.keyPath : /file/k.pem\n"+
		"tls.server.need.client.auth=optional\ntls.client.authServer=true\n"+
		"tls.server.mode=disabled\ntls.enable=true\n")
	c, err := LoadTLS(tlsEnv(map[string]string{"tls.config.file": path, "tls.server.certPath": "/prop/c.pem",
		"tls.server.trustCertPath": "/prop/ca.pem", "tls.server.mode": "enforcing"}), false)
	require.NoError(t, err)
	assert.True(t, c.FileRead)
	assert.False(t, c.TestModeEnable)
	assert.Equal(t, "/file/c.pem", c.ServerCertPath, "the file wins")
	assert.Equal(t, "/file/k.pem", c.ServerKeyPath)
	assert.Equal(t, "/prop/ca.pem", c.ServerTrustCertPath, "a key the file lacks keeps the property")
	assert.Equal(t, "optional", c.ServerNeedClientAuth)
	assert.True(t, c.ClientAuthServer)
	assert.Equal(t, TLSModeEnforcing, c.Mode, "the file does not set the mode")
	assert.False(t, c.Enable, "the file does not set tls.enable")
}

func TestTLSConfigFileIsReadOnlyWhenTLSIsUsed(t *testing.T) {
	path := writeTLSFile(t, "tls.server.certPath=/file/c.pem\n")
	props := map[string]string{"tls.config.file": path, "tls.server.mode": "disabled"}
	c, err := LoadTLS(tlsEnv(props), false)
	require.NoError(t, err)
	assert.False(t, c.FileRead)
	c, err = LoadTLS(tlsEnv(props), true)
	require.NoError(t, err)
	assert.True(t, c.FileRead, "the broker's TLS client reads it")
	assert.Equal(t, "/file/c.pem", c.ServerCertPath)
}

func TestTLSConfigFileMissingOrMalformed(t *testing.T) {
	c, err := LoadTLS(tlsEnv(map[string]string{"tls.config.file": t.TempDir()}), false)
	require.NoError(t, err, "a directory is skipped")
	assert.False(t, c.FileRead)
	_, err = LoadTLS(tlsEnv(map[string]string{"tls.config.file": writeTLSFile(t, "k=\\u12\n")}), false)
	assert.ErrorIs(t, err, ErrMalformedEscape)
}

func TestLoadersReadTLS(t *testing.T) {
	path := writeTLSFile(t, "tls.server.certPath=/file/c.pem\n")
	env := tlsEnv(map[string]string{"tls.config.file": path, "tls.server.mode": "enforcing", "user.home": t.TempDir()})
	env.Vars = map[string]string{"ROCKETMQ_HOME": t.TempDir()}
	cl, err := ParseNamesrvArgs(nil)
	require.NoError(t, err)
	n, _, err := LoadNamesrv(cl, env)
	require.NoError(t, err)
	assert.Equal(t, "/file/c.pem", n.TLS.ServerCertPath)
	bcl, err := ParseBrokerArgs(nil)
	require.NoError(t, err)
	b, _, err := LoadBroker(bcl, env)
	require.NoError(t, err)
	assert.Equal(t, TLSModeEnforcing, b.TLS.Mode)
	assert.True(t, b.NettyClient.UseTLS, "enforcing makes the broker's client TLS, as BrokerStartup")
	assert.Equal(t, "/file/c.pem", b.Snapshot().TLS.ServerCertPath)
}
