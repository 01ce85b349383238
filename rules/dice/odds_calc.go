package dice

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// The exact calculator of Distribution. It walks the syntax tree as the
// evaluator does, but each node yields the distribution of its value
// instead of one value: the subtrees roll different dice, so their values
// are independent and an operator combines their distributions.

// outOfReach says why exact computation stops: it would break
// MaxOddsSupport or MaxOddsWork, or meets a construct it has no method
// for. Distribution then estimates.
type outOfReach string

func (o outOfReach) Error() string { return string(o) }

var (
	tooWide = outOfReach("more than " + strconv.Itoa(MaxOddsSupport) + " values")
	tooLong = outOfReach("more than " + strconv.Itoa(MaxOddsWork) + " steps")
	// notCovered says that the windows of a tilted FFT left a gap.
	notCovered = outOfReach("the tilted FFT did not cover the range")
)

// errOverflow says that some outcome overflows an int; the caller turns it
// into an *Error at its operator.
var errOverflow = errors.New("dice: overflow")

// pmf is a probability mass function on the integers lo, lo+1, ...:
// p[i] is the probability of lo+i. Its slice is never changed once made,
// so pmfs may share it.
type pmf struct {
	lo  int
	p   []float64
	src []factor // what it is the sum of, or nil: see odds_product.go
}

func point(v int) pmf { return pmf{lo: v, p: []float64{1}} }

func (a pmf) hi() int { return a.lo + len(a.p) - 1 }

// trim drops the zeros at either end, so that lo and hi are values that
// occur: the bounds of a product are then those of its operands'.
func (a pmf) trim() pmf {
	lo, p := trimBelow(a.lo, a.p, math.SmallestNonzeroFloat64)
	return pmf{lo: lo, p: p, src: a.src}
}

// trimBelow returns the chances p of lo, lo+1, ... without those below
// floor at either end, keeping one at least.
func trimBelow(lo int, p []float64, floor float64) (int, []float64) {
	i, j := 0, len(p)
	for i < j-1 && p[i] < floor {
		i++
	}
	for j > i+1 && p[j-1] < floor {
		j--
	}
	return lo + i, p[i:j]
}

// dist returns a as a Dist.
func (a pmf) dist() *Dist {
	n := 0
	for _, p := range a.p {
		if p > 0 {
			n++
		}
	}
	d := &Dist{Exact: true, vals: make([]int, 0, n), probs: make([]float64, 0, n)}
	for i, p := range a.p {
		if p > 0 {
			d.vals = append(d.vals, a.lo+i)
			d.probs = append(d.probs, p)
		}
	}
	return d
}

type calc struct {
	e      *Expr
	work   int       // multiply-adds so far, against MaxOddsWork
	direct bool      // add convolves directly, however long it takes (tests' reference)
	lf     []float64 // lf[n] is log(n!), as far as the keep DP needed it
}

// spend counts n steps of work, or fails when they break MaxOddsWork.
func (c *calc) spend(n float64) error {
	if n > float64(MaxOddsWork-c.work) {
		return tooLong
	}
	c.work += int(n)
	return nil
}

// alloc returns room for a distribution of n values, or fails when n
// breaks MaxOddsSupport.
func alloc(n int) ([]float64, error) {
	if n > MaxOddsSupport || n < 0 {
		return nil, tooWide
	}
	return make([]float64, n), nil
}

func (c *calc) errorf(pos int32, format string, args ...any) error {
	return &Error{Expr: c.e.src, Pos: int(pos), Msg: fmt.Sprintf(format, args...)}
}

// roll returns the distribution of the total of every part.
func (c *calc) roll() (pmf, error) {
	if p, ok, err := c.plainParts(); ok || err != nil {
		return p, err
	}
	total := point(0)
	for i := range c.e.parts {
		ps := &c.e.parts[i]
		p, err := c.node(ps.root)
		if err == nil && ps.repeat > 1 {
			p, err = c.sum(p, int(ps.repeat))
		}
		if err == nil {
			total, err = c.add(total, p)
		}
		if errors.Is(err, errOverflow) {
			return pmf{}, c.errorf(ps.pos, "total of the parts is too large")
		}
		if err != nil {
			return pmf{}, err
		}
	}
	return total, nil
}

