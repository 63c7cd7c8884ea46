package remoting

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// javaHeaders are headers as Java clients write them, and near misses the
// fast path must leave to the general reader.
var javaHeaders = []string{
	`{"code":310,"extFields":{"a":"please_rename_unique_group_name","b":"TopicTest","c":"TBW102","d":"4","e":"1","f":"0","g":"1733140000000","h":"0","i":"TAGS\u0001TagA\u0002","j":"0","k":"false","m":"false","n":"broker-a"},"flag":0,"language":"JAVA","opaque":1234,"serializeTypeCurrentRPC":"JSON","version":409}`,
	`{"code":11,"extFields":{"consumerGroup":"g","topic":"T","queueId":"0","queueOffset":"12","maxMsgNums":"32","sysFlag":"3","commitOffset":"0","suspendTimeoutMillis":"15000","subscription":"*","subVersion":"0","expressionType":"TAG"},"flag":0,"language":"JAVA","opaque":5,"serializeTypeCurrentRPC":"JSON","version":399}`,
	`{"code":0,"flag":1,"language":"GO","opaque":-7,"remark":"ok","serializeTypeCurrentRPC":"JSON","version":317}`,
	`{"code":34,"extFields":{},"flag":0,"language":"CPP","opaque":0,"version":0}`,
	` { "code" : 34 , "flag" : 0 } `,
	`{}`,
	`{"code":"34"}`, `{"Code":34}`, `{"code":034}`, `{"code":3.0}`, `{"code":2147483648}`, `{"code":-2147483648}`,
	`{"extFields":null}`, `{"extFields":{"a":1}}`, `{"remark":"a\"b"}`, `{"remark":"caf\u00e9"}`, `{"remark":"café"}`,
	`{"code":1}x`, `{"code":1,}`, `{"code":1`, `{"language":3}`, `{"language":"java"}`, `{"code":1,"code":2}`,
	`{"extFields":{"a":"1","a":"2"}}`, `[]`, `"x"`, ``,
}

func TestJSONHeaderFastPathTakesJavaShape(t *testing.T) {
	for _, h := range javaHeaders[:6] {
		var c Command
		require.True(t, decodeJSONHeaderFast([]byte(h), &c), h)
	}
	var c Command
	require.True(t, decodeJSONHeaderFast([]byte(javaHeaders[0]), &c))
	assert.Equal(t, int32(310), c.Code)
	assert.Equal(t, "TopicTest", c.ExtString("b"))
	assert.Equal(t, LanguageJava, c.Language)
	assert.Equal(t, int32(409), c.Version)
}

func TestJSONHeaderFastPathAgreesWithGeneralReader(t *testing.T) {
	for _, h := range javaHeaders {
		checkFastAgrees(t, []byte(h))
	}
}

// checkFastAgrees fails when the fast path accepts data but decodes it
// otherwise than the general reader.
func checkFastAgrees(t *testing.T, data []byte) {
	var fast, general Command
	if !decodeJSONHeaderFast(data, &fast) {
		return
	}
	require.NoError(t, decodeJSONHeaderGeneral(data, &general), "%q", data)
	assert.Equal(t, general, fast, "%q", data)
}

func FuzzJSONHeaderFastPath(f *testing.F) {
	for _, h := range javaHeaders {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastAgrees(t, data)
	})
}

func BenchmarkJSONHeaderDecode(b *testing.B) {
	data := []byte(javaHeaders[0])
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var c Command
		if err := decodeJSONHeader(data, &c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJSONHeaderDecodeGeneral(b *testing.B) {
	data := []byte(javaHeaders[0])
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var c Command
		if err := decodeJSONHeaderGeneral(data, &c); err != nil {
			b.Fatal(err)
		}
	}
}
