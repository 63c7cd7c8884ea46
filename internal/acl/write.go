package acl

// Changes an admin makes through the broker (mqadmin updateAclConfig,
// deleteAclConfig, updateGlobalWhiteAddr, the dashboard's ACL page) are
// written back into the file as PlainPermissionManager writes them:
// the file read as an ordered map, the change made in it, dataVersion
// moved on (counter + 1, the time now), and the whole dumped in
// SnakeYAML's dumpAsMap block style:
//
//	globalWhiteRemoteAddresses:
//	- 10.10.103.*
//	accounts:
//	- accessKey: RocketMQ
//	  secretKey: '12345678'
//	  admin: false
//	  topicPerms:
//	  - topicA=DENY
//	dataVersion:
//	- counter: 2
//	  timestamp: 1630000000000
//
// Keys keep their order, an account changed in place moves to the end of
// the list (Java removes and appends it), and scalars that would read
// back as another type ('12345678', 'true', '') are single-quoted.

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// node is a YAML value as the file holds it: a scalar (with its resolved
// kind), an ordered map or a list.
type node struct {
	scalar string
	kind   scalarKind
	keys   []string
	vals   map[string]*node
	list   []*node
}

type scalarKind int

const (
	kindString scalarKind = iota
	kindBool
	kindInt
	kindNull
	kindMap
	kindList
)

// readTree reads a file as a tree; a missing or empty file is an empty
// map.
func readTree(path string) (*node, error) {
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return newMap(), nil
	}
	return fromYAML(doc.Content[0]), nil
}

func newMap() *node { return &node{kind: kindMap, vals: map[string]*node{}} }

func fromYAML(y *yaml.Node) *node {
	switch y.Kind {
	case yaml.MappingNode:
		n := newMap()
		for i := 0; i+1 < len(y.Content); i += 2 {
			n.set(y.Content[i].Value, fromYAML(y.Content[i+1]))
		}
		return n
	case yaml.SequenceNode:
		n := &node{kind: kindList}
		for _, c := range y.Content {
			n.list = append(n.list, fromYAML(c))
		}
		return n
	case yaml.AliasNode:
		return fromYAML(y.Alias)
	}
	k := kindString
	switch y.ShortTag() {
	case "!!bool":
		k = kindBool
	case "!!int", "!!float":
		k = kindInt
	case "!!null":
		k = kindNull
	}
	return &node{scalar: y.Value, kind: k}
}

