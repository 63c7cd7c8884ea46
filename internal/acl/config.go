package acl

import (
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Account is one entry of accounts (PlainAccessConfig).
type Account struct {
	AccessKey          string   `yaml:"accessKey"`
	SecretKey          string   `yaml:"secretKey"`
	WhiteRemoteAddress string   `yaml:"whiteRemoteAddress"`
	Admin              bool     `yaml:"admin"`
	DefaultTopicPerm   string   `yaml:"defaultTopicPerm"`
	DefaultGroupPerm   string   `yaml:"defaultGroupPerm"`
	TopicPerms         []string `yaml:"topicPerms"`
	GroupPerms         []string `yaml:"groupPerms"`
}

// DataVersion is the file's dataVersion entry.
type DataVersion struct {
	Counter   int64 `yaml:"counter"`
	Timestamp int64 `yaml:"timestamp"`
}

// File is a plain_acl.yml as read.
type File struct {
	GlobalWhiteRemoteAddresses []string      `yaml:"globalWhiteRemoteAddresses"`
	Accounts                   []Account     `yaml:"accounts"`
	DataVersion                []DataVersion `yaml:"dataVersion"`
}

// ReadFile reads one ACL file; a missing or empty file is an empty File.
func ReadFile(path string) (File, error) {
	var f File
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("acl: %w", err)
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("acl: %s: %w", path, err)
	}
	return f, nil
}

// access is an account compiled for checks (PlainAccessResource).
type access struct {
	Account
	topicDefault, groupDefault byte
	perms                      map[string]byte
	white                      matcher
}

// compileAccount is buildPlainAccessResource.
func compileAccount(a Account) (*access, error) {
	if len(a.AccessKey) <= 6 || len(a.SecretKey) <= 6 {
		return nil, &Denied{Msg: fmt.Sprintf("The accessKey=%s and secretKey=%s cannot be null and length should longer than 6",
			javaString(a.AccessKey), javaString(a.SecretKey))}
	}
	ac := &access{Account: a, topicDefault: ParsePerm(a.DefaultTopicPerm), groupDefault: ParsePerm(a.DefaultGroupPerm)}
	for _, set := range []struct {
		list  []string
		group bool
	}{{a.GroupPerms, true}, {a.TopicPerms, false}} {
		for _, rp := range set.list {
			items := splitNonEmpty(rp, "=")
			if len(items) != 2 {
				kind := "topic"
				if set.group {
					kind = "group"
				}
				return nil, &Denied{Msg: fmt.Sprintf("Parse resource permission failed for %s:%s", kind, rp)}
			}
			res := strings.TrimSpace(items[0])
			if set.group {
				res = RetryTopic(res)
			}
			if ac.perms == nil {
				ac.perms = map[string]byte{}
			}
			ac.perms[res] = ParsePerm(items[1])
		}
	}
	var err error
	if ac.white, err = compileAddress(a.WhiteRemoteAddress); err != nil {
		return nil, &Denied{Msg: err.Error()}
	}
	return ac, nil
}

// javaString is how String.format writes a string that may be null.
func javaString(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
