package kit

import (
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Tray holds the dice of one rules command, as a dice tray at the table
// does. Every roll of the command goes through one roller, so the `dice:`
// option's values are used in order across all of them (the actor's dice
// first, then the target's, as the rules roll them), and Done then says
// whether values were missing or left over. Rules packages take
// Tray.Roller() as their dice.Roller, or roll whole expressions with Roll
// (or single dice with Die) so the dice show as every roll shows them.
type Tray struct {
	roller dice.Roller
	phys   *dice.Physical
	rolls  []*dice.Result
	// failed is the first failure of a roll that was not the user's
	// mistake: the dice machinery's, reported as ours (see Failed).
	failed error
}

// Tray returns the Tray for req: physical dice when it has `dice:`.
func (h *Env) Tray(req *Request) (*Tray, error) {
	r, phys, err := h.RollerFor(req)
	if err != nil {
		return nil, err
	}
	return &Tray{roller: r, phys: phys}, nil
}

// Roller is the roller for rules code that rolls die by die.
func (t *Tray) Roller() dice.Roller { return t.roller }

// Roll parses and rolls expr and keeps its result for the log and the
// reply. expr may hold what a user typed (a weapon's damage dice), so a
// mistake in it is the user's, shown with a caret.
func (t *Tray) Roll(expr string) (*dice.Result, error) {
	e, err := dice.Parse(expr)
	if err != nil {
		return nil, DiceError(err)
	}
	return t.RollWith(e, nil)
}

// RollWith rolls e, parsed already, with the values of its names that
// look gives (nil: none), and keeps its result as Roll does. A name look
// does not know is the user's mistake, a *UserError wrapping the
// *dice.Error whose Name is set.
func (t *Tray) RollWith(e *dice.Expr, look dice.Lookup) (*dice.Result, error) {
	res, err := e.RollWith(t.roller, look)
	if err != nil {
		err = DiceError(err)
		if _, ok := AsUserError(err); !ok && t.failed == nil {
			t.failed = err
		}
		return nil, err
	}
	t.rolls = append(t.rolls, res)
	return res, nil
}

// Die rolls one die of sides as an expression, so that it shows in the
// reply and the log as every roll does: the dice.Roller of rules code
// that rolls die by die and should show each one.
func (t *Tray) Die(sides int) (int, error) {
	res, err := t.Roll("1d" + strconv.Itoa(sides))
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}

// Dice is the tray as the dice.Roller of rules code that rolls die by
// die: each die rolls through Die, so it shows in the reply and the log
// as every roll does, and a failure of the dice machinery is Failed.
func (t *Tray) Dice() dice.Roller { return trayDice{t} }

type trayDice struct{ t *Tray }

func (d trayDice) Roll(sides int) (int, error) { return d.t.Die(sides) }

// Failed returns the first failure of a roll that was not the user's
// mistake, or nil: an error the rules pass on after it is ours, not an
// input they could not use.
func (t *Tray) Failed() error { return t.failed }

// Done reports missing or surplus `dice:` values, as the user's mistake.
func (t *Tray) Done() error {
	if t.phys == nil {
		return nil
	}
	if err := t.phys.Done(); err != nil {
		return &UserError{Msg: err.Error(), Err: err}
	}
	return nil
}

// Rolls returns the results of every Roll so far, as the console shows them.
func (t *Tray) Rolls() []RollGroup {
	if len(t.rolls) == 1 {
		return rollGroups(t.rolls[0].Groups) // a /roll's one roll
	}
	var out []RollGroup
	for _, r := range t.rolls {
		out = append(out, rollGroups(r.Groups)...)
	}
	if out == nil {
		out = []RollGroup{}
	}
	return out
}

// Breakdown returns each roll's breakdown, one a line.
func (t *Tray) Breakdown() string {
	if len(t.rolls) == 1 {
		return t.rolls[0].String() // a /roll's one roll: no lines to join
	}
	lines := make([]string, len(t.rolls))
	for i, r := range t.rolls {
		lines[i] = r.String()
	}
	return strings.Join(lines, "\n")
}

// Outcome is the part of a rules command's `result` that every system
// shares: the contract's total, success and margin where the rules define
// them, and the dice. Systems embed it in their own result types.
type Outcome struct {
	ID      string      `json:"id,omitempty"`
	Total   int         `json:"total"`
	Success *bool       `json:"success,omitempty"`
	Margin  *int        `json:"margin,omitempty"`
	Rolls   []RollGroup `json:"rolls"`
}

// Succeeded sets Success and Margin.
func (o *Outcome) Succeeded(ok bool, margin int) {
	o.Success, o.Margin = &ok, &margin
}
