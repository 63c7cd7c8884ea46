package conf

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseJavaOpts(t *testing.T) {
	got := ParseJavaOpts("-server -Xms512M -Duser.home=/home/rocketmq  -Dtls.enable=true -Dflag -D -Da=b=c -XX:+UseG1GC -Duser.home=/last")
	assert.Equal(t, map[string]string{"user.home": "/last", "tls.enable": "true", "flag": "", "a": "b=c"}, got)
}

// The docker deployments pass -Duser.home through JAVA_OPT_EXT; it moves the
// store, the name server's files and the default broker config path.
func TestEnvFromOSJavaOptExt(t *testing.T) {
	t.Setenv("HOME", "/root")
	t.Setenv("JAVA_OPT", "-Duser.home=/from/java_opt -Drocketmq.namesrv.addr=ns1:9876")
	t.Setenv("JAVA_OPT_EXT", "-Xms512M -Xmx512M -Xmn128m -Duser.home=/home/rocketmq")
	t.Setenv("ROCKETMQ_HOME", "/opt/rocketmq")
	t.Setenv("NAMESRV_ADDR", "ns2:9876")
	env := EnvFromOS()
	assert.Equal(t, "/home/rocketmq", env.UserHome(), "JAVA_OPT_EXT comes last and wins")
	assert.GreaterOrEqual(t, env.NumCPU, 1)
	v, ok := env.Var("ROCKETMQ_HOME")
	assert.True(t, ok)
	assert.Equal(t, "/opt/rocketmq", v)

	b := DefaultBrokerConfigs(env)
	assert.Equal(t, "/home/rocketmq/store", b.Store.StorePathRootDir)
	assert.Equal(t, "/home/rocketmq/store/config/broker.properties", b.ConfigPath)
	assert.Equal(t, "ns1:9876", b.Broker.NamesrvAddr, "-Drocketmq.namesrv.addr beats NAMESRV_ADDR")
	assert.Equal(t, "/opt/rocketmq", b.Broker.RocketmqHome)
	n := DefaultNamesrvConfig(env)
	assert.Equal(t, "/home/rocketmq/namesrv/kvConfig.json", n.KvConfigPath)
	assert.Equal(t, "/home/rocketmq/namesrv/namesrv.properties", n.ConfigStorePath)
}

func TestEnvFromOSUserHomeDefaultsToHOME(t *testing.T) {
	t.Setenv("HOME", "/home/someone")
	t.Setenv("JAVA_OPT", "")
	t.Setenv("JAVA_OPT_EXT", "-Xmx1g")
	env := EnvFromOS()
	assert.Equal(t, "/home/someone", env.UserHome())
	_, ok := env.SysProp("Xmx1g")
	assert.False(t, ok)
}

func TestPickLocalAddress(t *testing.T) {
	ip := net.ParseIP
	tests := []struct {
		name   string
		ifaces []NetInterface
		want   string
	}{
		{"first public-ish IPv4", []NetInterface{
			{Name: "lo", Addrs: []net.IP{ip("127.0.0.1"), ip("::1")}},
			{Name: "eth0", Addrs: []net.IP{ip("192.168.1.5"), ip("10.0.0.7"), ip("10.0.0.8")}},
		}, "10.0.0.7"},
		{"bridges skipped", []NetInterface{
			{Name: "docker0", Bridge: true, Addrs: []net.IP{ip("172.17.0.1")}},
			{Name: "eth0", Addrs: []net.IP{ip("172.18.0.2")}},
		}, "172.18.0.2"},
		{"only 192.168: the last one", []NetInterface{
			{Name: "eth0", Addrs: []net.IP{ip("192.168.1.5")}},
			{Name: "eth1", Addrs: []net.IP{ip("192.168.2.6")}},
		}, "192.168.2.6"},
		{"IPv4 preferred over IPv6", []NetInterface{
			{Name: "eth0", Addrs: []net.IP{ip("fe80::1"), ip("192.168.1.5")}},
		}, "192.168.1.5"},
		{"IPv6 in brackets", []NetInterface{
			{Name: "eth0", Addrs: []net.IP{ip("2001:db8::5")}},
		}, "[2001:db8::5]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, PickLocalAddress(tt.ifaces, nil))
		})
	}
	only := []NetInterface{{Name: "lo", Addrs: []net.IP{ip("127.0.0.1")}}}
	assert.Equal(t, "198.51.100.1", PickLocalAddress(only, func() string { return "198.51.100.1" }))
	assert.Equal(t, "", PickLocalAddress(only, nil))
}

func TestLocalAddressFromOSIsNotLoopbackWhenThereIsAnother(t *testing.T) {
	addr := LocalAddressFromOS()
	nics, err := net.Interfaces()
	require.NoError(t, err)
	hasOther := false
	for _, nic := range nics {
		addrs, err := nic.Addrs()
		if err != nil || isBridge(nic.Name) {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil {
				hasOther = true
			}
		}
	}
	if hasOther {
		assert.NotEmpty(t, addr)
		assert.False(t, net.ParseIP(addr).IsLoopback(), addr)
	}
}

// The heap a deployment gives the JVM, as the images' scripts assemble the
// command line: HEAP_OPTS (or MAX_HEAP_SIZE), JAVA_OPT, JAVA_OPT_EXT, the
// last -Xmx winning.
func TestHeapLimitIsTheLastXmxOfTheScriptsCommandLine(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want int64
		ok   bool
	}{
		{map[string]string{"JAVA_OPT_EXT": "-Xms512M -Xmx512M -Xmn128m"}, 512 << 20, true},
		{map[string]string{"JAVA_OPT": "-Xmx1g", "JAVA_OPT_EXT": "-Duser.home=/x -Xmx256m"}, 256 << 20, true},
		{map[string]string{"MAX_HEAP_SIZE": "2G"}, 2 << 30, true},
		{map[string]string{"MAX_HEAP_SIZE": "2G", "HEAP_OPTS": "-Xms1g -Xmx1g"}, 1 << 30, true},
		{map[string]string{"HEAP_OPTS": "-Xmx4096k", "JAVA_OPT": "-server"}, 4 << 20, true},
		{map[string]string{"JAVA_OPT_EXT": "-Xmx1048576"}, 1 << 20, true},
		{map[string]string{"JAVA_OPT_EXT": "-Xms512M"}, 0, false},
		{map[string]string{"JAVA_OPT_EXT": "-Xmx512X"}, 0, false},
		{map[string]string{}, 0, false},
	} {
		got, ok := Env{Vars: c.vars}.HeapLimit()
		assert.Equal(t, c.ok, ok, "%v", c.vars)
		assert.Equal(t, c.want, got, "%v", c.vars)
	}
}