func (c *calc) node(i int32) (pmf, error) {
	n := &c.e.nodes[i]
	switch n.kind {
	case nodeNumber:
		return point(n.val), nil
	case nodeDice:
		return c.term(&c.e.dice[n.val])
	case nodeLabel:
		return c.node(n.x)
	case nodeUnary:
		if p, ok, err := c.plainSum(i); ok || err != nil {
			return p, err
		}
		if p, ok, err := c.factorSum(i); ok || err != nil {
			return p, err
		}
		x, err := c.node(n.x)
		if err != nil {
			return pmf{}, err
		}
		if x.lo == math.MinInt {
			return pmf{}, c.errorf(n.pos, "result of '-' is too large")
		}
		return neg(x), nil
	case nodeBinary:
		if p, ok, err := c.plainSum(i); ok || err != nil {
			return p, err
		}
		if p, ok, err := c.factorSum(i); ok || err != nil {
			return p, err
		}
		x, err := c.node(n.x)
		if err != nil {
			return pmf{}, err
		}
		y, err := c.node(n.y)
		if err != nil {
			return pmf{}, err
		}
		var z pmf
		switch n.op {
		case tokPlus:
			z, err = c.add(x, y)
		case tokMinus:
			if y.lo == math.MinInt {
				err = errOverflow
			} else {
				z, err = c.add(x, neg(y))
			}
		case tokStar:
			z, err = c.mul(x, y)
		case tokSlash:
			if y.lo <= 0 && 0 <= y.hi() && y.p[-y.lo] > 0 {
				return pmf{}, c.errorf(n.pos, "division by zero: the divisor can be 0")
			}
			z, err = c.div(x, y)
		default:
			panic(fmt.Sprintf("dice: unexpected operator %v", n.op))
		}
		if errors.Is(err, errOverflow) {
			return pmf{}, c.errorf(n.pos, "result of '%s' can be too large", n.op)
		}
		return z, err
	}
	panic(fmt.Sprintf("dice: unexpected node kind %d", n.kind))
}

func neg(a pmf) pmf {
	p := make([]float64, len(a.p))
	for i, x := range a.p {
		p[len(p)-1-i] = x
	}
	var src []factor
	for _, f := range a.src {
		src = append(src, f.mirror())
	}
	return pmf{lo: -a.hi(), p: p, src: src}
}

// add returns the distribution of the sum of independent a and b: their
// convolution, directly or, past fftWork steps, by the tilted FFT of the
// product of their factors' transforms (fftProduct).
func (c *calc) add(a, b pmf) (pmf, error) {
	lo, ok1 := addInt(a.lo, b.lo)
	_, ok2 := addInt(a.hi(), b.hi())
	if !ok1 || !ok2 {
		return pmf{}, errOverflow
	}
	width := len(a.p) + len(b.p) - 1
	var src []factor
	if width >= factorsFrom {
		src = joinFactors(a, b)
	}
	if len(a.p) > len(b.p) {
		a, b = b, a
	}
	if len(a.p) == 1 && a.p[0] == 1 { // a number
		return pmf{lo: lo, p: b.p, src: src}, nil
	}
	if steps := float64(len(a.p)) * float64(len(b.p)); steps > fftWork && !c.direct && src != nil && width <= MaxOddsSupport {
		if p, err := c.product(src); err != notCovered {
			return p, err
		}
		// Convolve directly, if there is time left.
	}
	out, err := alloc(width)
	if err != nil {
		return pmf{}, err
	}
	if err := c.spend(float64(len(a.p)) * float64(len(b.p))); err != nil {
		return pmf{}, err
	}
	for i, x := range a.p {
		if x == 0 {
			continue
		}
		o := out[i : i+len(b.p)]
		for j, y := range b.p {
			o[j] += x * y
		}
	}
	return pmf{lo: lo, p: out, src: src}, nil
}

// mix returns a + b, as sub-probabilities: the distribution of a choice
// between them.
func mix(a, b pmf) (pmf, error) {
	lo, hi := min(a.lo, b.lo), max(a.hi(), b.hi())
	out, err := alloc(hi - lo + 1)
	if err != nil {
		return pmf{}, err
	}
	for i, x := range a.p {
		out[a.lo-lo+i] += x
	}
	for i, x := range b.p {
		out[b.lo-lo+i] += x
	}
	return pmf{lo: lo, p: out}, nil
}

// power returns the distribution of the sum of n independent values each
// distributed as a, by squaring.
func (c *calc) power(a pmf, n int) (pmf, error) {
	sum := point(0)
	for first := true; n > 0; first = false {
		var err error
		if !first {
			if a, err = c.add(a, a); err != nil {
				return pmf{}, err
			}
		}
		if n&1 == 1 {
			if sum, err = c.add(sum, a); err != nil {
				return pmf{}, err
			}
		}
		n >>= 1
	}
	return sum, nil
}

