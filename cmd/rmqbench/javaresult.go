package main

// rmqbench java-result: the standard output of Java's benchmark tools on
// stdin (org.apache.rocketmq.example.benchmark.Producer or Consumer, 4.9.x
// or 5.x, or bench/benchtool's work-alikes, which print the same lines),
// summed up as one benchLine on stdout:
//
//	java ... Producer -n ... | rmqbench java-result -kind produce
//	java ... Consumer -n ... | rmqbench java-result -kind consume
//
// The tools print one line per report interval (10 s) with figures over
// the last ten one-second snapshots:
//
//	4.9.x Producer: Current Time: <t> Send TPS: 1234 Max RT(ms): 45 Average RT(ms):   3.456 Send Failed: 0 Response Failed: 0
//	5.x   Producer: Current Time: <t> | Send TPS: 1234 | Max RT(ms): 45 | Average RT(ms):   3.456 | Send Failed: 0 | Response Failed: 0
//	4.9.x Consumer: Current Time: <t> TPS: 1234 FAIL: 0 AVG(B2C) RT(ms):   3.456 AVG(S2C) RT(ms):   2.345 MAX(B2C) RT(ms): 45 MAX(S2C) RT(ms): 40
//	5.x   Consumer: Current Time: <t> | Consume TPS: 1234 | AVG(B2C) RT(ms): ... | MAX(B2C) RT(ms): 45 | MAX(S2C) RT(ms): 40 | Consume Fail: 0
//
// Max RT is the producer's maximum since it started; MAX(B2C) is the
// consumer's maximum since the previous line; B2C is born-to-consume, the
// end-to-end latency. The tools report no percentiles. Summing up: TPS is
// the mean over the lines with a TPS above 0 (windows while the tool was
// idle or starting are left out), the average latency is the TPS-weighted
// mean of the lines' averages, the maximum the largest, and the message
// count is each line's TPS times the interval, unless a final line gives
// the total: "[Complete] Send Total: n" (Apache's Producer when it ran to a
// -q count; bench/benchtool's Producer always) or "[Complete] Consume
// Total: n" (bench/benchtool's Consumer).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"time"
)

var (
	reSendTPS    = regexp.MustCompile(`Send TPS: (\d+)`)
	reSendMax    = regexp.MustCompile(`Max RT\(ms\): (\d+)`)
	reSendAvg    = regexp.MustCompile(`Average RT\(ms\):\s*([0-9.]+|NaN)`)
	reSendFailed = regexp.MustCompile(`Send Failed: (\d+)`)
	reRespFailed = regexp.MustCompile(`Response Failed: (\d+)`)
	reTotal      = regexp.MustCompile(`\[Complete\] (?:Send|Consume) Total: (\d+)`)
	reConsumeTPS = regexp.MustCompile(`\bTPS: (\d+)`)
	reB2CAvg     = regexp.MustCompile(`AVG\(B2C\) RT\(ms\):\s*([0-9.]+|NaN)`)
	reB2CMax     = regexp.MustCompile(`MAX\(B2C\) RT\(ms\): (\d+)`)
	reConsumeErr = regexp.MustCompile(`(?:FAIL|Consume Fail): (\d+)`)
)

// errNoReport is returned when the output holds no periodic report line.
var errNoReport = errors.New("rmqbench java-result: no report line in the input")

func runJavaResult(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("java-result", stderr)
	kind := fs.String("kind", kindProduce, "produce (Producer output) or consume (Consumer output)")
	every := fs.Duration("interval", 10*time.Second, "the tool's report interval")
	var meta benchLine
	fs.StringVar(&meta.Topic, "t", "", "topic (recorded in the line)")
	fs.StringVar(&meta.Group, "g", "", "consumer group (recorded in the line)")
	fs.IntVar(&meta.BodyBytes, "s", 0, "body size (recorded in the line)")
	fs.IntVar(&meta.Threads, "w", 0, "threads (recorded in the line)")
	if !parseChecked(fs, args, stderr, func() error {
		if *kind != kindProduce && *kind != kindConsume {
			return errors.New("-kind must be produce or consume")
		}
		return nil
	}) {
		return 2
	}
	b, err := parseJavaOutput(os.Stdin, *kind, *every)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	b.Topic, b.Group, b.BodyBytes, b.Threads = meta.Topic, meta.Group, meta.BodyBytes, meta.Threads
	fmt.Fprintln(stdout, b.json())
	return 0
}

// javaWindow is one report line.
type javaWindow struct {
	tps, avg, max float64
	failed        int64 // cumulative (producer) or in this window (consumer)
}

// parseJavaOutput sums a tool's report lines up.
func parseJavaOutput(r io.Reader, kind string, every time.Duration) (*benchLine, error) {
	var windows []javaWindow
	total := int64(-1)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if m := reTotal.FindStringSubmatch(line); m != nil {
			total = atoi64(m[1])
			continue
		}
		if w, ok := parseJavaLine(line, kind); ok {
			windows = append(windows, w)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(windows) == 0 {
		return nil, errNoReport
	}
	b := sumWindows(windows, kind, every)
	switch {
	case total >= 0 && kind == kindProduce:
		b.Messages = total - b.Failed // Send Total counts failed sends too
	case total >= 0:
		b.Messages = total
	}
	return b, nil
}

// parseJavaLine reads one report line of kind; false for other lines.
func parseJavaLine(line, kind string) (javaWindow, bool) {
	var w javaWindow
	if kind == kindProduce {
		m := reSendTPS.FindStringSubmatch(line)
		if m == nil {
			return w, false
		}
		w.tps, w.max, w.avg = atof(m[1]), firstFloat(reSendMax, line), firstFloat(reSendAvg, line)
		w.failed = int64(firstFloat(reSendFailed, line) + firstFloat(reRespFailed, line))
		return w, true
	}
	m := reConsumeTPS.FindStringSubmatch(line)
	if m == nil || reSendTPS.MatchString(line) {
		return w, false
	}
	w.tps, w.max, w.avg = atof(m[1]), firstFloat(reB2CMax, line), firstFloat(reB2CAvg, line)
	w.failed = int64(firstFloat(reConsumeErr, line))
	return w, true
}

// sumWindows combines the report lines as the package comment says.
func sumWindows(windows []javaWindow, kind string, every time.Duration) *benchLine {
	b := &benchLine{Kind: kind, Tool: toolJava, Windows: len(windows),
		ElapsedSec: float64(len(windows)) * every.Seconds()}
	var tpsSum, weighted, weight float64
	active := 0
	for _, w := range windows {
		b.MaxMs = math.Max(b.MaxMs, w.max)
		if kind == kindProduce {
			b.Failed = w.failed
		} else {
			b.Failed += w.failed
		}
		if w.tps <= 0 {
			continue
		}
		active++
		tpsSum += w.tps
		if !math.IsNaN(w.avg) {
			weighted += w.avg * w.tps
			weight += w.tps
		}
	}
	if active > 0 {
		b.TPS = tpsSum / float64(active)
		b.ActiveSec = float64(active) * every.Seconds()
		b.Messages = int64(math.Round(tpsSum * every.Seconds()))
	}
	if weight > 0 {
		b.AvgMs = weighted / weight
	}
	return b
}

// firstFloat is the first group of re in line, 0 when absent, NaN for
// Java's "NaN".
func firstFloat(re *regexp.Regexp, line string) float64 {
	if m := re.FindStringSubmatch(line); m != nil {
		return atof(m[1])
	}
	return 0
}

func atof(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func atoi64(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
