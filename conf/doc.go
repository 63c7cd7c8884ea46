// Package conf reads the configuration of the name server and the broker the
// way Apache RocketMQ's Java startups do, so that an existing broker.conf,
// namesrv.conf and the distribution's bin scripts keep working unchanged.
//
// The pieces, in the order a startup uses them:
//
//   - [ParseProperties] / [LoadPropertiesFile]: java.util.Properties.load,
//     byte for byte (ISO-8859-1, separators, escapes, continuation lines),
//     remembering the file and line of every key.
//   - [BrokerConfig], [MessageStoreConfig], [NettyServerConfig],
//     [NettyClientConfig], [NamesrvConfig]: one plain struct per Java class,
//     with the Java key names in `prop` struct tags and Java 4.9.8's defaults
//     from the Default... constructors. The machine-dependent defaults (host
//     name, local address, CPU count, user.home, environment variables and
//     JVM system properties) come from an [Env] passed in, never from globals.
//     The 5.x keys rmqgo reads carry the tag option since=5, the 4.x keys
//     5.3.3 dropped until=4; the 5.3.3 keys rmqgo does not implement are
//     listed with their defaults in javafive.go, so a 5.x broker
//     (RMQGO_LINE=5, [Env.Line5]) lists 5.3.3's key set.
//   - [Bind]: MixAll.properties2Object, with Java's parsing rules and its habit
//     of silently keeping the default when a value does not parse; unlike
//     Java it returns [Warning]s naming file:line for what it ignored.
//   - [PrintConfig], [Configuration.PropertiesString]: the -p/-m listings and
//     the GET_BROKER_CONFIG / GET_NAMESRV_CONFIG body;
//     [Configuration.Update] and [Configuration.Persist] for the update
//     requests, which rewrite the -c file.
//   - [ParseBrokerArgs], [ParseNamesrvArgs], [LoadBroker], [LoadNamesrv]: the
//     commons-cli command lines and the post-processing of BrokerStartup and
//     NamesrvStartup.
//
// The files:
//
//	properties.go     Properties: java.util.Properties.load, keys with their file:line
//	linereader.go     the JDK's LineReader: logical lines, comments, continuations
//	javaparse.go      Integer.parseInt, Boolean.parseBoolean and String.trim as Java has them
//	schema.go         Object, the struct-tag schema of the typed configs, each key's origin
//	enums.go          BrokerRole, FlushDiskType and the other Java enums held by name
//	bind.go           Bind: MixAll.properties2Object, with Warnings
//	broker_config.go  BrokerConfig
//	store_config.go   MessageStoreConfig
//	netty_config.go   NettyServerConfig and NettyClientConfig
//	namesrv_config.go NamesrvConfig
//	controller_config.go  ControllerConfig and JraftConfig (5.x controller.conf)
//	javafive.go       the 5.3.3 keys rmqgo lists with their defaults but does not implement
//	derived.go        the values Java's getters derive from the raw fields
//	env.go            Env: environment variables, JVM system properties, host facts
//	tls.go            TLSConfig: Java's TlsSystemConfig properties and tls.config.file
//	cli.go            CommandLine: the commons-cli options of the two startups
//	startup.go        LoadBroker, LoadNamesrv, the startups' post-processing and exit codes
//	controller_startup.go  LoadController, mqcontroller's command line, the controller group's members
//	validate.go       Validate: every value that cannot work, with file:line
//	render.go         PrintConfig: the -p / -m listings
//	configuration.go  Configuration: GET/UPDATE_BROKER_CONFIG and their name-server twins
//	persist.go        WriteProperties: rewriting the -c file as MixAll.string2File does
//
// Where this package deliberately differs from Java 4.9.8 the doc comment of
// the identifier says so; the common theme is "same result, plus a warning".
package conf
