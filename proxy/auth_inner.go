package proxy

// The proxy's own identity towards the name servers and brokers in cluster
// mode (docs/reference/proxy.md §8.5, DefaultMessagingProcessor.
// createForClusterMode): with enableAclRpcHookForClusterMode every remoting
// request it sends is signed as AclClientRPCHook signs it, with the
// innerClientAuthenticationCredentials of rmq-proxy.json (used only when
// both keys are set), else with $ROCKETMQ_HOME/conf/tools.yml's accessKey
// and secretKey (none when it has none). Without the flag, or in local
// mode (whose requests carry the broker's secret, LocalBroker.Token), the
// requests go unsigned.

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/remoting"
)

// innerCredentials are the credentials a cluster-mode proxy signs with,
// and whether it signs; home is ROCKETMQ_HOME.
func innerCredentials(cfg Config, home string) (acl.Credentials, bool, error) {
	if cfg.local() || !cfg.EnableAclRpcHookForClusterMode {
		return acl.Credentials{}, false, nil
	}
	if strings.TrimSpace(cfg.InnerClientAuthenticationCredentials) != "" {
		var c acl.Credentials
		if err := lenient.UnmarshalFromString(cfg.InnerClientAuthenticationCredentials, &c); err != nil {
			return c, false, fmt.Errorf("proxy: innerClientAuthenticationCredentials: %w", err)
		}
		return c, c.Usable(), nil
	}
	c, err := acl.ReadTools(filepath.Join(home, "conf", "tools.yml"))
	if err != nil {
		return c, false, fmt.Errorf("proxy: tools.yml: %w", err)
	}
	return c, c.Usable(), nil
}

// signer stamps each request with the credentials' signature.
func signer(c acl.Credentials) func(addr string, req *remoting.Command) {
	return func(_ string, req *remoting.Command) {
		ext := req.ExtFields.Map()
		if ext == nil {
			ext = map[string]string{}
		}
		for _, f := range c.SignFields(ext, req.Body) {
			req.SetExt(f.Key, f.Value)
		}
	}
}
