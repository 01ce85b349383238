package dice

import (
	"fmt"
	"math"
	"slices"
)

// Result is one roll of an expression.
type Result struct {
	Expr   string  // the expression in normal form
	Total  int     // its value
	Groups []Group // one per dice term, in order of appearance
}

// Group is the roll of one dice term.
type Group struct {
	Expr  string // the term in normal form, e.g. "4d6kh3"
	Total int    // the term's value: the sum of its kept dice
	Dice  []Die  // in the order rolled
}

// Die is one rolled die.
type Die struct {
	Sides    int
	Value    int
	Kept     bool // counts toward the total; false when a modifier dropped it
	Physical bool // came from a Physical roller (the dice: option)
}

// Roll rolls the expression with r. With a *Physical, call its Done
// afterwards to learn whether the player gave too few or too many dice.
func (e *Expr) Roll(r Roller) (*Result, error) {
	res := new(Result)
	if err := e.RollInto(r, res); err != nil {
		return nil, err
	}
	return res, nil
}

// RollInto is Roll into a Result the caller owns: it overwrites res and
// reuses the arrays behind res.Groups and each Group's Dice, so rolling
// again into the same res does not allocate. On error res holds a partial
// roll.
func (e *Expr) RollInto(r Roller, res *Result) error {
	res.Expr = e.text
	res.Total = 0
	res.Groups = res.Groups[:0]
	ev := evaluator{src: e.src, r: r, res: res}
	ev.phys, _ = r.(*Physical)
	total, err := ev.eval(e.root)
	if err != nil {
		return err
	}
	res.Total = total
	return nil
}

type evaluator struct {
	src    string // as typed, for error positions
	r      Roller
	phys   *Physical // r, when it is one, to mark its dice Physical
	res    *Result
	rolled int // dice so far, against MaxDice
}

func (ev *evaluator) errorf(pos int, format string, args ...any) error {
	return &Error{Expr: ev.src, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (ev *evaluator) eval(n node) (int, error) {
	switch n := n.(type) {
	case *numberNode:
		return n.val, nil
	case *diceNode:
		return ev.rollDice(n)
	case *unaryNode:
		x, err := ev.eval(n.x)
		if err != nil {
			return 0, err
		}
		if x == math.MinInt {
			return 0, ev.errorf(n.pos, "result of '-' is too large")
		}
		return -x, nil
	case *binaryNode:
		x, err := ev.eval(n.x)
		if err != nil {
			return 0, err
		}
		y, err := ev.eval(n.y)
		if err != nil {
			return 0, err
		}
		return ev.binary(n, x, y)
	}
	panic(fmt.Sprintf("dice: unexpected node %T", n))
}

// binary applies n's operator, refusing to wrap around on overflow.
func (ev *evaluator) binary(n *binaryNode, x, y int) (int, error) {
	switch n.op {
	case tokPlus:
		if s := x + y; (s > x) == (y > 0) {
			return s, nil
		}
	case tokMinus:
		if d := x - y; (d < x) == (y > 0) {
			return d, nil
		}
	case tokStar:
		if x == 0 || y == 0 {
			return 0, nil
		}
		// MinInt * -1 wraps to MinInt, and MinInt / -1 is MinInt too, so
		// the division check alone would miss it.
		if p := x * y; p/y == x && !(x == math.MinInt && y == -1) && !(x == -1 && y == math.MinInt) {
			return p, nil
		}
	case tokSlash:
		if y == 0 {
			return 0, ev.errorf(n.opPos, "division by zero")
		}
		if x == math.MinInt && y == -1 {
			break
		}
		q := x / y // truncates toward zero; the language rounds down
		if x%y != 0 && (x < 0) != (y < 0) {
			q--
		}
		return q, nil
	default:
		panic(fmt.Sprintf("dice: unexpected operator %v", n.op))
	}
	return 0, ev.errorf(n.opPos, "result of '%s' is too large", n.op)
}

func (ev *evaluator) rollDice(n *diceNode) (int, error) {
	g := ev.res.newGroup(n.text)
	g.Dice = slices.Grow(g.Dice, n.count) // n.count <= MaxDice, checked by Parse
	for range n.count {
		if ev.rolled >= MaxDice {
			return 0, ev.errorf(n.pos, "too many dice (at most %d in one roll)", MaxDice)
		}
		ev.rolled++
		v, physical, err := ev.roll(n)
		if err != nil {
			return 0, err
		}
		g.Dice = append(g.Dice, Die{Sides: n.sides, Value: v, Kept: true, Physical: physical})
	}
	keep(g.Dice, n.mod, n.keep)
	for _, d := range g.Dice {
		if d.Kept {
			g.Total += d.Value
		}
	}
	return g.Total, nil
}

// roll rolls one die of n. A Physical's own errors are user errors and
// come back as they are; any other Roller's are wrapped.
func (ev *evaluator) roll(n *diceNode) (v int, physical bool, err error) {
	if ev.phys != nil {
		return ev.phys.roll(n.sides)
	}
	v, err = ev.r.Roll(n.sides)
	if err != nil {
		return 0, false, fmt.Errorf("roll %s: %w", n.text, err)
	}
	if v < 1 || v > n.sides {
		return 0, false, fmt.Errorf("roll %s: roller gave %d, not a face of a d%d", n.text, v, n.sides)
	}
	return v, false, nil
}

// newGroup appends a group for expr, reusing the Group and Dice array left
// in res by an earlier roll.
func (res *Result) newGroup(expr string) *Group {
	i := len(res.Groups)
	res.Groups = slices.Grow(res.Groups, 1)[:i+1]
	g := &res.Groups[i]
	*g = Group{Expr: expr, Dice: g.Dice[:0]}
	return g
}

// keep applies a keep or drop modifier to dice that are all kept.
func keep(dice []Die, mod tokenKind, n int) {
	switch mod {
	case tokKeepHigh:
		keepFirst(dice, n, highest)
	case tokKeepLow:
		keepFirst(dice, n, lowest)
	case tokDropHigh:
		keepFirst(dice, len(dice)-n, lowest)
	case tokDropLow:
		keepFirst(dice, len(dice)-n, highest)
	}
}

const (
	highest = 1
	lowest  = -1
)

// keepFirst keeps the k dice that rank first and drops the rest. Dice rank
// by face, highest or lowest first as dir says, and among equal faces the
// earlier die first. k is clamped to 0..len(dice).
//
// It selects the k dice one by one, or drops the len(dice)-k others,
// whichever is fewer: O(n·min(k, n-k)) is at most 250,000 steps under
// MaxDice and, unlike sorting an index, needs no memory.
func keepFirst(dice []Die, k, dir int) {
	n := len(dice)
	k = max(0, min(k, n))
	if k <= n-k {
		for i := range dice {
			dice[i].Kept = false
		}
		for range k {
			best := -1
			for i, d := range dice {
				if !d.Kept && (best < 0 || dir*d.Value > dir*dice[best].Value) {
					best = i // strictly better, so the earliest of equals
				}
			}
			dice[best].Kept = true
		}
		return
	}
	for i := range dice {
		dice[i].Kept = true
	}
	for range n - k {
		worst := -1
		for i, d := range dice {
			if d.Kept && (worst < 0 || dir*d.Value <= dir*dice[worst].Value) {
				worst = i // not better, so the latest of equals
			}
		}
		dice[worst].Kept = false
	}
}
