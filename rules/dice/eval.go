package dice

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Result is one roll of an expression.
type Result struct {
	Expr   string  // the expression in normal form, with its reason after " # " (see Reason)
	Total  int     // its value; for several parts, the sum of the parts' totals
	Groups []Group // one per dice term, of every part, in order of appearance
	Parts  []Part  // one per part, in order: a roll without labelled parts or "N#" has one
	Refs   []Ref   // the value of each name the roll read, in order of appearance, each repetition of "N#" again
}

// Ref is the value a name of the expression stood for in a roll ("som" in
// "1d20 + som"), as the roll's Lookup gave it.
type Ref struct {
	Name  string // in normal form: lower case
	Value int
}

// Lookup gives the value of a name in an expression ("som" in "1d20+som",
// given in lower case), as text/template's data gives a field's: ok is
// false for a name it does not know.
type Lookup func(name string) (v int, ok bool)

// Part is one part of a roll: one of the expressions that labels separate
// ("1d20+5 [to hit] 2d6+3 [slashing]" has two) or one repetition of "N#".
type Part struct {
	Label  string  // the label that ends the part, or ""
	Expr   string  // the part's expression in normal form, without "N#" and without the label that ends it
	Total  int     // its value
	Groups []Group // its dice terms: a slice of Result.Groups
}

// Group is the roll of one dice term.
type Group struct {
	Expr      string // the term in normal form, e.g. "4d6kh3"
	Label     string // the label right after the term, or ""
	Total     int    // the term's value: the sum of the kept dice's values, or with success counting Successes - Failures
	Dice      []Die  // every die rolled, in the order rolled
	Successes int    // with success counting, the kept dice that met the condition
	Failures  int    // with failure counting ("f"), the kept dice that met its condition
	Counting  bool   // the term counts successes ("10d10>=8") instead of summing
	// plain is set by a roll of a term without rerolls, clamps,
	// explosions and Fudge dice: each die is a face alone, of the same
	// sides, which String renders on a fast path. A Group built from the
	// fields above, as from storage, takes the general one.
	plain bool
}

// Die is one rolled die. Every die rolled is in its group's Dice, in the
// order rolled, which is also the order a Physical hands out values: a
// die and then its rerolls and explosions, before the next die. A die that
// a reroll replaced (Rerolled) is followed by the roll that replaced it;
// a die that explodes (Explodes) by its extra roll (Extra).
type Die struct {
	Sides    int  // 3 for a Fudge die
	Value    int  // what the die counts: its Face, clamped by mi and ma; for a die that compounds ("!!"), the sum of its rolls
	Kept     bool // counts toward the total; false when a modifier dropped it, and for Rerolled and Compounded dice
	Physical bool // came from a Physical roller (the dice: option)

	Face       int  // the face rolled: 1 to Sides, or -1, 0 or 1 for a Fudge die
	Fudge      bool // a Fudge die (dF)
	Rerolled   bool // a reroll replaced it with the die after it
	Clamped    bool // mi or ma made its own value differ from Face
	Explodes   bool // met the explosion condition, so an extra die was rolled after it
	Extra      bool // rolled because the die before it exploded: for "!" a new die of the group
	Compounded bool // an extra roll of "!!": its value adds into the die that began the chain
	Success    bool // with success counting, kept and met the condition
	Failure    bool // with failure counting, kept and met the "f" condition
}

// unit reports whether d is a die of its group in its own right, as keep,
// drop and success counting see them: not replaced by a reroll and not an
// extra roll added into another die.
func (d *Die) unit() bool { return !d.Rerolled && !d.Compounded }

// Roll rolls the expression with r. With a *Physical, call its Done
// afterwards to learn whether the player gave too few or too many dice.
// A name in the expression is an *Error: see RollWith.
func (e *Expr) Roll(r Roller) (*Result, error) { return e.RollWith(r, nil) }

