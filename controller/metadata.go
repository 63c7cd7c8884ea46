package controller

// CONTROLLER_GET_METADATA_INFO (1005), answered by every controller
// (docs/reference/controller.md §3.4).
//
// No request header. Response header: group, controllerLeaderId and
// controllerLeaderAddress (absent while no leader is known; with jRaft
// keys the id is "" then, as SOFAJRaft prints an empty PeerId), isLeader
// (whether this member leads Raft now), peers ("n0:127.0.0.1:9878;" per
// member with DLedger keys, "127.0.0.1:9770;" per member with jRaft's).

import (
	"strconv"
	"strings"

	"github.com/hashicorp/raft"

	"github.com/rmqgo/rmqgo/remoting"
)

func (c *Controller) getMetadataInfo(req *remoting.Request) *remoting.Command {
	a := answer{code: remoting.Success}
	a.set("group", c.opts.Group)
	_, leaderID := c.cons.raft.LeaderWithID()
	leader, known := c.member(string(leaderID))
	switch {
	case known:
		a.set("controllerLeaderId", leader.ID)
		a.set("controllerLeaderAddress", leader.ControllerAddr)
	case c.opts.JRaft:
		a.set("controllerLeaderId", "")
	}
	a.set("isLeader", strconv.FormatBool(c.cons.raft.State() == raft.Leader))
	var peers strings.Builder
	for _, m := range c.opts.Members {
		if !c.opts.JRaft {
			peers.WriteString(m.ID + ":")
		}
		peers.WriteString(m.ControllerAddr + ";")
	}
	a.set("peers", peers.String())
	return a.response(req.Cmd)
}

func (c *Controller) member(id string) (Member, bool) {
	for _, m := range c.opts.Members {
		if id != "" && m.ID == id {
			return m, true
		}
	}
	return Member{}, false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
