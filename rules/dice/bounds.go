package dice

import "math"

// Bounds returns the lowest and the highest total the expression can
// roll, worked out from its terms without its distribution: the whole
// range of an expression whose distribution is only estimated (1000d1000:
// 1000 to 1000000). ok is false where it cannot say: a term that explodes
// (its chain is bounded only by MaxExplosions), a division whose divisor
// can be 0, or a bound beyond an int. As Distribution, it ignores
// MaxDice.
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
	if d.explode.ok() {
		return 0, 0, false
	}
	flo, fhi := d.faces()
	ulo, uhi := d.value(flo), d.value(fhi) // value is monotone in the face
	if d.success.ok() {
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