// mul returns the distribution of the product of independent a and b.
func (c *calc) mul(a, b pmf) (pmf, error) {
	// A product over a rectangle of integers is extreme at its corners.
	lo, hi := math.MaxInt, math.MinInt
	for _, x := range [2]int{a.lo, a.hi()} {
		for _, y := range [2]int{b.lo, b.hi()} {
			p, ok := mulInt(x, y)
			if !ok {
				return pmf{}, errOverflow
			}
			lo, hi = min(lo, p), max(hi, p)
		}
	}
	width, ok := addInt(hi, -lo)
	if !ok || lo == math.MinInt {
		return pmf{}, tooWide
	}
	out, err := alloc(width + 1)
	if err != nil {
		return pmf{}, err
	}
	if err := c.spend(float64(len(a.p)) * float64(len(b.p))); err != nil {
		return pmf{}, err
	}
	for i, x := range a.p {
		if x == 0 {
			continue
		}
		u := a.lo + i
		for j, y := range b.p {
			if y != 0 {
				out[u*(b.lo+j)-lo] += x * y
			}
		}
	}
	return pmf{lo: lo, p: out}.trim(), nil
}

// div returns the distribution of a divided by b, rounded down; b must
// not take 0.
func (c *calc) div(a, b pmf) (pmf, error) {
	if err := c.spend(2 * float64(len(a.p)) * float64(len(b.p))); err != nil {
		return pmf{}, err
	}
	lo, hi := math.MaxInt, math.MinInt
	for i, x := range a.p {
		if x == 0 {
			continue
		}
		for j, y := range b.p {
			if y != 0 {
				u, v := a.lo+i, b.lo+j
				if u == math.MinInt && v == -1 {
					return pmf{}, errOverflow
				}
				q := floorDiv(u, v)
				lo, hi = min(lo, q), max(hi, q)
			}
		}
	}
	width, ok := addInt(hi, -lo)
	if !ok || lo == math.MinInt {
		return pmf{}, tooWide
	}
	out, err := alloc(width + 1)
	if err != nil {
		return pmf{}, err
	}
	for i, x := range a.p {
		if x == 0 {
			continue
		}
		for j, y := range b.p {
			if y != 0 {
				out[floorDiv(a.lo+i, b.lo+j)-lo] += x * y
			}
		}
	}
	return pmf{lo: lo, p: out}, nil
}

func floorDiv(x, y int) int {
	q := x / y
	if x%y != 0 && (x < 0) != (y < 0) {
		q--
	}
	return q
}

func addInt(x, y int) (int, bool) {
	s := x + y
	return s, (s > x) == (y > 0)
}

func mulInt(x, y int) (int, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	p := x * y
	if p/y != x || x == math.MinInt && y == -1 || x == -1 && y == math.MinInt {
		return 0, false
	}
	return p, true
}

// term returns the distribution of a dice term's total.
func (c *calc) term(d *diceSpec) (pmf, error) {
	n := int(d.count)
	lo, hi := d.faces()
	sides := hi - lo + 1
	keep, counting := d.keep.isKeep(), d.success.ok()
	if n == 0 {
		return point(0), nil
	}
	if d.plain && !keep && !counting {
		return c.uniformSum(n, lo, sides)
	}
	if !keep {
		u, err := c.die(d)
		if err != nil {
			return pmf{}, err
		}
		return c.sum(u, n)
	}
	// The "!" of a term that keeps or drops adds dice that may be kept
	// or dropped in turn: the units are no longer alike.
	if d.explode.ok() && !d.compound {
		return pmf{}, outOfReach("'!' with keep or drop")
	}
	face, err := faceProbs(d, lo, sides)
	if err != nil {
		return pmf{}, err
	}
	// u is the distribution of one unit: a die with its rerolls and
	// clamp; for "!!" with the rolls it compounds.
	var u pmf
	if d.explode.ok() {
		u, err = c.chain(d, face, lo, d.value)
	} else {
		u, err = faceMap(face, lo, d.value)
	}
	if err != nil {
		return pmf{}, err
	}
	k, high := d.kept(n)
	g := func(v int) int { return v }
	if counting {
		g = d.score
	}
	return c.keep(u, n, k, high, g)
}

