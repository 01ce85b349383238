package burst

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/burst"
	"github.com/tablehand/tablehand/rules/dice"
)

// store is the roll log and the character store of these tests: Rex's
// sheet, and the rolls logged.
type store struct {
	kit.RollLog
	kit.CharacterStore
	rolls []db.Roll
}

func (s *store) LogRoll(_ context.Context, r db.Roll) (db.SavedRoll, error) {
	s.rolls = append(s.rolls, r)
	return db.SavedRoll{ID: int64(len(s.rolls))}, nil
}

func (s *store) CharactersNamed(_ context.Context, _, name string) ([]db.Character, error) {
	if name != "Rex" {
		return nil, nil
	}
	return []db.Character{{Name: "Rex", System: rules.SystemName, Stats: map[string]int{"agility": 2, "vigor": 10}}}, nil
}

// Characters lists none: Rex is nobody's own.
func (s *store) Characters(context.Context, string, string, string, string, int) ([]db.Character, error) {
	return nil, nil
}

func testHandlers(cfg rules.Config) (*handlers, *store) {
	s := &store{}
	deps := kit.NewDeps(nil, kit.Rules{rules.SystemName: cfg})
	deps.Rolls, deps.Characters = s, s
	deps.Roller = func() dice.Roller { return dice.NewPhysical([]int{10, 5, 5, 5}) }
	deps.Codes = func() string { return "ABC123" }
	env := &kit.Env{Deps: deps}
	return &handlers{env}, s
}

func ask(h kit.Handler, path string, opts kit.Options) (kit.Response, error) {
	return h(context.Background(), &kit.Request{Kind: kit.KindCommand, Path: path, Options: opts, User: kit.User{ID: "u1", Name: "alice"}})
}

// A handler reads all its options, then reports the first mistake: the
// one the old handlers, which stopped at each, reported.
func TestFirstMistake(t *testing.T) {
	h, _ := testHandlers(rules.DefaultConfig())
	for _, tc := range []struct {
		name    string
		handle  kit.Handler
		path    string
		opts    kit.Options
		wantMsg string
	}{
		{"weapon kind before count and rank", h.damage, "burst/damage", kit.Options{"kind": "rock"},
			"weapon kind must be one of melee, unarmed, bow, crossbow, modern, magic, other, not \"rock\" (example: /burst damage count:2 rank:ordinary kind:crossbow skill:1)"},
		{"count before rank and strength", h.damage, "burst/damage", kit.Options{},
			"/burst damage needs count: the weapon's damage value (example: /burst damage count:2 rank:ordinary strength:1 armor:3)"},
		{"stamina before vigor", h.recover, "burst/recover", kit.Options{"regen": int64(2)},
			"/burst recover needs stamina: give stamina:<number>, or character:<name> to read it from a sheet"},
		{"regen before health_regen", h.recover, "burst/recover", kit.Options{"stamina": int64(2), "vigor": int64(1), "regen": int64(2), "health_regen": int64(1)},
			"regen: restores Durability: give durability:<now> too (example: /burst recover stamina:12 vigor:3 regen:2 durability:4)"},
		{"with before range", h.attack, "burst/attack", kit.Options{"with": "rock", "range": int64(30)},
			"an attack is with a weapon, unarmed, a spell or a technique, not \"rock\" (example: /burst attack bonus:2 with:spell)"},
		{"bonus dice, from the sheet's name", h.defend, "burst/defend", kit.Options{"attack": int64(18), "character": "Rex"},
			"/burst defend needs speed bonus dice: give speed:<number>, or add speed to Rex's sheet with /character set name:Rex stats:\"speed=2\""},
		{"speed_score before moves", h.move, "burst/move", kit.Options{"moves": int64(0)},
			"/burst move needs speed_score: give speed_score:<number>, or character:<name> to read it from a sheet"},
		{"a move rolls no dice", h.move, "burst/move", kit.Options{"speed_score": int64(30), "dice": "3"},
			"dice: 1 value given but the roll has no dice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ask(tc.handle, tc.path, tc.opts)
			if ue, ok := kit.AsUserError(err); !ok || ue.Msg != tc.wantMsg {
				t.Errorf("err = %v\nwant %s", err, tc.wantMsg)
			}
		})
	}
}

// A roll is logged under the subcommand's name with its detail as it was
// before the ID and the dice were filled in; the reply carries both.
func TestAnswerLogsTheRoll(t *testing.T) {
	h, s := testHandlers(rules.DefaultConfig())
	resp, err := ask(h.attack, "burst/attack", kit.Options{"character": "Rex", "dice": "10,3,4"})
	if err != nil {
		t.Fatal(err)
	}
	res := resp.Result.(BurstAttackResult)
	if res.ID != "ABC123" || len(res.Rolls) == 0 || resp.Content != "**Rex**: 17 vs Guard 15: hit by 2\n1d20 (10) [action] + 2d10! (3, 4) [agility] = 17\n"+
		"-# ✋ dice given: 10, 3, 4 (typed in, not rolled by Tablehand)\n-# roll ABC123" {
		t.Errorf("reply %q, result %+v", resp.Content, res)
	}
	if len(s.rolls) != 1 || s.rolls[0].Expr != "burst attack" || s.rolls[0].Total != 17 {
		t.Fatalf("roll log %+v, want one burst attack for 17", s.rolls)
	}
	var detail map[string]any
	if err := json.Unmarshal(s.rolls[0].Detail, &detail); err != nil {
		t.Fatal(err)
	}
	if id, ok := detail["id"]; ok || detail["rolls"] != nil || detail["vigor"] != float64(10) {
		t.Errorf("logged detail %s: want no id (%v), rolls null and Rex's vigor 10", s.rolls[0].Detail, id)
	}
}

// A broken [burst] section is the operator's mistake, refused when the
// configuration loads, before any user's.
func TestBrokenConfigIsOurs(t *testing.T) {
	cfg := rules.DefaultConfig()
	cfg.PointBlankFeet = -1
	err := kit.Rules{rules.SystemName: cfg}.Validate([]kit.System{System})
	if _, ok := kit.AsUserError(err); ok || err == nil {
		t.Errorf("err = %v, want ours", err)
	}
}

// An engine's dice failure that is not the user's stays ours.
func TestBurstErrEngineFailure(t *testing.T) {
	err := BurstErr(&rules.DiceError{Expr: "1d20", Err: errors.New("the dice engine returned no action die")}, "x")
	if _, ok := kit.AsUserError(err); ok {
		t.Errorf("BurstErr = %v, a user error", err)
	}
}
