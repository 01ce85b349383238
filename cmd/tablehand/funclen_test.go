package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// maxFuncLines is the most lines a function may take, from func to its
// closing brace: no function a reader must scroll (issue 24). A longer
// one is split along the steps of what it does, which for rules are the
// rule text's own steps, named in its words.
const maxFuncLines = 100

// longFuncs are the functions still over maxFuncLines, keyed "path
// FuncName" (the module-relative file; a method by its name alone), with
// the reason. An entry goes as soon as its function is split: the test
// fails on an entry whose function is gone or short, so the list cannot
// outlive its reasons.
var longFuncs = map[string]string{}

// TestNoLongFunctions holds every function declaration outside the tests
// to maxFuncLines, but the exemptions of longFuncs.
func TestNoLongFunctions(t *testing.T) {
	fset := token.NewFileSet()
	exempt := map[string]int{} // longFuncs key -> the longest such function found
	checked := goSources(t, nil, func(rel, path string) error {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			start := fset.Position(fn.Pos()) // func, after any doc comment
			n := fset.Position(fn.End()).Line - start.Line + 1
			key := rel + " " + fn.Name.Name
			if _, ok := longFuncs[key]; ok {
				exempt[key] = max(exempt[key], n)
				continue
			}
			if n > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines, over %d: split it along its steps", rel, start.Line, fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if checked <= 50 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
	for key, why := range longFuncs {
		n, found := exempt[key]
		switch {
		case !found:
			t.Errorf("longFuncs exempts %s (%s), which no longer exists: drop the entry", key, why)
		case n <= maxFuncLines:
			t.Errorf("longFuncs exempts %s (%s), which is %d lines now: drop the entry", key, why, n)
		}
	}
}
