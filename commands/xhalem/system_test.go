package xhalem_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	xhalemcmd "github.com/tablehand/tablehand/commands/xhalem"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/xhalem"
)

// systems is the registry of these tests: xhalem alone.
var systems = []kit.System{xhalemcmd.System}

// defaultRules is xhalem's documented configuration.
func defaultRules() kit.Rules { return kit.Rules{}.WithDefaults(systems) }

func newXhalemStore(t *testing.T) *db.DB {
	t.Helper()
	store := kittest.Store(t)
	kittest.Characters(t, store,
		db.Character{Name: "Vanguard", System: "xhalem", OwnerID: "u1", Stats: map[string]int{"engine": 3, "systems": 4, "hull": 5, "reactor": 2}},
		db.Character{Name: "Skrell", System: "xhalem", OwnerID: "u1", Stats: map[string]int{"evasion": 2, "agility": 3, "strength": 4, "speed": 40}},
		db.Character{Name: "Mira", System: "arc", OwnerID: "u1", Stats: map[string]int{"ks": 4}})
	return store
}

// xhalemRun answers one console line with rules and decodes the result.
func xhalemRun(t *testing.T, rules kit.Rules, line string) (kit.Response, map[string]any, error) {
	t.Helper()
	deps := kittest.Deps(newXhalemStore(t))
	deps.Rules = rules
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(1, 2))) }
	r := kittest.Router(t, deps, systems...)
	return kittest.Answer(t, r, line)
}

// The [xhalem] section of the configuration reaches the handlers: each
// default the text leaves open changes the outcome when overridden.
func TestXhalemConfigOverrides(t *testing.T) {
	tests := []struct {
		name   string
		cfg    func(*xhalem.Config)
		line   string
		field  string
		want   any
		before any
	}{
		{"stacking cancel: flanking and a cloaked target cancel to one die",
			func(c *xhalem.Config) { c.Stacking = xhalem.StackCancel },
			"/xhalem engage kind:machine character:Vanguard evasion:2 target:cloaked position:front allies:back",
			"mode", "normal", "disadvantage"},
		{"shove_tie attacker: a tied check pushes",
			func(c *xhalem.Config) { c.ShoveTie = "attacker" },
			"/xhalem shove kind:machine character:Vanguard evasion:1 resist:4 dice:15,6,11,12",
			"success", true, false},
		{"half_rounding up",
			func(c *xhalem.Config) { c.HalfRounding = "up" },
			"/xhalem damage kind:machine weapon:energy roll:1d10 character:Vanguard out_of_range:true dice:9",
			"total", 6.0, 5.0},
		{"vulnerable_multiplier 3",
			func(c *xhalem.Config) { c.VulnerableMultiplier = 3 },
			"/xhalem damage kind:machine weapon:energy roll:1d8 character:Vanguard type:electrical immersion:partial dice:4",
			"total", 18.0, 12.0},
		{"unarmed_damage 1d6",
			func(c *xhalem.Config) { c.UnarmedDamage = "1d6" },
			"/xhalem damage kind:creature weapon:unarmed character:Skrell dice:6",
			"total", 10.0, nil},
		{"creature_speed 35",
			func(c *xhalem.Config) { c.CreatureSpeed = 35 },
			"/xhalem speed kind:creature dash:true",
			"total", 70.0, 60.0},
		{"size_ranks: gargantuan one rank above giant",
			func(c *xhalem.Config) { c.SizeRanks["gargantuan"] = 6; c.SizeRanks["behemoth"] = 7 },
			"/xhalem speed kind:machine size:gargantuan drag:giant speed:30",
			"dragging", true, true},
		{"difficult_cost 3",
			func(c *xhalem.Config) { c.DifficultCost = 3 },
			"/xhalem speed kind:machine difficult:true",
			"total", 8.0, 12.0},
		{"min_damage 1",
			func(c *xhalem.Config) { c.MinDamage = 1 },
			"/xhalem damage kind:machine weapon:energy roll:1d8 character:Vanguard type:fire immersion:full dice:8",
			"total", 1.0, 0.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := defaultRules()
			cfg := rules[xhalem.SystemName].(xhalem.Config)
			tt.cfg(&cfg)
			rules[xhalem.SystemName] = cfg
			_, got, err := xhalemRun(t, rules, tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if got[tt.field] != tt.want {
				t.Errorf("%s = %v, want %v", tt.field, got[tt.field], tt.want)
			}
			if tt.before == nil {
				return
			}
			_, def, err := xhalemRun(t, defaultRules(), tt.line)
			if err != nil {
				t.Fatalf("with the defaults: %v", err)
			}
			if def[tt.field] != tt.before {
				t.Errorf("with the defaults %s = %v, want %v", tt.field, def[tt.field], tt.before)
			}
		})
	}
}

