package ulm

import (
	"fmt"
	"strconv"

	"github.com/tablehand/tablehand/rules/dice"
)

// Dice rolls the expressions the rules call for, in the text's own `v:`
// notation ("1v:20 + 3", "3v:6 + 40"), in the order the rules roll them.
// The rules name what to roll; the caller decides how: the commands layer
// rolls through its table so every die shows in the reply and the `dice:`
// values are used in order, tests through [RollWith] over fixed faces.
type Dice interface {
	Roll(expr string) (*dice.Result, error)
}

// RollWith returns a Dice that parses each expression and rolls it with r.
func RollWith(r dice.Roller) Dice { return rollerDice{r} }

type rollerDice struct{ r dice.Roller }

func (d rollerDice) Roll(expr string) (*dice.Result, error) {
	e, err := dice.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("parse %q: %w", expr, err)
	}
	res, err := e.Roll(d.r)
	if err != nil {
		return nil, fmt.Errorf("roll %q: %w", expr, err)
	}
	return res, nil
}

// plus writes "+ n" or "- n" for an expression: "1v:20 - 2", not "1v:20 + -2".
func plus(n int) string {
	if n < 0 {
		return " - " + strconv.Itoa(-n)
	}
	return " + " + strconv.Itoa(n)
}
