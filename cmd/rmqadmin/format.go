package main

// Java's formatting as mqadmin's printf calls use it: Double.toString,
// String.format("%.Nf") (HALF_UP on the shortest decimal), UtilAll's date
// formats in the local time zone, and UtilAll.frontStringAtLeast.

import (
	"time"

	"github.com/rmqgo/rmqgo/internal/fastjson"
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
