package conf

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// javaSample and its expectations were checked against JDK 17's
// java.util.Properties.load(InputStream) on the same bytes.
const javaSample = "# comment\n" +
	"   ! bang comment\n" +
	"k1=v1\n" +
	"k2 = v2  \n" +
	"k3:v3\n" +
	"k4 v4\n" +
	"k5\tv5\n" +
	"k6==x\n" +
	"k7=a=b:c\n" +
	"k8\n" +
	"  k9  :  v9\n" +
	"k10 = a\\\n     b\\\n\tc\n" +
	"k11=tab\\there\\nnl\\u0041\\q\\\\x\n" +
	"k\\ 12=esc key\n" +
	"k\\=13=v\n" +
	"k14 = # not comment\n" +
	"k15=x\\\\\n" +
	"k16=y\n" +
	"k17=z\\\n# not a comment\n" +
	"k18=\\\n\n" +
	"k19=last\r\n" +
	"k20=crlf\rk21=cr\n" +
	"k22=\\u00e9\xc3\xa9\n" +
	"k1=dup\n" +
	"\\u0041key=v\n" +
	"k23:=v\n" +
	"k24 :v\n" +
	"k25=end\\"

func TestParsePropertiesLikeJava(t *testing.T) {
	p, err := ParseProperties([]byte(javaSample), "sample.properties")
	require.NoError(t, err)
	want := map[string]string{
		"Akey": "v", "k 12": "esc key", "k1": "dup", "k10": "abc",
		"k11": "tab\there\nnlAq\\x", "k14": "# not comment", "k15": `x\`, "k16": "y",
		"k17": "z# not a comment", "k18": "", "k19": "last", "k2": "v2  ", "k20": "crlf",
		"k21": "cr", "k22": "éÃ©", "k23": "=v", "k24": "v", "k25": "end", "k3": "v3",
		"k4": "v4", "k5": "v5", "k6": "=x", "k7": "a=b:c", "k8": "", "k9": "v9", "k=13": "v",
	}
	assert.Equal(t, want, p.Map())
}

func TestParsePropertiesRules(t *testing.T) {
	tests := []struct {
		name, in, key, want string
	}{
		{"equals", "k=v", "k", "v"},
		{"colon", "k:v", "k", "v"},
		{"space", "k v", "k", "v"},
		{"tab", "k\tv", "k", "v"},
		{"form feed", "k\fv", "k", "v"},
		{"blanks around separator", "k \t = \t v", "k", "v"},
		{"only first separator", "k = = v", "k", "= v"},
		{"trailing blanks kept", "k=v  \t", "k", "v  \t"},
		{"leading blanks of line", "   \tk=v", "k", "v"},
		{"no end-of-line comment", "k=v # c", "k", "v # c"},
		{"bare key", "k", "k", ""},
		{"continuation drops indentation", "k=a\\\n   b", "k", "ab"},
		{"even backslashes do not continue", "k=a\\\\\nb=c", "k", `a\`},
		{"odd backslashes continue", "k=a\\\\\\\nb", "k", `a\b`},
		{"comment marker on continuation is text", "k=a\\\n#b", "k", "a#b"},
		{"CR line ends", "k=a\rj=b", "k", "a"},
		{"escapes", `k=\t\n\r\f\x\:\=`, "k", "\t\n\r\f" + `x:=`},
		{"unicode escape", `k=\u0048\u00E9`, "k", "Hé"},
		{"surrogate pair", `k=\uD83D\uDE00`, "k", "😀"},
		{"escaped separator in key", `a\:b=c`, "a:b", "c"},
		{"escaped blank in key", `a\ b c`, "a b", "c"},
		{"latin-1 bytes", "k=\xe9", "k", "é"},
		{"trailing backslash at EOF dropped", "k=v\\", "k", "v"},
		{"later duplicate wins", "k=1\nk=2", "k", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseProperties([]byte(tt.in), "t")
			require.NoError(t, err)
			got, ok := p.Value(tt.key)
			require.True(t, ok, "key %q missing from %v", tt.key, p.Map())
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParsePropertiesSkipsCommentsAndBlanks(t *testing.T) {
	in := "# a\n! b\n   # c\n\n \t \n#k=v\\\nreal=1\n"
	p, err := ParseProperties([]byte(in), "t")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"real": "1"}, p.Map())
}

func TestParsePropertiesLineNumbers(t *testing.T) {
	in := "# header\n\nbrokerName = a\r\nlisten\\\n  Port=1\\\n 0911\rbrokerId=1\n\n  brokerName=b\n"
	p, err := ParseProperties([]byte(in), "broker.conf")
	require.NoError(t, err)
	tests := []struct {
		key   string
		value string
		line  int
	}{
		{"brokerName", "b", 9}, // the later duplicate wins, with its line
		{"listenPort", "10911", 4},
		{"brokerId", "1", 7},
	}
	for _, tt := range tests {
		e, ok := p.Get(tt.key)
		require.True(t, ok, tt.key)
		assert.Equal(t, tt.value, e.Value, tt.key)
		assert.Equal(t, Origin{File: "broker.conf", Line: tt.line}, e.Origin, tt.key)
	}
	assert.Equal(t, []string{"brokerName", "listenPort", "brokerId"}, keysOf(p))
}

func TestParsePropertiesMalformedUnicode(t *testing.T) {
	for _, in := range []string{"a=1\nb=\\u12\n", "a=1\nb=\\u12G4\n", "a=1\n\\uZZZZ=x\n"} {
		_, err := ParseProperties([]byte(in), "broker.conf")
		require.Error(t, err, in)
		assert.True(t, errors.Is(err, ErrMalformedEscape), in)
		assert.Contains(t, err.Error(), "broker.conf:2", in)
	}
}

func TestLoadPropertiesFileMissing(t *testing.T) {
	_, err := LoadPropertiesFile(t.TempDir() + "/none.conf")
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "conf: "))
}

func keysOf(p *Properties) []string {
	var ks []string
	for _, e := range p.Entries() {
		ks = append(ks, e.Key)
	}
	return ks
}
