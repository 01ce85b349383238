package dice

import (
	"math"
	"math/bits"
	"slices"
)

// Sums of different wide terms ("500d100mi3 + 300d20r1"): each term is
// exact on its own (a plain sum, a power of one die), but convolving the
// two directly takes the product of their ranges, 2.8·10^8 steps there.
// The tilted FFT of odds_fft.go needs of a sum only its tilted moments,
// normaliser and spectrum, and for a sum of independent terms those are
// the sums of the terms' moments and normalisers and the product of their
// spectra. So a distribution remembers what it is the sum of (its
// factors: n like dice each, or one value of known chances), and a sum
// too long to convolve is one tilted FFT of the product of its factors'
// transforms, to the same precision as one term's.
//
// Each factor's spectrum is worked out as for a term alone: a plain die's
// in closed form (uniformSum), another die's as the power of its
// characteristic function, each value accurate in relative terms
// (dieSum), and a value of known chances by an FFT of its tilted chances
// (chanceSum), whose error of about 1e-16 of the largest is not raised to
// any power.

// factorsFrom is the width from which a distribution remembers its
// factors: a narrower one is a cheap factor as a value of known chances,
// and remembering costs the small sums of every roll an allocation.
const factorsFrom = 4096

// maxFactors bounds the factors a distribution remembers; one with more
// is convolved as it is, a value of known chances.
const maxFactors = 12

// factor is n independent values each showing lo+k with chance p[k]:
// the dice of a term, or (n = 1) a value whose chances are all that is
// known of it. plain is set for a plain die, whose chances are equal.
type factor struct {
	lo, n int
	p     []float64
	plain bool
}

// width returns how many values the factor spans.
func (f factor) width() int { return f.n*(len(f.p)-1) + 1 }

// mirror returns the factor of the values negated.
func (f factor) mirror() factor {
	q := make([]float64, len(f.p))
	for k, x := range f.p {
		q[len(q)-1-k] = x
	}
	return factor{lo: -(f.lo + len(f.p) - 1), n: f.n, p: q, plain: f.plain}
}

// uniform returns the chances of a plain die of s sides, from 0.
func uniform(s int) []float64 {
	p := make([]float64, s)
	for k := range p {
		p[k] = 1 / float64(s)
	}
	return p
}

// factors returns what a is the sum of: its own factors, or a itself
// without the chances below negligible at either end.
func (a pmf) factors() []factor {
	if a.src != nil {
		return a.src
	}
	lo, p := trimBelow(a.lo, a.p, negligible)
	return []factor{{lo: lo, n: 1, p: p}}
}

// negligible is a chance too small to count in a sum: factors drops
// those at the ends of a value's chances, where a fall from 1e-30 to
// 1e-230 (a sum of dice that reroll a face 100 times) is a step no
// window can take. What they would add to any chance of the sum is far
// below float64's precision of any chance /odds shows.
const negligible = 1e-100

// joinFactors returns the factors of the sum of a and b, the constants
// added into one, or nil when there would be more than maxFactors.
func joinFactors(a, b pmf) []factor {
	var out []factor
	shift := 0
	for _, fs := range [2][]factor{a.factors(), b.factors()} {
		for _, f := range fs {
			if len(f.p) == 1 {
				var ok bool
				if shift, ok = addInt(shift, f.n*f.lo); !ok {
					return nil
				}
				continue
			}
			out = append(out, f)
		}
	}
	if len(out) > maxFactors {
		return nil
	}
	if shift != 0 || len(out) == 0 {
		out = append(out, factor{lo: shift, n: 1, p: []float64{1}})
	}
	return out
}

