package main

// rmqbench proc: one process's resources, read from Linux's /proc, as a
// benchLine of kind proc:
//
//	rmqbench proc -pid 1234
//	{"kind":"proc","messages":0,...,"pid":1234,"rssMB":412.3,"hwmMB":430.1,"cpuSec":12.34,"ageSec":3.21}
//
//	rssMB   VmRSS of /proc/PID/status: resident memory now
//	hwmMB   VmHWM: the peak resident memory since the process started
//	anonMB  RssAnon: the resident memory not backed by files (VmRSS also
//	        counts the pages of mapped commitlog and consume queue files)
//	cpuSec  utime + stime of /proc/PID/stat: CPU seconds used so far
//	ageSec  seconds since the process started (uptime - starttime)
//
// With -watch D it samples every D until interrupted (SIGTERM) and then
// prints one line whose anonPeakMB is the largest RssAnon it saw: Linux
// keeps a peak of VmRSS (VmHWM) but not of RssAnon.
//
//	rmqbench proc -pid 1234 -watch 200ms &  ... ; kill -TERM $!
//
// /proc counts ticks in USER_HZ, which is 100 on Linux for every
// architecture Go runs on (-hz changes it).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// errProcFormat is returned for a /proc file that does not read as
// expected.
var errProcFormat = errors.New("rmqbench proc: unexpected /proc format")

func runProc(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("proc", stderr)
	pid := fs.Int("pid", 0, "process id")
	hz := fs.Float64("hz", 100, "clock ticks per second of /proc/PID/stat (USER_HZ)")
	watch := fs.Duration("watch", 0, "sample every this long until interrupted, then print the peaks (0: once)")
	if !parseChecked(fs, args, stderr, func() error {
		if *pid <= 0 || *hz <= 0 {
			return errors.New("need -pid and a positive -hz")
		}
		return nil
	}) {
		return 2
	}
	read := func() (*benchLine, error) { return readProc("/proc", *pid, *hz) }
	if *watch > 0 {
		read = func() (*benchLine, error) { return watchProc(ctx, "/proc", *pid, *hz, *watch) }
	}
	b, err := read()
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench proc:", err)
		return 1
	}
	fmt.Fprintln(stdout, b.json())
	return 0
}

// readProc reads pid's figures under root (normally /proc).
func readProc(root string, pid int, hz float64) (*benchLine, error) {
	dir := fmt.Sprintf("%s/%d", root, pid)
	b := &benchLine{Kind: kindProc, PID: pid}
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return nil, err
	}
	b.RssMB, b.HwmMB = statusKB(status, "VmRSS:")/1024, statusKB(status, "VmHWM:")/1024
	b.AnonMB = round3(statusKB(status, "RssAnon:") / 1024)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return nil, err
	}
	utime, stime, start, err := statTicks(string(stat))
	if err != nil {
		return nil, err
	}
	b.CPUSec = (utime + stime) / hz
	uptime, err := os.ReadFile(root + "/uptime")
	if err != nil {
		return nil, err
	}
	up, err := strconv.ParseFloat(strings.Fields(string(uptime) + " 0")[0], 64)
	if err != nil {
		return nil, fmt.Errorf("%w: uptime %q", errProcFormat, uptime)
	}
	b.AgeSec = round3(up - start/hz)
	b.RssMB, b.HwmMB, b.CPUSec = round3(b.RssMB), round3(b.HwmMB), round3(b.CPUSec)
	return b, nil
}

// watchProc reads pid's figures every interval until ctx is done or the
// process is gone, and returns the last reading with AnonPeakMB set to the
// largest RssAnon read.
func watchProc(ctx context.Context, root string, pid int, hz float64, interval time.Duration) (*benchLine, error) {
	last, err := readProc(root, pid, hz)
	if err != nil {
		return nil, err
	}
	peak := last.AnonMB
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			last.AnonPeakMB = peak
			return last, nil
		case <-tick.C:
		}
		b, err := readProc(root, pid, hz)
		if err != nil { // the process ended: its last reading stands
			last.AnonPeakMB = peak
			return last, nil
		}
		last, peak = b, max(peak, b.AnonMB)
	}
}

// round3 rounds to three decimals (ms, KiB-ish): the inputs have no more.
func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// statusKB is the kB figure of the /proc/PID/status line starting with
// key, 0 when absent.
func statusKB(status []byte, key string) float64 {
	sc := bufio.NewScanner(strings.NewReader(string(status)))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				kb, _ := strconv.ParseFloat(f[0], 64)
				return kb
			}
		}
	}
	return 0
}

// statTicks reads utime (field 14), stime (15) and starttime (22) of a
// /proc/PID/stat line. The command name (field 2) is in parentheses and
// may hold spaces, so fields are counted after its closing parenthesis.
func statTicks(stat string) (utime, stime, start float64, err error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, 0, fmt.Errorf("%w: stat %q", errProcFormat, stat)
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3
	if len(f) < 20 {
		return 0, 0, 0, fmt.Errorf("%w: stat has %d fields", errProcFormat, len(f)+2)
	}
	vals := make([]float64, 3)
	for j, field := range []int{14, 15, 22} {
		if vals[j], err = strconv.ParseFloat(f[field-3], 64); err != nil {
			return 0, 0, 0, fmt.Errorf("%w: stat field %d: %v", errProcFormat, field, err)
		}
	}
	return vals[0], vals[1], vals[2], nil
}
