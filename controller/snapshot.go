package controller

// The Raft state machine (raft.FSM) over the tables, and its snapshot
// format. A snapshot is one JSON document of rmqgo's own, read only by
// rmqgo controllers:
//
//	{"replicas":[{"cluster":"DefaultCluster","name":"broker-a","nextId":3,
//	              "ids":[{"id":1,"addr":"10.0.0.1:10911","checkCode":"10.0.0.1:10911;1700000000000"},...]}],
//	 "syncs":[{"cluster":"DefaultCluster","name":"broker-a","masterEpoch":2,
//	           "syncStateSetEpoch":3,"syncStateSet":[1,2],"master":1}]}
//
// Java's DLedger controllers keep no snapshot and replay their whole log;
// this one is cut every 1024 entries, so a restart replays what follows
// the last.

import (
	"encoding/json"
	"io"

	"github.com/hashicorp/raft"
	"go.uber.org/zap"
)

type fsm struct {
	t   *tables
	log *zap.Logger
}

// Apply applies a committed entry's events; empty entries (a leader's
// first, the read barriers) change nothing.
func (f *fsm) Apply(l *raft.Log) any {
	if l.Type != raft.LogCommand || len(l.Data) == 0 {
		return nil
	}
	events, err := decodeEntry(l.Data)
	for _, e := range events {
		f.t.apply(e)
	}
	if err != nil {
		f.log.Error("a Raft log entry could not be read whole; its readable events were applied",
			zap.Uint64("index", l.Index), zap.Error(err))
	}
	return err
}

type snapReplica struct {
	ID        int64  `json:"id"`
	Addr      string `json:"addr"`
	CheckCode string `json:"checkCode"`
}

type snapReplicaInfo struct {
	Cluster string        `json:"cluster"`
	Name    string        `json:"name"`
	NextID  int64         `json:"nextId"`
	IDs     []snapReplica `json:"ids"`
}

type snapSyncInfo struct {
	Cluster     string  `json:"cluster"`
	Name        string  `json:"name"`
	MasterEpoch int32   `json:"masterEpoch"`
	SSSEpoch    int32   `json:"syncStateSetEpoch"`
	SSS         []int64 `json:"syncStateSet"`
	Master      int64   `json:"master"`
}

type snapshotDoc struct {
	Replicas []snapReplicaInfo `json:"replicas"`
	Syncs    []snapSyncInfo    `json:"syncs"`
}

// Snapshot copies the tables (raft.FSM).
func (f *fsm) Snapshot() (raft.FSMSnapshot, error) {
	f.t.mu.RLock()
	defer f.t.mu.RUnlock()
	var doc snapshotDoc
	for _, r := range f.t.replicas {
		info := snapReplicaInfo{Cluster: r.cluster, Name: r.name, NextID: r.nextID}
		for _, id := range sortedIDs(mapKeys(r.ids)) {
			info.IDs = append(info.IDs, snapReplica{ID: id, Addr: r.ids[id].addr, CheckCode: r.ids[id].checkCode})
		}
		doc.Replicas = append(doc.Replicas, info)
	}
	for _, s := range f.t.syncs {
		doc.Syncs = append(doc.Syncs, snapSyncInfo{Cluster: s.cluster, Name: s.name, MasterEpoch: s.masterEpoch,
			SSSEpoch: s.sssEpoch, SSS: s.sss, Master: s.master})
	}
	data, err := json.Marshal(doc)
	return snapshotBytes(data), err
}

// Restore replaces the tables by a snapshot's (raft.FSM).
func (f *fsm) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	var doc snapshotDoc
	if err := json.NewDecoder(rc).Decode(&doc); err != nil {
		return err
	}
	replicas, syncs := map[string]*replicaInfo{}, map[string]*syncInfo{}
	for _, r := range doc.Replicas {
		info := &replicaInfo{cluster: r.Cluster, name: r.Name, nextID: r.NextID, ids: map[int64]replica{}}
		for _, id := range r.IDs {
			info.ids[id.ID] = replica{addr: id.Addr, checkCode: id.CheckCode}
		}
		replicas[r.Name] = info
	}
	for _, s := range doc.Syncs {
		syncs[s.Name] = &syncInfo{cluster: s.Cluster, name: s.Name, masterEpoch: s.MasterEpoch,
			sssEpoch: s.SSSEpoch, sss: sortedIDs(s.SSS), master: s.Master}
	}
	f.t.mu.Lock()
	f.t.replicas, f.t.syncs = replicas, syncs
	f.t.mu.Unlock()
	return nil
}

type snapshotBytes []byte

func (s snapshotBytes) Persist(sink raft.SnapshotSink) error {
	if _, err := sink.Write(s); err != nil {
		_ = sink.Cancel()
		return err
	}
	return sink.Close()
}

func (s snapshotBytes) Release() {}