// fftProduct returns the lowest value of the sum of the factors fs and
// the chances of it and each value above, up to the highest, spending at
// most budget steps; ok is false when the windows did not cover the
// range or would have taken more. A sum of plain dice alone is
// fftUniformSum's.
func fftProduct(fs []factor, budget float64) (lo int, out []float64, spent float64, ok bool) {
	var parts, plain []factor
	for _, f := range fs {
		// Impossible values at the ends would stop the windows short
		// of them: the sum is of the values that occur.
		f.lo, f.p = trimBelow(f.lo, f.p, math.SmallestNonzeroFloat64)
		lo += f.n * f.lo
		switch {
		case len(f.p) == 1:
		case f.plain:
			plain = append(plain, f)
		default:
			parts = append(parts, f)
		}
	}
	switch {
	case len(parts) == 0 && len(plain) > 0:
		gs := make([]dieGroup, len(plain))
		for i, f := range plain {
			gs[i] = dieGroup{f.n, len(f.p)}
		}
		out, ok = fftUniformSum(gs)
		return lo, out, fftWork, ok
	}
	width := 1
	for _, f := range slices.Concat(parts, plain) {
		width += f.width() - 1
	}
	up := newProductSum(parts, plain, false, budget)
	mean, _ := up.moments(0)
	start := min(width-1, max(0, int(math.Round(mean))))
	out = make([]float64, width)
	lowest, ok := fftCover(up, width, out, start-1, false)
	if !ok {
		return lo, nil, budget - up.left, false
	}
	if lowest > 0 {
		// Below the first window, the values above it of the mirrored
		// sum.
		down := newProductSum(parts, plain, true, up.left)
		low := make([]float64, width)
		if _, ok := fftCover(down, width, low, width-1-lowest, true); !ok {
			return lo, nil, budget - down.left, false
		}
		for k := range lowest {
			out[k] = low[width-1-k]
		}
		up.left = down.left
	}
	return lo, out, budget - up.left, productHolds(out, slices.Concat(parts, plain))
}

// productHolds checks out, the chances of the sum of fs from its lowest
// value, against what it must hold: they add up to 1, and their mean is
// the sum of the factors'. A window gone wrong (an FFT too short for a
// die's long tail) shows there, and the caller estimates instead.
func productHolds(out []float64, fs []factor) bool {
	want := 0.0
	for _, f := range fs {
		m := 0.0
		for k, x := range f.p {
			m += x * float64(k)
		}
		want += float64(f.n) * m
	}
	total, mean := 0.0, 0.0
	for k, x := range out {
		total += x
		mean += x * float64(k)
	}
	return math.Abs(total-1) < 1e-9 && math.Abs(mean-want) < 1e-9*float64(len(out))
}

// productSum is the sum of independent factors as the tilted FFT sees
// it: its values from 0, each factor's from its own lowest.
type productSum struct {
	parts []tiltedSum
	left  float64 // steps left of the budget
	tmp   []complex128
}

// newProductSum returns the sum of parts and plain, mirrored with down.
func newProductSum(parts, plain []factor, down bool, budget float64) *productSum {
	s := &productSum{left: budget}
	if len(plain) > 0 {
		gs := make(uniformSum, len(plain))
		for i, f := range plain {
			gs[i] = dieGroup{f.n, len(f.p)} // symmetric: its own mirror
		}
		s.parts = append(s.parts, gs)
	}
	// The spectrum that falls to 0 soonest first, so that the others
	// need only the terms before it does (productSum.spectrum): a plain
	// sum's, then those of more dice.
	parts = slices.Clone(parts)
	slices.SortStableFunc(parts, func(a, b factor) int { return b.n - a.n })
	for _, f := range parts {
		if down {
			f = f.mirror()
		}
		if f.n == 1 {
			s.parts = append(s.parts, newChanceSum(f.p))
		} else {
			s.parts = append(s.parts, newDieSum(f.p, f.n, 0))
		}
	}
	return s
}

func (s *productSum) moments(theta float64) (mean, sd float64) {
	variance := 0.0
	for _, p := range s.parts {
		m, d := p.moments(theta)
		mean += m
		variance += d * d
		if c, ok := p.(*chanceSum); ok {
			s.left -= float64(len(c.p)) // a pass over its chances
		}
	}
	return mean, math.Sqrt(variance)
}

