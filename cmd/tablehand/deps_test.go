package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
)

const module = "github.com/tablehand/tablehand"

// rule says what a package must never import, and why.
type rule struct {
	pkg    string // module-relative directory prefix: "rules" covers rules/...
	banned []string
	why    string
}

// The arrows point inward: cmd -> bot -> commands -> db, rules. An import
// against them is a design change to argue for, not a convenience.
var depRules = []rule{
	{"rules", []string{module + "/db", module + "/commands", module + "/bot", module + "/cmd"},
		"rules is pure game logic: it imports nothing of ours outside rules"},
	{"rules", []string{"os", "os/exec", "net", "net/http", "database/sql", "log", "log/slog", "math/rand", "syscall", "io/ioutil"},
		"rules does no I/O and no global randomness: dice come from an injected roller"},
	{"rules", []string{"crypto/rand", "unsafe", "runtime/debug"},
		"rules needs neither: randomness comes from the roller passed in"},
	// Stricter for the packages everything else stands on.
	{"rules/dice", []string{module + "/rules", "time", "sync"},
		"the dice language stands alone: an Expr is immutable (no shared state to guard), and there is no clock"},
	{"rules/encounter", []string{"math/rand/v2", "time", "sync"},
		"an Encounter is plain data owned by one command at a time, rolled by a dice.Roller, with no clock"},
	{"rules/ulm", []string{"math/rand/v2"},
		"ulm rolls with a dice.Roller and builds on rules/dice and rules/encounter only"},
	{"db", []string{module + "/commands", module + "/bot", module + "/cmd"},
		"db satisfies the interfaces commands declares without importing commands"},
	{"commands", []string{module + "/bot", module + "/cmd", "github.com/bwmarrin/discordgo", "net/http", "os"},
		"handlers take and return the project's own types: no Discord session, no process state"},
	{"bot", []string{module + "/cmd"}, "cmd wires bot, never the other way"},
}

// Only bot may hold Discord or the scheduler.
var onlyIn = map[string]string{
	"github.com/bwmarrin/discordgo": "bot",
	"github.com/robfig/cron/v3":     "bot",
	"github.com/mattn/go-sqlite3":   "db",
}

// systemRules are the arrows between the rule systems of the registry
// (commands.Systems) and the rest: a system is its two folders,
// rules/<name> and commands/<name>, and plugs in through kit.System and
// encounter.Policy, so nothing else imports them but the registry, and no
// system imports another.
func systemRules() []rule {
	var all []string
	for _, s := range commands.Systems {
		all = append(all, module+"/rules/"+s.Name, module+"/commands/"+s.Name)
	}
	out := []rule{
		{"rules/encounter", all, "systems plug into the tracker through encounter.Policy, not imports"},
		{"rules/dice", all, "the dice language knows no system"},
		{"commands/kit", append([]string{module + "/commands", module + "/commands/core", module + "/commands/tracker"}, all...),
			"the toolkit stands under every command package and imports none of them, nor any rule system"},
		{"bot", append([]string{module + "/commands/core", module + "/commands/tracker"}, all...),
			"the edges reach the slices through the registry (kit.System, Router.Job, Router.Pages), never a system's rules or commands, nor the tracker's"},
		{"db", all, "the store keeps tables and transactions, not games: a game's rules run in the closures its slice passes (UpdateCampaign, PlayCampaign)"},
		{"commands/core", append([]string{module + "/commands/tracker"}, all...), "the core commands know systems only through the registry's kit.System values"},
		{"commands/tracker", append([]string{module + "/commands/core"}, all...), "the tracker knows systems only through kit.System and encounter.Policy"},
	}
	for _, s := range commands.Systems {
		var others []string
		for _, o := range commands.Systems {
			if o.Name != s.Name {
				others = append(others, module+"/rules/"+o.Name, module+"/commands/"+o.Name)
			}
		}
		out = append(out,
			rule{"rules/" + s.Name, others, "a rule system never imports another"},
			rule{"commands/" + s.Name, append([]string{module + "/commands/core"}, others...),
				"a system's commands use the toolkit (and the tracker), never another system's or the core commands"})
	}
	return out
}

func TestDependencyDirection(t *testing.T) {
	rules := append(slices.Clone(depRules), systemRules()...)
	fset := token.NewFileSet()
	checked := goSources(t, nil, func(rel, path string) error {
		dir := filepath.ToSlash(filepath.Dir(rel))
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			for _, r := range rules {
				if !under(dir, r.pkg) {
					continue
				}
				for _, b := range r.banned {
					// A module path bans its subpackages too; a standard
					// library path bans itself only (math/rand, not math/rand/v2,
					// whose generators are passed in as values).
					if p == b || (strings.Contains(b, ".") && strings.HasPrefix(p, b+"/") && b != module+"/commands") {
						t.Errorf("%s imports %s: %s", rel, p, r.why)
					}
				}
			}
			// rules is the standard library and rules only.
			if first, _, _ := strings.Cut(p, "/"); under(dir, "rules") && strings.Contains(first, ".") && !strings.HasPrefix(p, module+"/rules/") {
				t.Errorf("%s imports %s: rules uses the standard library and other rules packages only", rel, p)
			}
			if home, ok := onlyIn[p]; ok && !under(dir, home) && !under(dir, "cmd") {
				t.Errorf("%s imports %s: only %s may", rel, p, home)
			}
		}
		return nil
	})
	if checked < 10 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
}

// sourceRoot is the module's root, from this package's folder.
const sourceRoot = "../.."

// goSources calls fn with every Go file of the module that is not a test,
// by its slash-separated path from the module's root and the path to open
// it by, skipping testdata and dot folders and the folders skipDir (if
// any) names; it returns how many files fn was given. An error from fn,
// or from the walk, fails t.
func goSources(t *testing.T, skipDir func(rel string) bool, fn func(rel, path string) error) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(sourceRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(sourceRoot, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if name == "testdata" || (strings.HasPrefix(name, ".") && path != sourceRoot) || (skipDir != nil && skipDir(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		n++
		return fn(rel, path)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func under(dir, pkg string) bool { return dir == pkg || strings.HasPrefix(dir, pkg+"/") }
