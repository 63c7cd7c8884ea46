package remoting

import (
	"testing"
)

// sendV2Request is a SEND_MESSAGE_V2 request as a 4.9.8 producer sends it:
// the short field names a..n of SendMessageRequestHeaderV2.
func sendV2Request(st SerializeType) *Command {
	return &Command{Code: 310, Language: LanguageJava, LanguageKnown: true, Version: 409, Opaque: 1234, SerializeType: st,
		ExtFields: FieldsOf(map[string]string{
			"a": "please_rename_unique_group_name", "b": "TopicTest", "c": "TBW102", "d": "4", "e": "1",
			"f": "0", "g": "1733140000000", "h": "0",
			"i": "UNIQ_KEY\x017F000001000018B4AAC2C0F7B20000\x02WAIT\x01true\x02TAGS\x01TagA\x02",
			"j": "0", "k": "false", "m": "false", "n": "broker-a",
		}),
		Body: make([]byte, 128)}
}

// pullResponse is a PULL_MESSAGE response header without its body.
func pullResponse(st SerializeType) *Command {
	return &Command{Code: 0, Language: LanguageJava, LanguageKnown: true, Version: 409, Opaque: 99, Flag: FlagResponse,
		SerializeType: st, ExtFields: FieldsOf(map[string]string{
			"suggestWhichBrokerId": "0", "nextBeginOffset": "1032", "minOffset": "0", "maxOffset": "1032",
		})}
}

func benchmarkRoundTrip(b *testing.B, cmd *Command) {
	buf, err := cmd.AppendFrame(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, _ = cmd.AppendFrame(buf[:0])
		if _, _, err := DecodeFrame(buf, MaxFrameLength); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSendMessageV2RoundTripJSON(b *testing.B) {
	benchmarkRoundTrip(b, sendV2Request(SerializeJSON))
}

func BenchmarkSendMessageV2RoundTripRocketMQ(b *testing.B) {
	benchmarkRoundTrip(b, sendV2Request(SerializeRocketMQ))
}

func BenchmarkPullResponseHeaderRoundTripJSON(b *testing.B) {
	benchmarkRoundTrip(b, pullResponse(SerializeJSON))
}

func BenchmarkPullResponseHeaderRoundTripRocketMQ(b *testing.B) {
	benchmarkRoundTrip(b, pullResponse(SerializeRocketMQ))
}
