package broker

// GET_BROKER_RUNTIME_INFO (28): AdminBrokerProcessor.prepareRuntimeInfo
// with StoreStatsService.getRuntimeInfo and
// DefaultMessageStore.getRuntimeInfo. No header; the body is a KVTable
// {"table":{...}}, every value a string in Java's format, because
// mqadmin clusterList/brokerStatus, the dashboard and rocketmq-exporter
// parse them (the exporter calls Long.parseLong / Double.parseDouble on
// each key and drops the broker when one is missing or malformed):
//
//	putTps, getFoundTps, getMissTps, getTransferedTps (4.x) and
//	getTransferredTps (5.x; both on both lines, for the dashboard):
//	"<10 s> <60 s> <600 s>" Java doubles, each
//	  empty until that much history was sampled (one sample a second)
//	getTotalTps: the same three windows, each "0.0" until sampled
//	putMessageDistributeTime: the last whole minute's
//	  "[<=0ms]:N [0~10ms]:N ... [10s~]:N ", "null" in the first minute
//	commitLogMinOffset: -1 until the first put makes a commitlog file
//	runtime: "[ D days, H hours, M minutes, S seconds ]"
//	commitLogDirCapacity: "Total : 1.8 TiB, Free : 800.0 GiB."
//	remainHowManyDataToFlush: "12.0 KiB"
//	putLatency99 / putLatency999: "%.2f"
//	scheduleMessageOffset_<level>: "<delivered offset>,<max offset>"
//	5.x: brokerActive, timerReadBehind, timerOffsetBehind,
//	  timerCongestNum, timerEnqueueTps, timerDequeueTps, and the
//	  litePull/ack pool keys
//
// Differences: dispatchMaxBuffer and pageCacheLockTimeMills are 0, and so
// is remainTransientStoreBufferNumbs with transientStorePoolEnable (no such
// buffers here; without it Java too reports Integer.MAX_VALUE); a pool's
// head wait time is the wait of the request its workers took last.

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// statsHistory is how many one-second samples are kept (600 s + 1).
const statsHistory = 601

// statsSample is CallSnapshot: the store's counters at one moment.
type statsSample struct {
	at                                time.Time
	put, getFound, getMiss, getMsgOut int64
}

// runtimeStats samples the store's counters every second (the TPS
// figures) and keeps BrokerStats' daily marks.
type runtimeStats struct {
	now   func() time.Time
	store interface{ Stats() store.Stats }

	mu      sync.Mutex
	samples []statsSample
	// putMorning etc. are the totals at the last two midnights.
	putToday, putYesterday, getToday, getYesterday int64
	day                                            int
	// The put-time distribution is reported per minute, as printTps
	// rolls it: minuteStart and minuteBuckets mark where the current
	// minute began, lastMinute is the last whole minute's counts (nil
	// during the first minute, when Java reports "null").
	minuteStart   time.Time
	minuteBuckets putBuckets
	lastMinute    *putBuckets
}

// putBuckets are the store's put-time distribution counts.
type putBuckets = [len(store.PutTimeBuckets)]int64

// distributionRoll is printTPSInterval: how often the distribution rolls.
const distributionRoll = time.Minute

func newRuntimeStats(now func() time.Time, st interface{ Stats() store.Stats }) *runtimeStats {
	t := now()
	return &runtimeStats{now: now, store: st, day: t.YearDay(), minuteStart: t}
}

// loop samples every second until stop.
func (r *runtimeStats) loop(stop <-chan struct{}) {
	r.sample()
	runEvery(stop, time.Second, r.sample)
}

// sample takes one snapshot and, on a new day, moves the daily marks.
func (r *runtimeStats) sample() {
	st := r.store.Stats()
	now := r.now()
	s := statsSample{at: now, put: st.PutTimes, getFound: st.GetFound, getMiss: st.GetMiss,
		getMsgOut: st.GetTransferred}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples = append(r.samples, s)
	if len(r.samples) > statsHistory {
		r.samples = r.samples[len(r.samples)-statsHistory:]
	}
	if now.YearDay() != r.day {
		r.day = now.YearDay()
		r.putYesterday, r.putToday = r.putToday, st.PutTimes
		r.getYesterday, r.getToday = r.getToday, st.GetTransferred
	}
	if now.Sub(r.minuteStart) > distributionRoll {
		var last putBuckets
		for i := range last {
			last[i] = st.PutBuckets[i] - r.minuteBuckets[i]
		}
		r.lastMinute, r.minuteBuckets, r.minuteStart = &last, st.PutBuckets, now
	}
}

