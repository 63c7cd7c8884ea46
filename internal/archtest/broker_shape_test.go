package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hubFiles are the broker's files that may hold methods of *Broker: its
// lifecycle and the one place it is wired.
var hubFiles = map[string]bool{"broker.go": true, "wire.go": true}

// The broker package is services with narrow dependencies around a
// Broker that owns their lifecycle (docs/architecture.md, "Inside broker/"):
// no struct holds a *Broker, and only the lifecycle and wiring files
// declare methods on it.
func TestBrokerServicesHoldNoBackPointer(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", "..", "broker", "*.go"))
	require.NoError(t, err)
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		name := filepath.Base(path)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				for _, field := range n.Fields.List {
					if isBrokerPointer(field.Type) {
						t.Errorf("%s: a struct field holds a *Broker; give the service what it uses instead", fset.Position(field.Pos()))
					}
				}
			case *ast.FuncDecl:
				if n.Recv != nil && isBrokerPointer(n.Recv.List[0].Type) && !hubFiles[name] {
					t.Errorf("%s: method %s of *Broker outside broker.go and wire.go", fset.Position(n.Pos()), n.Name.Name)
				}
			}
			return true
		})
	}
}

func isBrokerPointer(e ast.Expr) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "Broker"
}
