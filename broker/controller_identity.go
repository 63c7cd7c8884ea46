package broker

// A controller-mode broker's controller id on disk (Java's BrokerMetadata
// and TempBrokerMetadata, docs/reference/controller.md §7.3). UTF-8, no
// newline, fields split by '#' (on-disk format: do not change):
//
//	brokerIdentity       <clusterName>#<brokerName>#<controllerId>
//	brokerIdentity-temp  <clusterName>#<brokerName>#<controllerId>#<registerCheckCode>
//
// The temp file holds an id the controller handed out but has not yet
// confirmed (CONTROLLER_GET_NEXT_BROKER_ID done, CONTROLLER_APPLY_BROKER_ID
// not yet): a broker that dies in between applies the same id with the
// same check code again, which the controller accepts. A file is written
// whole after the old one is deleted (so no .bak is left, as Java's
// MixAll.string2File leaves none then); a file whose fields do not all
// parse counts as absent.

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/configfile"
)

// brokerIdentity is the content of either file.
type brokerIdentity struct {
	cluster, name string
	id            int64
	// checkCode is the temp file's fourth field: brokerAddr;timestampMs.
	checkCode string
}

// identityFiles are the two files' paths.
type identityFiles struct{ path string }

func (f identityFiles) tempPath() string { return f.path + "-temp" }

// load reads the confirmed identity; ok is false when the file is absent
// or unreadable.
func (f identityFiles) load() (brokerIdentity, bool) { return readIdentity(f.path, 3) }

// loadTemp reads the half-done identity.
func (f identityFiles) loadTemp() (brokerIdentity, bool) { return readIdentity(f.tempPath(), 4) }

func readIdentity(path string, fields int) (brokerIdentity, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return brokerIdentity{}, false
	}
	parts := strings.Split(string(data), "#")
	if len(parts) != fields {
		return brokerIdentity{}, false
	}
	id, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || parts[0] == "" || parts[1] == "" {
		return brokerIdentity{}, false
	}
	bi := brokerIdentity{cluster: parts[0], name: parts[1], id: id}
	if fields == 4 {
		if bi.checkCode = parts[3]; bi.checkCode == "" {
			return brokerIdentity{}, false
		}
	}
	return bi, true
}

// store writes the confirmed identity and removes the temp file.
func (f identityFiles) store(bi brokerIdentity) error {
	text := bi.cluster + "#" + bi.name + "#" + strconv.FormatInt(bi.id, 10)
	if err := replaceFile(f.path, text); err != nil {
		return err
	}
	return removeFile(f.tempPath())
}

// storeTemp writes the half-done identity.
func (f identityFiles) storeTemp(bi brokerIdentity) error {
	return replaceFile(f.tempPath(), bi.cluster+"#"+bi.name+"#"+strconv.FormatInt(bi.id, 10)+"#"+bi.checkCode)
}

func (f identityFiles) removeTemp() error { return removeFile(f.tempPath()) }

func replaceFile(path, text string) error {
	if err := removeFile(path); err != nil {
		return err
	}
	return configfile.Persist(path, []byte(text))
}

func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
