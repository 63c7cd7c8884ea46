package acl

// The client's side of the signature (AclClientRPCHook) and the tools.yml
// it can take its keys from (AclUtils.getAclRPCHook):
//
//	accessKey: RocketMQ
//	secretKey: 12345678

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Credentials are SessionCredentials: an access key, its secret key and
// an optional security token.
type Credentials struct {
	AccessKey     string `json:"accessKey" yaml:"accessKey"`
	SecretKey     string `json:"secretKey" yaml:"secretKey"`
	SecurityToken string `json:"securityToken" yaml:"securityToken"`
}

// Usable tells whether both keys are set (not blank), as the hooks ask.
func (c Credentials) Usable() bool {
	return strings.TrimSpace(c.AccessKey) != "" && strings.TrimSpace(c.SecretKey) != ""
}

// Field is a header field to set on a request.
type Field struct{ Key, Value string }

// SignFields is AclClientRPCHook.doBeforeRequest: the fields to add to a
// request whose header fields are ext and whose body is body: AccessKey
// (and SecurityToken), then Signature over them all, in key order, and the
// body.
func (c Credentials) SignFields(ext map[string]string, body []byte) []Field {
	ext[FieldAccessKey] = c.AccessKey
	out := []Field{{FieldAccessKey, c.AccessKey}}
	if c.SecurityToken != "" {
		ext[FieldSecurityToken] = c.SecurityToken
		out = append(out, Field{FieldSecurityToken, c.SecurityToken})
	}
	return append(out, Field{FieldSignature, Sign(Content(ext, body), c.SecretKey)})
}

// ReadTools reads a tools.yml's accessKey and secretKey; a file that is
// not there gives no credentials and no error, as Java's.
func ReadTools(path string) (Credentials, error) {
	var c Credentials
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		return Credentials{}, err
	}
	return c, nil
}
