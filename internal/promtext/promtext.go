package promtext

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is a metric family's Prometheus type.
type Kind string

// The kinds the broker exports.
const (
	Counter   Kind = "counter"
	Gauge     Kind = "gauge"
	Histogram Kind = "histogram"
)

// Default descriptions of the broker's views for counters and gauges.
const (
	counterHelp = "default view for counter."
	gaugeHelp   = "default view for gauge."
)

// Family describes one instrument.
type Family struct {
	// Name is the instrument's name (rocketmq_rpc_latency).
	Name string
	Kind Kind
	// Unit is the instrument's unit (milliseconds, bytes), "" for none.
	Unit string
	// Help is a histogram's description; counters and gauges carry the
	// default views' descriptions.
	Help string
}

// sampleName is the name the samples carry: Name with the unit appended
// as the exporter appends it.
func (f Family) sampleName() string {
	unit := f.Unit
	if unit == "ms" {
		unit = "milliseconds"
	}
	if unit == "" || strings.HasSuffix(f.Name, "_"+unit) {
		return f.Name
	}
	return f.Name + "_" + unit
}

func (f Family) help() string {
	switch f.Kind {
	case Counter:
		return counterHelp
	case Gauge:
		return gaugeHelp
	}
	return f.Help
}

// Label is one name="value" pair.
type Label struct{ Name, Value string }

// Overflow is the label of the series past a Vec's limit.
var Overflow = []Label{{"otel_metric_overflow", "true"}}

// Writer builds one scrape's text.
type Writer struct {
	buf   bytes.Buffer
	scope []Label
	// common are the labels every sample carries (cluster, node_id...).
	common []Label
	stamp  string
	labels []Label
}

// NewWriter starts a scrape taken at nowMs whose samples all carry the
// scope label and common; it writes the target and scope lines.
func NewWriter(scopeName string, common []Label, nowMs int64) *Writer {
	w := &Writer{scope: []Label{{"otel_scope_name", scopeName}}, common: common, stamp: strconv.FormatInt(nowMs, 10)}
	w.buf.WriteString("# TYPE target info\n# HELP target Target metadata\ntarget_info{} 1\n")
	w.buf.WriteString("# TYPE otel_scope_info info\n# HELP otel_scope_info Scope metadata\n")
	w.buf.WriteString("otel_scope_info{otel_scope_name=\"" + escape(scopeName) + "\"} 1\n")
	return w
}

// Bytes is the text written so far.
func (w *Writer) Bytes() []byte { return w.buf.Bytes() }

// Family writes a family's TYPE and HELP lines; its samples follow.
func (w *Writer) Family(f Family) {
	w.buf.WriteString("# TYPE " + f.Name + " " + string(f.Kind) + "\n")
	w.buf.WriteString("# HELP " + f.Name + " " + f.help() + "\n")
}

// Sample writes one sample of a counter or gauge.
func (w *Writer) Sample(f Family, labels []Label, v float64) {
	w.sample(f.sampleName(), labels, nil, v)
}

// sample writes name{scope,common+labels sorted,extra} v stamp.
func (w *Writer) sample(name string, labels []Label, extra *Label, v float64) {
	w.labels = append(append(w.labels[:0], w.common...), labels...)
	slices.SortStableFunc(w.labels, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	w.buf.WriteString(name)
	w.buf.WriteByte('{')
	writeLabel(&w.buf, w.scope[0])
	for _, l := range w.labels {
		w.buf.WriteByte(',')
		writeLabel(&w.buf, l)
	}
	if extra != nil {
		w.buf.WriteByte(',')
		writeLabel(&w.buf, *extra)
	}
	w.buf.WriteString("} ")
	w.buf.Write(AppendJavaDouble(w.buf.AvailableBuffer(), v))
	w.buf.WriteString(" " + w.stamp + "\n")
}

func writeLabel(b *bytes.Buffer, l Label) {
	b.WriteString(l.Name)
	b.WriteString("=\"")
	b.WriteString(escape(l.Value))
	b.WriteByte('"')
}

// escape escapes a label value as the text format requires.
func escape(s string) string {
	if !strings.ContainsAny(s, "\\\"\n") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

// AppendJavaDouble appends v as Java's Double.toString writes it: plain
// digits with at least one after the point from 10^-3 up to 10^7,
// computerized scientific notation ("3.25586944E10", "1.0E-4") outside.
func AppendJavaDouble(dst []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "+Inf"...)
	case math.IsInf(v, -1):
		return append(dst, "-Inf"...)
	}
	abs := math.Abs(v)
	if abs == 0 || (abs >= 1e-3 && abs < 1e7) {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return append(dst, s...)
	}
	s := strconv.FormatFloat(v, 'E', -1, 64) // 3.25586944E+10
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	exp = strings.TrimPrefix(exp, "+")
	if neg := strings.HasPrefix(exp, "-"); neg {
		exp = "-" + strings.TrimLeft(exp[1:], "0")
	} else {
		exp = strings.TrimLeft(exp, "0")
	}
	return append(append(append(dst, mant...), 'E'), exp...)
}

