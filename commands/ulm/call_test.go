package ulm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// countingRoller rolls 1 on every die and counts the dice, or fails.
type countingRoller struct {
	n    int
	fail error
}

func (r *countingRoller) Roll(sides int) (int, error) {
	r.n++
	return 1, r.fail
}

// testCall opens the call of path with opts and the dice of r, as the
// router would (no `character:`, so no store is needed).
func testCall(t *testing.T, r dice.Roller, path string, opts kit.Options) *kit.Call {
	t.Helper()
	deps := kit.NewDeps(nil, nil)
	deps.Roller = func() dice.Roller { return r }
	env := &kit.Env{Deps: deps}
	c, err := env.Begin(context.Background(), &kit.Request{Path: path, Options: opts}, rules.SystemName)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A refused command spends no dice: amount rolls only when no mistake was
// met before it, which keeps the console's seeded dice in step.
func TestAmountRollsOnlyWithoutMistake(t *testing.T) {
	r := &countingRoller{}
	c := testCall(t, r, "ulm/heal", kit.Options{"amount": "2d6"})
	c.Failf("an earlier mistake")
	if got := amount(c, "amount"); got != 0 || r.n != 0 {
		t.Errorf("amount after a mistake = %d with %d dice rolled; want 0 with none", got, r.n)
	}
	if err := c.Err(); err == nil || err.Error() != "an earlier mistake" {
		t.Errorf("Err() = %v; want the earlier mistake", err)
	}

	c = testCall(t, r, "ulm/heal", kit.Options{"amount": "2d6"})
	if got := amount(c, "amount"); got != 2 || r.n != 2 || c.Err() != nil {
		t.Errorf("amount = %d with %d dice, err %v; want 2 with 2 dice", got, r.n, c.Err())
	}
}

func TestAmountMistakes(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"-3", "amount is -3: give 0 or more (example: amount:7 or amount:2d6+3)"},
		{"1d6-9", "amount rolled -8: it must come to 0 or more (example: amount:2d6+3)"},
		{"2d6+", "unexpected end of expression at column 5"},
	} {
		c := testCall(t, &countingRoller{}, "ulm/heal", kit.Options{"amount": tc.text})
		amount(c, "amount")
		if err := c.Err(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("amount:%s: Err() = %v; want %q", tc.text, err, tc.want)
		}
	}
}

// diceUsed refuses `dice:` only when nothing was rolled: a roll with no
// dice in it (2+3) counts, and the values left over are the tray's to
// report.
func TestDiceUsed(t *testing.T) {
	c := testCall(t, &countingRoller{}, "ulm/heal", kit.Options{"dice": "4"})
	err := diceUsed(c)
	if err == nil || err.Error() != "/ulm heal rolls no dice here: leave out dice: (it is for the rolls of a jump or leap, a fall, or an amount like 2d6)" {
		t.Errorf("diceUsed with nothing rolled = %v", err)
	}
	c = testCall(t, &countingRoller{}, "ulm/heal", kit.Options{"dice": "4", "amount": "2+3"})
	if got := amount(c, "amount"); got != 5 {
		t.Fatalf("amount:2+3 = %d", got)
	}
	if err := diceUsed(c); err != nil {
		t.Errorf("diceUsed after rolling 2+3 = %v; want nil", err)
	}
	if err := c.Tray.Done(); err == nil {
		t.Errorf("Done after rolling 2+3 with dice:4 = nil; want the value left over")
	}
}

// rulesError shows a *UserError inside the rules' error alone, as the
// console has always shown it; other errors are the user's with an
// example, unless the dice failed on our side.
func TestRulesError(t *testing.T) {
	c := testCall(t, &countingRoller{}, "ulm/fall", nil)
	ue := &kit.UserError{Msg: "dice: 1 value given, 1 more needed: 1d6"}
	if err := rulesError(c, fmt.Errorf("fall damage: %w", ue), "ex"); err != ue {
		t.Errorf("rulesError of a wrapped *UserError = %v; want it unwrapped", err)
	}
	err := rulesError(c, errors.New("a Leap needs Momentum"), "/ulm move action:leap")
	if err == nil || err.Error() != "a Leap needs Momentum (example: /ulm move action:leap)" {
		t.Errorf("rulesError of a rule = %v", err)
	}

	broken := errors.New("roller broken")
	c = testCall(t, &countingRoller{fail: broken}, "ulm/fall", nil)
	_, rollErr := c.Tray.Roll("1d6")
	err = rulesError(c, fmt.Errorf("fall damage: %w", rollErr), "ex")
	if _, ok := kit.AsUserError(err); ok || !errors.Is(err, broken) {
		t.Errorf("rulesError after our dice failed = %v; want ours, wrapping the failure", err)
	}
}

// flagOr: the option, else the sheet's stat, else the default.
func TestFlagOr(t *testing.T) {
	c := testCall(t, &countingRoller{}, "ulm/fall", kit.Options{"vulnerable": false})
	if flagOr(c, "vulnerable", true) {
		t.Error("vulnerable:false with default true = true")
	}
	c = testCall(t, &countingRoller{}, "ulm/fall", nil)
	if !flagOr(c, "vulnerable", true) {
		t.Error("no vulnerable: with default true = false")
	}
}