// die returns the distribution of what one die of d, a term that does
// not keep or drop, adds to the term's total: the die with its rerolls
// and clamp; for "!!" with the rolls it compounds; for "!" with the
// extra dice it explodes into; counted as a success or failure, if the
// term counts.
func (c *calc) die(d *diceSpec) (pmf, error) {
	lo, hi := d.faces()
	counting := d.success.ok()
	face, err := faceProbs(d, lo, hi-lo+1)
	if err != nil {
		return pmf{}, err
	}
	var u pmf
	switch {
	case d.explode.ok() && !d.compound && counting:
		// Each extra die counts on its own.
		return c.chain(d, face, lo, func(f int) int { return d.score(d.value(f)) })
	case d.explode.ok():
		u, err = c.chain(d, face, lo, d.value)
	default:
		u, err = faceMap(face, lo, d.value)
	}
	if err != nil || !counting {
		return u, err
	}
	return faceMap(u.p, u.lo, d.score)
}

// termFactor returns the dice of d, a term that does not keep or drop,
// as a factor, without summing them.
func (c *calc) termFactor(d *diceSpec) (factor, error) {
	n := int(d.count)
	lo, hi := d.faces()
	if d.plain && !d.success.ok() {
		return factor{lo: lo, n: n, p: uniform(hi - lo + 1), plain: true}, nil
	}
	u, err := c.die(d)
	if err != nil {
		return factor{}, err
	}
	lo, p := trimBelow(u.lo, u.p, negligible)
	return factor{lo: lo, n: n, p: p}, nil
}

// value returns the value a die of d counts for a face: the face, clamped.
func (d *diceSpec) value(face int) int {
	if d.mi.ok() {
		face = max(face, int(d.mi.n))
	}
	if d.ma.ok() {
		face = min(face, int(d.ma.n))
	}
	return face
}

// score returns what a die of value v adds to a count of successes: 1
// for a success, -1 for a failure, 0 for both or neither.
func (d *diceSpec) score(v int) int {
	s := 0
	if d.success.holds(v) {
		s++
	}
	if d.failure.holds(v) {
		s--
	}
	return s
}

// kept returns how many of n units d keeps and whether the highest.
func (d *diceSpec) kept(n int) (k int, high bool) {
	k = int(d.keepN)
	switch d.keep {
	case tokKeepLow:
	case tokDropHigh:
		k = n - k
	case tokDropLow:
		k, high = n-k, true
	default: // tokKeepHigh
		high = true
	}
	return max(0, min(k, n)), high
}

// faceProbs returns the probability of each face lo, lo+1, ... that a die
// of d stands on after its rerolls.
func faceProbs(d *diceSpec, lo, sides int) ([]float64, error) {
	p, err := alloc(sides)
	if err != nil {
		return nil, err
	}
	u := 1 / float64(sides)
	if !d.reroll.ok() {
		for i := range p {
			p[i] = u
		}
		return p, nil
	}
	// q is the chance that one roll is rerolled. A face that is not
	// stands at the first roll, or after k rerolls with chance q^k; a
	// face that is stands only as the last roll allowed.
	met := 0
	for f := lo; f < lo+sides; f++ {
		if d.reroll.holds(f) {
			met++
		}
	}
	q := float64(met) / float64(sides)
	limit := MaxRerolls
	if d.once {
		limit = 1
	}
	stand, qk := 0.0, 1.0
	for range limit {
		stand += qk
		qk *= q
	}
	stand += qk // qk is now q^limit
	for i := range p {
		if d.reroll.holds(lo + i) {
			p[i] = u * qk
		} else {
			p[i] = u * stand
		}
	}
	return p, nil
}

// faceMap returns the distribution of g(f) for f distributed as p over
// lo, lo+1, ...
func faceMap(p []float64, lo int, g func(int) int) (pmf, error) {
	glo, ghi := math.MaxInt, math.MinInt
	for i, x := range p {
		if x != 0 {
			v := g(lo + i)
			glo, ghi = min(glo, v), max(ghi, v)
		}
	}
	if glo > ghi { // no mass at all
		return pmf{p: []float64{0}}, nil
	}
	out, err := alloc(ghi - glo + 1)
	if err != nil {
		return pmf{}, err
	}
	for i, x := range p {
		if x != 0 {
			out[g(lo+i)-glo] += x
		}
	}
	return pmf{lo: glo, p: out}, nil
}

