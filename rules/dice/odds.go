package dice

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
)

// Limits of Distribution. Exact computation works on dense arrays of
// probabilities, one per value from the lowest to the highest; these bound
// its memory and time. Past them, Distribution estimates by rolling.
const (
	MaxOddsSupport = 1_000_000   // values one distribution may span during exact computation, lowest to highest
	MaxOddsWork    = 100_000_000 // multiply-adds of one exact computation: about a tenth of a second
	OddsTailCut    = 1e-12       // explosions are followed until a longer chain is less likely than this, per die

	OddsSamples    = 100_000    // rolls an estimate takes ...
	OddsSampleWork = 50_000_000 // ... unless they would cost more than this (about a die or a keep step each) ...
	OddsMinSamples = 2_000      // ... when it takes fewer, but at least this many
)

// ErrInexact is returned, wrapped, by Distribution when exact computation
// is out of reach and there is no Roller to estimate with.
var ErrInexact = errors.New("dice: exact distribution out of reach")

// Dist is the probability distribution of an expression's total: the
// probability of each value it can take. Its methods do not change it, so
// goroutines may share one.
type Dist struct {
	// Exact is true when the probabilities were computed, false when they
	// are the frequencies of Samples rolls (0 when Exact).
	Exact   bool
	Samples int
	// Cut is, for an exact distribution of dice that explode, at most the
	// chance that a roll explodes further than the calculation follows it
	// (OddsTailCut): the chance of every value, and of every set of
	// values, is within Cut of Roll's. 0 when nothing was cut, or when the
	// distribution is estimated.
	Cut float64

	vals  []int     // the values with a probability above 0, increasing
	probs []float64 // their probabilities
}

// Min returns the lowest value with a probability above 0.
func (d *Dist) Min() int { return d.vals[0] }

// Max returns the highest value with a probability above 0.
func (d *Dist) Max() int { return d.vals[len(d.vals)-1] }

// Len returns how many values have a probability above 0.
func (d *Dist) Len() int { return len(d.vals) }

// P returns the probability of v.
func (d *Dist) P(v int) float64 {
	if i, ok := slices.BinarySearch(d.vals, v); ok {
		return d.probs[i]
	}
	return 0
}

// All yields each value with a probability above 0 and its probability,
// lowest value first.
func (d *Dist) All() iter.Seq2[int, float64] {
	return func(yield func(int, float64) bool) {
		for i, v := range d.vals {
			if !yield(v, d.probs[i]) {
				return
			}
		}
	}
}

// Mean returns the expected value.
func (d *Dist) Mean() float64 {
	m := 0.0
	for i, v := range d.vals {
		m += float64(v) * d.probs[i]
	}
	return m
}

// StdDev returns the standard deviation.
func (d *Dist) StdDev() float64 {
	m := d.Mean()
	s := 0.0
	for i, v := range d.vals {
		x := float64(v) - m
		s += x * x * d.probs[i]
	}
	return math.Sqrt(s)
}

// AtLeast returns the probability of a value of t or more.
func (d *Dist) AtLeast(t int) float64 {
	if t <= d.Min() {
		return 1
	}
	i := sort.SearchInts(d.vals, t)
	s := 0.0
	// From the top, so that a small tail keeps its digits.
	for j := len(d.probs) - 1; j >= i; j-- {
		s += d.probs[j]
	}
	return min(s, 1)
}

