package burst

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// ActionDie is the action die: "Every action that requires a roll follows
// the same formula: 1d20 (the Action Dice) + any Bonus dice against a
// victory sum, VS." It never changes: "nothing can ever reduce your Action
// dice, only your bonus dice", and only bonus dice burst.
const ActionDie = 20

// Ladder is the bonus dice's ranks from the lowest up. "Bonus dice will be
// d10 unless you are wounded or suffering Challenges to the roll, in which
// case they will drop a step, from d10 to d8, d8 to d6, and if you are
// particularly hindered, d6 to d4. Bonus dice cannot be reduced below d4"
// and a Charge raises them "from d10 to d12, and d12 to d20".
var Ladder = []int{4, 6, 8, 10, 12, 20}

// baseStep is d10's place on Ladder: "Bonus dice will be d10 unless ...".
const baseStep = 3

// MaxBonusDice bounds the bonus dice of one roll; a table never needs more
// and the dice engine has its own limit on a whole roll.
const MaxBonusDice = 100

// MaxSteps bounds charges and challenges, so a typo like 1000 is caught.
const MaxSteps = 20

// Bonus is the bonus dice of one roll and what steps them.
type Bonus struct {
	Dice       int  // how many: "from having Skill bonuses, Talents, or high ability scores"
	Charges    int  // each a step up
	Challenges int  // each a step down
	Wounded    bool // "your Bonus Dice move down one step"
}

// Step returns the bonus dice's place on Ladder. "Charges will counter
// challenges on a 1 to 1 basis, negating each other", and being wounded
// steps every bonus die down once more; the sum of the steps is taken from
// d10 and then held to the ladder, d4 to d20, so a charge still cancels a
// challenge when the two together would go past an end.
func (b Bonus) Step() int {
	step := baseStep + b.Charges - b.Challenges
	if b.Wounded {
		step--
	}
	return max(0, min(step, len(Ladder)-1))
}

// Sides returns the size of the bonus dice: d4 to d20.
func (b Bonus) Sides() int { return Ladder[b.Step()] }

func (b Bonus) validate() error {
	switch {
	case b.Dice < 0 || b.Dice > MaxBonusDice:
		return fmt.Errorf("bonus dice must be 0 to %d, not %d", MaxBonusDice, b.Dice)
	case b.Charges < 0 || b.Charges > MaxSteps:
		return fmt.Errorf("charges must be 0 to %d, not %d", MaxSteps, b.Charges)
	case b.Challenges < 0 || b.Challenges > MaxSteps:
		return fmt.Errorf("challenges must be 0 to %d, not %d", MaxSteps, b.Challenges)
	}
	return nil
}

// term writes the bonus dice as a term of the dice language: "All Bonus
// Dice burst when you roll maximum value on the dice", and a die that
// bursts rolls another of its size, added in, which may burst in turn (the
// text does not say what a burst does; this is the "!" explosion of the
// dice language, see docs/burst.md). label names where the dice come from.
func (b Bonus) term(label string) string {
	return fmt.Sprintf("%dd%d! [%s]", b.Dice, b.Sides(), label)
}

// Dice rolls the expressions the rules write. The commands layer passes
// its table, which keeps every roll for the reply and the roll log;
// FromRoller wraps a plain dice.Roller.
type Dice interface {
	Roll(expr string) (*dice.Result, error)
}

// DiceError is a failure of the Dice a rule rolled with (a `dice:` value
// that does not fit, a failing roller), as opposed to an impossible input,
// which is a plain error.
type DiceError struct {
	Expr string
	Err  error
}

func (e *DiceError) Error() string { return fmt.Sprintf("roll %s: %v", e.Expr, e.Err) }
func (e *DiceError) Unwrap() error { return e.Err }

// roll rolls expr with d, marking a failure as a *DiceError.
func roll(d Dice, expr string) (*dice.Result, error) {
	res, err := d.Roll(expr)
	if err != nil {
		return nil, &DiceError{Expr: expr, Err: err}
	}
	return res, nil
}

// FromRoller returns Dice that roll with r.
func FromRoller(r dice.Roller) Dice { return rollerDice{r} }

type rollerDice struct{ r dice.Roller }

func (d rollerDice) Roll(expr string) (*dice.Result, error) {
	e, err := dice.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("rules expression %q: %w", expr, err)
	}
	return e.Roll(d.r)
}