// lastMinuteDistribution is putMessageDistributeTimeToString: the last
// whole minute's put times, "null" before one has passed.
func (r *runtimeStats) lastMinuteDistribution() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastMinute == nil {
		return "null"
	}
	return distributionText(*r.lastMinute)
}

// tps is the three-window TPS string of one counter: each window empty
// until that much history was sampled.
func (r *runtimeStats) tps(field func(statsSample) int64) string {
	return r.windows(func(before, last statsSample) (float64, bool) {
		return callTPS(field(before), field(last), before.at, last.at)
	}, "")
}

// totalTPS is getGetTotalTps: per window the found TPS plus the miss TPS,
// each 0 until that much history was sampled, so never empty.
func (r *runtimeStats) totalTPS() string {
	return r.windows(func(before, last statsSample) (float64, bool) {
		found, ok := callTPS(before.getFound, last.getFound, before.at, last.at)
		miss, _ := callTPS(before.getMiss, last.getMiss, before.at, last.at)
		return found + miss, ok
	}, "0.0")
}

// windows formats value over the 10, 60 and 600 s windows, space
// separated; a window without enough samples shows short, one without
// elapsed time nothing.
func (r *runtimeStats) windows(value func(before, last statsSample) (float64, bool), short string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	parts := make([]byte, 0, 48)
	for i, window := range []int{10, 60, 600} {
		if i > 0 {
			parts = append(parts, ' ')
		}
		n := len(r.samples)
		if n <= window {
			parts = append(parts, short...)
			continue
		}
		if v, ok := value(r.samples[n-1-window], r.samples[n-1]); ok {
			parts = fastjson.AppendJavaDouble(parts, v)
		}
	}
	return string(parts)
}

// callTPS is CallSnapshot.getTPS: (count delta / ms) * 1000, in that
// order so that the double matches Java's to the last digit; false when
// no time passed.
func callTPS(from, to int64, fromAt, toAt time.Time) (float64, bool) {
	ms := toAt.Sub(fromAt).Milliseconds()
	if ms <= 0 {
		return 0, false
	}
	return float64(to-from) / float64(ms) * 1000, true
}

// daily returns the put and get totals at the last two midnights.
func (r *runtimeStats) daily() (putToday, putYesterday, getToday, getYesterday int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.putToday, r.putYesterday, r.getToday, r.getYesterday
}

// runtimeStore is what the runtime info reads of the store.
type runtimeStore interface {
	messageReader
	queueBounds
	Stats() store.Stats
	CommitLogHasFiles() bool
	CommitLogMinOffset() int64
	CommitLogMaxOffset() int64
	DispatchedOffset() int64
	UnflushedBytes() int64
}

// runtimeInfo serves GET_BROKER_RUNTIME_INFO.
type runtimeInfo struct {
	replier
	line     line
	now      func() time.Time
	settings *liveSettings
	store    runtimeStore
	stats    *runtimeStats
	schedule *scheduleService
	timer    *timerService
	// pools are the handler pools of the main and VIP servers, set once
	// the routers are built.
	pools []pools
}

// getBrokerRuntimeInfo serves GET_BROKER_RUNTIME_INFO.
func (r *runtimeInfo) getBrokerRuntimeInfo(req *remoting.Request) *remoting.Command {
	kv := protocol.KVTable{Table: r.table()}
	return r.replyBody(req.Cmd, kv.AppendJSON(nil))
}

// table builds the table.
func (r *runtimeInfo) table() map[string]string {
	m := map[string]string{}
	set := r.settings.load()
	r.storeRuntimeInfo(m, set)
	r.brokerRuntimeInfo(m, set)
	return m
}

