// Package configfile reads and writes the broker's JSON config files,
// ${storePathRootDir}/config/*.json, in the shapes and with the backup
// discipline of Java's ConfigManager, so that a Java broker and this one
// can start on each other's store. The name server's kvConfig.json uses
// the same Persist.
//
// The files (on-disk names and formats: do not change; the shapes are
// drawn next to their types in internal/protocol):
//
//	topics.json             protocol.TopicConfigSerializeWrapper   topic configs + dataVersion
//	consumerOffset.json     protocol.ConsumerOffsetSerializeWrapper "topic@group" -> {queueId: offset}
//	delayOffset.json        protocol.DelayOffsetSerializeWrapper    delay level -> offset
//	subscriptionGroup.json  protocol.SubscriptionGroupWrapper       consumer groups + dataVersion
//	consumerFilter.json     protocol.ConsumerFilterWrapper          topic -> group -> filter
//	messageRequestMode.json protocol.MessageRequestModeWrapper      topic -> group -> PULL or POP (5.x)
//	consumerOrderInfo.json  protocol.ConsumerOrderInfoWrapper       "topic@group" -> {queueId: last orderly pop} (5.x)
//	X.bak                   the previous content of X
//	X.tmp                   the next content of X while it is written
//
// Each is written as fastjson's PrettyFormat writes it (tabs, integer
// map keys bare, java.util.List fields one element a line; see
// fastjson.Pretty and PrettyLists) with the field set of one
// release line (protocol.Line4 or Line5), so the bytes are what a Java
// broker of that line writes for the same content, map entries aside:
// Java writes them in hash order, this package sorted, and neither reader
// cares.
//
// Persist, as ConfigManager.persist and MixAll.string2File, but crash-safe:
//
//  1. write X.tmp and fsync it;
//  2. copy the current X, if it has content, to X.bak and fsync it
//     (Java copies even an empty X, which can replace a good backup with
//     nothing after a crash of 5.x's in-place write);
//  3. rename X.tmp over X (atomic; Java 4.9.8 deletes X first, 5.x
//     overwrites X in place without a temporary file);
//  4. fsync the directory.
//
// A crash at any step leaves either the old or the new X whole, and X.bak
// whole or X intact. No X.tmp is left behind when Persist fails.
//
// Load, as ConfigManager.load: read X; if it is missing, empty, unreadable
// or does not parse, read X.bak instead. A missing or empty X.bak leaves
// the document empty, which is not an error (as in Java, even after a
// corrupt X: Result.Fallback says why X was not used). An X.bak that does
// not parse or cannot be read is an error naming it: Java's broker exits
// then. A stale X.tmp is ignored.
//
// configfile knows file formats and this discipline only. The tables that
// own the documents (with their locks, and the built-in topics and groups
// Java merges over the loaded ones) belong to the broker; they must not
// call Persist for the same file concurrently, as ConfigManager.persist is
// synchronized.
//
// The Go files:
//
//	file.go       Load and Persist: the discipline above, for any file
//	documents.go  Dir: the named documents of the config directory, loaded and persisted
package configfile
