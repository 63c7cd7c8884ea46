package conf

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -p prints every field, grouped per config in Java's order, one
// key=value per line; Java 4.9.8's lines come first in each group, in the
// same order, then the 5.x keys.
func TestPrintConfigShape(t *testing.T) {
	b := DefaultBrokerConfigs(testEnv())
	var out bytes.Buffer
	require.NoError(t, PrintConfig(&out, false, b.Objects()...))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	assert.Equal(t, ConfigLines(false, b.Objects()...), lines)
	assert.Equal(t, "rocketmqHome=", lines[0], "null prints as empty")
	assert.Equal(t, "namesrvAddr=", lines[1])
	for _, l := range lines {
		k, _, ok := strings.Cut(l, "=")
		assert.True(t, ok && k != "", l)
	}
	assert.Equal(t, readGolden(t, "java498_broker_p.txt"), withoutFiveKeys(lines, b.Objects()...))
	assert.Contains(t, lines, "isEnableBatchPush=false", "the Java field name, not the setter's")
	assert.Contains(t, lines, "storeType=default", "5.x keys are listed too")

	// The groups follow the order the configs are passed in.
	first := ConfigLines(false, b.Store, b.Broker)
	assert.Equal(t, "storePathRootDir=/home/test/store", first[0])
}

// -m prints the @ImportantField ones (testdata/java498_broker_m.txt).
func TestPrintImportantConfig(t *testing.T) {
	b := DefaultBrokerConfigs(testEnv())
	lines := ConfigLines(true, b.Objects()...)
	assert.Equal(t, readGolden(t, "java498_broker_m.txt"), withoutFiveKeys(lines, b.Objects()...))
	assert.NotContains(t, lines, "brokerIP2=192.0.2.2")
}

func withoutFiveKeys(lines []string, objs ...Object) []string {
	five := make(map[string]bool)
	for _, obj := range objs {
		for _, f := range fieldsOf(structOf(obj).Type()) {
			if f.since5 {
				five[f.print] = true
			}
		}
	}
	var out []string
	for _, l := range lines {
		if k, _, _ := strings.Cut(l, "="); !five[k] {
			out = append(out, l)
		}
	}
	return out
}

// GET_BROKER_CONFIG's body: every non-null field once, then the file's
// extra keys with their raw values; it parses back to the same values.
func TestPropertiesString(t *testing.T) {
	file, err := ParseProperties([]byte("brokerName=broker-a\ncustomKey = raw value  \nmapedFileSizeCommitLog=1\n"), "broker.conf")
	require.NoError(t, err)
	b := DefaultBrokerConfigs(testEnv())
	b.File = file
	Bind(file, b.Objects()...)
	body := b.NewConfiguration(false).PropertiesString()

	assert.True(t, strings.HasSuffix(body, "\n"))
	assert.NotContains(t, body, "rocketmqHome=", "null fields are left out (object2Properties)")
	assert.NotContains(t, body, "storePathCommitLog=")
	assert.Equal(t, 1, strings.Count(body, "\nwriteBufferHighWaterMark="), "shared keys once")
	assert.Contains(t, body, "\nbrokerName=broker-a\n")
	assert.True(t, strings.HasSuffix(body, "customKey=raw value  \nmapedFileSizeCommitLog=1\n"))

	back, err := ParseProperties([]byte(body), "body")
	require.NoError(t, err)
	assert.Equal(t, "broker-a", mustValue(t, back, "brokerName"))
	assert.Equal(t, "1073741824", mustValue(t, back, "mappedFileSizeCommitLog"))
	assert.Equal(t, "ASYNC_MASTER", mustValue(t, back, "brokerRole"))
	assert.Equal(t, "raw value  ", mustValue(t, back, "customKey"))
}

func mustValue(t *testing.T, p *Properties, key string) string {
	t.Helper()
	v, ok := p.Value(key)
	require.True(t, ok, key)
	return v
}
