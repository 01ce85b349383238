package burst_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	burstcmd "github.com/tablehand/tablehand/commands/burst"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/burst"
	"github.com/tablehand/tablehand/rules/dice"
)

// burstFailingRoller stands for a broken source of dice: not the user's doing.
type burstFailingRoller struct{}

func (burstFailingRoller) Roll(int) (int, error) { return 0, errors.New("entropy pool exhausted") }

func burstRouter(t *testing.T, rules kit.Rules, roller dice.Roller) (*kit.Router, *db.DB) {
	t.Helper()
	store := kittest.Store(t)
	kittest.Characters(t, store,
		db.Character{Name: "Rex", System: "burst", OwnerID: "u1", Stats: map[string]int{"agility": 2, "wounded": 1, "vigor": 10}})
	deps := kittest.Deps(store)
	deps.Roller, deps.Rules = func() dice.Roller { return roller }, rules
	r := kittest.Router(t, deps, burstcmd.System)
	return r, store
}

func burstAsk(t *testing.T, r *kit.Router, path string, opts kit.Options) (kit.Response, error) {
	t.Helper()
	return r.Handle(context.Background(), &kit.Request{Kind: kit.KindCommand, Path: path, Options: opts, User: kit.User{ID: "u1", Name: "alice"}, ChannelID: "c1"})
}

func TestBurstErrSortsMistakesFromFailures(t *testing.T) {
	// An impossible input is the user's mistake, shown with an example.
	err := burstcmd.BurstErr(errors.New("guard must be 1 to 1000, not 0"), "/burst attack bonus:2 guard:15")
	ue, ok := kit.AsUserError(err)
	if !ok || !strings.Contains(ue.Msg, "(example: /burst attack bonus:2 guard:15)") {
		t.Errorf("plain rules error: %v, want a user error with the example", err)
	}
	// A dice: value that does not fit is the user's, as the table made it.
	inner := &kit.UserError{Msg: "dice: value 11 at position 2 does not fit a d10 (1-10)"}
	err = burstcmd.BurstErr(&burst.DiceError{Expr: "1d20 [action] + 1d10! [bonus]", Err: inner}, "x")
	if ue, ok := kit.AsUserError(err); !ok || ue != inner {
		t.Errorf("dice: value error: %v, want the table's user error itself", err)
	}
	// A failing roller is ours: never shown to the user as their mistake.
	err = burstcmd.BurstErr(&burst.DiceError{Expr: "1d20", Err: errors.New("roll dice: entropy pool exhausted")}, "x")
	if _, ok := kit.AsUserError(err); ok {
		t.Errorf("failing roller: %v became a user error", err)
	}
}

func TestBurstFailingRollerIsInternal(t *testing.T) {
	r, _ := burstRouter(t, nil, burstFailingRoller{})
	resp, err := burstAsk(t, r, "burst/roll", kit.Options{"vs": int64(10), "bonus": int64(1)})
	if err == nil {
		t.Fatal("a failing roller: no error")
	}
	if _, ok := kit.AsUserError(err); ok {
		t.Errorf("a failing roller is reported as the user's mistake: %v", err)
	}
	if !strings.Contains(resp.Content, "went wrong") {
		t.Errorf("the user sees %q, want the something-went-wrong message", resp.Content)
	}
}

func TestBurstZeroConfigFallsBackToDefaults(t *testing.T) {
	// Deps built without Rules: the rules still have their quality dice.
	r, _ := burstRouter(t, kit.Rules{}, dice.NewPhysical([]int{5}))
	resp, err := burstAsk(t, r, "burst/damage", kit.Options{"count": int64(1), "rank": "heroic", "kind": "other", "dice": "5"})
	if err != nil {
		t.Fatalf("damage with a zero config: %v", err)
	}
	res, ok := resp.Result.(burstcmd.BurstDamageResult)
	if !ok || res.Roll.Expr != "1d10 [heroic]" || res.Damage != 5 {
		t.Errorf("damage with a zero config: %+v, want 1d10 [heroic] for 5", resp.Result)
	}
}

func TestBurstSheetStatesAndStats(t *testing.T) {
	r, store := burstRouter(t, nil, nil)
	// Rex's sheet: agility 2 and wounded=1, so "your Bonus Dice move down
	// one step": 2d8. Vigor 10 pays nothing for an ordinary attack.
	resp, err := burstAsk(t, r, "burst/attack", kit.Options{"character": "Rex", "dice": "10,3,4"})
	if err != nil {
		t.Fatal(err)
	}
	res := resp.Result.(burstcmd.BurstAttackResult)
	if res.BonusDice != 2 || res.Die != 8 || res.Total != 17 || !*res.Success || *res.Margin != 2 || res.Vigor == nil || *res.Vigor != 10 {
		t.Errorf("Rex attacks: %+v; want 2d8, 17 vs Guard 15, hit by 2, Vigor 10", res)
	}
	if !strings.HasPrefix(resp.Content, "**Rex**: 17 vs Guard 15: hit by 2\n") {
		t.Errorf("reply %q: the first line should be the outcome", resp.Content)
	}
	// wounded:false given explicitly wins over the sheet.
	resp, err = burstAsk(t, r, "burst/attack", kit.Options{"character": "Rex", "wounded": false, "dice": "10,3,4"})
	if err != nil {
		t.Fatal(err)
	}
	if res := resp.Result.(burstcmd.BurstAttackResult); res.Die != 10 {
		t.Errorf("wounded:false over the sheet: d%d, want d10", res.Die)
	}
	if rolls := kittest.Rolls(t, store, "c1"); len(rolls) != 2 || rolls[0].Expr != "burst attack" || rolls[0].Total != 17 {
		t.Errorf("roll log: %+v, want two burst attack rolls, the first 17", rolls)
	}
}
