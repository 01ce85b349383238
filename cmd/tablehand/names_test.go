package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
)

// registryFile is the one file outside a system's own folders that names
// every system.
const registryFile = "commands/systems.go"

// gameState are the files outside a system's folders that still import
// it: the web page that shows a faction campaign (with the cards it
// writes and what it keeps of a campaign). Issue 24 moves them into the
// slice, served through the registry; the store (db/factions.go), the
// scheduler and kit.Deps already name no game.
var gameState = map[string]string{
	"bot/web.go":      "faction",
	"bot/webcache.go": "faction",
	"bot/webrows.go":  "faction",
}

// TestSystemsNamedOnce holds the registry to being the one place that
// names the rule systems: outside rules/<name>/, commands/<name>/, docs and
// test data, no Go file imports a system's packages or spells its name as
// a string, but the registry. A new list of systems anywhere else would
// drift from it, as /init's and /character's lists once did.
func TestSystemsNamedOnce(t *testing.T) {
	root := "../.."
	names := map[string]bool{}
	for _, s := range commands.Systems {
		names[s.Name] = true
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "docs" || (strings.HasPrefix(d.Name(), ".") && path != root) {
				return filepath.SkipDir
			}
			for name := range names {
				if rel == "rules/"+name || rel == "commands/"+name {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == registryFile {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
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
				if (s == name || imported) && gameState[rel] != name {
					t.Errorf("%s: %s names the %s system; only %s lists the systems (see docs/ARCHITECTURE.md)", fset.Position(lit.Pos()), lit.Value, name, registryFile)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
}
