package store

import (
	"encoding/hex"
	"math"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workedExample is the 150-byte v1 record of docs/reference/store.md §2.2.
const workedExample = `
00 00 00 96 da a3 20 a7 77 d1 89 82 00 00 00 01
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 01 8b cf e5 68 00
c0 a8 00 0a 00 00 c3 50 00 00 01 8b cf e5 68 7b
c0 a8 00 01 00 00 2a 9f 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 05 48 65 6c 6c 6f 09 54 6f
70 69 63 54 65 73 74 00 2d 54 41 47 53 01 54 61
67 41 02 4b 45 59 53 01 6f 72 64 65 72 2d 31 02
43 4c 55 53 54 45 52 01 44 65 66 61 75 6c 74 43
6c 75 73 74 65 72`

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	require.NoError(t, err)
	return b
}

func exampleMessage() Message {
	return Message{
		Topic: "TopicTest", QueueID: 1, Body: []byte("Hello"),
		Properties:    "TAGS\x01TagA\x02KEYS\x01order-1\x02CLUSTER\x01DefaultCluster",
		BornTimestamp: 1700000000000,
		BornHost:      netip.MustParseAddrPort("192.168.0.10:50000"),
		StoreHost:     netip.MustParseAddrPort("192.168.0.1:10911"),
	}
}

func TestRecordMatchesJavaBytes(t *testing.T) {
	m := exampleMessage()
	rec := appendRecord(nil, &m, false)
	patchRecord(rec, 0, 0, 1700000000123)
	assert.Equal(t, mustHex(t, workedExample), rec)
}

func TestRecordDecodeRoundTrip(t *testing.T) {
	want := mustHex(t, workedExample)
	r, check, why := decodeRecord(want, true)
	require.Equal(t, recordOK, check, why)
	assert.EqualValues(t, 150, r.Size)
	assert.Equal(t, "TopicTest", r.Topic)
	assert.Equal(t, []byte("Hello"), r.Body)
	assert.EqualValues(t, 1700000000123, r.StoreTimestamp)
	assert.Equal(t, "192.168.0.10:50000", r.BornHost.String())
	assert.Equal(t, "192.168.0.1:10911", r.StoreHost.String())
	tags, ok := r.Property("TAGS")
	assert.True(t, ok)
	assert.Equal(t, "TagA", tags)
	assert.Equal(t, "C0A8000100002A9F0000000000000000", r.MsgID())
}

func TestRecordIPv6AndV2(t *testing.T) {
	m := exampleMessage()
	m.BornHost = netip.MustParseAddrPort("[2001:db8::1]:40000")
	m.StoreHost = netip.MustParseAddrPort("[2001:db8::2]:10911")
	m.Topic = strings.Repeat("t", 200)
	rec := appendRecord(nil, &m, true)
	patchRecord(rec, 7, 4096, 1700000000999)
	r, check, why := decodeRecord(rec, true)
	require.Equal(t, recordOK, check, why)
	assert.Equal(t, MagicV2, r.Magic)
	assert.Equal(t, SysFlagBornHostV6|SysFlagStoreHostV6, r.SysFlag)
	assert.Equal(t, m.Topic, r.Topic)
	assert.EqualValues(t, 7, r.QueueOffset)
	assert.EqualValues(t, 4096, r.PhysicalOffset)
	assert.EqualValues(t, 1700000000999, r.StoreTimestamp)
	assert.Equal(t, m.StoreHost, r.StoreHost)
	assert.Len(t, r.MsgID(), 56)
	host, off, err := DecodeMessageID(r.MsgID())
	require.NoError(t, err)
	assert.Equal(t, m.StoreHost, host)
	assert.EqualValues(t, 4096, off)
}

func TestRecordRejectsDamage(t *testing.T) {
	good := mustHex(t, workedExample)
	cases := map[string]func(b []byte) []byte{
		"bad magic":      func(b []byte) []byte { b[4] = 0; return b },
		"crc mismatch":   func(b []byte) []byte { b[88] ^= 1; return b },
		"size too large": func(b []byte) []byte { b[3]++; return append(b, 0) },
		"truncated":      func(b []byte) []byte { return b[:100] },
		"zeros":          func(b []byte) []byte { return make([]byte, 150) },
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			b := damage(append([]byte(nil), good...))
			_, check, _ := decodeRecord(b, true)
			assert.Equal(t, recordInvalid, check)
		})
	}
	blank := make([]byte, 64)
	putBlank(blank)
	_, check, _ := decodeRecord(blank, true)
	assert.Equal(t, recordBlank, check)
}

func TestJavaHashes(t *testing.T) {
	assert.EqualValues(t, 2598919, TagsCode("TagA"))
	assert.EqualValues(t, 0, TagsCode(""))
	assert.EqualValues(t, 1829193424, indexKeyHash("TopicTest", "order-1"))
	// "é" is one UTF-16 unit (0xE9), "😀" two (0xD83D 0xDE00).
	assert.EqualValues(t, 0xE9, javaHash(0, "é"))
	assert.EqualValues(t, 0xD83D*31+0xDE00, javaHash(0, "😀"))
}

func TestPropertiesJavaRules(t *testing.T) {
	m := ParseProperties("a\x01b\x02\x01x\x02k\x01\x02dup\x011\x02dup\x012\x02")
	assert.Equal(t, map[string]string{"a": "b", "dup": "2"}, m)
	assert.Equal(t, "a\x01b\x02dup\x012", EncodeProperties(m))
	v, ok := propertyValue([]byte("TAGS\x01x\x02KEYS\x01k1 k2"), "KEYS")
	assert.True(t, ok)
	assert.Equal(t, "k1 k2", v)
}

// TestMessageIDIsJavas pins the offset message id to the string Java's
// MessageDecoder.createMessageId makes: upper-case hex of the address, the
// port as an int and the offset as a long.
func TestMessageIDIsJavas(t *testing.T) {
	v4 := netip.MustParseAddrPort("127.0.0.1:10911")
	assert.Equal(t, "7F00000100002A9F00000000ABCDEF12", MessageID(v4, 0xABCDEF12))
	v6 := netip.MustParseAddrPort("[fe80::1]:10911")
	assert.Equal(t, "FE80000000000000000000000000000100002A9F7FFFFFFFFFFFFFFF", MessageID(v6, math.MaxInt64))
}
