package broker

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// The orders were printed by Java 17's java.util.HashMap (jshell, keySet()
// after putting the keys in the given order).
func TestPropsIterateInJavaHashMapOrder(t *testing.T) {
	cases := []struct{ put, java string }{
		{"UNIQ_KEY,WAIT,TAGS,KEYS,CLUSTER", "KEYS,UNIQ_KEY,CLUSTER,WAIT,TAGS"},
		{"KEYS,TAGS,UNIQ_KEY,WAIT,MIN_OFFSET,MAX_OFFSET,CONSUME_START_TIME,a,b,c,d,e,f,CLUSTER",
			"a,b,c,d,e,f,CONSUME_START_TIME,MIN_OFFSET,MAX_OFFSET,KEYS,UNIQ_KEY,CLUSTER,WAIT,TAGS"},
		{"TRAN_MSG,PGROUP,UNIQ_KEY,WAIT,REAL_TOPIC,REAL_QID,CLUSTER", "REAL_TOPIC,TRAN_MSG,UNIQ_KEY,CLUSTER,PGROUP,WAIT,REAL_QID"},
	}
	for _, c := range cases {
		p := parseProps("", newLine(protocol.Line4))
		for _, k := range strings.Split(c.put, ",") {
			p.set(k, "v")
		}
		assert.Equal(t, c.java, javaOrderNames(p))
	}
}

// 5.x string2messageProperties makes a HashMap(128); the orders were
// printed by jshell for new HashMap<>(128).
func TestPropsOfLine5IterateInHashMap128Order(t *testing.T) {
	cases := []struct{ put, java string }{
		{"UNIQ_KEY,WAIT,TAGS,KEYS,CLUSTER", "UNIQ_KEY,CLUSTER,TAGS,KEYS,WAIT"},
		{"KEYS,TAGS,UNIQ_KEY,WAIT,MIN_OFFSET,MAX_OFFSET,CONSUME_START_TIME,a,b,c,d,e,f,CLUSTER",
			"CONSUME_START_TIME,UNIQ_KEY,CLUSTER,MIN_OFFSET,TAGS,KEYS,WAIT,a,b,c,d,e,f,MAX_OFFSET"},
	}
	for _, c := range cases {
		p := parseProps("", newLine(protocol.Line5))
		for _, k := range strings.Split(c.put, ",") {
			p.set(k, "v")
		}
		assert.Equal(t, c.java, javaOrderNames(p))
	}
}

func TestPropsEncodeSeparatorsPerLine(t *testing.T) {
	p := parseProps("TAGS\x01A\x02KEYS\x01k1 k2\x02\x02bad\x02empty\x01", newLine(protocol.Line4))
	assert.Equal(t, "KEYS\x01k1 k2\x02TAGS\x01A", p.encode(newLine(protocol.Line4)))
	assert.Equal(t, "KEYS\x01k1 k2\x02TAGS\x01A\x02", p.encode(newLine(protocol.Line5)))
	p.del("KEYS")
	assert.Equal(t, "TAGS\x01A", p.encode(newLine(protocol.Line4)))
}

// javaOrderNames is the property names in javaOrder, comma-separated.
func javaOrderNames(p *msgProps) string {
	names := make([]string, 0, len(p.props))
	for _, i := range p.javaOrder(nil) {
		names = append(names, p.props[i].name)
	}
	return strings.Join(names, ",")
}
