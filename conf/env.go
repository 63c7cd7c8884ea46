package conf

import (
	"math"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Names of the environment variables and JVM system properties the Java
// configs read (MixAll, NettySystemConfig, TlsSystemConfig).
const (
	envRocketmqHome     = "ROCKETMQ_HOME"
	envNamesrvAddr      = "NAMESRV_ADDR"
	envJavaOpt          = "JAVA_OPT"
	envJavaOptExt       = "JAVA_OPT_EXT"
	sysPropRocketmqHome = "rocketmq.home.dir"
	sysPropNamesrvAddr  = "rocketmq.namesrv.addr"
	sysPropUserHome     = "user.home"
	sysPropTLSEnable    = "tls.enable"
	sysPropTLSMode      = "tls.server.mode"

	sysPropSocketSndBuf               = "com.rocketmq.remoting.socket.sndbuf.size"
	sysPropSocketRcvBuf               = "com.rocketmq.remoting.socket.rcvbuf.size"
	sysPropSocketBacklog              = "com.rocketmq.remoting.socket.backlog"
	sysPropClientAsyncSemaphore       = "com.rocketmq.remoting.clientAsyncSemaphoreValue"
	sysPropClientOnewaySemaphore      = "com.rocketmq.remoting.clientOnewaySemaphoreValue"
	sysPropClientWorkerSize           = "com.rocketmq.remoting.client.worker.size"
	sysPropClientConnectTimeout       = "com.rocketmq.remoting.client.connect.timeout"
	sysPropClientChannelMaxIdle       = "com.rocketmq.remoting.client.channel.maxIdleTimeSeconds"
	sysPropAclPlainFile               = "rocketmq.acl.plain.file"
	sysPropClientCloseSocketIfTimeout = "com.rocketmq.remoting.client.closeSocketIfTimeout"
	sysPropWriteBufferHigh            = "com.rocketmq.remoting.write.buffer.high.water.mark"
	sysPropWriteBufferLow             = "com.rocketmq.remoting.write.buffer.low.water.mark"

	sysPropDiskSpaceWarningLevelRatio  = "rocketmq.broker.diskSpaceWarningLevelRatio"
	sysPropDiskSpaceCleanForciblyRatio = "rocketmq.broker.diskSpaceCleanForciblyRatio"
)

// defaultBrokerName is what BrokerConfig.localHostName falls back to.
const defaultBrokerName = "DEFAULT_BROKER"

// Env is the part of the process environment the Java configs read while
// they are built: environment variables, JVM system properties, the host
// name, the local address and the CPU count. Binding never looks at the
// real process; tests build an Env literal, servers call EnvFromOS.
type Env struct {
	// Vars are environment variables (NAMESRV_ADDR, ROCKETMQ_HOME, ...).
	Vars map[string]string
	// SysProps are JVM system properties (-Dkey=value). EnvFromOS fills
	// them from the -D words of JAVA_OPT and JAVA_OPT_EXT and sets
	// user.home from $HOME when no -Duser.home is given.
	SysProps map[string]string
	// HostName is InetAddress.getLocalHost().getHostName(); "" stands for
	// a failed lookup, which gives brokerName "DEFAULT_BROKER".
	HostName string
	// LocalAddress is RemotingUtil.getLocalAddress(), the default of
	// brokerIP1 and brokerIP2.
	LocalAddress string
	// NumCPU is Runtime.availableProcessors(); values below 1 count as 1.
	NumCPU int
}

// EnvFromOS reads the running process's environment: all environment
// variables; system properties from the -D words of $JAVA_OPT then
// $JAVA_OPT_EXT (so JAVA_OPT_EXT wins, as in runbroker.sh where it is
// appended last), with user.home defaulting to $HOME; os.Hostname;
// LocalAddressFromOS; runtime.NumCPU.
func EnvFromOS() Env {
	vars := make(map[string]string)
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	props := ParseJavaOpts(vars[envJavaOpt] + " " + vars[envJavaOptExt])
	if _, ok := props[sysPropUserHome]; !ok {
		home := vars["HOME"]
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		props[sysPropUserHome] = home
	}
	host, err := os.Hostname()
	if err != nil {
		host = ""
	}
	return Env{
		Vars:         vars,
		SysProps:     props,
		HostName:     host,
		LocalAddress: LocalAddressFromOS(),
		NumCPU:       runtime.NumCPU(),
	}
}

// ParseJavaOpts collects the system properties of a JVM command line: every
// blank-separated word of the form -Dkey=value (or -Dkey, which Java sets to
// ""); later words win. Other words (-Xmx1g, -server, ...) are ignored. The
// words are split as the run scripts' unquoted ${JAVA_OPT} is, on blanks
// only, with no quote processing.
func ParseJavaOpts(opts string) map[string]string {
	props := make(map[string]string)
	for _, word := range strings.Fields(opts) {
		def, ok := strings.CutPrefix(word, "-D")
		if !ok || def == "" {
			continue
		}
		k, v, _ := strings.Cut(def, "=")
		if k != "" {
			props[k] = v
		}
	}
	return props
}

// HeapLimit is the -Xmx the images' run scripts would give the JVM, in
// bytes: the last -Xmx word of $HEAP_OPTS (or -Xmx$MAX_HEAP_SIZE when
// HEAP_OPTS is unset, as the apache/rocketmq images' scripts make it), then
// $JAVA_OPT, then $JAVA_OPT_EXT, which the scripts append in that order and
// of which the JVM takes the last. ok is false when none is given (the
// scripts' own 4g/8g defaults are a JVM's needs, not this server's) or the
// size is not one Java reads (digits with an optional k, m, g or t).
func (e Env) HeapLimit() (bytes int64, ok bool) {
	heap, set := e.Var("HEAP_OPTS")
	if !set {
		if max, _ := e.Var("MAX_HEAP_SIZE"); max != "" {
			heap = "-Xmx" + max
		}
	}
	java, _ := e.Var(envJavaOpt)
	ext, _ := e.Var(envJavaOptExt)
	last := ""
	for _, word := range strings.Fields(heap + " " + java + " " + ext) {
		if size, found := strings.CutPrefix(word, "-Xmx"); found {
			last = size
		}
	}
	return parseJavaSize(last)
}

// parseJavaSize reads a JVM memory size: digits and an optional unit (k,
// m, g, t in either case).
func parseJavaSize(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	unit := int64(1)
	switch s[len(s)-1] {
	case 'k', 'K':
		unit = 1 << 10
	case 'm', 'M':
		unit = 1 << 20
	case 'g', 'G':
		unit = 1 << 30
	case 't', 'T':
		unit = 1 << 40
	}
	if unit > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, false
	}
	return n * unit, true
}

