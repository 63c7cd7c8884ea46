package namesrv

import (
	"strconv"
	"strings"
	"sync/atomic"
)

// settings are the NamesrvConfig flags Java reads on every request, so an
// UPDATE_NAMESRV_CONFIG changes them at once. Each is atomic; no lock.
type settings struct {
	orderMessageEnable                atomic.Bool
	returnOrderTopicConfigToBroker    atomic.Bool
	enableAllTopicList                atomic.Bool
	enableTopicList                   atomic.Bool
	needWaitForService                atomic.Bool
	deleteTopicWithBrokerRegistration atomic.Bool
	supportActingMaster               atomic.Bool
	waitSecondsForService             atomic.Int64
}

func newSettings(o *Options) *settings {
	s := &settings{}
	s.orderMessageEnable.Store(o.OrderMessageEnable)
	s.returnOrderTopicConfigToBroker.Store(o.ReturnOrderTopicConfigToBroker)
	s.enableAllTopicList.Store(o.EnableAllTopicList)
	s.enableTopicList.Store(o.EnableTopicList)
	s.needWaitForService.Store(o.NeedWaitForService)
	s.deleteTopicWithBrokerRegistration.Store(o.DeleteTopicWithBrokerRegistration)
	s.supportActingMaster.Store(o.SupportActingMaster)
	s.waitSecondsForService.Store(int64(o.WaitSecondsForService))
	return s
}

// apply takes the keys of props it knows, as MixAll.properties2Object sets
// the matching NamesrvConfig fields: booleans by Boolean.parseBoolean,
// numbers only when they parse.
func (s *settings) apply(props map[string]string) {
	flags := map[string]*atomic.Bool{
		"orderMessageEnable":                &s.orderMessageEnable,
		"returnOrderTopicConfigToBroker":    &s.returnOrderTopicConfigToBroker,
		"enableAllTopicList":                &s.enableAllTopicList,
		"enableTopicList":                   &s.enableTopicList,
		"needWaitForService":                &s.needWaitForService,
		"deleteTopicWithBrokerRegistration": &s.deleteTopicWithBrokerRegistration,
		"supportActingMaster":               &s.supportActingMaster,
	}
	for key, value := range props {
		if flag, ok := flags[key]; ok {
			flag.Store(strings.EqualFold(strings.TrimSpace(value), "true"))
		}
	}
	if v, ok := props["waitSecondsForService"]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			s.waitSecondsForService.Store(int64(n))
		}
	}
}