// storeRuntimeInfo is StoreStatsService's and the store's part.
func (r *runtimeInfo) storeRuntimeInfo(m map[string]string, set *settings) {
	st := r.store.Stats()
	times := max(st.PutTimes, 1)
	m["bootTimestamp"] = itoa(st.Boot.UnixMilli())
	m["runtime"] = runtimeText(r.now().Sub(st.Boot))
	m["putMessageEntireTimeMax"] = itoa(st.PutMaxMs)
	m["putMessageTimesTotal"] = itoa(times)
	m["putMessageFailedTimes"] = itoa(st.PutFailed)
	m["putMessageSizeTotal"] = itoa(st.PutBytes)
	m["putMessageDistributeTime"] = r.stats.lastMinuteDistribution()
	m["putMessageAverageSize"] = string(fastjson.AppendJavaDouble(nil, float64(st.PutBytes)/float64(times)))
	m["dispatchMaxBuffer"] = "0"
	m["getMessageEntireTimeMax"] = itoa(st.GetMaxMs)
	m["putTps"] = r.stats.tps(func(s statsSample) int64 { return s.put })
	m["getFoundTps"] = r.stats.tps(func(s statsSample) int64 { return s.getFound })
	m["getMissTps"] = r.stats.tps(func(s statsSample) int64 { return s.getMiss })
	m["getTotalTps"] = r.stats.totalTPS()
	// 4.x names it getTransferedTps, 5.x getTransferredTps; the dashboard
	// reads one or the other, so both are there on both lines.
	transferred := r.stats.tps(func(s statsSample) int64 { return s.getMsgOut })
	m["getTransferredTps"], m["getTransferedTps"] = transferred, transferred
	// Both lines (StoreStatsService.getRuntimeInfo of 4.9.x and 5.3.3).
	m["putLatency99"] = fmt.Sprintf("%.2f", st.PutLatencyP99)
	m["putLatency999"] = fmt.Sprintf("%.2f", st.PutLatencyP999)
	c := set.Store
	clRatio := diskRatio(c.StorePathCommitLog)
	m["commitLogDiskRatio_"+c.StorePathCommitLog] = string(fastjson.AppendJavaDouble(nil, clRatio))
	m["commitLogDiskRatio"] = string(fastjson.AppendJavaDouble(nil, clRatio))
	m["consumeQueueDiskRatio"] = string(fastjson.AppendJavaDouble(nil, diskRatio(c.StorePathRootDir+"/consumequeue")))
	for level, off := range r.schedule.snapshot() {
		m["scheduleMessageOffset_"+strconv.Itoa(int(level))] = itoa(off) + "," + itoa(r.store.MaxOffset(store.ScheduleTopic, level-1))
	}
	minPhy := int64(-1) // getMinPhyOffset before the first commitlog file
	if r.store.CommitLogHasFiles() {
		minPhy = r.store.CommitLogMinOffset()
	}
	m["commitLogMinOffset"] = itoa(minPhy)
	m["commitLogMaxOffset"] = itoa(r.store.CommitLogMaxOffset())
}

// brokerRuntimeInfo is prepareRuntimeInfo's own part.
func (r *runtimeInfo) brokerRuntimeInfo(m map[string]string, set *settings) {
	c := set.Broker
	m["brokerVersionDesc"] = r.line.versionDesc()
	if r.line.hasFiveRuntimeKeys() {
		// isSpecialServiceRunning: the master-only services run
		m["brokerActive"] = strconv.FormatBool(r.line.runsMasterServices(c.BrokerId, set.Store.BrokerRole))
		readBehind, offsetBehind, congest := r.timer.runtime(r.now().UnixMilli())
		m["timerReadBehind"], m["timerOffsetBehind"], m["timerCongestNum"] = itoa(readBehind), itoa(offsetBehind), itoa(congest)
		m["timerEnqueueTps"], m["timerDequeueTps"] = "0.0", "0.0"
	}
	m["brokerVersion"] = itoa(r.line.version())
	putToday, putYesterday, getToday, getYesterday := r.stats.daily()
	st := r.store.Stats()
	m["msgPutTotalYesterdayMorning"], m["msgPutTotalTodayMorning"], m["msgPutTotalTodayNow"] = itoa(putYesterday), itoa(putToday), itoa(st.PutTimes)
	m["msgGetTotalYesterdayMorning"], m["msgGetTotalTodayMorning"], m["msgGetTotalTodayNow"] = itoa(getYesterday), itoa(getToday), itoa(st.GetTransferred)
	queues := map[string]struct {
		kind     poolKind
		capacity int32
	}{
		"send":  {sendPool, c.SendThreadPoolQueueCapacity},
		"pull":  {pullPool, c.PullThreadPoolQueueCapacity},
		"query": {queryPool, c.QueryThreadPoolQueueCapacity},
	}
	if r.line.hasFiveRuntimeKeys() {
		queues["litePull"] = queues["pull"]
		queues["ack"] = queues["pull"]
	}
	for name, p := range queues {
		size, wait := r.poolLoad(p.kind)
		m[name+"ThreadPoolQueueSize"] = itoa(size)
		m[name+"ThreadPoolQueueCapacity"] = itoa(p.capacity)
		m[name+"ThreadPoolQueueHeadWaitTimeMills"] = itoa(wait)
	}
	endSize, _ := r.poolLoad(endTxPool)
	m["EndTransactionQueueSize"] = itoa(endSize)
	m["EndTransactionThreadPoolQueueCapacity"] = itoa(c.EndTransactionPoolQueueCapacity)
	m["dispatchBehindBytes"] = itoa(max(r.store.CommitLogMaxOffset()-r.store.DispatchedOffset(), 0))
	m["pageCacheLockTimeMills"] = "0"
	m["earliestMessageTimeStamp"] = itoa(r.earliestMessageTime(set))
	m["startAcceptSendRequestTimeStamp"] = itoa(c.StartAcceptSendRequestTimeStamp)
	m["remainTransientStoreBufferNumbs"] = remainTransientBuffers(set.Store.TransientStorePoolEnable)
	m["remainHowManyDataToFlush"] = humanBytes(r.store.UnflushedBytes())
	if total, _, usable, err := store.DiskSpace(set.Store.StorePathRootDir); err == nil {
		m["commitLogDirCapacity"] = fmt.Sprintf("Total : %s, Free : %s.", humanBytes(total), humanBytes(usable))
	}
}

