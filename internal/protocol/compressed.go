package protocol

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// The compressed REGISTER_BROKER body (header compressed=true, broker
// setting compressedRegister), on-disk/wire format: do not change. A zlib
// stream (Deflater.BEST_COMPRESSION, zlib header) of, big-endian:
//
//	int32 len, DataVersion JSON
//	int32 topicCount
//	topicCount x { int32 len, TopicConfig line (TopicConfig.AppendLine) }
//	int32 len, JSON array of filter server addresses
//	brokers >= V5_0_0 only:
//	int32 mappingCount
//	mappingCount x { int32 len, TopicQueueMappingInfo JSON }
//
// maxInflated bounds what a decoder inflates, against zip bombs.
const maxInflated = 128 << 20

// EncodeCompressed returns the compressed form a broker of brokerVersion
// sends.
func (b *RegisterBrokerBody) EncodeCompressed(brokerVersion int32) ([]byte, error) {
	var plain []byte
	w := &b.TopicConfigSerializeWrapper
	plain = appendChunk(plain, w.DataVersion.AppendJSON(nil))
	plain = binary.BigEndian.AppendUint32(plain, uint32(len(w.TopicConfigTable)))
	v5 := brokerVersion >= VersionV5_0_0
	for _, name := range fastjson.SortedKeys(w.TopicConfigTable) {
		c := w.TopicConfigTable[name]
		plain = appendChunk(plain, c.AppendLine(nil, v5))
	}
	list := b.FilterServerList
	if list == nil {
		list = []string{}
	}
	plain = appendChunk(plain, fastjson.AppendStringArray(nil, list, fastjson.Fastjson))
	if v5 {
		plain = binary.BigEndian.AppendUint32(plain, uint32(len(w.TopicQueueMappingInfoMap)))
		for _, topic := range fastjson.SortedKeys(w.TopicQueueMappingInfoMap) {
			m := w.TopicQueueMappingInfoMap[topic]
			plain = appendChunk(plain, m.appendJSON(nil, fastjson.Fastjson))
		}
	}
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(plain); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func appendChunk(dst, chunk []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(chunk)))
	return append(dst, chunk...)
}

// inflated reads the length-prefixed parts of an inflating stream.
type inflated struct {
	r     io.Reader
	total int64
}

func (in *inflated) int32() (int32, error) {
	var b [4]byte
	if _, err := io.ReadFull(in.r, b[:]); err != nil {
		return 0, fmt.Errorf("%w: compressed register body: %v", ErrMalformedBody, err)
	}
	return int32(binary.BigEndian.Uint32(b[:])), nil
}

// chunk reads an int32 length and that many bytes, growing the buffer as
// data arrives so a forged length cannot make it allocate.
func (in *inflated) chunk() ([]byte, error) {
	n, err := in.int32()
	if err != nil {
		return nil, err
	}
	if n < 0 || in.total+int64(n) > maxInflated {
		return nil, fmt.Errorf("%w: compressed register body: chunk of %d bytes", ErrMalformedBody, n)
	}
	in.total += int64(n)
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, in.r, int64(n)); err != nil {
		return nil, fmt.Errorf("%w: compressed register body: %v", ErrMalformedBody, err)
	}
	return buf.Bytes(), nil
}

func decodeCompressedRegisterBody(data []byte, brokerVersion int32) (*RegisterBrokerBody, error) {
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: compressed register body: %v", ErrMalformedBody, err)
	}
	in := &inflated{r: zr}
	b := &RegisterBrokerBody{}
	w := &b.TopicConfigSerializeWrapper
	dv, err := in.chunk()
	if err != nil {
		return nil, err
	}
	if w.DataVersion, err = DecodeDataVersion(dv); err != nil {
		return nil, err
	}
	if w.TopicConfigTable, err = in.topicConfigs(); err != nil {
		return nil, err
	}
	if b.FilterServerList, err = in.filterServers(); err != nil {
		return nil, err
	}
	if brokerVersion >= VersionV5_0_0 {
		if w.TopicQueueMappingInfoMap, err = in.mappings(); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (in *inflated) topicConfigs() (map[string]TopicConfig, error) {
	n, err := in.int32()
	if err != nil {
		return nil, err
	}
	table := map[string]TopicConfig{}
	for i := int32(0); i < n; i++ {
		line, err := in.chunk()
		if err != nil {
			return nil, err
		}
		c, err := ParseTopicConfigLine(string(line))
		if err != nil {
			return nil, err
		}
		table[c.TopicName] = c
	}
	return table, nil
}

// filterServers reads the filter server JSON; as in Java, a list that does
// not parse counts as empty, and JSON null as "not sent".
func (in *inflated) filterServers() ([]string, error) {
	raw, err := in.chunk()
	if err != nil {
		return nil, err
	}
	var list []string
	err = fastjson.Decode(raw, func(r *fastjson.Reader) (err error) {
		list, err = r.StringList()
		return err
	})
	if err != nil {
		return []string{}, nil
	}
	return list, nil
}

func (in *inflated) mappings() (map[string]TopicQueueMappingInfo, error) {
	n, err := in.int32()
	if err != nil {
		return nil, err
	}
	m := map[string]TopicQueueMappingInfo{}
	for i := int32(0); i < n; i++ {
		raw, err := in.chunk()
		if err != nil {
			return nil, err
		}
		var info TopicQueueMappingInfo
		err = fastjson.Decode(raw, func(r *fastjson.Reader) (err error) {
			info, err = readMappingInfo(r)
			return err
		})
		if err != nil {
			return nil, err
		}
		m[info.Topic] = info
	}
	return m, nil
}