// Roll is one roll of dice and what the rules read from it.
type Roll struct {
	Expr       string `json:"expr"`
	Action     int    `json:"action,omitempty"`      // the action die's face; 0 for an effect roll
	Base       int    `json:"base,omitempty"`        // the effect dice's sum, for damage
	BonusDice  int    `json:"bonus_dice"`            // bonus dice rolled before bursts
	BonusSides int    `json:"bonus_sides,omitempty"` // their size after charges, challenges and wounds
	Bonus      int    `json:"bonus"`                 // their sum, bursts included
	Bursts     int    `json:"bursts"`                // bonus dice that showed their maximum
	Total      int    `json:"total"`

	Result *dice.Result `json:"-"`
}

// ActionRoll rolls 1d20 plus the bonus dice. label names the bonus dice's
// source ("agility", "bonus").
func ActionRoll(b Bonus, label string, d Dice) (Roll, error) {
	if err := b.validate(); err != nil {
		return Roll{}, err
	}
	expr := "1d20 [action]"
	if b.Dice > 0 {
		expr += " + " + b.term(label)
	}
	res, err := roll(d, expr)
	if err != nil {
		return Roll{}, err
	}
	r := Roll{Expr: res.Expr, BonusDice: b.Dice, Total: res.Total, Result: res}
	if len(res.Groups) < 1 || len(res.Groups[0].Dice) < 1 {
		return Roll{}, &DiceError{Expr: expr, Err: errors.New("the dice engine returned no action die")}
	}
	r.Action = res.Groups[0].Dice[0].Value
	if b.Dice > 0 {
		r.BonusSides = b.Sides()
		r.Bonus, r.Bursts = readBonus(res, 1)
	}
	return r, nil
}

// EffectRoll rolls count dice of the given sides (a weapon's damage dice,
// which do not burst) plus bonus dice. "When you add bonus dice to an
// effect roll such as damage, these bonus dice will only benefit from the
// effects of a charge, and only suffer from a challenge if explicitly
// stated so", so the caller passes only such challenges in b.
func EffectRoll(count, sides int, label string, b Bonus, bonusLabel string, d Dice) (Roll, error) {
	if err := b.validate(); err != nil {
		return Roll{}, err
	}
	if count < 0 || count > MaxBonusDice {
		return Roll{}, fmt.Errorf("damage value must be 0 to %d, not %d", MaxBonusDice, count)
	}
	var terms []string
	if count > 0 {
		terms = append(terms, fmt.Sprintf("%dd%d [%s]", count, sides, label))
	}
	if b.Dice > 0 {
		terms = append(terms, b.term(bonusLabel))
	}
	if len(terms) == 0 {
		return Roll{Expr: "0", BonusDice: 0}, nil
	}
	res, err := roll(d, strings.Join(terms, " + "))
	if err != nil {
		return Roll{}, err
	}
	r := Roll{Expr: res.Expr, BonusDice: b.Dice, Total: res.Total, Result: res}
	bonusGroup := 0
	if count > 0 {
		if len(res.Groups) < 1 {
			return Roll{}, &DiceError{Expr: res.Expr, Err: errors.New("the dice engine returned no dice")}
		}
		r.Base = res.Groups[0].Total
		bonusGroup = 1
	}
	if b.Dice > 0 {
		r.BonusSides = b.Sides()
		r.Bonus, r.Bursts = readBonus(res, bonusGroup)
	}
	return r, nil
}

// readBonus returns the sum of the bonus dice group and how many of its
// dice burst: showed the maximum of their size.
func readBonus(res *dice.Result, group int) (sum, bursts int) {
	if group >= len(res.Groups) {
		return 0, 0
	}
	g := res.Groups[group]
	for _, die := range g.Dice {
		if die.Kept && die.Value == die.Sides {
			bursts++
		}
	}
	return g.Total, bursts
}

// PlainRoll rolls count dice of sides with no bonus dice (the 1d10 of
// emergency aid).
func PlainRoll(count, sides int, label string, d Dice) (Roll, error) {
	res, err := roll(d, fmt.Sprintf("%dd%d [%s]", count, sides, label))
	if err != nil {
		return Roll{}, err
	}
	return Roll{Expr: res.Expr, Base: res.Total, Total: res.Total, Result: res}, nil
}
