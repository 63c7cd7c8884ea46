package namesrv

import (
	"crypto/tls"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/remoting"
)

func TestTLSEnforcingNameServerServesTLSClientsOnly(t *testing.T) {
	cert, err := remoting.SelfSignedCertificate()
	require.NoError(t, err)
	o := testOptions(t, t.TempDir())
	o.TLSMode, o.TLSConfig = remoting.TLSEnforcing, &tls.Config{Certificates: []tls.Certificate{cert}}
	ns := startNameServer(t, o)

	c := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t), TLSConfig: &tls.Config{InsecureSkipVerify: true}})
	t.Cleanup(c.Close)
	register(t, c, ns.Addr(), brokerA, 1)
	resp := call(t, c, ns.Addr(), request(remoting.GetBrokerClusterInfo, 0, nil))
	assert.Equal(t, int32(remoting.Success), resp.Code)
	assert.Contains(t, string(resp.Body), brokerA.addr)

	_, err = newClient(t).InvokeTimeout(ns.Addr(), request(remoting.GetBrokerClusterInfo, 0, nil), 20*time.Second)
	assert.Error(t, err, "a plaintext client is closed")
}
