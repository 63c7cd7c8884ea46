package controller

// CLEAN_BROKER_DATA (1011, write; mqadmin cleanBrokerMetadata),
// docs/reference/controller.md §4.2.
//
// Request header: clusterName, brokerName, brokerControllerIdsToClean
// ("1;2;3", optional), isCleanLivingBroker (false).
// Response: SUCCESS and CleanBrokerDataEvent (no ids: the whole set), or
// CONTROLLER_INVALID_CLEAN_BROKER_METADATA with Java's remarks, spacing
// included. With isCleanLivingBroker the ids are not read, so the whole
// set goes, as in Java.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/remoting"
)

func (m *manager) cleanBrokerData(h header) answer {
	cluster, name := h.str("clusterName", ""), h.str("brokerName", "")
	idsText := h.str("brokerControllerIdsToClean", "")
	living := h.bool("isCleanLivingBroker", false)
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	var ids []int64
	if !living {
		if s, ok := m.t.syncs[name]; ok && strings.TrimSpace(idsText) == "" && s.master != 0 {
			return fail(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf("Broker %s is still alive, clean up failure", name))
		}
		if strings.TrimSpace(idsText) != "" {
			var bad answer
			if ids, bad = parseIDList(idsText); bad.code != remoting.Success {
				return bad
			}
			for _, id := range ids {
				if m.hb.alive(cluster, name, id) {
					return fail(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf("Broker [%s,  %d] is still alive, clean up failure", name, id))
				}
			}
		}
	}
	if _, _, known := m.t.set(name); !known {
		return fail(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf("Broker %s is not existed,clean broker data failure.", name))
	}
	return answer{code: remoting.Success, events: []event{{kind: eventCleanBrokerData, brokerName: name, ids: ids}}}
}

// parseIDList reads "1;2;3" as Java's split(";") and Long.valueOf do:
// trailing empty parts are dropped, any other bad part fails.
func parseIDList(text string) ([]int64, answer) {
	parts := strings.Split(text, ";")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	var ids []int64
	for _, part := range parts {
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return nil, fail(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf(
				"Please set the option <brokerControllerIdsToClean> according to the format, exception: java.lang.NumberFormatException: For input string: \"%s\"", part))
		}
		ids = append(ids, id)
	}
	return sortedIDs(ids), answer{code: remoting.Success}
}
