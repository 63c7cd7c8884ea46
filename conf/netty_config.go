package conf

// NettyServerConfig mirrors org.apache.rocketmq.remoting.netty.NettyServerConfig:
// the listening side of the remoting layer. Several defaults come from JVM
// system properties (NettySystemConfig), read from env.
type NettyServerConfig struct {
	// ListenPort is the TCP port the server listens on.
	ListenPort int32 `prop:"listenPort"`
	// ServerWorkerThreads sizes the server's worker group.
	ServerWorkerThreads int32 `prop:"serverWorkerThreads"`
	// ServerCallbackExecutorThreads sizes the callback executor (0 means 4 in
	// Java).
	ServerCallbackExecutorThreads int32 `prop:"serverCallbackExecutorThreads"`
	// ServerSelectorThreads sizes the server's I/O selector group.
	ServerSelectorThreads int32 `prop:"serverSelectorThreads"`
	// ServerOnewaySemaphoreValue bounds concurrent outgoing one-way requests.
	ServerOnewaySemaphoreValue int32 `prop:"serverOnewaySemaphoreValue"`
	// ServerAsyncSemaphoreValue bounds concurrent outgoing asynchronous
	// requests.
	ServerAsyncSemaphoreValue int32 `prop:"serverAsyncSemaphoreValue"`
	// ServerChannelMaxIdleTimeSeconds closes connections idle this long, in
	// seconds.
	ServerChannelMaxIdleTimeSeconds int32 `prop:"serverChannelMaxIdleTimeSeconds"`
	// ServerSocketSndBufSize is SO_SNDBUF (0: OS default; JVM property
	// com.rocketmq.remoting.socket.sndbuf.size).
	ServerSocketSndBufSize int32 `prop:"serverSocketSndBufSize"`
	// ServerSocketRcvBufSize is SO_RCVBUF (0: OS default; JVM property
	// com.rocketmq.remoting.socket.rcvbuf.size).
	ServerSocketRcvBufSize int32 `prop:"serverSocketRcvBufSize"`
	// WriteBufferHighWaterMark is the channel's write-buffer high water mark (0:
	// Netty default).
	WriteBufferHighWaterMark int32 `prop:"writeBufferHighWaterMark"`
	// WriteBufferLowWaterMark is the channel's write-buffer low water mark (0:
	// Netty default).
	WriteBufferLowWaterMark int32 `prop:"writeBufferLowWaterMark"`
	// ServerSocketBacklog is the listen backlog (JVM property
	// com.rocketmq.remoting.socket.backlog).
	ServerSocketBacklog int32 `prop:"serverSocketBacklog"`
	// ServerPooledByteBufAllocatorEnable uses Netty's pooled buffers.
	ServerPooledByteBufAllocatorEnable bool `prop:"serverPooledByteBufAllocatorEnable"`
	// UseEpollNativeSelector uses Netty's native epoll transport.
	UseEpollNativeSelector bool `prop:"useEpollNativeSelector"`
	// BindAddress is the address the server binds (5.x key; 4.9.8 binds all
	// addresses).
	BindAddress string `prop:"bindAddress,since=5"`
	// ServerNettyWorkerGroupEnable runs handlers on a separate worker group (5.x
	// key).
	ServerNettyWorkerGroupEnable bool `prop:"serverNettyWorkerGroupEnable,since=5"`
	// EnableShutdownGracefully drains connections at shutdown (5.x key).
	EnableShutdownGracefully bool `prop:"enableShutdownGracefully,since=5"`
	// ShutdownWaitTimeSeconds is how long a graceful shutdown waits, in seconds
	// (5.x key).
	ShutdownWaitTimeSeconds int32 `prop:"shutdownWaitTimeSeconds,since=5"`

	src origins
}

// JavaClass returns "NettyServerConfig".
func (c *NettyServerConfig) JavaClass() string { return "NettyServerConfig" }

func (c *NettyServerConfig) sources() *origins { return &c.src }

// DefaultNettyServerConfig returns the class defaults of Java 4.9.8, listenPort
// 8888 included; the startups then set 9876 (name server) or 10911 (broker),
// as DefaultNamesrvConfigs and DefaultBrokerConfigs do.
func DefaultNettyServerConfig(env Env) *NettyServerConfig {
	return &NettyServerConfig{
		ListenPort:                         8888,
		ServerWorkerThreads:                8,
		ServerCallbackExecutorThreads:      0,
		ServerSelectorThreads:              3,
		ServerOnewaySemaphoreValue:         256,
		ServerAsyncSemaphoreValue:          64,
		ServerChannelMaxIdleTimeSeconds:    120,
		ServerSocketSndBufSize:             env.intProp(sysPropSocketSndBuf, 0),
		ServerSocketRcvBufSize:             env.intProp(sysPropSocketRcvBuf, 0),
		WriteBufferHighWaterMark:           env.intProp(sysPropWriteBufferHigh, 0),
		WriteBufferLowWaterMark:            env.intProp(sysPropWriteBufferLow, 0),
		ServerSocketBacklog:                env.intProp(sysPropSocketBacklog, 1024),
		ServerPooledByteBufAllocatorEnable: true,
		UseEpollNativeSelector:             false,
		BindAddress:                        "0.0.0.0",
		ServerNettyWorkerGroupEnable:       true,
		EnableShutdownGracefully:           false,
		ShutdownWaitTimeSeconds:            30,
	}
}

