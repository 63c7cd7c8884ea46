package conf

import "os"

// JVM system properties of Java's TlsSystemConfig, and the keys of its
// tls.config.file (all but tls.server.mode and tls.enable).
const (
	sysPropTLSConfigFile = "tls.config.file"
	tlsTestModeEnable    = "tls.test.mode.enable"
	tlsServerClientAuth  = "tls.server.need.client.auth"
	tlsServerKeyPath     = "tls.server.keyPath"
	tlsServerKeyPassword = "tls.server.keyPassword"
	tlsServerCertPath    = "tls.server.certPath"
	tlsServerAuthClient  = "tls.server.authClient"
	tlsServerTrustPath   = "tls.server.trustCertPath"
	tlsClientKeyPath     = "tls.client.keyPath"
	tlsClientKeyPassword = "tls.client.keyPassword"
	tlsClientCertPath    = "tls.client.certPath"
	tlsClientAuthServer  = "tls.client.authServer"
	tlsClientTrustPath   = "tls.client.trustCertPath"
)

// DefaultTLSConfigFile is TlsSystemConfig's default tls.config.file.
const DefaultTLSConfigFile = "/etc/rocketmq/tls.properties"

// The values of tls.server.mode, as TlsMode names them.
const (
	TLSModeDisabled   = "disabled"
	TLSModePermissive = "permissive"
	TLSModeEnforcing  = "enforcing"
)

// TLSConfig is Java's TlsSystemConfig: the TLS settings of the servers
// (tls.server.*) and of the broker's outbound connections (tls.client.*),
// from JVM system properties, then overridden by the keys of
// tls.config.file, as TlsHelper.buildSslContext reads them. Whether the
// broker's outbound connections use TLS at all is
// NettyClientConfig.UseTLS (tls.enable, see Env.TLSEnabled).
type TLSConfig struct {
	// Mode is tls.server.mode read as TlsMode.parse does: TLSModeDisabled,
	// TLSModeEnforcing, or TLSModePermissive for anything else (the
	// default, unset).
	Mode string
	// Enable is tls.enable (default false).
	Enable bool
	// ConfigFile is tls.config.file (default DefaultTLSConfigFile);
	// FileRead tells whether it was read.
	ConfigFile string
	FileRead   bool
	// TestModeEnable is tls.test.mode.enable (default true): the server
	// serves a self-signed certificate generated at start, whatever
	// certificate is configured, and asks for no client certificate
	// (verifies one if given), and the client trusts any server.
	TestModeEnable bool
	// ServerNeedClientAuth is tls.server.need.client.auth: none (default),
	// optional or require, any case; anything else is none.
	ServerNeedClientAuth string
	// ServerCertPath and ServerKeyPath are the PEM certificate chain and
	// PKCS#8 key; ServerKeyPassword decrypts the key.
	ServerCertPath, ServerKeyPath, ServerKeyPassword string
	// ServerAuthClient (tls.server.authClient, default false) verifies
	// client certificates against ServerTrustCertPath (the system's roots
	// when empty); false accepts any.
	ServerAuthClient    bool
	ServerTrustCertPath string
	// ClientCertPath, ClientKeyPath and ClientKeyPassword are the broker's
	// own certificate, sent when a server asks for one.
	ClientCertPath, ClientKeyPath, ClientKeyPassword string
	// ClientAuthServer (tls.client.authServer, default false) verifies the
	// server's certificate against ClientTrustCertPath (the system's roots
	// when empty); false trusts any.
	ClientAuthServer    bool
	ClientTrustCertPath string
}

// LoadTLS reads TlsSystemConfig from env's system properties and, when
// TLS is in use (a server mode other than disabled, or client true),
// from tls.config.file over them, as TlsHelper does: a file that does
// not exist or cannot be read is skipped; one that does not parse is an
// error (Java's Properties.load throws, and the server does not start).
func LoadTLS(env Env, client bool) (TLSConfig, error) {
	c := tlsFromSysProps(env)
	if c.Mode == TLSModeDisabled && !client {
		return c, nil
	}
	data, err := os.ReadFile(c.ConfigFile)
	if err != nil {
		return c, nil // missing, a directory or unreadable: Java skips it
	}
	p, err := ParseProperties(data, c.ConfigFile)
	if err != nil {
		return c, err
	}
	c.overlay(p)
	c.FileRead = true
	return c, nil
}

// tlsFromSysProps is TlsSystemConfig's static initialisation.
func tlsFromSysProps(env Env) TLSConfig {
	prop := func(key, def string) string {
		if v, ok := env.SysProp(key); ok {
			return v
		}
		return def
	}
	return TLSConfig{
		Mode:                 parseTLSMode(prop(sysPropTLSMode, TLSModePermissive)),
		Enable:               parseJavaBoolean(prop(sysPropTLSEnable, "false")),
		ConfigFile:           prop(sysPropTLSConfigFile, DefaultTLSConfigFile),
		TestModeEnable:       parseJavaBoolean(prop(tlsTestModeEnable, "true")),
		ServerNeedClientAuth: prop(tlsServerClientAuth, "none"),
		ServerKeyPath:        prop(tlsServerKeyPath, ""),
		ServerKeyPassword:    prop(tlsServerKeyPassword, ""),
		ServerCertPath:       prop(tlsServerCertPath, ""),
		ServerAuthClient:     parseJavaBoolean(prop(tlsServerAuthClient, "false")),
		ServerTrustCertPath:  prop(tlsServerTrustPath, ""),
		ClientKeyPath:        prop(tlsClientKeyPath, ""),
		ClientKeyPassword:    prop(tlsClientKeyPassword, ""),
		ClientCertPath:       prop(tlsClientCertPath, ""),
		ClientAuthServer:     parseJavaBoolean(prop(tlsClientAuthServer, "false")),
		ClientTrustCertPath:  prop(tlsClientTrustPath, ""),
	}
}

// overlay sets what the file gives, as extractTlsConfigFromFile does.
func (c *TLSConfig) overlay(p *Properties) {
	str := func(key string, v *string) {
		if s, ok := p.Value(key); ok {
			*v = s
		}
	}
	boolean := func(key string, v *bool) {
		if s, ok := p.Value(key); ok {
			*v = parseJavaBoolean(s)
		}
	}
	boolean(tlsTestModeEnable, &c.TestModeEnable)
	str(tlsServerClientAuth, &c.ServerNeedClientAuth)
	str(tlsServerKeyPath, &c.ServerKeyPath)
	str(tlsServerKeyPassword, &c.ServerKeyPassword)
	str(tlsServerCertPath, &c.ServerCertPath)
	boolean(tlsServerAuthClient, &c.ServerAuthClient)
	str(tlsServerTrustPath, &c.ServerTrustCertPath)
	str(tlsClientKeyPath, &c.ClientKeyPath)
	str(tlsClientKeyPassword, &c.ClientKeyPassword)
	str(tlsClientCertPath, &c.ClientCertPath)
	boolean(tlsClientAuthServer, &c.ClientAuthServer)
	str(tlsClientTrustPath, &c.ClientTrustCertPath)
}

// parseTLSMode is TlsMode.parse: the exact lower-case name, else
// permissive.
func parseTLSMode(s string) string {
	switch s {
	case TLSModeDisabled, TLSModeEnforcing:
		return s
	}
	return TLSModePermissive
}