// chain returns the distribution of the sum of g(face) over the rolls of
// one die of d that explodes: the die, and while the last roll meets the
// explosion's condition, one more, at most MaxExplosions more, or as many
// as make a longer chain less likely than OddsTailCut.
func (c *calc) chain(d *diceSpec, face []float64, lo int, g func(int) int) (pmf, error) {
	// a holds the rolls that end the chain, b those that explode.
	var a, b []float64
	pe := 0.0
	for i, x := range face {
		if d.explode.holds(lo + i) {
			pe += x
			b = append(b, x)
			a = append(a, 0)
		} else {
			a = append(a, x)
			b = append(b, 0)
		}
	}
	if pe == 0 {
		return faceMap(face, lo, g)
	}
	A, err := faceMap(a, lo, g)
	if err != nil {
		return pmf{}, err
	}
	B, err := faceMap(b, lo, g)
	if err != nil {
		return pmf{}, err
	}
	B = B.trim()
	depth, _ := chainDepth(pe)
	// The last roll allowed stands whatever it shows: all of face.
	chain, err := faceMap(face, lo, g)
	if err != nil {
		return pmf{}, err
	}
	for range depth {
		next, err := c.add(B, chain)
		if err != nil {
			return pmf{}, err
		}
		if chain, err = mix(A, next); err != nil {
			return pmf{}, err
		}
	}
	return chain.trim(), nil
}

// chainDepth returns how many explosions in a row chain follows for a
// die that explodes with chance pe: MaxExplosions, as Roll does, or as
// many as make a longer chain less likely than OddsTailCut. cut is the
// chance that Roll's chain goes on past them: 0 at MaxExplosions.
func chainDepth(pe float64) (depth int, cut float64) {
	t := pe
	for ; t >= OddsTailCut && depth < MaxExplosions; t *= pe {
		depth++
	}
	if depth == MaxExplosions {
		return depth, 0
	}
	return depth, t
}

// explosionCut returns at most the chance that a roll of e explodes
// further than the calculator follows it (see chainDepth): the sum over
// every die that explodes. A total's distribution, and so the chance of
// any value or set of values, differs from Roll's by no more.
func (e *Expr) explosionCut() float64 {
	cut, g := 0.0, 0
	for i := range e.parts {
		ps := &e.parts[i]
		for j := g; j < g+int(ps.groups); j++ {
			d := &e.dice[j]
			if !d.explode.ok() || d.count == 0 {
				continue
			}
			lo, hi := d.faces()
			face, err := faceProbs(d, lo, hi-lo+1)
			if err != nil {
				continue // the calculator failed on it too
			}
			pe := 0.0
			for k, x := range face {
				if d.explode.holds(lo + k) {
					pe += x
				}
			}
			if pe == 0 {
				continue
			}
			_, c := chainDepth(pe)
			cut += float64(ps.repeat) * float64(d.count) * c
		}
		g += int(ps.groups)
	}
	return min(cut, 1)
}

// plainSum works out node i at once when it is a sum or difference of
// plain dice and numbers ("600d1000 - 300d100 + 5") that the operators
// one by one would take too long for: more than fftWork steps of sliding
// windows and convolutions. Its dice then go into one sliding window
// after another, or, for more than fftMinDice dice, one tilted FFT. ok is
// false when it leaves node i to the operators.
func (c *calc) plainSum(i int32) (p pmf, ok bool, err error) {
	if c.plainTerms(i) < 2 {
		return pmf{}, false, nil // without allocating: most expressions
	}
	var gs []dieGroup
	shift := 0
	if !c.linear(i, false, &gs, &shift) || len(gs) < 2 {
		return pmf{}, false, nil
	}
	return c.plainGroups(gs, shift)
}

// plainTerms returns how many dice terms node i has if it is a sum or
// difference of plain dice terms and numbers, or -1.
func (c *calc) plainTerms(i int32) int {
	n := &c.e.nodes[i]
	switch n.kind {
	case nodeNumber:
		return 0
	case nodeLabel, nodeUnary:
		return c.plainTerms(n.x)
	case nodeDice:
		if d := &c.e.dice[n.val]; !d.plain || d.keep.isKeep() || d.success.ok() {
			return -1
		}
		return 1
	case nodeBinary:
		if n.op == tokPlus || n.op == tokMinus {
			x, y := c.plainTerms(n.x), c.plainTerms(n.y)
			if x >= 0 && y >= 0 {
				return x + y
			}
		}
	}
	return -1
}

