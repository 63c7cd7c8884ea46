package protocol

// The bodies of the 5.x controller codes (docs/reference/controller.md
// §3.5), in the default fastjson style:
//
//	SyncStateSet (1001 request and response, 1003, 1004, 1008)
//	  {"syncStateSet":[1,2],"syncStateSetEpoch":2}
//	ElectMasterResponseBody (1002)
//	  {"brokerMemberGroup":{"brokerAddrs":{1:"127.0.0.1:30911",2:"127.0.0.1:30921"},
//	   "brokerName":"broker-a","cluster":"DefaultCluster"},"syncStateSet":[1]}
//	BrokerReplicasInfo (1006 response)
//	  {"replicasInfoTable":{"broker-a":{"inSyncReplicas":[{"alive":true,
//	   "brokerAddress":"127.0.0.1:30911","brokerId":1,"brokerName":"broker-a"}],
//	   "masterAddress":"127.0.0.1:30911","masterBrokerId":1,"masterEpoch":1,
//	   "notInSyncReplicas":[],"syncStateSetEpoch":1}}}
//	the 1006 request: a JSON array of broker names, ["broker-a"]
//
// Java writes the SyncStateSet from a HashSet<Long>, which for the small
// controller ids iterates in ascending order; the writers here sort.

import (
	"slices"
	"strconv"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// SyncStateSet is the body of that name: the controller ids in sync with
// the master and the set's epoch.
type SyncStateSet struct {
	Members []int64
	Epoch   int32
}

// AppendJSON writes the body as fastjson does.
func (s *SyncStateSet) AppendJSON(dst []byte) []byte {
	dst = appendLongSet(fastjson.AppendField(append(dst, '{'), "syncStateSet"), s.Members)
	dst = fastjson.AppendIntField(dst, "syncStateSetEpoch", int64(s.Epoch), fastjson.Fastjson)
	return append(dst, '}')
}

// ReadSyncStateSet reads the body; a null set reads as empty.
func ReadSyncStateSet(body []byte) (SyncStateSet, error) {
	var s SyncStateSet
	err := fastjson.Decode(body, func(r *fastjson.Reader) error {
		return r.Object(func(key string) error {
			var err error
			switch key {
			case "syncstateset":
				s.Members, err = r.LongList()
			case "syncstatesetepoch":
				s.Epoch, err = r.Int()
			default:
				err = r.Skip()
			}
			return err
		})
	})
	return s, err
}

// appendLongSet writes ids as a JSON array in ascending order.
func appendLongSet(dst []byte, ids []int64) []byte {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	dst = append(dst, '[')
	for i, id := range sorted {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, id, 10)
	}
	return append(dst, ']')
}

// AppendElectMasterResponse writes ElectMasterResponseBody: the member
// group (left out when nil, as on CONTROLLER_MASTER_STILL_EXIST) and the
// SyncStateSet's ids.
func AppendElectMasterResponse(dst []byte, group *BrokerMemberGroup, sss []int64) []byte {
	dst = append(dst, '{')
	if group != nil {
		dst = append(fastjson.AppendField(dst, "brokerMemberGroup"), '{')
		dst = group.BrokerAddrs.appendJSON(fastjson.AppendField(dst, "brokerAddrs"), fastjson.Fastjson)
		dst = fastjson.AppendOptionalStringField(dst, "brokerName", group.BrokerName, fastjson.Fastjson)
		dst = fastjson.AppendOptionalStringField(dst, "cluster", group.Cluster, fastjson.Fastjson)
		dst = append(dst, '}')
	}
	dst = appendLongSet(fastjson.AppendField(dst, "syncStateSet"), sss)
	return append(dst, '}')
}

// ReplicaIdentity is BrokerReplicasInfo.ReplicaIdentity: one registered
// replica and whether the controller hears its heartbeats.
type ReplicaIdentity struct {
	BrokerName    string
	BrokerID      int64
	BrokerAddress string
	Alive         bool
}

// ReplicasInfo is BrokerReplicasInfo.ReplicasInfo: one broker set. A
// MasterBrokerID of 0 means no master (controller ids start at 1).
type ReplicasInfo struct {
	MasterBrokerID    int64
	MasterAddress     string
	MasterEpoch       int32
	SyncStateSetEpoch int32
	InSync, NotInSync []ReplicaIdentity
}

// BrokerReplicasInfo is the 1006 response: broker name -> its set.
type BrokerReplicasInfo map[string]ReplicasInfo