// Count is a counter's value, added to atomically.
type Count struct{ n atomic.Int64 }

// Add adds d.
func (c *Count) Add(d int64) { c.n.Add(d) }

// Load is the value.
func (c *Count) Load() int64 { return c.n.Load() }

// Buckets is a histogram's explicit bucket bounds, ascending.
type Buckets []float64

// Hist is an explicit-bucket histogram of integer observations.
type Hist struct {
	bounds Buckets
	// counts[i] counts observations <= bounds[i] and > bounds[i-1];
	// the last one those above every bound.
	counts []atomic.Int64
	sum    atomic.Int64
	n      atomic.Int64
}

// NewHist returns an empty histogram over bounds.
func NewHist(bounds Buckets) *Hist {
	return &Hist{bounds: bounds, counts: make([]atomic.Int64, len(bounds)+1)}
}

// Record adds one observation.
func (h *Hist) Record(v int64) {
	i, _ := slices.BinarySearch(h.bounds, float64(v))
	h.counts[i].Add(1)
	h.sum.Add(v)
	h.n.Add(1)
}

// Hist writes a histogram's count, sum and cumulative buckets.
func (w *Writer) Hist(f Family, labels []Label, h *Hist) {
	name := f.sampleName()
	w.sample(name+"_count", labels, nil, float64(h.n.Load()))
	w.sample(name+"_sum", labels, nil, float64(h.sum.Load()))
	var cum int64
	for i := range h.counts {
		cum += h.counts[i].Load()
		le := Label{"le", "+Inf"}
		if i < len(h.bounds) {
			le.Value = string(AppendJavaDouble(nil, h.bounds[i]))
		}
		w.sample(name+"_bucket", labels, &le, float64(cum))
	}
}

// Vec holds one instrument per label set K, made on first use, up to a
// limit (metricsOtelCardinalityLimit): past it, new label sets share the
// overflow key's instrument, as OpenTelemetry folds them into one series
// marked otel_metric_overflow="true".
type Vec[K comparable, V any] struct {
	mu       sync.RWMutex
	m        map[K]*V
	make     func() *V
	limit    int
	overflow K
}

// NewVec returns an empty Vec whose instruments mk makes; past limit
// label sets (0: no limit) new ones are counted under overflow.
func NewVec[K comparable, V any](mk func() *V, limit int, overflow K) *Vec[K, V] {
	return &Vec[K, V]{m: map[K]*V{}, make: mk, limit: limit, overflow: overflow}
}

// Get is the instrument of k, made if there is none.
func (v *Vec[K, V]) Get(k K) *V {
	v.mu.RLock()
	x, ok := v.m[k]
	v.mu.RUnlock()
	if ok {
		return x
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if x, ok = v.m[k]; !ok {
		if v.limit > 0 && len(v.m) >= v.limit-1 {
			k = v.overflow
			if x, ok = v.m[k]; ok {
				return x
			}
		}
		x = v.make()
		v.m[k] = x
	}
	return x
}

// Each calls fn for every label set and its instrument, in no order.
func (v *Vec[K, V]) Each(fn func(K, *V)) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	for k, x := range v.m {
		fn(k, x)
	}
}

// Len is how many label sets there are.
func (v *Vec[K, V]) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.m)
}