// plainParts is plainSum for the total of every part, each rolled its
// repeat times ("2#500d1000 + 3"), when there are several.
func (c *calc) plainParts() (p pmf, ok bool, err error) {
	if len(c.e.parts) == 1 && c.e.parts[0].repeat <= 1 {
		return pmf{}, false, nil
	}
	var gs []dieGroup
	shift := 0
	for i := range c.e.parts {
		ps := &c.e.parts[i]
		var pg []dieGroup
		ph := 0
		if !c.linear(ps.root, false, &pg, &ph) {
			return pmf{}, false, nil
		}
		for range max(1, int(ps.repeat)) {
			gs = append(gs, pg...)
			var ok bool
			if shift, ok = addInt(shift, ph); !ok {
				return pmf{}, false, nil
			}
		}
	}
	if len(gs) < 2 {
		return pmf{}, false, nil
	}
	return c.plainGroups(gs, shift)
}

// plainGroups works out the sum of the dice of gs and shift, in the
// order the operators would take them, when they would take too long.
func (c *calc) plainGroups(gs []dieGroup, shift int) (p pmf, ok bool, err error) {
	width := groupsWidth(gs)
	if width > MaxOddsSupport {
		return pmf{}, false, nil
	}
	// What the operators would take: a window a group, then the
	// convolutions in the tree's order.
	dice, work, acc := 0, 0.0, 1.0
	for _, g := range gs {
		w := float64(g.n*(g.s-1) + 1)
		dice += g.n
		work += float64(g.n)*w + acc*w
		acc += w - 1
	}
	if work <= fftWork {
		return pmf{}, false, nil
	}
	// Like dice together, so that each size is one factor.
	merged := make(map[int]int)
	var sizes []dieGroup
	for _, g := range gs {
		if k, seen := merged[g.s]; seen {
			sizes[k].n += g.n
			continue
		}
		merged[g.s] = len(sizes)
		sizes = append(sizes, g)
	}
	gs = sizes
	if dice > fftMinDice {
		if err := c.spend(fftWork); err != nil {
			return pmf{}, true, err
		}
		q, ok := fftUniformSum(gs)
		if !ok {
			return pmf{}, true, notCovered
		}
		return pmf{lo: shift, p: q, src: groupFactors(gs, shift)}, true, nil
	}
	// Few dice: one window a die, at most fftMinDice·MaxOddsSupport steps.
	if err := c.spend(float64(dice) * float64(width)); err != nil {
		return pmf{}, true, err
	}
	// As in uniformSum, the windows count outcomes while their number
	// fits a float64 exactly, then add probabilities.
	cur, next := make([]float64, width), make([]float64, width)
	cur[0] = 1
	n, outcomes, counting := 1, 1.0, true
	for _, g := range gs {
		for range g.n {
			sf := float64(g.s)
			if counting && outcomes*sf > exactCounts {
				for i := range cur[:n] {
					cur[i] /= outcomes
				}
				counting = false
			}
			w := 1 / sf
			if counting {
				outcomes, w = outcomes*sf, 1
			}
			slide(next[:n+g.s-1], cur[:n], g.s, w)
			cur, next = next, cur
			n += g.s - 1
		}
	}
	if counting {
		for i := range cur {
			cur[i] /= outcomes
		}
	}
	return pmf{lo: shift, p: cur, src: groupFactors(gs, shift)}, true, nil
}

// groupFactors returns the factors of the sum of the dice of gs and
// shift, or nil when there are more than maxFactors.
func groupFactors(gs []dieGroup, shift int) []factor {
	if len(gs) >= maxFactors {
		return nil
	}
	fs := make([]factor, 0, len(gs)+1)
	for _, g := range gs {
		fs = append(fs, factor{n: g.n, p: uniform(g.s), plain: true})
	}
	return append(fs, factor{lo: shift, n: 1, p: []float64{1}})
}

// linear adds to gs the plain dice of node i, and to shift its numbers
// and the lowest faces of its dice, negated with neg. It returns false
// when node i is anything but a sum or difference of plain dice terms
// and numbers, or an int overflows.
func (c *calc) linear(i int32, neg bool, gs *[]dieGroup, shift *int) bool {
	var ls []leaf
	if !c.e.leaves(i, neg, &ls, shift) {
		return false
	}
	for _, l := range ls {
		n := &c.e.nodes[l.node]
		if n.kind != nodeDice {
			return false
		}
		d := &c.e.dice[n.val]
		if !d.plain || d.keep.isKeep() || d.success.ok() {
			return false
		}
		lo, hi := d.faces()
		cnt := int(d.count)
		// Negated, the dice show -hi to -lo.
		low := lo
		if l.neg {
			low = -hi
		}
		s, ok := addInt(*shift, cnt*low)
		if *shift = s; !ok {
			return false
		}
		if cnt > 0 && hi > lo {
			*gs = append(*gs, dieGroup{cnt, hi - lo + 1})
		}
	}
	return true
}