// RollWith is Roll with the values of the expression's names, which look
// gives as each is met: a name look does not know, or any name with a nil
// look, is an *Error whose Name is set. Names take no dice, so `dice:`
// values go to the dice in order whatever the names are.
func (e *Expr) RollWith(r Roller, look Lookup) (*Result, error) {
	res := e.newResult()
	if err := e.RollIntoWith(r, look, res); err != nil {
		return nil, err
	}
	return res, nil
}

// HasNames reports whether the expression holds a name ("som" in
// "1d20+som"), whose value a roll needs from a Lookup.
func (e *Expr) HasNames() bool { return e.names > 0 }

// measure sets e.names and e.room from its tree, once, when it is parsed.
func (e *Expr) measure() {
	names := 0
	for i := range e.nodes {
		if e.nodes[i].kind == nodeName {
			names++
		}
	}
	e.names = uint16(names) // fewer than MaxExprLen
	room, first := 0, 0
	for i := range e.parts {
		for j := first; j < first+int(e.parts[i].groups); j++ {
			room += int(e.parts[i].repeat) * e.dice[j].room()
		}
		first += int(e.parts[i].groups)
	}
	e.room = int32(room)
}

// room returns the dice a roll of d makes room for: its count, and some
// more for rerolls and explosions.
func (d *diceSpec) room() int {
	n := int(d.count)
	if !d.plain {
		n += n/2 + 2
	}
	return n
}

// A Result with its part, groups and dice in one allocation, for the
// common sizes: one part of one to three dice terms and at most 16 dice,
// each size at or a little under a size class of the allocator (a Die is
// 40 bytes, the rest 248 for one group). The dice go last, so that the
// garbage collector, which scans an object only up to its last pointer,
// does not scan them (a Die holds no pointers). Larger rolls take the
// Result, part and groups in one allocation and the dice in another
// (resultRoomN).
type (
	resultRoom1x1 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [1]Die
	}
	resultRoom1x2 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [2]Die
	}
	resultRoom1x3 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [3]Die
	}
	resultRoom1x4 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [4]Die
	}
	resultRoom1x5 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [5]Die
	}
	resultRoom1x6 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [6]Die
	}
	resultRoom1x8 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [8]Die
	}
	resultRoom1x10 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [10]Die
	}
	resultRoom1x13 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [13]Die
	}
	resultRoom1x16 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
		dice   [16]Die
	}
	resultRoom2x2 struct {
		res    Result
		parts  [1]Part
		groups [2]Group
		dice   [2]Die
	}
	resultRoom2x4 struct {
		res    Result
		parts  [1]Part
		groups [2]Group
		dice   [4]Die
	}
	resultRoom3x3 struct {
		res    Result
		parts  [1]Part
		groups [3]Group
		dice   [3]Die
	}
	resultRoom3x6 struct {
		res    Result
		parts  [1]Part
		groups [3]Group
		dice   [6]Die
	}
	resultRoom1 struct {
		res    Result
		parts  [1]Part
		groups [1]Group
	}
	resultRoom3 struct {
		res    Result
		parts  [1]Part
		groups [3]Group
	}
)

// newResult returns a Result with room for a roll of e: Parts, Groups and
// each group's Dice allocated to size, in one allocation for the common
// sizes. Each group's share of the dice is capped, so that extra dice of
// one group cannot run into the next.
func (e *Expr) newResult() *Result {
	res, dice := e.alloc()
	if e.names > 0 {
		repeats := 0
		for i := range e.parts {
			repeats = max(repeats, int(e.parts[i].repeat))
		}
		res.Refs = make([]Ref, 0, int(e.names)*repeats) // enough, if more than needed
	}
	g, first := 0, 0
	for i := range e.parts {
		terms := e.dice[first : first+int(e.parts[i].groups)]
		first += len(terms)
		for range e.parts[i].repeat {
			for j := range terms {
				n := terms[j].room()
				res.Groups[g].Dice = dice[:0:n]
				dice = dice[n:]
				g++
			}
		}
	}
	res.Groups = res.Groups[:0]
	return res
}

