package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestFlowMeterReportsTheLastWholeSecond(t *testing.T) {
	at := time.Unix(1000, 0)
	f := &flowMeter{now: func() time.Time { return at }}
	f.add(100)
	f.add(50)
	assert.Zero(t, f.perSecond(), "the second is not over")
	at = at.Add(time.Second)
	assert.Equal(t, int64(150), f.perSecond())
	f.add(7)
	assert.Equal(t, int64(150), f.perSecond())
	at = at.Add(3 * time.Second)
	assert.Zero(t, f.perSecond(), "nothing moved in the last second")
}