// AppendJSON writes the body as fastjson does, names sorted.
func (b BrokerReplicasInfo) AppendJSON(dst []byte) []byte {
	st := fastjson.Fastjson
	dst = append(fastjson.AppendField(append(dst, '{'), "replicasInfoTable"), '{')
	for _, name := range fastjson.SortedKeys(b) {
		info := b[name]
		dst = append(fastjson.AppendStringKey(dst, name, st), '{')
		dst = appendReplicas(fastjson.AppendField(dst, "inSyncReplicas"), info.InSync)
		dst = fastjson.AppendOptionalStringField(dst, "masterAddress", info.MasterAddress, st)
		if info.MasterBrokerID != 0 {
			dst = fastjson.AppendIntField(dst, "masterBrokerId", info.MasterBrokerID, st)
		}
		dst = fastjson.AppendIntField(dst, "masterEpoch", int64(info.MasterEpoch), st)
		dst = appendReplicas(fastjson.AppendField(dst, "notInSyncReplicas"), info.NotInSync)
		dst = fastjson.AppendIntField(dst, "syncStateSetEpoch", int64(info.SyncStateSetEpoch), st)
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}

func appendReplicas(dst []byte, list []ReplicaIdentity) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '[')
	for _, r := range list {
		dst = append(fastjson.Comma(dst), '{')
		dst = fastjson.AppendBoolField(dst, "alive", r.Alive)
		dst = fastjson.AppendOptionalStringField(dst, "brokerAddress", r.BrokerAddress, st)
		dst = fastjson.AppendIntField(dst, "brokerId", r.BrokerID, st)
		dst = fastjson.AppendOptionalStringField(dst, "brokerName", r.BrokerName, st)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// ReadBrokerReplicasInfo reads the 1006 response.
func ReadBrokerReplicasInfo(body []byte) (BrokerReplicasInfo, error) {
	out := BrokerReplicasInfo{}
	err := fastjson.Decode(body, func(r *fastjson.Reader) error {
		return r.Object(func(key string) error {
			if key != "replicasinfotable" {
				return r.Skip()
			}
			if r.Null() {
				return nil
			}
			return r.Map(func(name string) error {
				info, err := readReplicasInfo(r)
				out[name] = info
				return err
			})
		})
	})
	return out, err
}

func readReplicasInfo(r *fastjson.Reader) (ReplicasInfo, error) {
	var info ReplicasInfo
	err := r.Object(func(key string) error {
		var err error
		switch key {
		case "masterbrokerid":
			info.MasterBrokerID, err = r.Long()
		case "masteraddress":
			info.MasterAddress, err = r.Str()
		case "masterepoch":
			info.MasterEpoch, err = r.Int()
		case "syncstatesetepoch":
			info.SyncStateSetEpoch, err = r.Int()
		case "insyncreplicas":
			info.InSync, err = readReplicas(r)
		case "notinsyncreplicas":
			info.NotInSync, err = readReplicas(r)
		default:
			err = r.Skip()
		}
		return err
	})
	return info, err
}

func readReplicas(r *fastjson.Reader) ([]ReplicaIdentity, error) {
	var list []ReplicaIdentity
	if r.Null() {
		return nil, nil
	}
	err := r.Array(func() error {
		var id ReplicaIdentity
		err := r.Object(func(key string) error {
			var err error
			switch key {
			case "alive":
				id.Alive, err = r.Bool()
			case "brokeraddress":
				id.BrokerAddress, err = r.Str()
			case "brokerid":
				id.BrokerID, err = r.Long()
			case "brokername":
				id.BrokerName, err = r.Str()
			default:
				err = r.Skip()
			}
			return err
		})
		list = append(list, id)
		return err
	})
	return list, err
}

// ReadBrokerNames reads the 1006 request body, a JSON array of names.
func ReadBrokerNames(body []byte) ([]string, error) {
	var names []string
	err := fastjson.Decode(body, func(r *fastjson.Reader) error {
		var err error
		names, err = r.StringList()
		return err
	})
	return names, err
}

// EpochEntry is one entry of a broker's epoch file: the epoch and the
// commitlog range it covers (the last one ends at Long.MAX_VALUE).
type EpochEntry struct {
	Epoch                  int32
	StartOffset, EndOffset int64
}

// AppendEpochEntryCache writes EpochEntryCache, the GET_BROKER_EPOCH_CACHE
// (1007) response:
//
//	{"brokerId":0,"brokerName":"broker-a","clusterName":"DefaultCluster",
//	 "epochList":[{"endOffset":1580,"epoch":1,"startOffset":0},...],"maxOffset":3160}
func AppendEpochEntryCache(dst []byte, cluster, name string, brokerID int64, entries []EpochEntry, maxOffset int64) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendIntField(dst, "brokerId", brokerID, st)
	dst = fastjson.AppendOptionalStringField(dst, "brokerName", name, st)
	dst = fastjson.AppendOptionalStringField(dst, "clusterName", cluster, st)
	dst = append(fastjson.AppendField(dst, "epochList"), '[')
	for _, e := range entries {
		dst = append(fastjson.Comma(dst), '{')
		dst = fastjson.AppendIntField(dst, "endOffset", e.EndOffset, st)
		dst = fastjson.AppendIntField(dst, "epoch", int64(e.Epoch), st)
		dst = fastjson.AppendIntField(dst, "startOffset", e.StartOffset, st)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = fastjson.AppendIntField(dst, "maxOffset", maxOffset, st)
	return append(dst, '}')
}