// alloc allocates a Result for a roll of e, with its Parts and Groups, and
// the dice of all its groups (see newResult).
func (e *Expr) alloc() (*Result, []Die) {
	n, groups := int(e.room), e.groups
	if len(e.parts) != 1 || e.parts[0].repeat != 1 || groups > 3 {
		parts := 0
		for i := range e.parts {
			parts += int(e.parts[i].repeat)
		}
		return &Result{Parts: make([]Part, 0, parts), Groups: make([]Group, groups)}, make([]Die, n)
	}
	switch {
	case groups <= 1 && n <= 1:
		r := new(resultRoom1x1)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 2:
		r := new(resultRoom1x2)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 3:
		r := new(resultRoom1x3)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 4:
		r := new(resultRoom1x4)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 5:
		r := new(resultRoom1x5)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 6:
		r := new(resultRoom1x6)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 8:
		r := new(resultRoom1x8)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 10:
		r := new(resultRoom1x10)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 13:
		r := new(resultRoom1x13)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1 && n <= 16:
		r := new(resultRoom1x16)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups == 2 && n <= 2:
		r := new(resultRoom2x2)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups == 2 && n <= 4:
		r := new(resultRoom2x4)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups == 3 && n <= 3:
		r := new(resultRoom3x3)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups == 3 && n <= 6:
		r := new(resultRoom3x6)
		return r.res.init(r.parts[:], r.groups[:groups], r.dice[:])
	case groups <= 1:
		r := new(resultRoom1)
		return r.res.init(r.parts[:], r.groups[:groups], make([]Die, n))
	}
	r := new(resultRoom3)
	return r.res.init(r.parts[:], r.groups[:groups], make([]Die, n))
}

// init sets res's Parts and Groups to parts and groups, and returns res
// and dice.
func (res *Result) init(parts []Part, groups []Group, dice []Die) (*Result, []Die) {
	res.Parts, res.Groups = parts[:0], groups
	return res, dice
}

// RollInto is Roll into a Result the caller owns: it overwrites res and
// reuses the arrays behind res.Parts, res.Groups, res.Refs and each
// Group's Dice, so rolling again into the same res does not allocate. On
// error res holds a partial roll.
func (e *Expr) RollInto(r Roller, res *Result) error { return e.RollIntoWith(r, nil, res) }

// RollIntoWith is RollInto with the values of the expression's names, as
// RollWith.
func (e *Expr) RollIntoWith(r Roller, look Lookup, res *Result) error {
	res.Expr = e.text
	res.Total = 0
	res.Groups = res.Groups[:0]
	res.Parts = res.Parts[:0]
	res.Refs = res.Refs[:0]
	ev := evaluator{e: e, r: r, res: res}
	if look != nil {
		// Set only when given: storing it always costs a roll without
		// names some 10 ns (go1.2x, BenchmarkRoll's 1d20+5/roll).
		ev.look = look
	}
	switch r := r.(type) {
	case *Physical:
		ev.phys = r
	case randomRoller:
		ev.rnd = r.r
	}
	total := 0
	for i := range e.parts {
		ps := &e.parts[i]
		for range ps.repeat {
			v, err := ev.eval(ps.root)
			if err != nil {
				return err
			}
			res.addPart(e.src[ps.label[0]:ps.label[1]], e.text[ps.text[0]:ps.text[1]], v)
			sum := total + v
			if (sum > total) != (v > 0) {
				return ev.errorf(int(ps.pos), "total of the parts is too large")
			}
			total = sum
		}
	}
	// The parts' groups are slices of res.Groups, which may have moved as
	// it grew: slice it now.
	k, g := 0, 0
	for i := range e.parts {
		n := int(e.parts[i].groups)
		for range e.parts[i].repeat {
			res.Parts[k].Groups = res.Groups[g : g+n : g+n]
			k++
			g += n
		}
	}
	res.Total = total
	return nil
}

