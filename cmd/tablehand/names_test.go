package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/tablehand/tablehand/commands"
)

// registryFile is the one file outside a system's own folders that names
// every system.
const registryFile = "commands/systems.go"

// TestSystemsNamedOnce holds the registry to being the one place that
// names the rule systems: outside rules/<name>/, commands/<name>/, docs and
// test data, no Go file imports a system's packages or spells its name as
// a string, but the registry. A new list of systems anywhere else would
// drift from it, as /init's and /character's lists once did.
func TestSystemsNamedOnce(t *testing.T) {
	names := map[string]bool{}
	for _, s := range commands.Systems {
		names[s.Name] = true
	}
	// A system's own folders may name it; so may the docs.
	skip := func(rel string) bool {
		if rel == "docs" {
			return true
		}
		for name := range names {
			if rel == "rules/"+name || rel == "commands/"+name {
				return true
			}
		}
		return false
	}
	fset := token.NewFileSet()
	checked := goSources(t, skip, func(rel, path string) error {
		if rel == registryFile {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for name := range names {
				imported := s == module+"/rules/"+name || s == module+"/commands/"+name
				if s == name || imported {
					t.Errorf("%s: %s names the %s system; only %s lists the systems (see docs/ARCHITECTURE.md)", fset.Position(lit.Pos()), lit.Value, name, registryFile)
				}
			}
			return true
		})
		return nil
	})
	if checked < 20 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
}