func (s *productSum) logNorm(theta float64) float64 {
	l := 0.0
	for _, p := range s.parts {
		l += p.logNorm(theta)
	}
	return l
}

func (s *productSum) holes() int {
	h := 0
	for _, p := range s.parts {
		h = max(h, p.holes())
	}
	return h
}

// spectrum multiplies the factors' spectra, each centred on its own
// tilted mean, the last on what is left of centre.
func (s *productSum) spectrum(buf []complex128, theta float64, centre int) bool {
	size := len(buf)
	if len(s.tmp) < size && len(s.parts) > 1 {
		s.tmp = make([]complex128, size)
	}
	tmp := s.tmp[:min(size, len(s.tmp))] // a part's own spectrum, after the first
	rest := centre
	limit := 0 // the last j the product so far is not 0 at, once known
	for i, p := range s.parts {
		c := rest
		if i < len(s.parts)-1 {
			m, _ := p.moments(theta)
			c = int(math.Round(m))
			rest -= c
		}
		dst := tmp
		if i == 0 {
			dst = buf
		}
		// A dieSum (or chanceSum) counts its own steps and takes the
		// limit; the closed form of plain dice costs a step a term.
		if b, ok := p.(interface{ base() *dieSum }); ok {
			d := b.base()
			d.work, d.limit = s.left, limit
			ok := p.spectrum(dst, theta, c)
			if s.left = d.work; !ok {
				return false
			}
		} else {
			if s.left -= float64(size); s.left < 0 {
				return false
			}
			p.spectrum(dst, theta, c)
		}
		if i > 0 {
			for j, x := range tmp {
				buf[j] *= x
			}
		}
		limit = size / 2
		for limit > 1 && buf[limit] == 0 && buf[size-limit] == 0 {
			limit--
		}
	}
	return true
}

// chanceSum is one value of known chances (a factor of n = 1): a dieSum
// of one die, whose spectrum is an FFT of its tilted chances.
type chanceSum struct {
	*dieSum
	gaps int // the longest run of zeros between two chances above 0
	tw   twiddles
}

func newChanceSum(p []float64) *chanceSum {
	gaps, run := 0, 0
	for _, x := range p {
		if x == 0 {
			run++
			continue
		}
		gaps, run = max(gaps, run), 0
	}
	return &chanceSum{dieSum: newDieSum(p, 1, 0), gaps: gaps}
}

func (c *chanceSum) holes() int { return max(dieHoles, c.gaps) }

func (c *chanceSum) spectrum(buf []complex128, theta float64, centre int) bool {
	size := len(buf)
	if top := c.limit; top > 0 && float64(top)*float64(len(c.p)) < float64(size)*float64(bits.Len(uint(size))) {
		return c.directSpectrum(buf, theta, centre, top)
	}
	if !c.spend(float64(len(c.p)) + float64(size)*float64(bits.Len(uint(size)))) {
		return false
	}
	c.tilt(theta)
	clear(buf)
	i := ((-centre)%size + size) % size // where value 0 goes
	for _, x := range c.q {
		buf[i] += complex(x, 0)
		if i++; i == size {
			i = 0
		}
	}
	if len(c.tw) < size {
		c.tw = newTwiddles(size)
	}
	realDFT(buf, c.tw)
	return true
}

// directSpectrum is spectrum for j up to top alone, each term a sum over
// the chances (dieSum.estimate).
func (c *chanceSum) directSpectrum(buf []complex128, theta float64, centre, top int) bool {
	size := len(buf)
	if !c.spend(float64(top+1) * float64(len(c.p))) {
		return false
	}
	c.tilt(theta)
	clear(buf)
	for j := 0; j <= top; j++ {
		x := c.estimate(j, size, centre, 0, len(c.q)-1)
		buf[j] = x
		if j > 0 && j < size-j {
			buf[size-j] = complex(real(x), -imag(x))
		}
	}
	return true
}

// leaf is an operand of a sum or difference, negated or not.
type leaf struct {
	node int32
	neg  bool
}

