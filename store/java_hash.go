package store

import (
	"unicode/utf16"
	"unicode/utf8"
)

// javaHash continues Java's String.hashCode (h = 31*h + c over UTF-16
// code units, int overflow) from h over the UTF-8 string s. Invalid UTF-8
// bytes count as U+FFFD, as Java's decoder makes them.
func javaHash(h int32, s string) int32 {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			h = 31*h + int32(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError || r2 != utf8.RuneError {
			h = 31*h + r1
			h = 31*h + r2
			continue
		}
		h = 31*h + r
	}
	return h
}

// TagsCode is the consume-queue tagsCode of a TAGS value: Java's
// String.hashCode, sign-extended; 0 for no tag.
func TagsCode(tags string) int64 {
	if tags == "" {
		return 0
	}
	return int64(javaHash(0, tags))
}

// indexKeyHash is IndexFile.indexKeyHashMethod for the key topic#key:
// abs(hashCode), with Integer.MIN_VALUE mapped to 0.
func indexKeyHash(topic, key string) int32 {
	h := javaHash(javaHash(javaHash(0, topic), "#"), key)
	if h < 0 {
		h = -h // MinInt32 stays MinInt32
	}
	if h < 0 {
		return 0
	}
	return h
}

// JavaStringHash is Java's String.hashCode of s.
func JavaStringHash(s string) int32 { return javaHash(0, s) }
