package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
)

// Sessions generated from the command definitions: the player's lines
// are any leaf of the commands a player reaches at a table (their
// options drawn from each option's type, choices and bounds, the names
// from both the visible and the hidden ones), among secret lines that
// hide a combatant, a sheet or a roll. What the player receives must
// not depend on the secrets, whatever the player types: a hidden name
// reads as one that does not exist.

// defFamilies are the commands the generated player lines come from:
// every command of a table but those whose answers hold what is random
// by design (a page's link) or that set the table up (/system).
var defFamilies = []string{"roll", "init", "character", "history", "odds", "help", "macro", "arc", "burst", "xhalem", "ulm"}

// defSkipped are the leaves left out: a web page's link is a fresh token
// on every run.
var defSkipped = []string{"init page", "faction page"}

// defLeaf is one leaf of a command: its path as typed ("init damage")
// and its options.
type defLeaf struct {
	path    string
	options []kit.Option
}

// defLeavesOf lists the leaves of the commands named families.
func defLeavesOf(cmds []kit.Command, families ...string) []defLeaf {
	var out []defLeaf
	var walk func(path string, opts []kit.Option)
	walk = func(path string, opts []kit.Option) {
		if kit.HasSubcommands(opts) {
			for _, o := range opts {
				walk(path+" "+o.Name, o.Options)
			}
			return
		}
		if !slices.Contains(defSkipped, path) {
			out = append(out, defLeaf{path: path, options: opts})
		}
	}
	for _, c := range cmds {
		if slices.Contains(families, c.Name) {
			walk(c.Name, c.Options)
		}
	}
	return out
}

// defNames are the names a generated line may give: the session's
// visible ones, its hidden ones (Ogre, a combatant; Shade, a sheet), and
// one nobody made.
var defNames = []string{"Brom", "Gob", "Ogre", "Shade", "Nobody"}

// defExprs are the dice a generated line may roll.
var defExprs = []string{"1d20+2", "2d6", "4d6kh3", "1d20+som", "d20 to hit", "3d6!"}

// defValue draws a value for o, as the console reads it.
func defValue(r *rand.Rand, o kit.Option) string {
	if len(o.Choices) > 0 {
		return fmt.Sprint(o.Choices[r.IntN(len(o.Choices))].Value)
	}
	switch o.Type {
	case kit.Integer, kit.Number:
		lo, hi := 0.0, 12.0
		if o.MinValue != nil {
			lo = *o.MinValue
		}
		if o.MaxValue != nil && *o.MaxValue < lo+12 {
			hi = *o.MaxValue - lo
		}
		return strconv.Itoa(int(lo) + r.IntN(int(hi)+1))
	case kit.Boolean:
		return strconv.FormatBool(r.IntN(2) == 0)
	case kit.UserOption:
		return []string{"bob", "alice", "gm"}[r.IntN(3)]
	}
	switch o.Name {
	case "expression", "roll", "dice_expression":
		return strconv.Quote(defExprs[r.IntN(len(defExprs))])
	case "stats":
		return `"som=3 hp=5"`
	case "dice":
		return strconv.Itoa(1 + r.IntN(6))
	}
	return defNames[r.IntN(len(defNames))]
}

// drawLine draws a line of leaf for bob, each option's value from value:
// its required options, and each other with one chance in three. One
// time in four, when leaf has an autocompleted option, it asks for that
// option's choices instead (the console's "complete"), with what was
// drawn of the others and a prefix of a value drawn for it.
func drawLine(r *rand.Rand, leaf defLeaf, value func(*rand.Rand, kit.Option) string) string {
	var complete *kit.Option
	if r.IntN(4) == 0 {
		var auto []kit.Option
		for _, o := range leaf.options {
			if o.Autocomplete {
				auto = append(auto, o)
			}
		}
		if len(auto) > 0 {
			complete = &auto[r.IntN(len(auto))]
		}
	}
	var b strings.Builder
	if complete != nil {
		b.WriteString("@bob complete /" + leaf.path)
	} else {
		b.WriteString("@bob /" + leaf.path)
	}
	for _, o := range leaf.options {
		if o.Type == kit.ChannelOption || o.Type == kit.RoleOption || complete != nil && o.Name == complete.Name {
			continue
		}
		if o.Required || r.IntN(3) == 0 {
			b.WriteString(" " + o.Name + ":" + value(r, o))
		}
	}
	if complete != nil {
		// A prefix of letters and digits: what a user has typed so far.
		v := strings.TrimFunc(value(r, *complete), func(c rune) bool { return c == '"' })
		v = v[:r.IntN(len(v)+1)]
		if strings.ContainsAny(v, ` \"=`) {
			v = ""
		}
		b.WriteString(" " + complete.Name + ":" + v)
	}
	return b.String()
}

// defSession is one generated session: a fight and a sheet bob may see,
// the secrets, and n lines of bob's drawn from leaves.
func defSession(r *rand.Rand, leaves []defLeaf, i, n int) secretSession {
	lines := []string{
		"/system gm-channel channel:" + secretGMChannel,
		"/init start",
		"/init add name:Brom initiative:12 hp:12 owner:bob",
		"/init add name:Gob initiative:8 hp:9",
		`@bob /character set name:Vex system:arc stats:"som=3 hp=5"`,
	}
	// The hidden combatant and sheet come first: a line of bob's may
	// name them, as it may name one that does not exist.
	lines = append(lines,
		"!/init add name:Ogre initiative:12 hp:20 hidden:true",
		`!/character set name:Shade system:arc stats:"som=7 hp=9" hidden:true`)
	secrets := []string{
		"!@alice /roll 1d20+5 visibility:self",
		"!/roll 1d20 visibility:self",
		"!/init damage target:Ogre amount:3",
	}
	body := make([]string, 0, n+len(secrets))
	for range n {
		// A sheet bob makes may take any name, a hidden sheet's too: a
		// visible and a hidden sheet may share one.
		body = append(body, drawLine(r, leaves[r.IntN(len(leaves))], defValue))
	}
	// The secrets go in at random places. Ogre is damaged before a line
	// of bob's may give his own combatant its name: the hidden Ogre then
	// yields it (encounter.Add), and the GM's line would name bob's.
	for _, s := range secrets {
		limit := len(body)
		if strings.Contains(s, "target:Ogre") {
			if i := slices.IndexFunc(body, func(l string) bool {
				return strings.Contains(l, " /init ") && strings.Contains(l, " name:Ogre")
			}); i >= 0 {
				limit = i
			}
		}
		body = slices.Insert(body, r.IntN(limit+1), s)
	}
	return secretSession{name: fmt.Sprintf("definitions-%d", i), player: "bob", lines: append(lines, body...)}
}

// TestSecretsKeptFromDefinitions plays sessions generated from the
// command definitions (a fixed seed; defSessions sessions of defLines
// lines): see defSession.
func TestSecretsKeptFromDefinitions(t *testing.T) {
	sessions, lines := 100, 30
	if testing.Short() {
		sessions = 4
	}
	leaves := defLeavesOf(commands.New(kit.NewDeps(nil, commands.DefaultRules())).Commands(), defFamilies...)
	if len(leaves) < 30 {
		t.Fatalf("only %d leaves in %v: the definitions moved?", len(leaves), defFamilies)
	}
	r := rand.New(rand.NewPCG(26, 11))
	for i := range sessions {
		s := defSession(r, leaves, i, lines)
		t.Run(s.name, func(t *testing.T) { checkSessionKeepsSecrets(t, s) })
	}
}