// MostLikely returns the n most likely values, most likely first; among
// equally likely values the lower first.
func (d *Dist) MostLikely(n int) []int {
	n = max(0, min(n, len(d.vals)))
	// before says whether index a ranks before b.
	before := func(a, b int) bool {
		return d.probs[a] > d.probs[b] || d.probs[a] == d.probs[b] && a < b
	}
	// The n best so far, in rank: one pass, an insertion for each value
	// that beats the last of them, so that a million values with n = 5
	// take a millisecond, not a sort.
	best := make([]int, 0, n)
	for i := range d.vals {
		if len(best) == n && (n == 0 || !before(i, best[n-1])) {
			continue
		}
		if len(best) < n {
			best = append(best, i)
		} else {
			best[n-1] = i
		}
		for j := len(best) - 1; j > 0 && before(best[j], best[j-1]); j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	out := make([]int, n)
	for i, k := range best {
		out[i] = d.vals[k]
	}
	return out
}

// Opposed compares two independent totals: the probabilities that a is
// higher than b, that they tie and that b is higher. The three sum to 1.
func Opposed(a, b *Dist) (win, tie, lose float64) {
	// below[j] is P(b < b.vals[j]) and above[j] P(b > b.vals[j]), each
	// summed from its own end so that small tails keep their digits.
	n := len(b.vals)
	below := make([]float64, n)
	above := make([]float64, n)
	for j := 1; j < n; j++ {
		below[j] = below[j-1] + b.probs[j-1]
	}
	for j := n - 2; j >= 0; j-- {
		above[j] = above[j+1] + b.probs[j+1]
	}
	// Merge: j is the first value of b at or above a's value.
	j := 0
	for i, v := range a.vals {
		for j < n && b.vals[j] < v {
			j++
		}
		pa := a.probs[i]
		switch {
		case j == n:
			win += pa * (below[n-1] + b.probs[n-1])
		case b.vals[j] == v:
			win += pa * below[j]
			tie += pa * b.probs[j]
			lose += pa * above[j]
		default: // b.vals[j] > v
			win += pa * below[j]
			lose += pa * (above[j] + b.probs[j])
		}
	}
	return win, tie, lose
}

// Distribution returns the probability distribution of the expression's
// total, Result.Total: for several parts, the sum of their totals.
//
// It is exact for everything the language has (numbers, the four
// operations, every kind of die, rerolls, clamps, explosions, keep and
// drop, success and failure counting, labels, parts and repeats) but a
// dice term that both explodes with "!" and keeps or drops, as its extra
// dice join those kept or dropped. Within exact, two approximations:
// explosions are followed to MaxExplosions or until a longer chain is less
// likely than OddsTailCut for one die, whichever comes first (the last
// roll then stands, so the probabilities still sum to 1); and a
// probability too small for a float64 (below about 1e-308, such as
// 1000d6 all showing 1) is 0 and its value left out. MaxDice does not
// apply: the distribution is the expression's, though Roll refuses a roll
// that needs more dice.
//
// Exact computation works on a dense array of probabilities per
// intermediate result: sums and differences convolve, products and
// quotients combine every pair, a sum of like dice is a sliding window (or
// a power by squaring), a sum of many plain dice, or of plain dice of
// several sizes, one tilted FFT (odds_fft.go), a wide sum of many like
// dice that are not plain the same tilted FFT of one die's transform
// (odds_iid.go), a wide sum or difference of different terms the same
// tilted FFT of the product of the terms' transforms (odds_product.go);
// keep and drop are a dynamic program over the faces
// from the highest (or lowest) down, counting how many dice show each,
// exact within MaxOddsWork steps only (1000d6kh3, not 1000d1000kh500: it
// is no sum of like dice); a reroll and a clamp change the distribution
// of one die, an explosion follows its chain.
//
// Where exact computation is out of reach (an intermediate distribution
// spanning more than MaxOddsSupport values, more than MaxOddsWork steps,
// or "!" with keep or drop), Distribution rolls the expression with r
// instead, OddsSamples times (fewer for an expression slow to roll, see
// OddsSampleWork), and returns the frequencies with Exact false and
// Samples set. r should be a random roller (NewRandom); with a nil r it
// returns an error wrapping ErrInexact instead.
//
// An outcome that Roll would refuse (a division by zero, an overflow) is
// an *Error at its operator, though the outcome may be unlikely. While
// estimating, an error of Roll comes back as it is.
func (e *Expr) Distribution(r Roller) (*Dist, error) {
	if n := e.firstName(); n != nil {
		name := e.text[n.val : n.val+int(n.y-n.x)]
		return nil, &Error{Expr: e.src, Pos: int(n.pos), Name: name,
			Msg: "'" + name + "' is a name: the odds need its value, written as a number"}
	}
	c := calc{e: e}
	p, err := c.roll()
	var why outOfReach
	switch {
	case err == nil:
		d := p.dist()
		d.Cut = e.explosionCut()
		return d, nil
	case !errors.As(err, &why):
		return nil, err
	case r == nil:
		return nil, fmt.Errorf("%w: %s", ErrInexact, why)
	}
	return e.sample(r, e.samples())
}

// firstName returns the first name node of e, or nil.
func (e *Expr) firstName() *node {
	var first *node
	for i := range e.nodes {
		if n := &e.nodes[i]; n.kind == nodeName && (first == nil || n.pos < first.pos) {
			first = n
		}
	}
	return first
}

// samples returns how many rolls an estimate of e takes.
func (e *Expr) samples() int {
	// The cost of a roll, about one unit a die and one a step of
	// keepFirst.
	cost := 1
	g := 0
	for i := range e.parts {
		ps := &e.parts[i]
		for j := g; j < g+int(ps.groups); j++ {
			d := &e.dice[j]
			n := int(d.count)
			c := n
			if d.keep.isKeep() {
				k := int(d.keepN)
				c += n * max(0, min(k, n-k))
			}
			cost += int(ps.repeat) * c
		}
		g += int(ps.groups)
	}
	return max(OddsMinSamples, min(OddsSamples, OddsSampleWork/cost))
}

// sample estimates e's distribution from n rolls with r.
func (e *Expr) sample(r Roller, n int) (*Dist, error) {
	res := e.newResult()
	totals := make([]int, n)
	for i := range totals {
		if err := e.RollInto(r, res); err != nil {
			return nil, err
		}
		totals[i] = res.Total
	}
	slices.Sort(totals)
	d := &Dist{Samples: n}
	for i := 0; i < len(totals); {
		j := i + 1
		for j < len(totals) && totals[j] == totals[i] {
			j++
		}
		d.vals = append(d.vals, totals[i])
		d.probs = append(d.probs, float64(j-i)/float64(n))
		i = j
	}
	return d, nil
}
