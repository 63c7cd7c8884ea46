package fastjson

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrettyJSON(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty object", `{}`, `{}`},
		{"bean", `{"a":1,"b":"x"}`, "{\n\t\"a\":1,\n\t\"b\":\"x\"\n}"},
		{"nested empty map", `{"m":{}}`, "{\n\t\"m\":{}\n}"},
		{"integer keys", `{"t":{"T@g":{0:12,1:7}}}`, "{\n\t\"t\":{\n\t\t\"T@g\":{0:12,1:7\n\t\t}\n\t}\n}"},
		{"negative integer key", `{-1:2}`, "{-1:2\n}"},
		{"set inline", `{"s":["a","b"],"n":[1,2]}`, "{\n\t\"s\":[\"a\",\"b\"],\n\t\"n\":[1,2]\n}"},
		{"bean in set", `{"o":{"s":[{"x":1},{"y":2}]}}`,
			"{\n\t\"o\":{\n\t\t\"s\":[{\n\t\t\t\"x\":1\n\t\t},{\n\t\t\t\"y\":2\n\t\t}]\n\t}\n}"},
		{"empty array", `{"a":[]}`, "{\n\t\"a\":[]\n}"},
		{"strings kept verbatim", `{"k{,}":"v\"}{[,:\\"}`, "{\n\t\"k{,}\":\"v\\\"}{[,:\\\\\"\n}"},
		{"whitespace dropped", " {\n\t\"a\" : [ 1 , 2 ] ,\"b\":{ } } ", "{\n\t\"a\":[1,2],\n\t\"b\":{}\n}"},
		{"scalar", `12`, `12`},
		{"top-level array", `[{"a":1}]`, "[{\n\t\"a\":1\n}]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Pretty([]byte("prefix"), []byte(c.in))
			require.NoError(t, err)
			assert.Equal(t, "prefix"+c.want, string(got))
		})
	}
}

// TestPrettyLists: the bytes are fastjson 1.2.83's PrettyFormat of a bean
// with a List<Long> property o (and consumerOrderInfo.json's, in
// internal/configfile's tests).
func TestPrettyLists(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"list", `{"o":[1,null,3]}`, "{\n\t\"o\":[\n\t\t1,\n\t\tnull,\n\t\t3\n\t]\n}"},
		{"empty list", `{"o":[]}`, "{\n\t\"o\":[]\n}"},
		{"deeper, beside a set", `{"m":{0:{"o":[5,1],"s":[1,2]}}}`,
			"{\n\t\"m\":{0:{\n\t\t\t\"o\":[\n\t\t\t\t5,\n\t\t\t\t1\n\t\t\t],\n\t\t\t\"s\":[1,2]\n\t\t}\n\t}\n}"},
		{"bean in a list", `{"o":[{"x":1}]}`, "{\n\t\"o\":[\n\t\t{\n\t\t\t\"x\":1\n\t\t}\n\t]\n}"},
		{"a value named o is no key", `{"a":["o",[1]],"b":"o"}`, "{\n\t\"a\":[\"o\",[1]],\n\t\"b\":\"o\"\n}"},
		{"a bare key after the name", `{"o":{0:[1]}}`, "{\n\t\"o\":{0:[1]\n\t}\n}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := PrettyLists(nil, []byte(c.in), "o")
			require.NoError(t, err)
			assert.Equal(t, c.want, string(got))
			again, err := PrettyLists(nil, got, "o")
			require.NoError(t, err)
			assert.Equal(t, c.want, string(again), "a fixed point")
		})
	}
	_, err := PrettyLists(nil, []byte(`{"o":[1}`), "o")
	assert.ErrorIs(t, err, ErrMalformed)
}

func TestPrettyJSONMalformed(t *testing.T) {
	for _, in := range []string{`{`, `{"a":1}}`, `[}`, `{]`, `{"a":"x}`, `{"a":"x\`, `]`} {
		got, err := Pretty([]byte("keep"), []byte(in))
		assert.ErrorIs(t, err, ErrMalformed, in)
		assert.Equal(t, "keep", string(got), in)
	}
}

// FuzzPrettyJSON: never panics, and pretty output is a fixed point.
func FuzzPrettyJSON(f *testing.F) {
	for _, s := range []string{`{"a":{0:1}}`, `{"s":[{"x":[]}]}`, `"\"`, `{'a':'b'}`} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"dataVersion":{"counter":1,"timestamp":1700000000000},"offsetTable":{"T@g":{0:12,1:7}},"m":{},"s":["a","b"],"l":[{"x":1}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, lists := range [][]string{nil, {"o", "l"}} {
			once, err := PrettyLists(nil, in, lists...)
			if err != nil {
				continue
			}
			twice, err := PrettyLists(nil, once, lists...)
			if err != nil || !bytes.Equal(once, twice) {
				t.Fatalf("not a fixed point: %q -> %q -> %q (%v)", in, once, twice, err)
			}
		}
	})
}
