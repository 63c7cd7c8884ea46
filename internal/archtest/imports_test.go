package archtest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/rmqgo/rmqgo/"

// forbidden lists, per top-level package, the project packages it must not
// depend on, directly or not.
var forbidden = map[string][]string{
	"remoting": {"namesrv", "broker", "store", "conf", "cmd"},
	"store":    {"remoting", "broker", "namesrv", "cmd"},
	"conf":     {"remoting", "broker", "namesrv", "store", "cmd"},
	"namesrv":  {"broker", "store", "cmd"},
	"broker":   {"namesrv", "cmd"},
	"internal": {"namesrv", "broker", "cmd"},
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
		top := strings.SplitN(strings.TrimPrefix(p.ImportPath, module), "/", 2)[0]
		for _, dep := range p.Deps {
			if !strings.HasPrefix(dep, module) {
				continue
			}
			depTop := strings.SplitN(strings.TrimPrefix(dep, module), "/", 2)[0]
			for _, bad := range forbidden[top] {
				if depTop == bad {
					t.Errorf("%s depends on %s: ARCHITECTURE.md forbids %s -> %s", p.ImportPath, dep, top, bad)
				}
			}
		}
	}
}
