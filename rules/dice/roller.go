package dice

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Roller supplies die faces.
type Roller interface {
	// Roll returns a face of a die with the given number of sides, 1..sides.
	Roll(sides int) (int, error)
}

// NewRandom returns a Roller over r. Like r itself it is not safe for
// concurrent use: give each goroutine its own.
func NewRandom(r *rand.Rand) Roller { return randomRoller{r} }

type randomRoller struct{ r *rand.Rand }

func (rr randomRoller) Roll(sides int) (int, error) {
	if sides < 1 {
		return 0, fmt.Errorf("roll a d%d: a die needs at least 1 side", sides)
	}
	return rr.r.IntN(sides) + 1, nil
}

// Physical is a Roller that hands out, in order, the dice a player rolled
// at the table. When the values run out it does not fail: it answers 1
// and notes the die it still needed, so one evaluation walks the whole
// expression and Done can say everything that is missing. A Physical
// serves one evaluation.
//
// Rerolls and explosions take further values, in the order the dice
// appear in the Result: each die, then its rerolls and extra dice, then
// the next die. "3d6!" with 6, 6, 2, 4, 3 rolls a 6 that explodes into a
// 6 that explodes into a 2, then a 4 and a 3. A die made up after the
// values ran out neither rerolls nor explodes, so Done names the dice the
// values given call for. A Fudge die (dF) takes 1 for -1, 2 for 0 and 3
// for +1.
type Physical struct {
	values []int
	next   int    // index of the next value to hand out
	short  []need // dice asked for after the values ran out, by size in order of first need
}

type need struct{ sides, count int }

// NewPhysical returns a Physical that hands out a copy of values.
func NewPhysical(values []int) *Physical {
	return &Physical{values: slices.Clone(values)}
}

// Roll returns the next value. A value that is not a face of the die is an
// *Error naming the value, its position among the values and the die.
func (p *Physical) Roll(sides int) (int, error) {
	v, _, err := p.roll(sides)
	return v, err
}

// roll is Roll that also tells whether the value was given by the player.
func (p *Physical) roll(sides int) (v int, given bool, err error) {
	if p.next >= len(p.values) {
		p.addShort(sides)
		return 1, false, nil
	}
	v = p.values[p.next]
	p.next++
	if v < 1 || v > sides {
		return 0, false, &Error{Pos: -1, Msg: fmt.Sprintf(
			"dice: value %d at position %d does not fit a d%d (1-%d)", v, p.next, sides, sides)}
	}
	return v, true, nil
}

func (p *Physical) addShort(sides int) {
	for i := range p.short {
		if p.short[i].sides == sides {
			p.short[i].count++
			return
		}
	}
	p.short = append(p.short, need{sides: sides, count: 1})
}

// Done reports, after a successful evaluation, whether the values matched
// the dice rolled: an *Error when dice were still needed or values were
// left over, nil otherwise.
func (p *Physical) Done() error {
	given := plural(len(p.values), "value", "values")
	if len(p.short) > 0 {
		missing := 0
		var dice []string
		for _, n := range p.short {
			missing += n.count
			dice = append(dice, strconv.Itoa(n.count)+"d"+strconv.Itoa(n.sides))
		}
		return &Error{Pos: -1, Msg: fmt.Sprintf("dice: %s given, %d more needed: %s",
			given, missing, strings.Join(dice, ", "))}
	}
	switch {
	case p.next == len(p.values):
		return nil
	case p.next == 0:
		return &Error{Pos: -1, Msg: fmt.Sprintf("dice: %s given but the roll has no dice", given)}
	}
	return &Error{Pos: -1, Msg: fmt.Sprintf("dice: %s given but only %s rolled",
		given, plural(p.next, "die", "dice"))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ParsePhysical parses the text of the dice: option, die faces separated
// by commas, spaces or both: "6,5,2,4", "6 5 2 4", "6, 5". A mistake is an
// *Error whose Pos is the bad value's offset in s.
func ParsePhysical(s string) ([]int, error) {
	var values []int
	isSep := func(c byte) bool { return c == ',' || c == ' ' || c == '\t' }
	for i := 0; i < len(s); {
		if isSep(s[i]) {
			i++
			continue
		}
		start := i
		for i < len(s) && !isSep(s[i]) {
			i++
		}
		field := s[start:i]
		bad := func(format string, args ...any) ([]int, error) {
			return nil, &Error{Expr: s, Pos: start, Msg: fmt.Sprintf(format, args...)}
		}
		if strings.Trim(field, "0123456789") != "" {
			return bad("dice: %q is not a die face: give whole numbers like 6, 5, 2", field)
		}
		v, err := strconv.Atoi(field)
		if err != nil || v > MaxSides {
			return bad("dice: %q is larger than any die (at most %d)", field, MaxSides)
		}
		if v < 1 {
			return bad("dice: %q is not a die face: a die shows at least 1", field)
		}
		if len(values) == MaxDice {
			return bad("dice: too many values (at most %d)", MaxDice)
		}
		values = append(values, v)
	}
	if len(values) == 0 {
		return nil, &Error{Expr: s, Pos: 0, Msg: "dice: no values given: give the faces like 6, 5, 2"}
	}
	return values, nil
}
