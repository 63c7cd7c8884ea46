package fastjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules below were each read off the oracle (compat/fastjson: the
// real fastjson of 4.9.7 and 5.3.3); internal/protocol's differential test
// holds the whole reader to it.

// readOne decodes {"v":<value>} with fn on the value.
func readOne[T any](t *testing.T, value string, fn func(r *Reader) (T, error)) (T, error) {
	t.Helper()
	var v T
	err := Decode([]byte(`{"v":`+value+`}`), func(r *Reader) error {
		return r.Object(func(string) (err error) {
			v, err = fn(r)
			return err
		})
	})
	return v, err
}

func TestIntegersAsFastjsonConvertsThem(t *testing.T) {
	longs := map[string]int64{`"+5"`: 5, `"-5"`: -5, `1.5`: 1, `1e2`: 100, `-0`: 0, `null`: 7, `""`: 7, `"null"`: 7,
		`"1,000"`: 1000, `99999999999999999999`: 7766279631452241919, `1e19`: -8446744073709551616}
	for in, want := range longs {
		got, err := readOne(t, in, func(r *Reader) (int64, error) { return r.LongOr(7) })
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{`"1.5"`, `" 7"`, `"7 "`, `"1e2"`, `"abc"`, `true`, `[]`, `{}`, `9223372036854775808`} {
		_, err := readOne(t, in, func(r *Reader) (int64, error) { return r.Long() })
		assert.ErrorIs(t, err, ErrMalformed, in)
	}
	ints := map[string]int32{`true`: 1, `false`: 0, `"-5"`: -5, `2.9`: 2}
	for in, want := range ints {
		got, err := readOne(t, in, func(r *Reader) (int32, error) { return r.Int() })
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := readOne(t, `2147483648`, func(r *Reader) (int32, error) { return r.Int() })
	assert.ErrorIs(t, err, ErrMalformed)
}

func TestBooleansEnumsAndStrings(t *testing.T) {
	for in, want := range map[string]bool{`"TRUE"`: true, `1`: true, `"1"`: true, `1.5`: true, `2`: false, `"false"`: false} {
		got, err := readOne(t, in, func(r *Reader) (bool, error) { return r.Bool() })
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{`"yes"`, `"2"`, `9223372036854775808`} {
		_, err := readOne(t, in, func(r *Reader) (bool, error) { return r.Bool() })
		assert.ErrorIs(t, err, ErrMalformed, in)
	}
	names := []string{"A_ONE", "B_TWO"}
	for in, want := range map[string]string{`1`: "B_TWO", `"a_one"`: "A_ONE", `"NOPE"`: "", `""`: "", `"1"`: "", `null`: ""} {
		got, err := readOne(t, in, func(r *Reader) (string, error) { return r.Enum(names) })
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{`2`, `1.0`, `-1`} {
		_, err := readOne(t, in, func(r *Reader) (string, error) { return r.Enum(names) })
		assert.ErrorIs(t, err, ErrMalformed, in)
	}
	for in, want := range map[string]string{`1e3`: "1E+3", `+5`: "5", `01`: "01", `1e-3`: "0.001", `true`: "true",
		`NaN`: "", `-.5`: "-0.5", `+.5`: "0.5", `[1, 2]`: `[1,2]`, `[00,+1.50,1e3]`: `[0,1.50,1E+3]`, `{"b":1,"a":{"c":null}}`: `{"a":{},"b":1}`, `"a` + "\xe5\xae" + `"`: "a\uFFFD"} {
		got, err := readOne(t, in, func(r *Reader) (string, error) { return r.Str() })
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{`.5`, `-.`, `[.5]`, `{"a":.5}`} { // a number starts with a digit or a sign
		_, err := readOne(t, in, func(r *Reader) (string, error) { return r.Str() })
		assert.ErrorIs(t, err, ErrMalformed, in)
	}
}

func TestStructureAsFastjsonTakesIt(t *testing.T) {
	ok := []string{`/* c */{"v":1}`, `{"v":1}// c`, `{,"v":1}`, `{"v":1,,}`, `{"v":1;"w":2}`, `{'v':1}`, `{v:1}`,
		`{"v":1}` + "\x00", "\xEF\xBB\xBF{\"v\":1}", `{"v":1,"x":[,1,,2]}`, `{"v":1,"x":new Date(5)}`, `{"v":1,"x":NaN}`, "{\"v\":\"a\x1ab\"}"}
	for _, in := range ok {
		err := Decode([]byte(in), func(r *Reader) error { return r.Object(func(string) error { return r.Skip() }) })
		assert.NoError(t, err, in)
	}
	bad := []string{`{"v" /* c */ :1}`, `{"v":1;;"w":2}`, `{1:2}`, `{v-w:1}`, `{"v":True}`, `{"v":0x10}`, `{"v":Infinity}`,
		`{"@type":"java.util.HashMap"}`, `{"v":"\q"}`, "{\"\x1a\":1}", "{'a\x1a':1}"} // 0x1A in a key: fastjson's end of input
	for _, in := range bad {
		err := Decode([]byte(in), func(r *Reader) error { return r.Object(func(string) error { return r.Skip() }) })
		assert.ErrorIs(t, err, ErrMalformed, in)
	}
	err := Decode([]byte(`{0:1,-1:2,"3":3}`), func(r *Reader) error {
		return r.NumberMap(func(k string) error { _, err := r.LongKey(k); r.Skip(); return err })
	})
	assert.NoError(t, err, "Integer keys may be bare numbers")
	beanKeys := func(in string) error {
		return Decode([]byte(in), func(r *Reader) error { return r.BeanKeyMap(func(string) error { return r.Skip() }) })
	}
	assert.NoError(t, beanKeys(`{{"queueId":1}:5,}`), "a trailing comma")
	for _, in := range []string{`{,}`, `{,{"queueId":1}:5}`, `{{"queueId":1}:5,,{"queueId":2}:6}`} {
		assert.ErrorIs(t, beanKeys(in), ErrMalformed, "MapDeserializer takes no empty member: %s", in)
	}
}

func TestNullKeyAndRefsAreVisible(t *testing.T) {
	var nulls []bool
	err := Decode([]byte(`{null:1,"null":2}`), func(r *Reader) error {
		return r.Map(func(string) error { nulls = append(nulls, r.NullKey()); return r.Skip() })
	})
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false}, nulls)
	r := &Reader{data: []byte(`{"$ref":"$.a"}`)}
	assert.True(t, r.IsRef())
	assert.Equal(t, 0, r.pos, "IsRef reads nothing")
}

func TestObjectHandsOnPropertyNamesNormalized(t *testing.T) {
	var keys []string
	body := `{"topicName":1,topic_name:2,'TOPIC-NAME':3,"topicName":4,"top\u0069cName":5,"@Type":6,"x` + "\xff" + `y":7}`
	err := Decode([]byte(body), func(r *Reader) error {
		return r.Object(func(key string) error { keys = append(keys, key); return r.Skip() })
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"topicname", "topicname", "topicname", "topicname", "topicname", "@type", "x\uFFFDy"}, keys)

	keys = nil
	err = Decode([]byte(`{"topicName":1,"TopicName":{"a_b":2}}`), func(r *Reader) error {
		return r.Map(func(key string) error { keys = append(keys, key); return r.Skip() })
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"topicName", "TopicName"}, keys, "a map's keys are kept as written")

	err = Decode([]byte(`{"@type":"x"}`), func(r *Reader) error {
		return r.Object(func(string) error { return r.Skip() })
	})
	assert.ErrorIs(t, err, ErrMalformed, "autoType")
}