// poolLoad sums a pool's queue over the main and VIP servers, with the
// longer head wait.
func (r *runtimeInfo) poolLoad(kind poolKind) (size int, waitMs int64) {
	for _, p := range r.pools {
		pool := p[kind]
		size += pool.Len()
		waitMs = max(waitMs, pool.LastWait().Milliseconds())
	}
	return size, waitMs
}

// earliestMessageTime is getEarliestMessageTime: the store time of the
// first message in the commitlog (-1 when it is empty). 4.9.x reads it
// with pickupStoreTimestamp(minOffset, 2*maxMessageSize), which finds
// nothing (-1) until the first file holds that many written bytes past the
// min offset, so a young 4.9.x broker reports -1; 5.x reads only up to the
// store timestamp.
func (r *runtimeInfo) earliestMessageTime(set *settings) int64 {
	minOff, maxOff := r.store.CommitLogMinOffset(), r.store.CommitLogMaxOffset()
	if r.line.earliestNeedsTwoMessages() {
		c := set.Store
		if !fourEarliestReadable(minOff, maxOff, int64(c.MappedFileSizeCommitLog), int64(c.MaxMessageSize)) {
			return -1
		}
	}
	rec, err := r.store.LookMessage(minOff)
	if err != nil {
		return -1
	}
	return rec.StoreTimestamp
}

// fourEarliestReadable tells whether 4.9.x's selectMappedBuffer(pos,
// 2*maxMessageSize) on the commitlog file holding minOff succeeds: the file
// must have that many written bytes from minOff's position on.
func fourEarliestReadable(minOff, maxOff, fileSize, maxMessageSize int64) bool {
	if fileSize <= 0 {
		return false
	}
	pos := minOff % fileSize
	written := min(fileSize, maxOff-(minOff-pos))
	return pos+2*maxMessageSize <= written
}

// diskRatio is UtilAll.getDiskPartitionSpaceUsedPercent (-1 when the
// path is missing).
func diskRatio(path string) float64 {
	total, free, usable, err := store.DiskSpace(path)
	if err != nil {
		return -1
	}
	return store.DiskUsedRatio(total, free, usable)
}

// remainTransientBuffers is remainTransientStoreBufferNumbs: Java reports
// Integer.MAX_VALUE when the transient store pool is off (both lines), the
// free buffers of the pool otherwise; this store has none.
func remainTransientBuffers(poolEnabled bool) string {
	if !poolEnabled {
		return strconv.Itoa(math.MaxInt32)
	}
	return "0"
}

// runtimeText is getFormatRuntime.
func runtimeText(d time.Duration) string {
	ms := d.Milliseconds()
	const second, minute, hour, day = 1000, 60 * 1000, 3600 * 1000, 24 * 3600 * 1000
	return fmt.Sprintf("[ %s days, %s hours, %s minutes, %s seconds ]",
		javaGrouped(ms/day), javaGrouped(ms%day/hour), javaGrouped(ms%hour/minute), javaGrouped(ms%minute/second))
}

// javaGrouped is how MessageFormat prints a long: with thousands commas.
func javaGrouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// distributionText is putMessageDistributeTimeToString.
func distributionText(buckets putBuckets) string {
	var out []byte
	for i, name := range store.PutTimeBuckets {
		out = append(out, name...)
		out = append(out, ':')
		out = strconv.AppendInt(out, buckets[i], 10)
		out = append(out, ' ')
	}
	return string(out)
}

// humanBytes is MixAll.humanReadableByteCount(bytes, false).
func humanBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	exp := int(math.Log(float64(n)) / math.Log(1024))
	return fmt.Sprintf("%.1f %ciB", float64(n)/math.Pow(1024, float64(exp)), "KMGTPE"[exp-1])
}