// Var returns the environment variable name.
func (e Env) Var(name string) (string, bool) {
	v, ok := e.Vars[name]
	return v, ok
}

// Line5 reports RMQGO_LINE=5: the broker speaks as a 5.3.3 broker (its
// protocol, its file formats and its configuration keys); otherwise as a
// 4.9.x one.
func (e Env) Line5() bool {
	v, _ := e.Var("RMQGO_LINE")
	return v == "5"
}

// SysProp returns the system property name.
func (e Env) SysProp(name string) (string, bool) {
	v, ok := e.SysProps[name]
	return v, ok
}

// UserHome is System.getProperty("user.home"); "" when unset (Java would
// then build paths like "null/store"; EnvFromOS always sets it).
func (e Env) UserHome() string {
	return e.SysProps[sysPropUserHome]
}

// propOrVar is System.getProperty(prop, System.getenv(name)): the property
// when set, else the variable, else "" (Java's null).
func (e Env) propOrVar(prop, name string) string {
	if v, ok := e.SysProps[prop]; ok {
		return v
	}
	return e.Vars[name]
}

func (e Env) hostName() string {
	if e.HostName == "" {
		return defaultBrokerName
	}
	return e.HostName
}

func (e Env) cpus() int {
	if e.NumCPU < 1 {
		return 1
	}
	return e.NumCPU
}

// intProp is Integer.parseInt(System.getProperty(name, def)). Java fails to
// start on an unparsable value; here the default is used instead.
func (e Env) intProp(name string, def int32) int32 {
	s, ok := e.SysProps[name]
	if !ok {
		return def
	}
	v, err := parseJavaInt(s, 32)
	if err != nil {
		return def
	}
	return int32(v)
}

