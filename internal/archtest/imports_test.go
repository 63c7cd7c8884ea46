package archtest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/rmqgo/rmqgo/"

// forbidden lists, per package (a top-level one, or an internal helper
// named in full), the project packages it must not depend on, directly
// or not. A package named in full is checked against its own list and
// its top-level package's.
var forbidden = map[string][]string{
	// remoting knows frames and connections: nothing of ours.
	"remoting": {"namesrv", "broker", "store", "conf", "cmd", "internal"},
	// store knows messages and files; its options are plain structs.
	"store":   {"remoting", "broker", "namesrv", "cmd", "conf"},
	"conf":    {"remoting", "broker", "namesrv", "store", "cmd"},
	"namesrv": {"broker", "store", "cmd", "controller"},
	"broker":  {"namesrv", "cmd", "proxy", "controller"},
	// the proxy reaches brokers over remoting only, in both modes.
	"proxy": {"broker", "namesrv", "cmd", "controller"},
	// the controller talks to brokers over remoting only; the name server
	// runs it beside itself (cmd), not inside.
	"controller": {"broker", "namesrv", "store", "proxy", "cmd"},
	// internal helpers sit below broker and namesrv.
	"internal": {"namesrv", "broker", "cmd"},
	// the JSON engine is a leaf; the bodies build on it alone.
	"internal/fastjson": {"remoting", "store", "conf", "internal/protocol", "internal/configfile", "internal/sql92"},
	"internal/protocol": {"remoting", "store", "conf", "internal/configfile", "internal/sql92"},
	// the RocksDB reader and writer knows files only: a leaf.
	"internal/rocksdb": {"remoting", "store", "conf", "internal"},
}

type listedPackage struct {
	ImportPath string
	Deps       []string
}

func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-json", module+"...").Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listedPackage
		require.NoError(t, dec.Decode(&p))
		path := strings.TrimPrefix(p.ImportPath, module)
		top := strings.SplitN(path, "/", 2)[0]
		for _, dep := range p.Deps {
			if !strings.HasPrefix(dep, module) {
				continue
			}
			dep = strings.TrimPrefix(dep, module)
			froms := []string{top}
			if path != top {
				froms = append(froms, path)
			}
			for _, from := range froms {
				for _, bad := range forbidden[from] {
					if dep == bad || strings.HasPrefix(dep, bad+"/") {
						t.Errorf("%s depends on %s: docs/architecture.md forbids %s -> %s", p.ImportPath, dep, from, bad)
					}
				}
			}
		}
	}
}
