// Package fastjson reads and writes JSON as Alibaba's fastjson 1.2.x, the
// library every Java RocketMQ peer reads and writes its bodies and config
// files with. The bodies themselves are package protocol's; this is the
// engine under them.
//
// Reading (Reader, Decode) accepts what fastjson accepts: unquoted keys,
// single-quoted strings, trailing commas, a UTF-8 BOM, numbers as strings
// and strings as numbers, enums by name or ordinal, null for any
// collection, unknown keys (skipped) and property names matched without
// regard to case, '_' or '-' (Property). A value of the wrong shape fails
// with ErrMalformed; Try reads one element of a collection so that a
// caller can leave out what it cannot read and go on with the rest.
//
// Writing (the Append functions) produces exactly what fastjson writes for
// the same object (wire format: do not change):
//
//   - bean properties in alphabetical order, null properties omitted, empty
//     collections written as [] and {};
//   - the default style (Fastjson, RemotingSerializable.encode) writes maps
//     with Long/Integer keys with the key bare, {0:"127.0.0.1:10911"},
//     which is not standard JSON but what every Java reader expects;
//   - the Standard style (BrowserCompatible, QuoteFieldNames,
//     SkipTransientField, MapSortField: the route encoding for clients at
//     or above V4_9_4) quotes those keys, {"0":"127.0.0.1:10911"}, escapes
//     non-ASCII as \uXXXX and '/' as \/;
//   - doubles as Java's Double.toString (AppendJavaDouble), and
//     PrettyFormat's layout of the config files (Pretty).
//
// Java writes HashMap entries in hash order; the writers here take map
// entries sorted by key (SortedKeys), which is what MapSortField gives and
// is deterministic for tests. Java readers do not depend on the order.
//
// The files:
//
//	read.go         Reader and Decode: the structure of a body as fastjson parses it
//	scalar.go       strings, numbers, booleans and enums as fastjson converts them
//	write.go        Style and the Append functions of the writers
//	pretty.go       Pretty: PrettyFormat, the layout of the config files
//	java_format.go  Java's Double.toString and String.format("%.Nf")
package fastjson