type evaluator struct {
	e      *Expr
	r      Roller
	phys   *Physical  // r, when it is one, to mark its dice Physical
	rnd    *rand.Rand // r's generator when it came from NewRandom, to roll without a call through the interface
	res    *Result
	rolled int    // dice so far, against MaxDice
	look   Lookup // the values of names; nil for none
}

func (ev *evaluator) errorf(pos int, format string, args ...any) error {
	return &Error{Expr: ev.e.src, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (ev *evaluator) eval(i int32) (int, error) {
	n := &ev.e.nodes[i]
	switch n.kind {
	case nodeNumber:
		return n.val, nil
	case nodeDice:
		return ev.rollDice(&ev.e.dice[n.val], "")
	case nodeLabel:
		if x := &ev.e.nodes[n.x]; x.kind == nodeDice {
			return ev.rollDice(&ev.e.dice[x.val], ev.e.src[n.y:n.val])
		}
		return ev.eval(n.x)
	case nodeName:
		return ev.name(n)
	case nodeUnary:
		x, err := ev.eval(n.x)
		if err != nil {
			return 0, err
		}
		if x == math.MinInt {
			return 0, ev.errorf(int(n.pos), "result of '-' is too large")
		}
		return -x, nil
	case nodeBinary:
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
	panic(fmt.Sprintf("dice: unexpected node kind %d", n.kind))
}

// name returns the value of the name n, as the roll's Lookup gives it, and
// notes it in the result.
func (ev *evaluator) name(n *node) (int, error) {
	name := ev.e.text[n.val : n.val+int(n.y-n.x)]
	v, ok := 0, false
	if ev.look != nil {
		v, ok = ev.look(name)
	}
	if !ok {
		msg := "unknown name '" + name + "'"
		if ev.look == nil {
			msg = "'" + name + "' is a name, and this roll reads no values for names"
		}
		return 0, &Error{Expr: ev.e.src, Pos: int(n.pos), Msg: msg, Name: name}
	}
	ev.res.Refs = append(ev.res.Refs, Ref{Name: name, Value: v})
	return v, nil
}

// binary applies n's operator, refusing to wrap around on overflow.
func (ev *evaluator) binary(n *node, x, y int) (int, error) {
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
			return 0, ev.errorf(int(n.pos), "division by zero")
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
	return 0, ev.errorf(int(n.pos), "result of '%s' is too large", n.op)
}

// rollDice rolls the term d into a new group and returns its value.
func (ev *evaluator) rollDice(d *diceSpec, label string) (int, error) {
	g := ev.res.newGroup(ev.e.text[d.text[0]:d.text[1]], label)
	g.Counting = d.success.ok()
	g.plain = d.plain && d.kind != diceFudge
	var err error
	if d.plain {
		err = ev.rollPlain(g, d)
	} else {
		for range d.count {
			if err = ev.rollUnit(g, d); err != nil {
				break
			}
		}
	}
	if err != nil {
		return 0, err
	}
	if d.keep.isKeep() {
		keep(g.Dice, d.keep, int(d.keepN))
	}
	if !g.Counting {
		for i := range g.Dice {
			if g.Dice[i].Kept {
				g.Total += g.Dice[i].Value
			}
		}
		return g.Total, nil
	}
	for i := range g.Dice {
		die := &g.Dice[i]
		if !die.Kept {
			continue
		}
		if d.success.holds(die.Value) {
			die.Success = true
			g.Successes++
		}
		if d.failure.holds(die.Value) {
			die.Failure = true
			g.Failures++
		}
	}
	g.Total = g.Successes - g.Failures
	return g.Total, nil
}

// rollPlain rolls the dice of a term without rerolls, clamps and
// explosions: one roll a die.
func (ev *evaluator) rollPlain(g *Group, d *diceSpec) error {
	n, sides := int(d.count), int(d.sides)
	if ev.rnd == nil || d.kind == diceFudge {
		for range n {
			face, phys, err := ev.roll(d)
			if err != nil {
				return err
			}
			g.Dice = append(g.Dice, Die{Sides: sides, Value: face, Face: face, Kept: true, Physical: phys, Fudge: d.kind == diceFudge})
		}
		return nil
	}
	if n > MaxDice-ev.rolled {
		return ev.errorf(int(d.pos), "too many dice (at most %d in one roll, counting the dice explosions and rerolls add)", MaxDice)
	}
	ev.rolled += n
	start := len(g.Dice)
	if cap(g.Dice)-start >= n {
		g.Dice = g.Dice[:start+n] // the same array: no pointer written
	} else {
		g.Dice = slices.Grow(g.Dice, n)[:start+n]
	}
	rnd, dice := ev.rnd, g.Dice[start:]
	for i := range dice {
		face := rnd.IntN(sides) + 1
		dice[i] = Die{Sides: sides, Value: face, Face: face, Kept: true}
	}
	return nil
}

// rollUnit rolls one die of d with its rerolls, clamps and explosions.
func (ev *evaluator) rollUnit(g *Group, d *diceSpec) error {
	head, err := ev.rollOne(g, d, false, false)
	if err != nil || !d.explode.ok() {
		return err
	}
	last := head
	for range MaxExplosions {
		die := &g.Dice[last]
		if !ev.given(die) || !d.explode.holds(die.Face) {
			break
		}
		die.Explodes = true
		if last, err = ev.rollOne(g, d, true, d.compound); err != nil {
			return err
		}
		if d.compound {
			g.Dice[head].Value += g.Dice[last].Value
		}
	}
	return nil
}

// given reports whether die's face was rolled, not made up by a Physical
// that ran out of values: such a die neither rerolls nor explodes, so Done
// can say what is missing without guessing.
func (ev *evaluator) given(die *Die) bool { return ev.phys == nil || die.Physical }

// rollOne rolls one die of d into g, rerolling it while d says so and
// then clamping it, and returns the index of the die that stands.
func (ev *evaluator) rollOne(g *Group, d *diceSpec, extra, compounded bool) (int, error) {
	face, phys, err := ev.roll(d)
	if err != nil {
		return 0, err
	}
	die := Die{Sides: int(d.sides), Value: face, Face: face, Kept: !compounded, Physical: phys,
		Fudge: d.kind == diceFudge, Extra: extra, Compounded: compounded}
	i := len(g.Dice)
	g.Dice = append(g.Dice, die)
	if d.reroll.ok() {
		limit := MaxRerolls
		if d.once {
			limit = 1
		}
		for range limit {
			if !ev.given(&g.Dice[i]) || !d.reroll.holds(face) {
				break
			}
			g.Dice[i].Rerolled = true
			g.Dice[i].Kept = false
			if face, die.Physical, err = ev.roll(d); err != nil {
				return 0, err
			}
			die.Face, die.Value = face, face
			i = len(g.Dice)
			g.Dice = append(g.Dice, die)
		}
	}
	v := face
	if d.mi.ok() {
		v = max(v, int(d.mi.n))
	}
	if d.ma.ok() {
		v = min(v, int(d.ma.n))
	}
	if v != face {
		g.Dice[i].Value = v
		g.Dice[i].Clamped = true
	}
	return i, nil
}

// roll rolls one die of d and returns its face, and whether a Physical
// gave it. A Physical's own errors are user errors and come back as they
// are; any other Roller's are wrapped.
func (ev *evaluator) roll(d *diceSpec) (face int, physical bool, err error) {
	if ev.rolled >= MaxDice {
		return 0, false, ev.errorf(int(d.pos), "too many dice (at most %d in one roll, counting the dice explosions and rerolls add)", MaxDice)
	}
	ev.rolled++
	sides := int(d.sides)
	switch {
	case ev.phys != nil:
		face, physical, err = ev.phys.roll(sides)
		if err != nil {
			return 0, false, err
		}
	case ev.rnd != nil:
		face = ev.rnd.IntN(sides) + 1
	default:
		text := ev.e.text[d.text[0]:d.text[1]]
		face, err = ev.r.Roll(sides)
		if err != nil {
			return 0, false, fmt.Errorf("roll %s: %w", text, err)
		}
		if face < 1 || face > sides {
			return 0, false, fmt.Errorf("roll %s: roller gave %d, not a face of a d%d", text, face, sides)
		}
	}
	if d.kind == diceFudge {
		face -= 2 // 1, 2, 3 are -1, 0, +1
	}
	return face, physical, nil
}

// newGroup appends a group for expr, reusing the Group and Dice array left
// in res by an earlier roll.
//
// It and addPart write only the fields that change, and a string only
// when it differs: while the garbage collector marks, every pointer
// written to the heap costs a write barrier, and a new Result's empty
// labels need none.
func (res *Result) newGroup(expr, label string) *Group {
	i := len(res.Groups)
	if i < cap(res.Groups) {
		res.Groups = res.Groups[:i+1]
	} else {
		res.Groups = append(res.Groups, Group{})
	}
	g := &res.Groups[i]
	setString(&g.Expr, expr)
	setString(&g.Label, label)
	g.Total, g.Successes, g.Failures, g.Counting = 0, 0, 0, false
	g.Dice = g.Dice[:0]
	return g
}

// addPart appends a part, reusing the Part left in res by an earlier
// roll. RollIntoWith sets its Groups.
func (res *Result) addPart(label, expr string, total int) {
	i := len(res.Parts)
	if i < cap(res.Parts) {
		res.Parts = res.Parts[:i+1]
	} else {
		res.Parts = append(res.Parts, Part{})
	}
	p := &res.Parts[i]
	setString(&p.Label, label)
	setString(&p.Expr, expr)
	p.Total = total
}

// setString sets *dst to s unless it holds s already.
func setString(dst *string, s string) {
	if *dst != s {
		*dst = s
	}
}

// keep applies a keep or drop modifier to dice whose units are all kept.
func keep(dice []Die, mod tokenKind, n int) {
	switch mod {
	case tokKeepHigh:
		keepFirst(dice, n, highest)
	case tokKeepLow:
		keepFirst(dice, n, lowest)
	case tokDropHigh:
		keepFirst(dice, units(dice)-n, lowest)
	case tokDropLow:
		keepFirst(dice, units(dice)-n, highest)
	}
}

func units(dice []Die) int {
	n := 0
	for i := range dice {
		if dice[i].unit() {
			n++
		}
	}
	return n
}

const (
	highest = 1
	lowest  = -1
)

// keepFirst keeps the k units that rank first and drops the rest. Units
// rank by value, highest or lowest first as dir says, and among equal
// values the earlier first. k is clamped to 0..units(dice). Rerolled and
// Compounded dice are never kept.
//
// It selects the k units one by one, or drops the others, whichever is
// fewer: O(n·min(k, n-k)) is at most 250,000 steps under MaxDice and,
// unlike sorting an index, needs no memory.
func keepFirst(dice []Die, k, dir int) {
	n := units(dice)
	k = max(0, min(k, n))
	if k <= n-k {
		for i := range dice {
			dice[i].Kept = false
		}
		for range k {
			best := -1
			for i := range dice {
				d := &dice[i]
				if d.unit() && !d.Kept && (best < 0 || dir*d.Value > dir*dice[best].Value) {
					best = i // strictly better, so the earliest of equals
				}
			}
			dice[best].Kept = true
		}
		return
	}
	for i := range dice {
		dice[i].Kept = dice[i].unit()
	}
	for range n - k {
		worst := -1
		for i := range dice {
			d := &dice[i]
			if d.Kept && (worst < 0 || dir*d.Value <= dir*dice[worst].Value) {
				worst = i // not better, so the latest of equals
			}
		}
		dice[worst].Kept = false
	}
}
