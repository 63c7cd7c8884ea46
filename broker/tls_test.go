package broker

import (
	"crypto/tls"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/remoting"
)

// enforcingTLS is -Dtls.server.mode=enforcing with Java's defaults: test
// mode (a self-signed certificate), no tls.config.file.
func enforcingTLS() conf.TLSConfig {
	return conf.TLSConfig{Mode: conf.TLSModeEnforcing, TestModeEnable: true, ServerNeedClientAuth: "none"}
}

func TestTLSEnforcingBrokerRegistersAndServesOverTLS(t *testing.T) {
	nsTLS, err := tlsconf.Server(enforcingTLS())
	require.NoError(t, err)
	ns := startFakeNamesrvWith(t, remoting.ServerOptions{TLSMode: remoting.TLSEnforcing, TLSConfig: nsTLS})
	c := testConfigs(t.TempDir(), ns.addr)
	c.TLS = enforcingTLS()
	c.NettyClient.UseTLS = true // what enforcing makes of it without -Dtls.enable
	b := startBroker(t, c, nil)
	assert.Contains(t, ns.lastTopics(), TopicSelfTest, "registered over TLS")

	tlsClient := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t),
		TLSConfig: &tls.Config{InsecureSkipVerify: true}})
	t.Cleanup(tlsClient.Close)
	resp := invoke(t, tlsClient, b.Addr(), withBody(sendRequest(TopicBenchmark, 0, []byte("x"), nil), []byte("x")))
	assert.Equal(t, int32(remoting.Success), resp.Code)

	_, err = newClient(t, nil).InvokeTimeout(b.Addr(), remoting.NewRequest(remoting.GetBrokerRuntimeInfo, nil), testWait)
	assert.Error(t, err, "a plaintext client is closed")
}

func TestTLSSettingsJavaDoesNotStartWithFailTheBroker(t *testing.T) {
	c := testConfigs(t.TempDir(), "127.0.0.1:1")
	c.TLS = conf.TLSConfig{Mode: conf.TLSModePermissive, TestModeEnable: false}
	_, err := New(Options{Configs: c, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1"})
	assert.ErrorIs(t, err, tlsconf.ErrNoCertificate)
}
