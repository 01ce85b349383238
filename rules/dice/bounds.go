package dice

import "math"

// Bounds returns the lowest and the highest total the expression can
// roll, worked out from its terms without its distribution: the whole
// range of an expression whose distribution is only estimated (1000d1000:
// 1000 to 1000000). A die that explodes does so at most MaxExplosions
// times in a row, so 1000d6! is 1000 to 606000. ok is false where it
// cannot say: a term that both explodes with "!" and keeps or drops (how
// many dice it keeps depends on the explosions), one that compounds with
// "!!" and counts successes, a division whose divisor can be 0, or a
// bound beyond an int. As Distribution, it ignores MaxDice.
func (e *Expr) Bounds() (lo, hi int, ok bool) {
	for i := range e.parts {
		ps := &e.parts[i]
		l, h, ok := e.nodeBounds(ps.root)
		if !ok {
			return 0, 0, false
		}
		if l, ok = mulInt(l, int(ps.repeat)); !ok {
			return 0, 0, false
		}
		if h, ok = mulInt(h, int(ps.repeat)); !ok {
			return 0, 0, false
		}
		if lo, ok = addInt(lo, l); !ok {
			return 0, 0, false
		}
		if hi, ok = addInt(hi, h); !ok {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// nodeBounds are the bounds of node i: every operation of the language is
// monotone in each operand over an interval that does not hold 0 for a
// divisor, so the bounds are among those of its operands' corners.
func (e *Expr) nodeBounds(i int32) (lo, hi int, ok bool) {
	n := &e.nodes[i]
	switch n.kind {
	case nodeNumber:
		return n.val, n.val, true
	case nodeDice:
		return e.dice[n.val].bounds()
	case nodeLabel:
		return e.nodeBounds(n.x)
	case nodeUnary:
		l, h, ok := e.nodeBounds(n.x)
		if !ok || l == math.MinInt {
			return 0, 0, false
		}
		return -h, -l, true
	case nodeBinary:
		xl, xh, ok := e.nodeBounds(n.x)
		if !ok {
			return 0, 0, false
		}
		yl, yh, ok := e.nodeBounds(n.y)
		if !ok {
			return 0, 0, false
		}
		switch n.op {
		case tokPlus:
			l, ok1 := addInt(xl, yl)
			h, ok2 := addInt(xh, yh)
			return l, h, ok1 && ok2
		case tokMinus:
			if yl == math.MinInt {
				return 0, 0, false
			}
			l, ok1 := addInt(xl, -yh)
			h, ok2 := addInt(xh, -yl)
			return l, h, ok1 && ok2
		case tokStar:
			return corners(xl, xh, yl, yh, mulInt)
		case tokSlash:
			if yl <= 0 && 0 <= yh {
				return 0, 0, false
			}
			return corners(xl, xh, yl, yh, func(a, b int) (int, bool) { return floorDiv(a, b), true })
		}
	}
	return 0, 0, false
}

// corners returns the least and greatest of f over the corners of two
// intervals.
func corners(xl, xh, yl, yh int, f func(a, b int) (int, bool)) (lo, hi int, ok bool) {
	lo, hi = math.MaxInt, math.MinInt
	for _, a := range [2]int{xl, xh} {
		for _, b := range [2]int{yl, yh} {
			v, ok := f(a, b)
			if !ok {
				return 0, 0, false
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi, true
}

// bounds are the bounds of a dice term. Every face can stand (the last
// reroll allowed stands whatever it shows); a clamp maps faces in order;
// a success count scores each die -1, 0 or 1; keep and drop sum the k
// units they keep.
func (d *diceSpec) bounds() (lo, hi int, ok bool) {
	n := int(d.count)
	if n == 0 {
		return 0, 0, true
	}
	flo, fhi := d.faces()
	ulo, uhi := d.value(flo), d.value(fhi) // value is monotone in the face
	switch {
	case d.explode.ok() && (d.compound && d.success.ok() || !d.compound && d.keep.isKeep()):
		return 0, 0, false
	case d.explode.ok() && !d.compound && d.success.ok():
		// Each die of the chain counts on its own.
		ulo, uhi = d.chainBounds(func(f int) int { return d.score(d.value(f)) })
	case d.explode.ok():
		ulo, uhi = d.chainBounds(d.value)
	case d.success.ok():
		ulo, uhi = math.MaxInt, math.MinInt
		for _, s := range d.scores(flo, fhi) {
			ulo, uhi = min(ulo, s), max(uhi, s)
		}
	}
	k := n
	if d.keep.isKeep() {
		k, _ = d.kept(n)
	}
	l, ok1 := mulInt(ulo, k)
	h, ok2 := mulInt(uhi, k)
	return l, h, ok1 && ok2
}

// chainBounds are the least and the greatest sum of g(face) over the
// rolls of one die of d that explodes: the die, then one more roll while
// the last one meets the explosion's condition, at most MaxExplosions
// more, the last of which stands whatever it shows. A chain of k
// explosions ending on a face that does not explode sums k exploding
// faces and that one; the sum is linear in k, so its extremes lie at the
// shortest or the longest chain.
func (d *diceSpec) chainBounds(g func(int) int) (lo, hi int) {
	const none = math.MaxInt
	flo, fhi := d.faces()
	emin, emax, amin, amax := none, math.MinInt, none, math.MinInt
	for f := flo; f <= fhi; f++ {
		v := g(f)
		if d.explode.holds(f) {
			emin, emax = min(emin, v), max(emax, v)
		} else {
			amin, amax = min(amin, v), max(amax, v)
		}
	}
	allmin, allmax := min(emin, amin), max(emax, amax)
	lo, hi = math.MaxInt, math.MinInt
	if amin != none { // a chain may end by itself
		lo, hi = amin, amax
		if emin != none {
			lo = min(lo, (MaxExplosions-1)*emin+amin)
			hi = max(hi, (MaxExplosions-1)*emax+amax)
		}
	}
	if emin != none { // or run to MaxExplosions
		lo = min(lo, MaxExplosions*emin+allmin)
		hi = max(hi, MaxExplosions*emax+allmax)
	}
	return lo, hi
}

// scores are the scores (see score) the faces flo to fhi can give.
func (d *diceSpec) scores(flo, fhi int) []int {
	seen := map[int]bool{}
	var out []int
	for f := flo; f <= fhi && len(out) < 3; f++ {
		if s := d.score(d.value(f)); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Explodes reports whether a dice term of the expression explodes, with
// "!" or "!!": its range (Bounds) then reaches as far as MaxExplosions
// explosions a die, far beyond any likely total.
func (e *Expr) Explodes() bool {
	for i := range e.dice {
		if e.dice[i].explode.ok() && e.dice[i].count > 0 {
			return true
		}
	}
	return false
}
