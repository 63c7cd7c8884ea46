package tlsconf

import (
	"crypto/tls"
	"fmt"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

// ForServer is NettyRemotingServer.loadSslContext: the mode of
// tls.server.mode and, unless it is disabled, the server's TLS config.
// Outside test mode the config follows changes of the certificate files
// (reload.go), as Java's FileWatchService does. A config that cannot be
// built is logged ("Failed to create SSLContext for server") and the
// server runs closing TLS connections until the files load, as Java's
// does; the failures Java does not survive (Fatal: no certificate
// configured outside test mode, a key file without a usable key) are
// returned, to fail the start.
func ForServer(c conf.TLSConfig, log *zap.Logger) (remoting.TLSMode, *tls.Config, error) {
	mode := Mode(c)
	log.Info("Server is running in TLS " + mode.String() + " mode")
	if mode == remoting.TLSDisabled {
		return mode, nil, nil
	}
	logTLSConfig(c, log)
	cfg, err := Server(c)
	switch {
	case Fatal(err):
		return mode, nil, err
	case err != nil:
		log.Error("Failed to create SSLContext for server", zap.Error(err))
	default:
		log.Info("SSLContext created for server")
	}
	if c.TestModeEnable {
		return mode, cfg, nil
	}
	return mode, reloading(c, cfg, log), nil // reload.go
}

// logTLSConfig is TlsHelper.logTheFinalUsedTlsConfig (passwords left out).
func logTLSConfig(c conf.TLSConfig, log *zap.Logger) {
	log.Info("Log the final used tls related configuration",
		zap.String("tls.config.file", c.ConfigFile), zap.Bool("fileRead", c.FileRead),
		zap.Bool("tls.test.mode.enable", c.TestModeEnable),
		zap.String("tls.server.need.client.auth", c.ServerNeedClientAuth),
		zap.String("tls.server.keyPath", c.ServerKeyPath), zap.String("tls.server.certPath", c.ServerCertPath),
		zap.Bool("tls.server.authClient", c.ServerAuthClient),
		zap.String("tls.server.trustCertPath", c.ServerTrustCertPath),
		zap.String("tls.client.keyPath", c.ClientKeyPath), zap.String("tls.client.certPath", c.ClientCertPath),
		zap.Bool("tls.client.authServer", c.ClientAuthServer),
		zap.String("tls.client.trustCertPath", c.ClientTrustCertPath))
}

// ForClient is NettyRemotingClient's start with useTLS: the config of the
// broker's outbound connections, or nil without useTLS. A config that
// cannot be built fails the start, as Java's "Failed to create
// SSLContext" RuntimeException does.
func ForClient(c conf.TLSConfig, useTLS bool, log *zap.Logger) (*tls.Config, error) {
	if !useTLS {
		return nil, nil
	}
	cfg, err := Client(c)
	if err != nil {
		return nil, fmt.Errorf("tlsconf: Failed to create SSLContext: %w", err)
	}
	log.Info("SSL enabled for client")
	return cfg, nil
}