// exactCounts is the largest count of outcomes a float64 holds exactly.
const exactCounts = 1 << 53

// uniformSum returns the distribution of the sum of n dice showing lo to
// lo+sides-1 with equal chances. Adding a die is a sliding window over the
// distribution so far; as long as the number of outcomes fits a float64
// exactly, the window counts outcomes, so that 3d6 gives 27/216 for 10
// to the last digit. Many dice over a wide range take fftUniformSum
// instead, whose time grows with the range but hardly with the dice.
func (c *calc) uniformSum(n, lo, sides int) (pmf, error) {
	p, err := c.uniformChances(n, lo, sides)
	if len(p.p) >= factorsFrom {
		p.src = []factor{{lo: lo, n: n, p: uniform(sides), plain: true}}
	}
	return p, err
}

// uniformChances is uniformSum without its factors.
func (c *calc) uniformChances(n, lo, sides int) (pmf, error) {
	width := n*(sides-1) + 1
	if width > MaxOddsSupport {
		return pmf{}, tooWide
	}
	if n > fftMinDice && float64(n)*float64(width) > fftWork {
		// The FFT takes about as long as fftWork steps of the window
		// would (40 ms for 1000d1000), and counts as much.
		if err := c.spend(fftWork); err != nil {
			return pmf{}, err
		}
		p, ok := fftUniformSum([]dieGroup{{n, sides}})
		if !ok {
			return pmf{}, notCovered
		}
		return pmf{lo: n * lo, p: p}, nil
	}
	return c.windowSum(n, lo, sides)
}

// windowSum is uniformSum by sliding windows.
func (c *calc) windowSum(n, lo, sides int) (pmf, error) {
	width := n*(sides-1) + 1
	cur, err := alloc(width)
	if err != nil {
		return pmf{}, err
	}
	if err := c.spend(float64(n) * float64(width)); err != nil {
		return pmf{}, err
	}
	next := make([]float64, width)
	for i := range sides {
		cur[i] = 1
	}
	outcomes := float64(sides) // what the counts in cur add up to, or 1 once they are probabilities
	w := 1.0
	for k := 2; k <= n; k++ {
		if outcomes > 1 && outcomes*float64(sides) > exactCounts {
			for i := range cur[:(k-1)*(sides-1)+1] {
				cur[i] /= outcomes
			}
			outcomes, w = 1, 1/float64(sides)
		}
		if outcomes > 1 {
			outcomes *= float64(sides)
		}
		slide(next[:k*(sides-1)+1], cur[:(k-1)*(sides-1)+1], sides, w)
		cur, next = next, cur
	}
	if outcomes > 1 {
		for i := range cur {
			cur[i] /= outcomes
		}
	}
	return pmf{lo: n * lo, p: cur}, nil
}

// slide sets dst[k] to w times the sum of src[k-s+1..k], for a dst s-1
// longer than src. The running sums start from either end and meet in the
// middle, where src, a sum of like dice, is largest: each then grows from
// the small tail up, and the tails keep their digits.
func slide(dst, src []float64, s int, w float64) {
	m, n := len(src), len(dst)
	mid := (n - 1) / 2
	sum := 0.0
	for k := 0; k <= mid; k++ {
		if k < m {
			sum += src[k]
		}
		if k >= s {
			sum -= src[k-s]
		}
		dst[k] = max(sum, 0) * w
	}
	sum = 0
	for k := n - 1; k > mid; k-- {
		if i := k - s + 1; i >= 0 && i < m {
			sum += src[i]
		}
		if k+1 < m {
			sum -= src[k+1]
		}
		dst[k] = max(sum, 0) * w
	}
}

