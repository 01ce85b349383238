package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/bot"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// duel is a sixth rule system that lives only in this test: one rule
// ("strike: 1d20 + grit against the target number"), one subcommand, one
// sheet stat (grit) and a tracker policy (the grittiest acts first, no
// dice). It joins Tablehand through the registry alone.
var duel = kit.System{
	Name:     "duel",
	Defaults: func() any { return duelConfig{Target: 10} },
	Policy:   func(cfg any) encounter.Policy { return duelPolicy{} },
	Stats:    []kit.Stat{kit.IntStat("grit", "Duel: Grit (strikes, and acts first)")},
	Mount: func(env *kit.Env, r *kit.Router) {
		r.Define(kit.Command{Name: "duel", Description: "Duel rules: strikes", Options: []kit.Option{
			{Type: kit.SubCommand, Name: "strike", Description: "1d20 + Grit against the target number", Options: []kit.Option{
				{Type: kit.Integer, Name: "grit", Description: "Your Grit"}, kit.DiceOption, kit.CharacterOption,
			}},
		}})
		r.Route("duel/strike", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
			c, err := env.Begin(ctx, req, "duel")
			if err != nil {
				return kit.Response{}, err
			}
			grit := c.Need("grit")
			if err := c.Err(); err != nil {
				return kit.Response{}, err
			}
			target := kit.RulesOf[duelConfig](env.Rules, "duel").Target
			die, err := c.Tray.Die(20)
			if err != nil {
				return kit.Response{}, c.RulesError(err, "/duel strike grit:3")
			}
			o := kit.Outcome{Total: die + grit}
			o.Succeeded(o.Total >= target, o.Total-target)
			if err := c.Finish(ctx, "duel strike", &o, &o, ""); err != nil {
				return kit.Response{}, err
			}
			return c.Reply(o.ID, o, fmt.Sprintf("%s strikes: %d against %d", c.Who(), o.Total, target)), nil
		}, false)
		r.RouteAutocomplete("duel/strike", "character", env.SuggestCharacters)
	},
}

type duelConfig struct {
	Target int `toml:"target"`
}

type duelPolicy struct{ encounter.Generic }

func (duelPolicy) Name() string { return "duel" }

func (duelPolicy) Order(e *encounter.Encounter, r dice.Roller) ([]encounter.Roll, error) {
	for i := range e.Combatants {
		e.Combatants[i].Initiative = []int{e.Combatants[i].Stats["grit"]}
	}
	slices.SortStableFunc(e.Combatants, func(a, b encounter.Combatant) int { return b.Initiative[0] - a.Initiative[0] })
	return nil, nil
}

func (duelPolicy) Insert(e *encounter.Encounter, c *encounter.Combatant, r dice.Roller) (int, []encounter.Roll, error) {
	c.Initiative = []int{c.Stats["grit"]}
	for i, o := range e.Combatants {
		if c.Initiative[0] > o.Initiative[0] {
			return i, nil, nil
		}
	}
	return len(e.Combatants), nil, nil
}