// set puts a key, keeping its place when it is there.
func (n *node) set(key string, v *node) {
	if _, ok := n.vals[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.vals[key] = v
}

func str(s string) *node { return &node{scalar: s} }

func strList(ss []string) *node {
	n := &node{kind: kindList}
	for _, s := range ss {
		n.list = append(n.list, str(s))
	}
	return n
}

// dump writes the tree in dumpAsMap's block style.
func (n *node) dump() []byte {
	var b strings.Builder
	n.dumpMap(&b, "")
	return []byte(b.String())
}

func (n *node) dumpMap(b *strings.Builder, indent string) {
	for i, k := range n.keys {
		if i > 0 {
			b.WriteString(indent)
		}
		v := n.vals[k]
		b.WriteString(quote(k, kindString) + ":")
		v.dumpValue(b, indent)
	}
}

// dumpValue writes what follows "key:" (or "- ").
func (n *node) dumpValue(b *strings.Builder, indent string) {
	switch {
	case n.kind == kindMap && len(n.keys) == 0:
		b.WriteString(" {}\n")
	case n.kind == kindMap:
		b.WriteString("\n" + indent + "  ")
		n.dumpMap(b, indent+"  ")
	case n.kind == kindList && len(n.list) == 0:
		b.WriteString(" []\n")
	case n.kind == kindList:
		b.WriteString("\n")
		for _, item := range n.list {
			b.WriteString(indent + "-")
			if item.kind == kindMap && len(item.keys) > 0 {
				b.WriteString(" ")
				item.dumpMap(b, indent+"  ")
				continue
			}
			item.dumpValue(b, indent+"  ")
		}
	default:
		b.WriteString(" " + quote(n.scalar, n.kind) + "\n")
	}
}

// plainUnsafe are the strings SnakeYAML would read back as another type
// or cannot write plain.
var plainUnsafe = regexp.MustCompile(`^(?:[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|` +
	`(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)|(?:~|null|Null|NULL)|0x[0-9a-fA-F_]+|0[0-7_]+)$`)

// quote writes a scalar as SnakeYAML would.
func quote(s string, k scalarKind) string {
	switch k {
	case kindBool, kindInt:
		return s
	case kindNull:
		return "null"
	}
	if s == "" || plainUnsafe.MatchString(s) || strings.ContainsAny(s[:1], "*&!|>'\"%@`#,[]{}?:- ") && s != "-" ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, " ") || strings.HasSuffix(s, ":") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// Change is what an admin request asks of one account
// (CreateAccessConfigRequestHeader); a nil field is left as it is.
type Change struct {
	AccessKey          string
	SecretKey          string
	WhiteRemoteAddress *string
	Admin              bool
	DefaultTopicPerm   string
	DefaultGroupPerm   string
	TopicPerms         []string
	GroupPerms         []string
}

// UpdateAccount is updateAccessConfig's file side: the account of
// c.AccessKey in path changed (or added at the end), written back.
func UpdateAccount(path string, c Change, nowMs int64) error {
	if err := checkChange(c); err != nil {
		return err
	}
	t, err := readTree(path)
	if err != nil {
		return fmt.Errorf("acl: %w", err)
	}
	accounts := t.vals["accounts"]
	if accounts == nil || accounts.kind != kindList {
		accounts = &node{kind: kindList}
	}
	var account *node
	for i, a := range accounts.list {
		if a.kind == kindMap && a.vals["accessKey"] != nil && a.vals["accessKey"].scalar == c.AccessKey {
			account = a
			accounts.list = append(accounts.list[:i:i], accounts.list[i+1:]...)
			break
		}
	}
	if account == nil {
		account = newMap()
	}
	applyChange(account, c)
	accounts.list = append(accounts.list, account)
	t.set("accounts", accounts)
	return writeTree(path, t, nowMs)
}

// checkChange is checkPlainAccessConfig and checkResourcePerms.
func checkChange(c Change) error {
	if len(c.AccessKey) <= 6 || len(c.SecretKey) <= 6 {
		return &Denied{Msg: fmt.Sprintf("The accessKey=%s and secretKey=%s cannot be null and length should longer than 6",
			javaString(c.AccessKey), javaString(c.SecretKey))}
	}
	for _, list := range [][]string{c.TopicPerms, c.GroupPerms} {
		for _, rp := range list {
			items := splitNonEmpty(rp, "=")
			if len(items) != 2 {
				return &Denied{Msg: fmt.Sprintf("Parse Resource format error for %s.\nThe expected resource format is 'Res=Perm'. For example: topicA=SUB", rp)}
			}
			if p := strings.TrimSpace(items[1]); p != permNameDeny && ParsePerm(p) == PermDeny {
				return &Denied{Msg: fmt.Sprintf("Parse resource permission error for %s.\nThe expected permissions are 'SUB' or 'PUB' or 'SUB|PUB' or 'PUB|SUB'.", rp)}
			}
		}
	}
	return nil
}

// applyChange is createAclAccessConfigMap.
func applyChange(a *node, c Change) {
	a.set("accessKey", str(c.AccessKey))
	if c.SecretKey != "" {
		a.set("secretKey", str(c.SecretKey))
	}
	if c.WhiteRemoteAddress != nil {
		a.set("whiteRemoteAddress", str(*c.WhiteRemoteAddress))
	}
	a.set("admin", &node{scalar: strconv.FormatBool(c.Admin), kind: kindBool})
	if c.DefaultTopicPerm != "" {
		a.set("defaultTopicPerm", str(c.DefaultTopicPerm))
	}
	if c.DefaultGroupPerm != "" {
		a.set("defaultGroupPerm", str(c.DefaultGroupPerm))
	}
	if c.TopicPerms != nil {
		a.set("topicPerms", strList(c.TopicPerms))
	}
	if c.GroupPerms != nil {
		a.set("groupPerms", strList(c.GroupPerms))
	}
}

// DeleteAccount is deleteAccessConfig's file side; it reports whether the
// account was there.
func DeleteAccount(path, accessKey string, nowMs int64) (bool, error) {
	t, err := readTree(path)
	if err != nil {
		return false, fmt.Errorf("acl: %w", err)
	}
	accounts := t.vals["accounts"]
	if accounts == nil {
		return false, nil
	}
	for i, a := range accounts.list {
		if a.kind == kindMap && a.vals["accessKey"] != nil && a.vals["accessKey"].scalar == accessKey {
			accounts.list = append(accounts.list[:i:i], accounts.list[i+1:]...)
			return true, writeTree(path, t, nowMs)
		}
	}
	return false, nil
}

// UpdateGlobalWhiteAddrs is updateGlobalWhiteAddrsConfig's file side.
func UpdateGlobalWhiteAddrs(path string, addrs []string, nowMs int64) error {
	t, err := readTree(path)
	if err != nil {
		return fmt.Errorf("acl: %w", err)
	}
	t.set("globalWhiteRemoteAddresses", strList(addrs))
	return writeTree(path, t, nowMs)
}

// writeTree moves dataVersion on and writes the file.
func writeTree(path string, t *node, nowMs int64) error {
	var counter int64
	if dv := t.vals["dataVersion"]; dv != nil && dv.kind == kindList && len(dv.list) > 0 && dv.list[0].vals != nil {
		if c := dv.list[0].vals["counter"]; c != nil {
			counter, _ = strconv.ParseInt(c.scalar, 10, 64)
		}
	}
	v := newMap()
	v.set("counter", &node{scalar: strconv.FormatInt(counter+1, 10), kind: kindInt})
	v.set("timestamp", &node{scalar: strconv.FormatInt(nowMs, 10), kind: kindInt})
	t.set("dataVersion", &node{kind: kindList, list: []*node{v}})
	if err := os.WriteFile(path, t.dump(), 0o644); err != nil {
		return fmt.Errorf("acl: %w", err)
	}
	return nil
}
