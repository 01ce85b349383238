package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The texts whose mentions of the repository's files are held to the
// tree: a doc that names a file the code has left sends its reader to
// nothing, as docs/arc.md's "commands/arc.go" once did after the command
// moved to a package of its own.
var (
	docGlobs = []string{"README.md", "docs/*.md", "config.example.toml", "deploy/*", ".ci/*"}
	// A mention begins with a top-level directory of the module or is one
	// of its top-level files, and is not the tail of a longer path or word.
	pathMention = regexp.MustCompile(`(?:^|[^\w./\-])((?:bot|commands|rules|db|cmd|docs|deploy|\.ci)/[\w./<>*#:\-]*|go\.mod\b|config\.example\.toml\b)`)
	// A markdown link or image: its target is relative to the doc.
	mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	// Anything with a scheme is an address elsewhere, whatever its path.
	url = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s<>()\x60"']*`)
	// The tail of "bot/web.go:42" or "rules/dice/scan.go:10:3".
	lineSuffix = regexp.MustCompile(`(:\d+)+$`)
	// The tail of "commands/kit.Call" or "commands/kit.Call.Reply": an
	// exported name of the package the rest names.
	goSymbol = regexp.MustCompile(`^([A-Z]\w*)(\.\w+)*$`)
)

// A docPath is one mention of a repository path in a doc.
type docPath struct {
	doc  string // the doc, relative to the module root
	line int
	path string // what it names, relative to the module root
	dir  bool   // the doc says it is a directory ("rules/dice/")
}

// TestDocsNamePaths holds every repository path the docs (README.md,
// docs/*.md, config.example.toml, deploy/ and .ci/) name to the tree, so
// a doc cannot go on naming a file that has moved: each mention must be a
// file or directory of the module (a "pkg.Name" mention, an exported name
// declared in that package). Placeholders ("rules/<name>/",
// "rules/..."), globs and addresses are not paths of the tree.
func TestDocsNamePaths(t *testing.T) {
	root := "../.."
	var docs []string
	for _, g := range docGlobs {
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, m...)
	}
	found := 0
	for _, name := range docs {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			t.Fatal(err)
		}
		if isDir(name) {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !isText(data) {
			continue
		}
		for _, p := range docPaths(filepath.ToSlash(rel), string(data)) {
			found++
			if msg := checkDocPath(root, p); msg != "" {
				t.Errorf("%s:%d: %s %s: point it at where that lives now", p.doc, p.line, p.path, msg)
			}
		}
	}
	// The docs name some 120 paths: far fewer means the extractor, not
	// the docs, has changed.
	if found < 80 {
		t.Errorf("found only %d path mentions in %d docs: is the extractor broken?", found, len(docs))
	}
}

