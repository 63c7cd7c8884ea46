package broker

// stats.log: StatsItem's printAtMinutes, printAtHour and printAtDay. On
// each whole minute, each whole hour, and each day two seconds before
// midnight, every item of every set writes one line over that window:
//
//	[TOPIC_PUT_NUMS] [TopicTest] Stats In One Minute, SUM: 10 TPS: 0.17 AVGPT: 1.00
//
// SUM, TPS and AVGPT are the window's snapshot (see stats_items.go),
// formatted as Java's "%d", "%.2f" and "%.2f".

import (
	"slices"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// windowTitles are the windows' names in a stats.log line.
var windowTitles = [3]string{windowMinute: "Minute", windowHour: "Hour", windowDay: "Day"}

// statsLogLine is one item's line for a window.
func statsLogLine(name, key string, w statsWindowKind, s protocol.BrokerStatsItem) string {
	return "[" + name + "] [" + key + "] Stats In One " + windowTitles[w] + ", SUM: " + strconv.FormatInt(s.Sum, 10) +
		" TPS: " + fastjson.FormatJavaFixed(s.Tps, 2) + " AVGPT: " + fastjson.FormatJavaFixed(s.Avgpt, 2)
}

// logWindow writes every item's line for a window, sets by name and items
// by key.
func (s *brokerStats) logWindow(log *zap.Logger, w statsWindowKind) {
	names := make([]string, 0, len(s.byName))
	for name := range s.byName {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		set := s.byName[name]
		for _, key := range set.keys() {
			if it := set.item(key); it != nil {
				log.Info(statsLogLine(name, key, w, it.snapshot(w)))
			}
		}
	}
}

// nextStatsPrint is when a window's lines are next due after now: the next
// whole minute or hour, or two seconds before the next midnight (local
// time, as Java's UtilAll.computeNext*TimeMillis).
func nextStatsPrint(w statsWindowKind, now time.Time) time.Time {
	switch w {
	case windowMinute:
		return now.Truncate(time.Minute).Add(time.Minute)
	case windowHour:
		return time.Date(now.Year(), now.Month(), now.Day(), now.Hour(), 0, 0, 0, now.Location()).Add(time.Hour)
	}
	next := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, now.Location()).Add(-2 * time.Second)
	if !next.After(now) {
		next = next.AddDate(0, 0, 1)
	}
	return next
}

// logLoop writes each window's lines when due, until stop.
func (s *brokerStats) logLoop(stop <-chan struct{}, log *zap.Logger) {
	var due [3]time.Time
	for w := range due {
		due[w] = nextStatsPrint(statsWindowKind(w), s.now())
	}
	for {
		first := slices.MinFunc(due[:], time.Time.Compare)
		timer := time.NewTimer(first.Sub(s.now()))
		select {
		case <-stop:
			timer.Stop()
			return
		case <-timer.C:
		}
		now := s.now()
		for w := range due {
			if !now.Before(due[w]) {
				s.logWindow(log, statsWindowKind(w))
				due[w] = nextStatsPrint(statsWindowKind(w), now)
			}
		}
	}
}