func TestXhalemCheckSides(t *testing.T) {
	rules := defaultRules()
	cfg := rules[xhalem.SystemName].(xhalem.Config)
	cfg.CheckSides = 10
	rules[xhalem.SystemName] = cfg
	resp, got, err := xhalemRun(t, rules, "/xhalem check stat:hull character:Vanguard cr:14 dice:10")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.Content, "1d10 (10) + 5 = 15") || got["success"] != true {
		t.Errorf("check_sides 10: %q, %v", resp.Content, got)
	}
	if _, _, err := xhalemRun(t, rules, "/xhalem check stat:hull character:Vanguard cr:14 dice:11"); err == nil {
		t.Error("check_sides 10 took an 11")
	}
}

// Deps without Rules, as the console builds them today, get the
// documented defaults rather than a zero configuration.
func TestXhalemZeroRulesMeanDefaults(t *testing.T) {
	_, got, err := xhalemRun(t, kit.Rules{}, "/xhalem engage kind:machine character:Vanguard evasion:2 target:cloaked dice:17,12,6,15,3,11")
	if err != nil {
		t.Fatal(err)
	}
	if got["mode"] != "detriment" || got["total"] != 10.0 || got["margin"] != -3.0 {
		t.Errorf("result %v", got)
	}
	rules := defaultRules()
	cfg := rules[xhalem.SystemName].(xhalem.Config)
	cfg.Stacking = "sum"
	rules[xhalem.SystemName] = cfg
	// Refused when the configuration loads, not on a request.
	err = rules.Validate(systems)
	if err == nil || !strings.Contains(err.Error(), "[xhalem]") {
		t.Fatalf("a configured stacking the rules do not know: %v, want an error naming [xhalem]", err)
	}
	if _, ok := kit.AsUserError(err); ok {
		t.Errorf("a bad configuration is the operator's mistake, not the user's: %v", err)
	}
}

// Every subcommand's reply fits one Discord message, opens with the
// outcome in words and shows the dice, also at the extremes.
func TestXhalemRepliesFitDiscord(t *testing.T) {
	lines := []string{
		"/xhalem initiative kind:machine character:Vanguard bonus:-1000000 opponent:-999 opponent_score:3",
		"/xhalem engage kind:machine character:Vanguard evasion:2 target:cloaked stealth:hidden range:out position:above allies:\"front back left right below\" assisted:true opportunity:forced underwater:yes mode:advantage target_mode:detriment",
		"/xhalem damage kind:machine weapon:energy roll:\"100d100 + 100d100\" reactor:1000000 out_of_range:true type:electrical immersion:full",
		"/xhalem grapple kind:creature character:Skrell evasion:2 mode:detriment target_mode:advantage underwater:yes size:small target_size:medium",
		"/xhalem escape kind:machine character:Vanguard grappler:1000000 mode:detriment",
		"/xhalem shove kind:creature character:Skrell evasion:-5 resist:3 effect:knock_down size:medium target_size:large",
		"/xhalem speed kind:machine engine:1000000 reactor:1000 size:gargantuan dash:true rounds:100000 moved:5 bonus:7",
		"/xhalem check stat:stealth score:5 cr:12 mode:disadvantage",
	}
	for _, line := range lines {
		resp, _, err := xhalemRun(t, defaultRules(), line)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		kittest.CheckLimits(t, resp)
		if strings.Contains(resp.Content, "truncated") {
			t.Errorf("%s: the reply was cut: %q", line, resp.Content)
		}
		first, _, _ := strings.Cut(resp.Content, "\n")
		if !strings.HasPrefix(first, "**alice**") && !strings.HasPrefix(first, "**Vanguard**") && !strings.HasPrefix(first, "**Skrell**") {
			t.Errorf("%s: the first line does not name who acts: %q", line, first)
		}
		if !strings.Contains(resp.Content, "-# roll ") {
			t.Errorf("%s: no roll ID: %q", line, resp.Content)
		}
	}
}

func TestXhalemCharacters(t *testing.T) {
	resp, _, err := xhalemRun(t, defaultRules(), "complete /xhalem engage kind:machine evasion:2 character:")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range resp.Choices {
		names = append(names, c.Value.(string))
	}
	if len(names) != 2 || strings.Contains(strings.Join(names, ","), "Mira") {
		t.Errorf("autocomplete suggested %v; want only the xhalem characters Vanguard and Skrell", names)
	}
	_, _, err = xhalemRun(t, defaultRules(), "/xhalem engage kind:machine character:Mira evasion:2")
	if ue, ok := kit.AsUserError(err); !ok || !strings.Contains(ue.Msg, "arc character") {
		t.Errorf("an arc character: %v", err)
	}
	// An explicit option wins over the sheet.
	_, got, err := xhalemRun(t, defaultRules(), "/xhalem engage kind:machine character:Vanguard systems:0 evasion:2 dice:10,3")
	if err != nil || got["score"] != 0.0 || got["total"] != 10.0 {
		t.Errorf("systems:0 over the sheet's 4: %v, %v", got, err)
	}
}
