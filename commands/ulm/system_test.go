package ulm_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	ulmcmd "github.com/tablehand/tablehand/commands/ulm"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/ulm"
)

// ulmRunLine answers one console line with cfg and returns the reply and
// the `result` as a map.
func ulmRunLine(t *testing.T, cfg ulm.Config, line string) (kit.Response, map[string]any, error) {
	t.Helper()
	roller := dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	deps := kittest.Deps(kittest.Store(t))
	deps.Rules = kit.Rules{ulm.SystemName: cfg}
	deps.Roller = func() dice.Roller { return roller }
	r := kittest.Router(t, deps, ulmcmd.System)
	return kittest.Answer(t, r, line)
}

func TestUlmSubcommandsTakeDiceAndCharacter(t *testing.T) {
	r := kittest.Router(t, kit.NewDeps(nil, nil), ulmcmd.System)
	cmd, ok := r.Command("ulm")
	if !ok {
		t.Fatal("no /ulm command")
	}
	for _, sub := range cmd.Options {
		has := map[string]kit.Option{}
		for _, o := range sub.Options {
			has[o.Name] = o
		}
		for _, name := range []string{"dice", "character", "private"} {
			if _, ok := has[name]; !ok {
				t.Errorf("/ulm %s has no %s: option", sub.Name, name)
			}
		}
		if !has["character"].Autocomplete {
			t.Errorf("/ulm %s character: does not autocomplete", sub.Name)
		}
		if !r.HasRoute("ulm/" + sub.Name) {
			t.Errorf("/ulm %s has no handler", sub.Name)
		}
		if !r.HasAutocomplete("ulm/"+sub.Name, "character") {
			t.Errorf("/ulm %s character: has no autocomplete handler", sub.Name)
		}
	}
}

// The [ulm] section of the config reaches the rules.
func TestUlmConfigOverrides(t *testing.T) {
	tests := []struct {
		name  string
		cfg   func(*ulm.Config)
		line  string
		field string
		want  float64
	}{
		{"modifier_mode = percent: 10 at 100 - 50 + 20 %", func(c *ulm.Config) { c.ModifierMode = ulm.ModifierPercent },
			"/ulm injure target:Orc amount:10 type:ice hp:20 mitigation:50 weakness:20", "damage", 7},
		{"raw_armor_round_up = true: half of 9 is 5", func(c *ulm.Config) { c.RawArmorRoundUp = true },
			"/ulm injure target:Door amount:9 type:raw object:true", "durability", 5},
		{"fall_damage_min_tiles = 5: a 4 Tile fall deals none", func(c *ulm.Config) { c.FallDamageMinTiles = 5 },
			"/ulm fall tiles:4 hp:20", "total", 0},
		{"fall_free_tiles = 2: a 3 Tile fall consumes a slot", func(c *ulm.Config) { c.FallFreeTiles = 2 },
			"/ulm fall tiles:3 hp:20 dice:1,1,1", "slots_used", 1},
		{"min_action_slots = 1", func(c *ulm.Config) { c.MinActionSlots = 1 },
			"/ulm slots agility:-9", "total", 1},
	}
	for _, tt := range tests {
		cfg := ulm.DefaultConfig()
		tt.cfg(&cfg)
		_, result, err := ulmRunLine(t, cfg, tt.line)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got, _ := result[tt.field].(float64); got != tt.want {
			t.Errorf("%s: %s = %v, want %v", tt.name, tt.field, result[tt.field], tt.want)
		}
	}
	// full_round_seconds = 6: 10 Full Rounds are a minute of the Shock left.
	cfg := ulm.DefaultConfig()
	cfg.FullRoundSeconds = 6
	_, result, err := ulmRunLine(t, cfg, "/ulm rest rounds:10 hp:20 shock:30")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := result["state"].(map[string]any); st["shock_minutes"] != float64(29) {
		t.Errorf("30 minutes of Shock after 10 Full Rounds of 6 seconds: %v minutes left, want 29", st["shock_minutes"])
	}
}

// A bad [ulm] section is the operator's mistake, refused when the
// configuration loads, naming the section.
func TestUlmBadConfigIsNotTheUsersMistake(t *testing.T) {
	cfg := ulm.DefaultConfig()
	cfg.ModifierMode = "multiply"
	err := kit.Rules{ulm.SystemName: cfg}.Validate(commands.Systems)
	if err == nil {
		t.Fatal("a bad [ulm] config: no error")
	}
	if _, ok := kit.AsUserError(err); ok || !strings.Contains(err.Error(), "[ulm]") {
		t.Errorf("a bad config = %v; want an internal error naming [ulm]", err)
	}
}

func TestUlmRepliesLeadWithTheOutcome(t *testing.T) {
	tests := []struct {
		line, first string
	}{
		{"/ulm move action:jump accuracy:2 dice:14", "**alice** Jump: 16 vs 6: success by 10, 2 Tiles for 2 Action Slots"},
		{"/ulm move action:leap accuracy:0 momentum:true dice:1,1", "**alice** Leap: 1 vs 9: failure by 8, 0 Tiles for 1 Action Slot; failing to land"},
		{"/ulm slots agility:2", "**alice**: 7 Action Slots (5 + 2 Agility)"},
		{"/ulm fall tiles:30 hp:50 dice:6,6,6", "**alice** falls 30 Tiles: 48 damage (3v:6 + 30 = 48, minimum 30% of 50 HP = 15), 3 Action Slots consumed; 48/50 damage"},
		{"/ulm injure target:Orc amount:6 type:contusion hp:20 damage:15", "**Orc** takes 6 contusion damage: Blunt-Force Trauma Injury Card; becomes Vulnerable: an Epilogue may follow; 21/20 damage, **Vulnerable**"},
	}
	for _, tt := range tests {
		resp, _, err := ulmRunLine(t, ulm.DefaultConfig(), tt.line)
		if err != nil {
			t.Errorf("%s: %v", tt.line, err)
			continue
		}
		first, _, _ := strings.Cut(resp.Content, "\n")
		if !strings.HasPrefix(first, tt.first) {
			t.Errorf("%s: first line %q, want it to begin %q", tt.line, first, tt.first)
		}
		if !strings.Contains(resp.Content, "-# roll ") {
			t.Errorf("%s: no roll ID in %q", tt.line, resp.Content)
		}
	}
}