// percentProp reads a ratio property such as "0.90"
// (Double.parseDouble(System.getProperty(name))) as a whole percentage; an
// unparsable value gives def.
func (e Env) percentProp(name string, def int32) int32 {
	s, ok := e.SysProps[name]
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(javaTrim(s), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return def
	}
	return int32(math.Round(f * 100))
}

// boolProp is Boolean.parseBoolean(System.getProperty(name, def)).
func (e Env) boolProp(name string, def bool) bool {
	s, ok := e.SysProps[name]
	if !ok {
		return def
	}
	return parseJavaBoolean(s)
}

// TLSEnabled is how BrokerStartup sets NettyClientConfig.useTLS:
// -Dtls.enable when given, else whether -Dtls.server.mode is "enforcing"
// (TlsMode.parse defaults to permissive). The controller's Raft peers
// dial with TLS by the same rule.
func (e Env) TLSEnabled() bool {
	if s, ok := e.SysProps[sysPropTLSEnable]; ok {
		return parseJavaBoolean(s)
	}
	return e.SysProps[sysPropTLSMode] == "enforcing"
}

// NetInterface is what RemotingUtil.getLocalAddress looks at in one network
// interface.
type NetInterface struct {
	// Name is the interface name (eth0, docker0, ...).
	Name string
	// Bridge is true for a Linux bridge (/sys/class/net/NAME/bridge exists);
	// Java skips those.
	Bridge bool
	// Addrs are the interface's addresses.
	Addrs []net.IP
}

// PickLocalAddress is RemotingUtil.getLocalAddress over ifaces, in order:
// skipping bridges and loopback addresses, it returns the first IPv4 address
// not starting with "127.0" or "192.168", else the last IPv4 address seen,
// else the first IPv6 address in brackets ("[fe80::1]"), else fallback()
// (Java resolves its own host name), else "" (Java's null).
func PickLocalAddress(ifaces []NetInterface, fallback func() string) string {
	var v4, v6 []string
	for _, ifc := range ifaces {
		if ifc.Bridge {
			continue
		}
		for _, ip := range ifc.Addrs {
			if ip.IsLoopback() {
				continue
			}
			if ip4 := ip.To4(); ip4 != nil {
				v4 = append(v4, ip4.String())
			} else if ip.To16() != nil {
				v6 = append(v6, "["+ip.String()+"]")
			}
		}
	}
	for _, ip := range v4 {
		if !strings.HasPrefix(ip, "127.0") && !strings.HasPrefix(ip, "192.168") {
			return ip
		}
	}
	switch {
	case len(v4) > 0:
		return v4[len(v4)-1]
	case len(v6) > 0:
		return v6[0]
	case fallback != nil:
		return fallback()
	}
	return ""
}

// LocalAddressFromOS applies PickLocalAddress to this machine's interfaces
// (net.Interfaces order, which is by index; Java's enumeration order may
// differ when several addresses qualify) with the addresses of the host
// name as the fallback.
func LocalAddressFromOS() string {
	nics, err := net.Interfaces()
	if err != nil {
		return hostAddress()
	}
	ifaces := make([]NetInterface, 0, len(nics))
	for _, nic := range nics {
		ifc := NetInterface{Name: nic.Name, Bridge: isBridge(nic.Name)}
		addrs, err := nic.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				ifc.Addrs = append(ifc.Addrs, ipn.IP)
			}
		}
		ifaces = append(ifaces, ifc)
	}
	return PickLocalAddress(ifaces, hostAddress)
}

func isBridge(name string) bool {
	if runtime.GOOS != "linux" {
		return false
	}
	_, err := os.Stat("/sys/class/net/" + name + "/bridge")
	return err == nil
}

// hostAddress is Java's InetAddress.getLocalHost() address: the first
// address the host name resolves to.
func hostAddress() string {
	host, err := os.Hostname()
	if err != nil {
		return ""
	}
	addrs, err := net.LookupIP(host)
	if err != nil || len(addrs) == 0 {
		return ""
	}
	if ip4 := addrs[0].To4(); ip4 != nil {
		return ip4.String()
	}
	return "[" + addrs[0].String() + "]"
}