// leaves adds to ls the operands of node i, a sum or difference of terms
// and numbers, negated with neg, and to shift its numbers. It returns
// false when an int overflows.
func (e *Expr) leaves(i int32, neg bool, ls *[]leaf, shift *int) bool {
	n := &e.nodes[i]
	switch n.kind {
	case nodeNumber:
		v := n.val
		if neg {
			if v == math.MinInt {
				return false
			}
			v = -v
		}
		s, ok := addInt(*shift, v)
		*shift = s
		return ok
	case nodeLabel:
		return e.leaves(n.x, neg, ls, shift)
	case nodeUnary:
		return e.leaves(n.x, !neg, ls, shift)
	case nodeBinary:
		switch n.op {
		case tokPlus:
			return e.leaves(n.x, neg, ls, shift) && e.leaves(n.y, neg, ls, shift)
		case tokMinus:
			return e.leaves(n.x, neg, ls, shift) && e.leaves(n.y, !neg, ls, shift)
		}
	}
	*ls = append(*ls, leaf{i, neg})
	return true
}

// factorSum works out node i, a sum or difference of terms and numbers,
// as one tilted FFT of the product of its operands' transforms, when
// the operators one by one would take more than fftWork steps. The dice
// of a term that does not keep or drop are a factor as they are, their
// sum not worked out on its own (500d1000r1 + 400d1000mi2 takes one FFT,
// not three); any other operand is worked out, and is a factor by its
// chances (or its own factors). ok is false when it leaves node i to
// the operators.
func (c *calc) factorSum(i int32) (p pmf, ok bool, err error) {
	var ls []leaf
	shift := 0
	if !c.e.leaves(i, false, &ls, &shift) || len(ls) < 2 {
		return pmf{}, false, nil
	}
	// What the operators would take: each convolution, the width so
	// far times the next operand's.
	work, acc, width := 0.0, 0.0, 1
	for k, l := range ls {
		lo, hi, ok := c.e.nodeBounds(l.node)
		if !ok || hi-lo < 0 || hi-lo >= MaxOddsSupport {
			return pmf{}, false, nil
		}
		w := float64(hi-lo) + 1
		if k == 0 {
			acc = w
		} else {
			work += acc * w
			acc += w - 1
		}
		if width += hi - lo; width > MaxOddsSupport {
			return pmf{}, false, nil
		}
	}
	if work <= fftWork {
		return pmf{}, false, nil
	}
	var fs []factor
	for _, l := range ls {
		var lf []factor
		if n := &c.e.nodes[l.node]; n.kind == nodeDice && !c.e.dice[n.val].keep.isKeep() && c.e.dice[n.val].count > 0 {
			f, err := c.termFactor(&c.e.dice[n.val])
			if err != nil {
				return pmf{}, true, err
			}
			lf = []factor{f}
		} else {
			q, err := c.node(l.node)
			if err != nil {
				return pmf{}, true, err
			}
			lf = q.factors()
		}
		for _, f := range lf {
			if l.neg {
				f = f.mirror()
			}
			fs = append(fs, f)
		}
	}
	p, err = c.product(append(fs, factor{lo: shift, n: 1, p: []float64{1}}))
	if len(p.src) > maxFactors+1 {
		p.src = nil
	}
	return p, true, err
}

// product returns the distribution of the sum of the factors fs, by the
// tilted FFT of the product of their transforms (fftProduct), spending
// its steps: tooLong when they would break MaxOddsWork, notCovered when
// its windows left a gap.
func (c *calc) product(fs []factor) (pmf, error) {
	left := float64(MaxOddsWork - c.work)
	lo, p, spent, ok := fftProduct(fs, left)
	if err := c.spend(min(spent, left)); err != nil {
		return pmf{}, err
	}
	switch {
	case ok:
		return pmf{lo: lo, p: p, src: fs}, nil
	case spent >= left:
		return pmf{}, tooLong
	}
	return pmf{}, notCovered
}