// NettyClientConfig mirrors org.apache.rocketmq.remoting.netty.NettyClientConfig:
// the broker's outbound connections (to name servers, and a slave's to its
// master). Several defaults come from JVM system properties.
type NettyClientConfig struct {
	// ClientWorkerThreads sizes the client's worker group (JVM property
	// com.rocketmq.remoting.client.worker.size).
	ClientWorkerThreads int32 `prop:"clientWorkerThreads"`
	// ClientCallbackExecutorThreads sizes the client's callback executor (Java:
	// ncpu).
	ClientCallbackExecutorThreads int32 `prop:"clientCallbackExecutorThreads"`
	// ClientOnewaySemaphoreValue bounds concurrent one-way calls.
	ClientOnewaySemaphoreValue int32 `prop:"clientOnewaySemaphoreValue"`
	// ClientAsyncSemaphoreValue bounds concurrent asynchronous calls.
	ClientAsyncSemaphoreValue int32 `prop:"clientAsyncSemaphoreValue"`
	// ConnectTimeoutMillis is the connect timeout in ms.
	ConnectTimeoutMillis int32 `prop:"connectTimeoutMillis"`
	// ChannelNotActiveInterval is a legacy client setting in ms.
	ChannelNotActiveInterval int64 `prop:"channelNotActiveInterval"`
	// ClientChannelMaxIdleTimeSeconds closes client connections idle this long,
	// in seconds.
	ClientChannelMaxIdleTimeSeconds int32 `prop:"clientChannelMaxIdleTimeSeconds"`
	// ClientSocketSndBufSize is the client's SO_SNDBUF (0: OS default).
	ClientSocketSndBufSize int32 `prop:"clientSocketSndBufSize"`
	// ClientSocketRcvBufSize is the client's SO_RCVBUF (0: OS default).
	ClientSocketRcvBufSize int32 `prop:"clientSocketRcvBufSize"`
	// ClientPooledByteBufAllocatorEnable uses Netty's pooled buffers for the
	// client.
	ClientPooledByteBufAllocatorEnable bool `prop:"clientPooledByteBufAllocatorEnable"`
	// ClientCloseSocketIfTimeout closes a connection whose call timed out.
	ClientCloseSocketIfTimeout bool `prop:"clientCloseSocketIfTimeout"`
	// UseTLS makes the broker's outbound connections use TLS (default from
	// -Dtls.enable).
	UseTLS bool `prop:"useTLS"`
	// WriteBufferHighWaterMark is the channel's write-buffer high water mark (0:
	// Netty default).
	WriteBufferHighWaterMark int32 `prop:"writeBufferHighWaterMark"`
	// WriteBufferLowWaterMark is the channel's write-buffer low water mark (0:
	// Netty default).
	WriteBufferLowWaterMark int32 `prop:"writeBufferLowWaterMark"`
	// ScanAvailableNameSrv probes the name servers for reachability (5.x key).
	ScanAvailableNameSrv bool `prop:"scanAvailableNameSrv,print=isScanAvailableNameSrv,since=5"`
	// SocksProxyConfig is the client's SOCKS proxy configuration JSON (5.x key).
	SocksProxyConfig string `prop:"socksProxyConfig,since=5"`
	// DisableCallbackExecutor runs client callbacks on the I/O threads (5.x
	// key).
	DisableCallbackExecutor bool `prop:"disableCallbackExecutor,since=5"`
	// DisableNettyWorkerGroup runs client handlers on the I/O threads (5.x key).
	DisableNettyWorkerGroup bool `prop:"disableNettyWorkerGroup,since=5"`
	// MaxReconnectIntervalTimeSeconds caps the client's reconnect back-off, in
	// seconds (5.x key).
	MaxReconnectIntervalTimeSeconds int64 `prop:"maxReconnectIntervalTimeSeconds,since=5"`
	// EnableReconnectForGoAway reconnects when the server sends GO_AWAY (5.x
	// key).
	EnableReconnectForGoAway bool `prop:"enableReconnectForGoAway,since=5"`

	src origins
}

// JavaClass returns "NettyClientConfig".
func (c *NettyClientConfig) JavaClass() string { return "NettyClientConfig" }

func (c *NettyClientConfig) sources() *origins { return &c.src }

// DefaultNettyClientConfig returns the class defaults of Java 4.9.8 (useTLS
// false; BrokerStartup then derives it from -Dtls.enable, as
// DefaultBrokerConfigs does).
func DefaultNettyClientConfig(env Env) *NettyClientConfig {
	return &NettyClientConfig{
		ClientWorkerThreads:                env.intProp(sysPropClientWorkerSize, 4),
		ClientCallbackExecutorThreads:      int32(env.cpus()),
		ClientOnewaySemaphoreValue:         env.intProp(sysPropClientOnewaySemaphore, 65535),
		ClientAsyncSemaphoreValue:          env.intProp(sysPropClientAsyncSemaphore, 65535),
		ConnectTimeoutMillis:               env.intProp(sysPropClientConnectTimeout, 3000),
		ChannelNotActiveInterval:           60000,
		ClientChannelMaxIdleTimeSeconds:    env.intProp(sysPropClientChannelMaxIdle, 120),
		ClientSocketSndBufSize:             env.intProp(sysPropSocketSndBuf, 0),
		ClientSocketRcvBufSize:             env.intProp(sysPropSocketRcvBuf, 0),
		ClientPooledByteBufAllocatorEnable: false,
		ClientCloseSocketIfTimeout:         env.boolProp(sysPropClientCloseSocketIfTimeout, true),
		UseTLS:                             false,
		WriteBufferHighWaterMark:           env.intProp(sysPropWriteBufferHigh, 0),
		WriteBufferLowWaterMark:            env.intProp(sysPropWriteBufferLow, 0),
		ScanAvailableNameSrv:               true,
		SocksProxyConfig:                   "{}",
		DisableCallbackExecutor:            false,
		DisableNettyWorkerGroup:            false,
		MaxReconnectIntervalTimeSeconds:    60,
		EnableReconnectForGoAway:           true,
	}
}
