package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestHistogramPercentiles(t *testing.T) {
	var h histogram
	for i := 1; i <= 1000; i++ {
		h.record(time.Duration(i) * time.Microsecond)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 500 * time.Microsecond}, {0.99, 990 * time.Microsecond}, {0.999, 999 * time.Microsecond}} {
		got := h.percentile(c.q)
		assert.InEpsilon(t, float64(c.want), float64(got), 0.01, "q=%v got %v", c.q, got)
	}
	assert.Equal(t, time.Millisecond, h.max)
	for _, v := range []uint64{0, 1, 255, 256, 1000, 123456789, 1 << 62} {
		i := bucketOf(v)
		assert.LessOrEqual(t, lowerBound(i), v)
		assert.Less(t, v-lowerBound(i), lowerBound(i)/100+1, "v=%d", v)
	}
}

func TestRouteAgainstNameServer(t *testing.T) {
	ns := startNameServer(t)
	b := startBroker(t, ns.Addr())
	createTopic(t, b.Addr(), "TopicTest", 4)

	var out bytes.Buffer
	code := run(context.Background(), []string{"route", "-n", ns.Addr(), "-t", "TopicTest", "-c", "4", "-p", "2", "-count", "500"}, &out, &out)
	assert.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "total requests: 500\n")
	assert.Contains(t, out.String(), "errors:         0\n")
	assert.Contains(t, out.String(), "response SUCCESS (0): 500")

	out.Reset()
	code = run(context.Background(), []string{"route", "-n", ns.Addr(), "-t", "Nope", "-c", "1", "-count", "3"}, &out, &out)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.String(), "response TOPIC_NOT_EXIST (17): 3")
}

func TestUsage(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), nil, &out, &out))
	assert.Contains(t, out.String(), "route")
	assert.Equal(t, 2, run(context.Background(), []string{"route", "-c", "0"}, &out, &out))
}