// TestDocPathsFindsMentions checks the extractor and the check on lines
// of each kind, among them one naming a file that is not there.
func TestDocPathsFindsMentions(t *testing.T) {
	root := "../.."
	tests := []struct {
		doc, line string
		want      []string // "path" for a good mention, "!path" for a missing one
	}{
		{"README.md", "the command in `commands/kit/call.go`.", []string{"commands/kit/call.go"}},
		{"README.md", "see [the guide](docs/dice.md#odds), and docs/dice.md.", []string{"docs/dice.md"}},
		{"docs/x.md", "see [the guide](dice.md#odds) and [up](../go.mod)", []string{"docs/dice.md", "go.mod"}},
		{"docs/x.md", "plain text: bot/web.go's cache, at bot/webevents.go:12, in `rules/dice/`;", []string{"bot/web.go", "bot/webevents.go", "rules/dice"}},
		{"docs/x.md", "`commands/kit.Call` opens; `commands/kit.Call.Reply` too; `db.Open`", []string{"commands/kit.Call", "commands/kit.Call.Reply"}},
		{"docs/x.md", "`commands/kit.NoSuchName` and `commands/arc.go` and `bot/web.go/`", []string{"!commands/kit.NoSuchName", "!commands/arc.go", "!bot/web.go"}},
		{"docs/x.md", "`commands/<name>/`, rules/<system>, rules/..., `bot/web/*.js`", nil},
		{"docs/x.md", "https://github.com/tablehand/tablehand/tree/main/bot/nothere.go and [x](https://example.com/cmd/x)", nil},
		{"docs/x.md", "../shared/seeds/ and ~/src/bot/x and foo/commands/x and github.com/x/db/y", nil},
		{"deploy/x", "COPY go.mod go.sum ./ and config.example.toml, not go.modx", []string{"go.mod", "config.example.toml"}},
		{"docs/x.md", "`cmd/tablehand/testdata/script/visibility.txtar`: the story", []string{"cmd/tablehand/testdata/script/visibility.txtar"}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range docPaths(tt.doc, tt.line) {
			if checkDocPath(root, p) != "" {
				got = append(got, "!"+p.path)
			} else {
				got = append(got, p.path)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q: got %q, want %q", tt.doc, tt.line, got, tt.want)
		}
	}
}

// docPaths returns the repository paths text names, in order, once per
// line each. doc is the text's path relative to the module root, against
// which its markdown links are resolved.
func docPaths(doc, text string) []docPath {
	var out []docPath
	for i, line := range strings.Split(text, "\n") {
		line = url.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
		seen := map[string]bool{}
		add := func(p docPath, ok bool) {
			if ok && !seen[p.path] {
				seen[p.path] = true
				p.doc, p.line = doc, i+1
				out = append(out, p)
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			target := m[1]
			if strings.HasPrefix(target, "#") || strings.Contains(target, ":") {
				continue
			}
			p, ok := cleanDocPath(target)
			p.path = path.Join(path.Dir(doc), p.path)
			if p.path == ".." || strings.HasPrefix(p.path, "../") {
				continue // outside the repository
			}
			add(p, ok)
		}
		for _, m := range pathMention.FindAllStringSubmatch(line, -1) {
			add(cleanDocPath(m[1]))
		}
	}
	return out
}

// cleanDocPath turns a mention into the path it names: it drops an
// anchor, a trailing ":line" and punctuation. It reports false for a
// placeholder or a glob.
func cleanDocPath(s string) (docPath, bool) {
	var p docPath
	if strings.ContainsAny(s, "<>*") || strings.Contains(s, "...") {
		return p, false
	}
	s, _, _ = strings.Cut(s, "#")
	s = strings.TrimRight(s, ".,;:")
	s = lineSuffix.ReplaceAllString(s, "")
	s = strings.TrimRight(s, ".,;:")
	if strings.HasSuffix(s, "/") {
		p.dir = true
		s = strings.TrimRight(s, "/")
	}
	p.path = s
	return p, s != ""
}

// checkDocPath says what is wrong with a mention, or "" if it names a
// file or directory of the tree under root, or an exported name of a
// package of the tree ("commands/kit.Call", "commands/kit.Call.Reply").
func checkDocPath(root string, p docPath) string {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p.path)))
	if err == nil {
		if p.dir && !fi.IsDir() {
			return "is not a directory"
		}
		return ""
	}
	dir, base := path.Split(p.path)
	pkg, sym, ok := strings.Cut(base, ".")
	if !ok || p.dir || !goSymbol.MatchString(sym) {
		return "is not in the repository"
	}
	full := filepath.Join(root, filepath.FromSlash(dir+pkg))
	if !isDir(full) {
		return "is not in the repository"
	}
	name, _, _ := strings.Cut(sym, ".")
	if !declares(full, name) {
		return "is not in the repository (package " + dir + pkg + " declares no " + name + ")"
	}
	return ""
}

// declares reports whether the Go package in dir declares name at its
// top level, in any of its files.
func declares(dir, name string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == name {
					return true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.Name == name {
							return true
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name == name {
								return true
							}
						}
					}
				}
			}
		}
	}
	return false
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// isText reports whether data is text worth reading for paths: UTF-8
// without NUL bytes.
func isText(data []byte) bool {
	return utf8.Valid(data) && !bytes.ContainsRune(data, 0)
}
