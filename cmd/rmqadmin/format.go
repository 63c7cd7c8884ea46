package main

// Java's formatting as mqadmin's printf calls use it: Double.toString,
// String.format("%.Nf") (HALF_UP on the shortest decimal), UtilAll's date
// formats in the local time zone, UtilAll.frontStringAtLeast and
// HashMap.toString.

import (
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/store"
)

// javaDouble is Double.toString (0.0, 1.5, 1.0E10).
func javaDouble(v float64) string { return string(fastjson.AppendJavaDouble(nil, v)) }

// javaFixed is String.format("%.Nf", v).
func javaFixed(v float64, prec int) string { return fastjson.FormatJavaFixed(v, prec) }

// humanString2 is UtilAll.timeMillisToHumanString2: yyyy-MM-dd HH:mm:ss,SSS.
func humanString2(ms int64) string {
	return time.UnixMilli(ms).Format("2006-01-02 15:04:05,000")
}

// formatDate is UtilAll.formatDate(date, YYYY_MM_DD_HH_MM_SS).
func formatDate(ms int64) string {
	return time.UnixMilli(ms).Format("2006-01-02 15:04:05")
}

// frontStringAtLeast is UtilAll.frontStringAtLeast: at most size
// characters of s.
func frontStringAtLeast(s string, size int) string {
	if r := []rune(s); len(r) > size {
		return string(r[:size])
	}
	return s
}

// orNull is a Java String for %s: "null" when absent.
func orNull(s string, ok bool) string {
	if !ok {
		return "null"
	}
	return s
}

// javaHashMapString is HashMap<String,String>.toString of pairs put in
// order into a new HashMap of the initial capacity
// (MessageDecoder.string2messageProperties: 16 on 4.x, 128 on 5.x).
func javaHashMapString(pairs [][2]string, initial int) string {
	hashes := make([]int32, len(pairs))
	for i, p := range pairs {
		hashes[i] = javaStringHash(p[0])
	}
	parts := make([]string, 0, len(pairs))
	for _, i := range hashOrder(hashes, grownCapacity(initial, len(pairs))) {
		parts = append(parts, pairs[i][0]+"="+pairs[i][1])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// javaHashOrder is the order a new HashMap or ConcurrentHashMap iterates
// distinct keys put in this order. It returns the keys' indexes.
func javaHashOrder(keys []string) []int {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = javaStringHash(k)
	}
	return hashOrder(hashes, grownCapacity(16, len(hashes)))
}

// javaStringHash is String.hashCode.
func javaStringHash(s string) int32 { return int32(store.TagsCode(s)) }

// hashOrder is the order a HashMap of capacity size iterates entries of
// these hashes put in this order: bucket by bucket (hash spread h ^ h>>>16,
// masked), each bucket in insertion order.
func hashOrder(hashes []int32, size int) []int {
	buckets := make([][]int, size)
	for i, h := range hashes {
		spread := uint32(h) ^ uint32(h)>>16
		b := int(spread & uint32(size-1))
		buckets[b] = append(buckets[b], i)
	}
	order := make([]int, 0, len(hashes))
	for _, b := range buckets {
		order = append(order, b...)
	}
	return order
}

// grownCapacity is the table size of a new HashMap of the initial
// capacity (a power of two) after n puts: doubled each time it gets more
// than 3/4 full.
func grownCapacity(initial, n int) int {
	size := initial
	for float64(n) > 0.75*float64(size) {
		size *= 2
	}
	return size
}

// putAllCapacity is the table size of a new HashMap after putAll of n
// entries: tableSizeFor(n / 0.75 + 1).
func putAllCapacity(n int) int {
	want := int(float32(n)/0.75 + 1)
	size := 1
	for size < want {
		size *= 2
	}
	return size
}
