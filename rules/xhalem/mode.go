package xhalem

import (
	"fmt"

	"github.com/tablehand/tablehand/rules/dice"
)

// Kind is what a combatant is: the text's rules differ for machines (mechs,
// ships) and creatures.
type Kind string

// Kinds of combatant.
const (
	Machine  Kind = "machine"
	Creature Kind = "creature"
)

// Kinds are the words of a kind: "machine" or "creature" ("mech" is a
// machine).
var Kinds = Words[Kind]{What: "kind", Fold: true, List: []Word[Kind]{
	{[]string{"machine", "mech"}, Machine},
	{[]string{"creature"}, Creature},
}}

// ParseKind reads a kind (Kinds).
func ParseKind(s string) (Kind, error) { return Kinds.Parse(s) }

// Mode is how a d20 roll is made: plainly, or with advantage, disadvantage
// or detriment.
type Mode int

// Modes, ordered from best to worst for the roller.
const (
	Advantage    Mode = 1  // "advantage (2D20)": the higher of two
	Normal       Mode = 0  // one die
	Disadvantage Mode = -1 // "disadvantage (2D20)": the lower of two
	Detriment    Mode = -2 // "A detriment is when you must roll 4D20 and use the lowest number."
)

func (m Mode) String() string {
	switch m {
	case Advantage:
		return "advantage"
	case Disadvantage:
		return "disadvantage"
	case Detriment:
		return "detriment"
	}
	return "normal"
}

// MarshalText writes the mode's name, for the console's result.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Modes are the words of a mode; "" is normal.
var Modes = Words[Mode]{What: "mode", Fold: true, List: []Word[Mode]{
	{[]string{"normal", ""}, Normal},
	{[]string{"advantage", "adv"}, Advantage},
	{[]string{"disadvantage", "dis"}, Disadvantage},
	{[]string{"detriment", "det"}, Detriment},
}}

// ParseMode reads a mode's name (Modes); a mistake reads as normal.
func ParseMode(s string) (Mode, error) { return Modes.Parse(s) }

// Dice returns the dice expression of one roll of a die of the given sides
// in mode m: advantage "2D20" keeping the higher, disadvantage "2D20"
// keeping the lower, detriment "4D20 and use the lowest number".
func (m Mode) Dice(sides int) string {
	switch m {
	case Advantage:
		return fmt.Sprintf("2d%dkh1", sides)
	case Disadvantage:
		return fmt.Sprintf("2d%dkl1", sides)
	case Detriment:
		return fmt.Sprintf("4d%dkl1", sides)
	}
	return fmt.Sprintf("1d%d", sides)
}

// Stacking policies for [Combine].
const (
	// StackNet counts advantage +1, disadvantage -1 and detriment -2, each
	// kind once however many sources grant it, and rolls by the sum: 1 or
	// more advantage, 0 normal, -1 disadvantage, -2 or less detriment. So
	// flanking a cloaked target rolls with disadvantage.
	StackNet = "net"
	// StackCancel: any advantage and any penalty cancel to a normal roll;
	// otherwise the worst penalty, or advantage.
	StackCancel = "cancel"
	// StackWorst: the worst penalty wins; advantage only when there is
	// none.
	StackWorst = "worst"
)

// Combine returns the one mode a roll is made in when several sources
// apply, by policy (see Config.Stacking: the text does not say).
func Combine(policy string, modes ...Mode) (Mode, error) {
	var adv, dis, det bool
	for _, m := range modes {
		switch m {
		case Advantage:
			adv = true
		case Disadvantage:
			dis = true
		case Detriment:
			det = true
		}
	}
	worst := Normal
	if dis {
		worst = Disadvantage
	}
	if det {
		worst = Detriment
	}
	switch policy {
	case StackNet:
		sum := 0
		if adv {
			sum++
		}
		if dis {
			sum--
		}
		if det {
			sum -= 2
		}
		return Mode(max(-2, min(1, sum))), nil
	case StackCancel:
		if adv && worst != Normal {
			return Normal, nil
		}
	case StackWorst:
	default:
		return Normal, fmt.Errorf("stacking policy %q: use net, cancel or worst", policy)
	}
	if worst != Normal {
		return worst, nil
	}
	if adv {
		return Advantage, nil
	}
	return Normal, nil
}

// ExprRoller rolls a dice expression these rules write. A caller that shows
// and logs its rolls passes its own (the commands' Table does); [Dice]
// adapts a plain dice.Roller.
type ExprRoller interface {
	Roll(expr string) (*dice.Result, error)
}

// Dice returns an ExprRoller that rolls with r.
func Dice(r dice.Roller) ExprRoller { return exprRoller{r} }

type exprRoller struct{ r dice.Roller }

func (e exprRoller) Roll(expr string) (*dice.Result, error) {
	x, err := dice.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("parse %q: %w", expr, err)
	}
	return x.Roll(e.r)
}

// Roll is one die roll plus modifiers, as the rules see it.
type Roll struct {
	Mode    Mode         `json:"mode"`
	Natural int          `json:"natural"` // the kept die
	Bonus   int          `json:"bonus"`
	Total   int          `json:"total"`
	Result  *dice.Result `json:"-"`
}

// rollDie rolls one die of sides in mode plus bonus, as one expression so
// its dice and its bonus show together ("2d20kh1 + 3").
func rollDie(r ExprRoller, sides int, mode Mode, bonus int) (Roll, error) {
	expr := mode.Dice(sides)
	switch {
	case bonus > 0:
		expr += fmt.Sprintf(" + %d", bonus)
	case bonus < 0:
		expr += fmt.Sprintf(" - %d", -bonus)
	}
	res, err := r.Roll(expr)
	if err != nil {
		return Roll{}, fmt.Errorf("roll %s: %w", expr, err)
	}
	out := Roll{Mode: mode, Bonus: bonus, Total: res.Total, Result: res}
	if len(res.Groups) > 0 {
		for _, d := range res.Groups[0].Dice {
			if d.Kept {
				out.Natural = d.Value
				break
			}
		}
	}
	return out, nil
}

// d20 rolls 1D20 (or 2D20, 4D20 in a mode) plus bonus.
func d20(r ExprRoller, mode Mode, bonus int) (Roll, error) { return rollDie(r, 20, mode, bonus) }
