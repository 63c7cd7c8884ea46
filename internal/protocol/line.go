package protocol

// Line is a RocketMQ release line. The broker's config documents (the
// config/*.json files, also the bodies of the admin codes that return
// them) have more fields in 5.x than in 4.x; AppendJSON methods that take
// a Line write the field set Java's classes of that line write, so a Java
// broker of the same line finds exactly the bytes it would have written.
// Java readers of either line accept the other line's form (fastjson
// ignores unknown fields and keeps defaults for missing ones).
type Line uint8

// Release lines. A Line below Line5 (including the zero value) writes the
// 4.x form.
const (
	// Line4 is rocketmq 4.9.x (fastjson 1.2.69).
	Line4 Line = 4
	// Line5 is rocketmq 5.x (fastjson 1.2.83 for these documents).
	Line5 Line = 5
)

// v5 reports whether l writes the 5.x field set.
func (l Line) v5() bool { return l >= Line5 }

// String returns "4.x" or "5.x".
func (l Line) String() string {
	if l.v5() {
		return "5.x"
	}
	return "4.x"
}

// LocalProxyField is the ext field with which the proxy inside a broker's
// process (mqbroker --enable-proxy) marks its requests to that broker: a
// secret made at start, never stored, that lets them past the broker's
// ACL 2.0, as Java's local proxy calls the broker's processors directly,
// without the remoting port's checks. Not a Java field.
const LocalProxyField = "rmqgo_local_proxy"
