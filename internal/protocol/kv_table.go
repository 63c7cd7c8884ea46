package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// KVTable is a flat string map: the body of GET_KVLIST_BY_NAMESPACE, of the
// REGISTER_BROKER response (namespace ORDER_TOPIC_CONFIG) and of the
// broker's GET_BROKER_RUNTIME_INFO.
//
// JSON (wire format: do not change):
//
//	{"table":{"brokerVersionDesc":"V4_9_8","putTps":"0.0 0.0 0.0"}}
type KVTable struct {
	Table map[string]string
}

// AppendJSON appends the fastjson form.
func (t *KVTable) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if t.Table != nil {
		dst = fastjson.AppendStringMap(fastjson.AppendField(dst, "table"), t.Table, fastjson.Fastjson)
	}
	return append(dst, '}')
}

// DecodeKVTable parses a KVTable body.
func DecodeKVTable(data []byte) (*KVTable, error) {
	t := &KVTable{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			if key == "table" {
				t.Table, err = r.StringMap()
				return err
			}
			return r.Skip()
		})
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// KVConfigSerializeWrapper is the name server's kvConfig.json (on-disk
// format: do not change):
//
//	{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicTest":"broker-a:4"}}}
type KVConfigSerializeWrapper struct {
	ConfigTable map[string]map[string]string
}

// AppendJSON appends the fastjson form (toJson(false)).
func (w *KVConfigSerializeWrapper) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if w.ConfigTable != nil {
		dst = append(fastjson.AppendField(dst, "configTable"), '{')
		for _, ns := range fastjson.SortedKeys(w.ConfigTable) {
			dst = fastjson.AppendStringMap(fastjson.AppendStringKey(dst, ns, fastjson.Fastjson), w.ConfigTable[ns], fastjson.Fastjson)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// DecodeKVConfigSerializeWrapper parses kvConfig.json; null namespaces
// are skipped.
func DecodeKVConfigSerializeWrapper(data []byte) (*KVConfigSerializeWrapper, error) {
	w := &KVConfigSerializeWrapper{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			if key == "configtable" {
				w.ConfigTable, err = readMap(r, func(r *fastjson.Reader) (map[string]string, error) { return r.StringMap() })
				return err
			}
			return r.Skip()
		})
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}
