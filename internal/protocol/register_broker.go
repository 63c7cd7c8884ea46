package protocol

import (
	"errors"
	"hash/crc32"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// ErrMalformedBody is returned when a binary or text body does not have the
// layout its code requires.
var ErrMalformedBody = errors.New("protocol: malformed body")

// TopicConfigSerializeWrapper is a broker's topic table with its version:
// the topics.json file, the GET_ALL_TOPIC_CONFIG body and the heart of the
// REGISTER_BROKER body. 5.x sends TopicConfigAndMappingSerializeWrapper,
// the same plus static-topic mappings.
//
// JSON (wire format: do not change):
//
//	4.9.8: {"dataVersion":{...},"topicConfigTable":{"T":{TopicConfig},...}}
//	5.x:   {"dataVersion":{...},"mappingDataVersion":{...},"topicConfigTable":{...},"topicQueueMappingDetailMap":{},"topicQueueMappingInfoMap":{}}
//
// AppendJSON writes the 5.x form when MappingDataVersion is set.
// topicQueueMappingDetailMap is skipped when read and written empty:
// static topics' queue details are not kept by this project.
type TopicConfigSerializeWrapper struct {
	DataVersion      DataVersion
	TopicConfigTable map[string]TopicConfig
	// MappingDataVersion and TopicQueueMappingInfoMap are the 5.x
	// TopicConfigAndMappingSerializeWrapper fields.
	MappingDataVersion       *DataVersion
	TopicQueueMappingInfoMap map[string]TopicQueueMappingInfo
}

// AppendJSON appends the fastjson form: the 5.x DataVersion, and each
// TopicConfig as its Attributes say (see TopicConfig.AppendJSON).
// AppendJSONLine (config_topics.go) writes one line's form throughout.
func (w *TopicConfigSerializeWrapper) AppendJSON(dst []byte) []byte {
	return w.appendJSON(dst, Line5, (*TopicConfig).AppendJSON)
}

// DecodeTopicConfigSerializeWrapper parses the 4.9.8 or the 5.x wrapper.
func DecodeTopicConfigSerializeWrapper(data []byte) (*TopicConfigSerializeWrapper, error) {
	w := &TopicConfigSerializeWrapper{}
	if err := fastjson.Decode(data, w.read); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *TopicConfigSerializeWrapper) read(r *fastjson.Reader) error {
	w.TopicConfigTable = map[string]TopicConfig{}
	if r.Null() {
		return nil
	}
	return r.Object(func(key string) (err error) {
		switch key {
		case "dataversion":
			if !r.Null() {
				err = w.DataVersion.read(r)
			}
		case "mappingdataversion":
			if !r.Null() {
				w.MappingDataVersion = &DataVersion{}
				err = w.MappingDataVersion.read(r)
			}
		case "topicconfigtable":
			w.TopicConfigTable, err = readConcurrentMap(r, readTopicConfig)
		case "topicqueuemappinginfomap":
			w.TopicQueueMappingInfoMap, err = readConcurrentMap(r, readMappingInfo)
		default:
			err = r.Skip()
		}
		return err
	})
}

// RegisterBrokerBody is the body of REGISTER_BROKER from brokers at or
// above V3_0_11.
//
// JSON (wire format: do not change):
//
//	{"filterServerList":[],"topicConfigSerializeWrapper":{TopicConfigSerializeWrapper}}
//
// FilterServerList nil means the broker sent null (the name server then
// leaves its filter servers as they were); empty means none.
type RegisterBrokerBody struct {
	TopicConfigSerializeWrapper TopicConfigSerializeWrapper
	FilterServerList            []string
}

// AppendJSON appends the uncompressed fastjson form.
func (b *RegisterBrokerBody) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if b.FilterServerList != nil {
		dst = fastjson.AppendStringArray(fastjson.AppendField(dst, "filterServerList"), b.FilterServerList, fastjson.Fastjson)
	}
	dst = b.TopicConfigSerializeWrapper.AppendJSON(fastjson.AppendField(dst, "topicConfigSerializeWrapper"))
	return append(dst, '}')
}

// DecodeRegisterBrokerBody parses the body as RegisterBrokerBody.decode
// does: JSON, or the zlib stream when compressed is set (see
// compressed.go). brokerVersion is the request's version field.
func DecodeRegisterBrokerBody(data []byte, compressed bool, brokerVersion int32) (*RegisterBrokerBody, error) {
	if compressed {
		return decodeCompressedRegisterBody(data, brokerVersion)
	}
	b := &RegisterBrokerBody{FilterServerList: []string{}}
	b.TopicConfigSerializeWrapper.TopicConfigTable = map[string]TopicConfig{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			switch key {
			case "filterserverlist":
				b.FilterServerList, err = r.StringList()
			case "topicconfigserializewrapper":
				err = b.TopicConfigSerializeWrapper.read(r)
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// BodyCRC32 is UtilAll.crc32 of a body, the REGISTER_BROKER header field
// bodyCrc32: the IEEE CRC32 with the sign bit cleared; 0 for no body.
func BodyCRC32(body []byte) int32 {
	if body == nil {
		return 0
	}
	return int32(crc32.ChecksumIEEE(body) & 0x7FFFFFFF)
}

// Header keys of the REGISTER_BROKER response (RegisterBrokerResponseHeader).
const (
	HeaderHAServerAddr = "haServerAddr"
	HeaderMasterAddr   = "masterAddr"
)

// RegisterBrokerResult is what a broker learns from one name server: the
// master's HA address and address (for a slave) and the order topic
// configs.
type RegisterBrokerResult struct {
	HAServerAddr string
	MasterAddr   string
	KVTable      *KVTable
}

// Header returns the response header fields; empty ones are left out as
// Java leaves null fields out.
func (r *RegisterBrokerResult) Header() map[string]string {
	h := make(map[string]string, 2)
	if r.HAServerAddr != "" {
		h[HeaderHAServerAddr] = r.HAServerAddr
	}
	if r.MasterAddr != "" {
		h[HeaderMasterAddr] = r.MasterAddr
	}
	return h
}

// DecodeRegisterBrokerResult reads a SUCCESS response's header fields and
// body as BrokerOuterAPI.registerBroker does.
func DecodeRegisterBrokerResult(ext map[string]string, body []byte) (*RegisterBrokerResult, error) {
	res := &RegisterBrokerResult{HAServerAddr: ext[HeaderHAServerAddr], MasterAddr: ext[HeaderMasterAddr]}
	if len(body) > 0 {
		t, err := DecodeKVTable(body)
		if err != nil {
			return nil, err
		}
		res.KVTable = t
	}
	return res, nil
}