// keep returns the distribution of the sum of g(v) over the k values of n
// independent units distributed as u that rank first: the highest, with
// high, or the lowest. (Among equal values, which unit is kept does not
// change the sum.)
//
// It is a dynamic program over the values, from the first-ranking down.
// Before value v, j units have been placed above it and the rest are
// known to be at v or below; the number of them at v is binomial, with
// the chance of v given at most v. The state is j < k and the sum of g
// over the j; once k are placed, the sum is final. The work is the values
// times about k³·G/6, where G is the spread of g.
//
// This is the boundary of exact keep and drop: the dice kept are no sum
// of like dice (which of them are kept depends on all the others), so
// the tilted FFT of odds_iid.go has nothing to raise to a power, and
// past MaxOddsWork steps Distribution estimates. 1000d6kh3 is exact;
// 1000d1000kh500 would take about 10^16 steps.
func (c *calc) keep(u pmf, n, k int, high bool, g func(int) int) (pmf, error) {
	if k == 0 {
		return point(0), nil
	}
	// The values that occur, in order of rank, with their probabilities
	// and the mass at or after each in that order.
	var vals []int
	var probs []float64
	for r := range u.p {
		i := len(u.p) - 1 - r // the highest first
		if !high {
			i = r
		}
		if u.p[i] > 0 {
			vals = append(vals, u.lo+i)
			probs = append(probs, u.p[i])
		}
	}
	rest := make([]float64, len(probs))
	s := 0.0
	for i := len(probs) - 1; i >= 0; i-- {
		s += probs[i]
		rest[i] = s
	}
	gmin, gmax := math.MaxInt, math.MinInt
	for _, v := range vals {
		gmin, gmax = min(gmin, g(v)), max(gmax, g(v))
	}
	G := gmax - gmin
	fin, err := alloc(k*G + 1)
	if err != nil {
		return pmf{}, err
	}
	// Σ over j < k of (j·G+1)·(k-j+1) steps per value, and n for the
	// binomials of each j.
	kf, gf := float64(k), float64(G)
	if err := c.spend(float64(len(vals)) * (gf*kf*kf*kf/6 + kf*kf + kf*float64(n+1))); err != nil {
		return pmf{}, err
	}
	dp := make([][]float64, k)
	next := make([][]float64, k)
	for j := range dp {
		dp[j] = make([]float64, j*G+1)
		next[j] = make([]float64, j*G+1)
	}
	dp[0][0] = 1
	live := 1 // dp[j] for j >= live are all 0
	binom := make([]float64, k+1)
	for l, v := range vals {
		q := probs[l] / rest[l]
		if l == len(vals)-1 {
			q = 1
		}
		gv := g(v) - gmin
		for j := range next {
			clear(next[j])
		}
		newLive := 0
		for j := range live {
			row := dp[j]
			rem := n - j
			b := binom[:k-j+1]
			c.binomials(b, rem, q)
			// c of the rem units show v: those continue while j+c < k,
			// the others end with k-j of them kept at v.
			for cc, pc := range b[:k-j] {
				if pc == 0 {
					continue
				}
				dst := next[j+cc][cc*gv:]
				for t, x := range row {
					dst[t] += x * pc
				}
				newLive = max(newLive, j+cc+1)
			}
			if pc := b[k-j]; pc != 0 {
				dst := fin[(k-j)*gv:]
				for t, x := range row {
					dst[t] += x * pc
				}
			}
		}
		dp, next = next, dp
		live = newLive
		if live == 0 {
			break
		}
	}
	return pmf{lo: k * gmin, p: fin}.trim(), nil
}

// binomials sets b[c], for c < len(b)-1, to the chance that c of rem
// units show a value of chance q, and the last of b to the chance that
// len(b)-1 or more do.
func (c *calc) binomials(b []float64, rem int, q float64) {
	m := len(b) - 1
	clear(b)
	if q >= 1 {
		b[m] = 1 // rem >= m
		return
	}
	l1q := math.Log1p(-q)
	if float64(rem)*l1q > -600 {
		// (1-q)^rem is a normal float64: the recurrence from c = 0.
		x := math.Exp(float64(rem) * l1q)
		r := q / (1 - q)
		for cc := 0; cc <= rem; cc++ {
			b[min(cc, m)] += x
			x *= float64(rem-cc) / float64(cc+1) * r
		}
		return
	}
	// Each term on its own, in logarithms, so that none underflows on the
	// way to a larger one.
	lf := c.logFactorials(rem)
	lq := math.Log(q)
	for cc := 0; cc <= rem; cc++ {
		b[min(cc, m)] += math.Exp(lf[rem] - lf[cc] - lf[rem-cc] + float64(cc)*lq + float64(rem-cc)*l1q)
	}
}

// logFactorials returns log(i!) for i up to n at least.
func (c *calc) logFactorials(n int) []float64 {
	if len(c.lf) == 0 {
		c.lf = append(c.lf, 0)
	}
	for i := len(c.lf); i <= n; i++ {
		c.lf = append(c.lf, c.lf[i-1]+math.Log(float64(i)))
	}
	return c.lf
}