// TestNewSystemThroughTheRegistryAlone adds duel to the registry's list,
// and nothing else, and finds it everywhere a system shows: the choices of
// /system set, /character set and /init start, /init add's stat options,
// /help, the config file, and a fight played through the console.
func TestNewSystemThroughTheRegistryAlone(t *testing.T) {
	systems := append(slices.Clone(commands.Systems), duel)

	// The config file: [duel] is read over duel's defaults; a typo in it
	// is an unknown key, as in any system's section.
	dir := t.TempDir()
	file := filepath.Join(dir, "tablehand.toml")
	if err := os.WriteFile(file, []byte("[duel]\ntarget = 12\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := bot.LoadConfigFor(systems, file, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if got := kit.RulesOf[duelConfig](cfg.Rules, "duel"); got.Target != 12 {
		t.Errorf("[duel] target = %d, want 12 from the file", got.Target)
	}
	if def := bot.DefaultConfigFor(systems); kit.RulesOf[duelConfig](def.Rules, "duel").Target != 10 {
		t.Errorf("duel's defaults: %+v", def.Rules["duel"])
	}
	if err := os.WriteFile(file, []byte("[duel]\ntargte = 12\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := bot.LoadConfigFor(systems, file, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "unknown keys duel.targte") {
		t.Errorf("a typo in [duel]: %v, want unknown keys duel.targte", err)
	}

	store, err := db.Open(context.Background(), filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	deps := kit.NewDeps(store, cfg.Rules)
	deps.Systems, deps.Policies, deps.Calendar = systems, commands.Policies(systems, cfg.Rules), bot.Cron{}
	deps.Codes = kit.NewCodes(1, true)
	deps.Roller = func() dice.Roller { return dice.NewPhysical(nil) }
	router := commands.New(deps)

	// The definitions: every system: choice and /init add's stat options.
	choices := func(cmd string, path ...string) []string {
		c, _ := router.Command(cmd)
		opts, _ := c.Leaf(path[:len(path)-1])
		var out []string
		for _, o := range opts {
			if o.Name == path[len(path)-1] {
				for _, ch := range o.Choices {
					out = append(out, fmt.Sprint(ch.Value))
				}
			}
		}
		return out
	}
	for _, where := range [][]string{{"system", "set", "name"}, {"character", "set", "system"}, {"init", "start", "system"}} {
		if got := choices(where[0], where[1:]...); !slices.Contains(got, "duel") {
			t.Errorf("/%s: system choices %v lack duel", strings.Join(where, " "), got)
		}
	}
	initCmd, _ := router.Command("init")
	add, _ := initCmd.Leaf([]string{"add"})
	if !slices.ContainsFunc(add, func(o kit.Option) bool { return o.Name == "grit" }) {
		t.Error("/init add has no grit: option")
	}

	script := strings.Join([]string{
		`/system set name:duel`,
		`/character set name:Kit system:duel stats:"grit=3"`,
		`/duel strike character:Kit dice:11`,
		`/init start`,
		`/init add name:Gob grit:1 hp:5`,
		`/init add name:Ogre grit:5 hp:9`,
		`/init add character:Kit`,
		`/init begin`,
		`/help`,
		`/help command:duel`,
	}, "\n")
	var out bytes.Buffer
	err = bot.Console(context.Background(), bot.ConsoleOptions{Router: router, JSON: true, User: "gm", GMs: []string{"gm"}, Channel: "table", Guild: "g"},
		strings.NewReader(script), &out)
	if err != nil {
		t.Fatal(err)
	}
	// The console contract's fields this test reads.
	type line struct {
		Input    string `json:"input"`
		Error    string `json:"error"`
		Result   any    `json:"result"`
		Response struct {
			Data struct {
				Content string `json:"content"`
			} `json:"data"`
		} `json:"response"`
	}
	var lines []line
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var cl line
		if err := json.Unmarshal([]byte(l), &cl); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if cl.Error != "" {
			t.Errorf("%s: %s", cl.Input, cl.Error)
		}
		lines = append(lines, cl)
	}
	if len(lines) != 10 {
		t.Fatalf("%d answers, want 10:\n%s", len(lines), out.String())
	}
	content := func(i int) string { return lines[i].Response.Data.Content }
	if !strings.HasPrefix(content(2), "Kit strikes: 14 against 12\n1d20 (11) = 11") {
		t.Errorf("/duel strike with Kit's grit 3 and the file's target 12: %q", content(2))
	}
	js, _ := json.Marshal(lines[3].Result)
	if !strings.Contains(string(js), `"system":"duel"`) {
		t.Errorf("/init start in a duel channel: %s, want the duel system", js)
	}
	js, _ = json.Marshal(lines[7].Result)
	if !strings.Contains(string(js), `"order":["Ogre","Kit","Gob"]`) {
		t.Errorf("/init begin: %s, want the grittiest first: Ogre (5), Kit (3, from the sheet), Gob (1)", js)
	}
	if !strings.Contains(content(8), "`/duel`") || !strings.Contains(content(9), "strike") {
		t.Errorf("/help does not show /duel: %q / %q", content(8), content(9))
	}
}
