package ulm_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPolicyImports holds the package to pure game logic: the standard
// library, rules/dice and rules/encounter (for its policy), and nothing
// that reaches outside the process.
func TestPolicyImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/tablehand/tablehand/rules/dice":      true,
		"github.com/tablehand/tablehand/rules/encounter": true,
	}
	forbidden := map[string]string{
		"math/rand":    "global randomness; take a dice.Roller",
		"math/rand/v2": "global randomness; take a dice.Roller",
		"crypto/rand":  "global randomness; take a dice.Roller",
		"os":           "no I/O in rules",
		"net":          "no I/O in rules",
		"net/http":     "no I/O in rules",
		"log":          "no logging in rules; return errors",
		"log/slog":     "no logging in rules; return errors",
		"database/sql": "storage belongs to db",
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") && !allowed[path] {
				t.Errorf("%s imports %s: rules/ulm uses the standard library, rules/dice and rules/encounter only", name, path)
			}
			if why, ok := forbidden[path]; ok {
				t.Errorf("%s imports %s: %s", name, path, why)
			}
		}
	}
}
