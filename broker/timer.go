package broker

// Timer messages of the 5.x clients: a message with TIMER_DELIVER_MS (an
// absolute time), TIMER_DELAY_SEC or TIMER_DELAY_MS is delivered at that
// time, to the second (timerPrecisionMs 1000). 4.x brokers know no such
// properties and deliver the message at once, and so does this broker on
// Line4.
//
// The put side is HookUtils.transformTimerMessage: a delivery time in the
// future (at most timerMaxDelaySec, 3 days, ahead; else MESSAGE_ILLEGAL
// "timer message illegal, ...") is rounded down to the second, kept in
// TIMER_OUT_MS, and the message goes to rmq_sys_wheel_timer queue 0 with
// REAL_TOPIC and REAL_QID, as the Java 5.x broker stores it. A time that
// has already passed leaves the message in its topic. A DELAY level wins
// over the timer properties, which are then dropped.
//
// What happens next, and the state that goes with it, is Java's
// TimerMessageStore, on Java's files (store/timer_*.go draws them), so
// that either broker starts on the other's store with timer messages in
// flight: the timer service (timer_service.go) reads the timer queue into
// the wheel (timer_enqueue.go), delivers each slot once its second has
// passed (timer_dequeue.go), and keeps its progress in config/timercheck,
// flushed every second and at shutdown; at start it recovers as Java does
// (timer_recover.go). The broker.conf keys it follows are
// timerWheelEnable, timerPrecisionMs (snapped to 100, 200, 500 or 1000 as
// Java's setter does), timerMaxDelaySec and mappedFileSizeTimerLog; the
// others keep 5.3.3's defaults (timerRollWindowSlot 172800,
// timerFlushIntervalMs 1000). With timerWheelEnable=false there is no
// timer service and a timer message is refused, as Java refuses it.

import (
	"fmt"
	"strconv"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Timer properties (MessageConst).
const (
	propTimerDeliverMs = "TIMER_DELIVER_MS"
	propTimerDelaySec  = "TIMER_DELAY_SEC"
	propTimerDelayMs   = "TIMER_DELAY_MS"
	propTimerOutMs     = "TIMER_OUT_MS"
	propTimerEnqueueMs = "TIMER_ENQUEUE_MS"
	propTimerDequeueMs = "TIMER_DEQUEUE_MS"
	propTimerDelUniq   = "TIMER_DEL_UNIQKEY"
)

// timerConf is the timer's part of broker.conf, as read at start.
type timerConf struct {
	// enabled is timerWheelEnable.
	enabled bool
	// precisionMs is timerPrecisionMs as Java's setter snaps it.
	precisionMs int64
	// maxDelayMs is timerMaxDelaySec in ms.
	maxDelayMs int64
	// files are the timer files' place and size.
	files store.TimerOptions
}

func newTimerConf(c *conf.MessageStoreConfig) timerConf {
	p := int64(timerPrecisions[len(timerPrecisions)-1])
	for i := 1; i < len(timerPrecisions); i++ {
		if c.TimerPrecisionMs < timerPrecisions[i] {
			p = int64(timerPrecisions[i-1])
			break
		}
	}
	return timerConf{enabled: c.TimerWheelEnable, precisionMs: p, maxDelayMs: int64(c.TimerMaxDelaySec) * 1000,
		files: store.TimerOptions{RootDir: c.StorePathRootDir, LogFileSize: int64(c.MappedFileSizeTimerLog), PrecisionMs: p}}
}

// timerPrecisions are the precisions setTimerPrecisionMs allows.
var timerPrecisions = []int32{100, 200, 500, 1000}

// toTimerTopic is transformTimerMessage for a message to put; it reports
// the send failure for an illegal time.
func (r redirects) toTimerTopic(m *store.Message, props *msgProps) *failure {
	tx := m.SysFlag & store.SysFlagTransactionMsk
	if !r.line.hasTimers() || m.Topic == timerTopic || (tx != store.SysFlagTxNotType && tx != store.SysFlagTxCommit) {
		return nil
	}
	if delayLevel(props) > 0 {
		// the delay branch re-encodes the properties without these
		props.del(propTimerDeliverMs)
		props.del(propTimerDelaySec)
		props.del(propTimerDelayMs)
		return nil
	}
	if _, ok := props.get(propTimerOutMs); ok {
		return nil
	}
	now := r.now().UnixMilli()
	at, ok, err := timerDeliverMs(props, now)
	if !ok {
		return nil
	}
	if !r.timer.enabled {
		return &failure{remoting.SystemError, "accurate timer message is not enabled, timerWheelEnable is false"}
	}
	illegal := &failure{remoting.MessageIllegal, fmt.Sprintf("timer message illegal, the delay time should not be bigger than the max delay %dms; or if set del msg, the delay time should be bigger than the current time", r.timer.maxDelayMs)}
	if err != nil {
		return illegal
	}
	if at <= now {
		if _, del := props.get(propTimerDelUniq); del {
			return illegal
		}
		return nil
	}
	if at-now > r.timer.maxDelayMs {
		return illegal
	}
	if p := r.timer.precisionMs; at%p == 0 {
		at -= p
	} else {
		at = at / p * p
	}
	props.set(propTimerOutMs, strconv.FormatInt(at, 10))
	props.set(propRealTopic, m.Topic)
	props.set(propRealQueueID, itoa(m.QueueID))
	m.Properties = props.encode(r.line)
	m.Topic, m.QueueID = timerTopic, 0
	return nil
}

// timerDeliverMs reads the delivery time the properties ask for: ok is
// false when they ask for none.
func timerDeliverMs(props *msgProps, now int64) (at int64, ok bool, err error) {
	if v, has := props.get(propTimerDelaySec); has {
		n, err := strconv.ParseInt(v, 10, 64)
		return now + n*1000, true, err
	}
	if v, has := props.get(propTimerDelayMs); has {
		n, err := strconv.ParseInt(v, 10, 64)
		return now + n, true, err
	}
	if v, has := props.get(propTimerDeliverMs); has {
		n, err := strconv.ParseInt(v, 10, 64)
		return n, true, err
	}
	return 0, false, nil
}
