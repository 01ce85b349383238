package kit

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

func testCall(opts Options, sheet map[string]int, values ...int) *Call {
	req := &Request{Path: "test/check", Options: opts, User: User{ID: "u1", Name: "alice"}}
	c := &Call{Req: req, Tray: &Tray{roller: dice.NewPhysical(values)}}
	if sheet != nil {
		c.Sheet = Sheet{c: &db.Character{Name: "Brom", Stats: sheet}}
	}
	return c
}

// A handler reads all its options and checks one error: the first.
func TestCallKeepsTheFirstMistake(t *testing.T) {
	c := testCall(Options{"ks": int64(4), "winded": true}, map[string]int{"us": 3, "shock": 1})
	ks, us, es := c.Need("ks"), c.Need("us"), c.Need("es")
	_ = c.Need("luck")
	if ks != 4 || us != 3 || es != 0 {
		t.Errorf("ks, us, es = %d, %d, %d; want 4 (option), 3 (sheet), 0 (missing)", ks, us, es)
	}
	ue, ok := AsUserError(c.Err())
	if !ok || ue.Msg != `/test check needs es: give es:<number>, or add it to Brom's sheet with /character set name:Brom stats:"es=3"` {
		t.Errorf("err = %v, want the first missing stat, es, named with Brom's sheet", c.Err())
	}
	if !c.Flag("winded") || !c.Flag("shock") || c.Flag("stable") {
		t.Error("Flag: want the option, then the sheet's 1, then false")
	}
	if got := c.Or("armor", 2); got != 2 {
		t.Errorf("Or = %d, want the default 2", got)
	}
	if c.Who() != "Brom" {
		t.Errorf("Who = %q, want the sheet's name", c.Who())
	}
}

func TestPick(t *testing.T) {
	parse := func(s string) (int, error) {
		if s == "" {
			return 1, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("size must be a number, not %q", s)
		}
		return n, nil
	}
	c := testCall(Options{"size": "3", "bad": "big"}, nil)
	if got := Pick(c, "size", parse, "/x size:2"); got != 3 {
		t.Errorf("Pick(size) = %d", got)
	}
	if got := Pick(c, "absent", parse, "/x size:2"); got != 1 || c.Err() != nil {
		t.Errorf("Pick(absent) = %d, %v; want parse's default and no error", got, c.Err())
	}
	Pick(c, "bad", parse, "/x size:2")
	if ue, ok := AsUserError(c.Err()); !ok || ue.Msg != `size must be a number, not "big" (example: /x size:2)` {
		t.Errorf("err = %v", c.Err())
	}
}

type brokenRoller struct{}

func (brokenRoller) Roll(int) (int, error) { return 0, errors.New("entropy ran out") }

// An error the rules pass on after the dice machinery failed is ours; one
// about what the user gave is theirs, with an example.
func TestRulesError(t *testing.T) {
	c := testCall(nil, nil, 4)
	if _, err := c.Tray.Die(6); err != nil {
		t.Fatal(err)
	}
	err := c.RulesError(errors.New("ES score must be 1-10, not 0"), "/arc check es:5")
	if ue, ok := AsUserError(err); !ok || ue.Msg != "ES score must be 1-10, not 0 (example: /arc check es:5)" {
		t.Errorf("rules' refusal: %v", err)
	}
	if _, ok := AsUserError(c.RulesError(Errorf("dice: 1 value given but 2 dice rolled"), "/arc check")); !ok {
		t.Error("a mistake in dice: stays the user's")
	}

	broken := testCall(nil, nil)
	broken.Tray.roller = brokenRoller{}
	_, err = broken.Tray.Die(6)
	if _, ok := AsUserError(broken.RulesError(err, "/arc check")); ok {
		t.Errorf("a failing roller is ours, not the user's: %v", broken.RulesError(err, "/arc check"))
	}
}

func TestReply(t *testing.T) {
	c := testCall(Options{"private": true}, nil, 5)
	if _, err := c.Tray.Die(8); err != nil {
		t.Fatal(err)
	}
	r := c.Reply("ABC123", 7, "16 vs 10: success", "", "note")
	if want := "16 vs 10: success\nnote\n1d8 (5) = 5\n-# roll ABC123"; r.Content != want || !r.Ephemeral || r.Result != 7 {
		t.Errorf("reply %q (ephemeral %v), want %q, private", r.Content, r.Ephemeral, want)
	}
	if r := testCall(nil, nil).Reply("", nil, "no dice"); r.Content != "no dice" || r.Ephemeral {
		t.Errorf("a reply without dice or ID: %q", r.Content)
	}
}

func TestWithHintAndPlural(t *testing.T) {
	err := WithHint(Errorf("dice: 2 values given but only 1 die rolled"), "example: dice:4")
	if ue, _ := AsUserError(err); ue == nil || ue.Msg != "dice: 2 values given but only 1 die rolled (example: dice:4)" {
		t.Errorf("hint: %v", err)
	}
	ours := errors.New("disk full")
	if WithHint(ours, "x") != ours || WithHint(nil, "x") != nil {
		t.Error("a hint changed an error that is not the user's")
	}
	if Plural(1, "action") != "1 action" || Plural(3, "action") != "3 actions" || Plural(0, "die") != "0 dies" {
		t.Error("Plural")
	}
}

func TestReadAnswersWithoutDice(t *testing.T) {
	c := Read(&Request{Path: "init/effect", Options: Options{"rounds": int64(2)}})
	if c.Need("rounds") != 2 || c.Err() != nil {
		t.Fatalf("Need(rounds) on a reading call: %v", c.Err())
	}
	if r := c.Reply("", nil, "Brom is stunned for 2 rounds."); r.Content != "Brom is stunned for 2 rounds." {
		t.Errorf("reply %q", r.Content)
	}
	if err := c.RulesError(errors.New("no such combatant"), "/init effect target:Brom"); err == nil || err.Error() != "no such combatant (example: /init effect target:Brom)" {
		t.Errorf("RulesError: %v", err)
	}
}

// Rule stops at the first mistake without rolling; else it rolls through
// the tray, each die shown, and words the rules' refusal with an example.
func TestRule(t *testing.T) {
	c := testCall(Options{}, nil, 3, 5)
	c.Failf("needs ks")
	rolled := false
	if _, err := Rule(c, "/arc check ks:4", func() (int, error) { rolled = true; return 0, nil }); err == nil || rolled {
		t.Errorf("a mistake met: err %v, rolled %v; want the mistake and no roll", err, rolled)
	}
	c = testCall(Options{}, nil, 3, 5)
	sum, err := Rule(c, "/x", func() (int, error) {
		a, _ := c.Tray.Dice().Roll(6)
		b, _ := c.Tray.Dice().Roll(8)
		return a + b, nil
	})
	if err != nil || sum != 8 || c.Tray.Breakdown() != "1d6 (3) = 3\n1d8 (5) = 5" {
		t.Errorf("sum %d, %v, breakdown %q", sum, err, c.Tray.Breakdown())
	}
	_, err = Rule(c, "/arc check es:5", func() (int, error) { return 0, errors.New("ES score must be 1-10, not 0") })
	if ue, ok := AsUserError(err); !ok || ue.Msg != "ES score must be 1-10, not 0 (example: /arc check es:5)" {
		t.Errorf("the rules' refusal: %v", err)
	}
}
