package dice

import (
	"math"
	"math/bits"
)

// The sum of many like dice that are not plain: dice that reroll, clamp,
// explode (to a bounded chain) or count successes. Every die of the term
// has the same distribution, worked out exactly (faceProbs, faceMap,
// chain), so the sum of n of them is that distribution's n-th convolution
// power. Powers by squaring (calc.power) convolve directly, which is
// exact but takes the square of the range: 1000d1000r1 would take about
// 10^12 steps. Past fftWork steps, the power is taken with the tilted
// FFT of odds_fft.go instead, whose covering windows need of a sum only
// its tilted moments, normaliser and spectrum (tiltedSum). For a plain
// die those are in closed form; for any other die, dieSum works them out
// from its probabilities.
//
// The spectrum is the die's characteristic function ψ(ω) raised to the
// power n, and raising it multiplies the error of ψ by n: the 1e-16 of
// a float64 FFT of the die would become 1e-13 for 1000 dice, 1e-9 at the
// fftKeep edge of a window, not enough. So each ψ(ω_j) that counts is a
// direct sum over the die's values k (centred on the tilted die's mean),
// written ψ = 1 + w with w = Σ q_k·(-2sin²(ωk/2) - i·sin ωk): every term
// is accurate in relative terms (the angles are reduced exactly, in
// integers), the real parts all have one sign, and log ψ is taken with
// log1p. Only a few ψ(ω_j) count: where |ψ|^n underflows, the term is 0.
// A coarse FFT of the die finds them (screen): |ψ| changes by at most D
// per unit of ω, D the farthest value from the centre, so a grid of
// 2πD/t points tells which ω_j may reach the threshold t = e^{-800/n}.
// That is about a hundred for a die whose chances are spread out, and all
// of a small window's for a die that is almost always the same value.
//
// A die in general is not symmetric: the windows cover the values above
// the mean with θ from 0 up, and those below as the values above the
// mean of the mirrored die.

// dieHoles is dieSum's holes: a die whose values are mostly odd (1d2!)
// makes a sum whose values of one parity are far less likely.
const dieHoles = 8

// dieSum is the sum of n dice each showing k = 0, 1, ... with chance p[k].
type dieSum struct {
	p    []float64
	lp   []float64 // log p[k]
	n    int
	work float64 // steps left, against the caller's budget
	// limit, when above 0, is the last j whose term spectrum need set:
	// in a product of sums, the terms past it are 0 in another's.
	limit int
	sin   []float64
	q     []float64 // the tilted die's chances, as spectrum last made them
	grid  []complex128
	tw    twiddles
}

// base returns d itself: the dieSum of a chanceSum too.
func (d *dieSum) base() *dieSum { return d }

func newDieSum(p []float64, n int, budget float64) *dieSum {
	lp := make([]float64, len(p))
	for k, x := range p {
		lp[k] = math.Log(x) // -Inf for 0, which tilts to 0
	}
	return &dieSum{p: p, lp: lp, n: n, work: budget, q: make([]float64, len(p))}
}

// tilt sets d.q to the die's chances tilted by θ and returns log M(θ),
// M the die's moment generating function.
func (d *dieSum) tilt(theta float64) float64 {
	top := math.Inf(-1)
	for k, l := range d.lp {
		top = max(top, l+theta*float64(k))
	}
	z := 0.0
	for k, l := range d.lp {
		d.q[k] = math.Exp(l + theta*float64(k) - top)
		z += d.q[k]
	}
	for k := range d.q {
		d.q[k] /= z
	}
	return top + math.Log(z)
}

// dieMoments returns the mean and variance of the die as d.q has it.
func (d *dieSum) dieMoments() (mean, variance float64) {
	for k, x := range d.q {
		mean += x * float64(k)
	}
	for k, x := range d.q {
		y := float64(k) - mean
		variance += x * y * y
	}
	return mean, variance
}

func (d *dieSum) moments(theta float64) (mean, sd float64) {
	if top := theta * float64(len(d.p)-1); top < 600 {
		// Without an exp a value, which tiltFor's many calls would
		// spend most of their time on: the weights p[k]·e^{θk} by
		// products, accurate to far more than a window's place needs.
		var z, m, m2 float64
		e, w := math.Exp(theta), 1.0
		for k, x := range d.p {
			x *= w
			z += x
			m += x * float64(k)
			m2 += x * float64(k) * float64(k)
			w *= e
		}
		m /= z
		v := max(m2/z-m*m, 0)
		return float64(d.n) * m, math.Sqrt(float64(d.n) * v)
	}
	// Steeper, the weights e^{log p[k] + θk} relative to the largest,
	// each by an exp, but only where that is above e^-40: the rest add
	// less than 1e-17 of the moments, and a wide distribution tilted far
	// has few values left (chanceSum).
	top, at := math.Inf(-1), 0
	for k, l := range d.lp {
		if x := l + theta*float64(k); x > top {
			top, at = x, k
		}
	}
	var z, m, m2 float64
	for k, l := range d.lp {
		x := l + theta*float64(k) - top
		if x < -40 {
			continue
		}
		w := math.Exp(x)
		y := float64(k - at)
		z += w
		m += w * y
		m2 += w * y * y
	}
	m /= z
	v := max(m2/z-m*m, 0)
	return float64(d.n) * (float64(at) + m), math.Sqrt(float64(d.n) * v)
}

func (d *dieSum) holes() int { return dieHoles }

func (d *dieSum) logNorm(theta float64) float64 {
	return float64(d.n) * d.tilt(theta)
}

// spend counts steps against the budget, false when it is spent.
func (d *dieSum) spend(steps float64) bool {
	d.work -= steps
	return d.work >= 0
}

func (d *dieSum) spectrum(buf []complex128, theta float64, centre int) bool {
	size := len(buf)
	clear(buf)
	d.tilt(theta)
	m, _ := d.dieMoments()
	cd := int(math.Round(m)) // the die's centre
	// D is the farthest value from the centre with a chance above 0.
	lo, hi := 0, len(d.q)-1
	for lo < hi && d.q[lo] == 0 {
		lo++
	}
	for hi > lo && d.q[hi] == 0 {
		hi--
	}
	D := float64(max(cd-lo, hi-cd))
	t := math.Exp(-800 / float64(d.n)) // |ψ| below t is 0 to the power n
	top := size / 2
	if d.limit > 0 {
		top = min(top, d.limit)
	}
	// With few terms to set, each is a sum over the die's values, as
	// accurate as the FFT's, without the screen's FFT.
	look := func(j int) (complex128, float64, bool) {
		est := d.estimate(j, size, cd, lo, hi)
		return est, cmplxAbs(est) + 1e-9, true
	}
	if few := float64(top+1) * float64(hi-lo+1); few <= float64(size)*float64(bits.Len(uint(size))) {
		if !d.spend(few) {
			return false
		}
	} else if look = d.screen(size, cd, lo, hi, D, t); look == nil {
		return false
	}
	// Where |ψ| is below a, the FFT's ψ is good enough: its error of
	// about 1e-16, times n·a^(n-1), is a tenth of it.
	a := math.Pow(0.1/float64(d.n), 1/float64(d.n-1))
	d.sines(size)
	stride := (len(d.sin) - 1) * 2 / size // sin(πa/size) is d.sin[a·stride]
	sinPi := func(a int) float64 {        // sin(πa/size) for 0 <= a < 2·size
		s := 1.0
		if a >= size {
			a, s = a-size, -1
		}
		if a > size/2 {
			a = size - a
		}
		return s * d.sin[a*stride]
	}
	n := float64(d.n)
	// The sum's shift, n·cd - centre, in the phase, reduced exactly.
	shift := int64(d.n)*int64(cd) - int64(centre)
	for j := 0; j <= top; j++ {
		est, bound, fine := look(j)
		if bound < t {
			continue
		}
		re, ph, ok := n*math.Log(cmplxAbs(est)), n*math.Atan2(imag(est), real(est)), true
		if !fine || bound >= a {
			if re, ph, ok = d.direct(j, size, cd, lo, hi, sinPi); !ok {
				return false
			}
		}
		if re < -800 {
			continue
		}
		off := (int64(j)*shift%int64(size) + int64(size)) % int64(size)
		ph -= 2 * math.Pi * float64(off) / float64(size)
		sn, cs := math.Sincos(ph)
		mod := math.Exp(re)
		buf[j] = complex(mod*cs, mod*sn)
		if j > 0 && j < size-j {
			buf[size-j] = complex(mod*cs, -mod*sn)
		}
	}
	return true
}

// direct returns n·log ψ(2πj/size) for the tilted die centred on cd, its
// values lo to hi, as a sum over them; ok is false when that breaks the
// budget.
func (d *dieSum) direct(j, size, cd, lo, hi int, sinPi func(int) float64) (re, im float64, ok bool) {
	if !d.spend(float64(hi - lo + 1)) {
		return 0, 0, false
	}
	// a1 = j·k mod size and a2 = 2j·k mod 2·size, for k from lo-cd, step
	// by step.
	k0 := int64(lo - cd)
	a1 := int((int64(j)*k0%int64(size) + int64(size)) % int64(size))
	var wr, wi float64
	for _, x := range d.q[lo : hi+1] {
		if x != 0 {
			s := sinPi(a1)
			wr -= 2 * x * s * s
			wi -= x * sinPi(2*a1)
		}
		if a1 += j; a1 >= size {
			a1 -= size
		}
	}
	n := float64(d.n)
	return n * 0.5 * math.Log1p(2*wr+wr*wr+wi*wi), n * math.Atan2(wi, 1+wr), true
}

// estimate returns ψ(2πj/size) for the tilted die centred on cd, its
// values lo to hi, as a sum over them: e^{-iω(k-cd)} by rotations from
// one value to the next, set afresh from the exactly reduced angle every
// 32 values, so that their rounding stays near the FFT's 1e-16.
func (d *dieSum) estimate(j, size, cd, lo, hi int) complex128 {
	cis := func(k int) complex128 { // e^{-iω(k-cd)}, the angle reduced in integers
		a := (int64(j)*int64(k-cd)%int64(size) + int64(size)) % int64(size)
		s, c := math.Sincos(2 * math.Pi * float64(a) / float64(size))
		return complex(c, -s)
	}
	step := cis(cd + 1)
	var sum complex128
	z := cis(lo)
	for k := lo; k <= hi; k++ {
		if (k-lo)%32 == 0 {
			z = cis(k)
		}
		if x := d.q[k]; x != 0 {
			sum += complex(x, 0) * z
		}
		z *= step
	}
	return sum
}

// sines makes d.sin hold sin(πa/size) for a from 0 to size/2, or finer.
func (d *dieSum) sines(size int) {
	if len(d.sin) > 0 && (len(d.sin)-1)*2 >= size {
		return
	}
	d.sin = make([]float64, size/2+1)
	for a := range d.sin {
		d.sin[a] = math.Sin(math.Pi * float64(a) / float64(size))
	}
	d.sin[size/2] = 1
}

// screen returns, for each j of an FFT of size, ψ(2πj/size) as an FFT
// of the die centred on cd finds it, a bound on |ψ| there, and whether
// the FFT was of size. Where a coarser grid of L points is enough, it
// takes one: |ψ| at ω_j is within D·π/L of its value at the nearest point
// of the grid. It returns nil when that breaks the budget.
func (d *dieSum) screen(size, cd, lo, hi int, D, t float64) func(j int) (est complex128, bound float64, fine bool) {
	L := size
	if need := 2 * math.Pi * D / (t / 2); need < float64(size) {
		L = max(16, 1<<bits.Len(uint(need)))
	}
	L = min(L, size)
	if !d.spend(float64(L)*float64(bits.Len(uint(L))) + float64(hi-lo+1)) {
		return nil
	}
	if len(d.grid) < L {
		d.grid = make([]complex128, L)
		d.tw = newTwiddles(L)
	}
	g := d.grid[:L]
	clear(g)
	for k := lo; k <= hi; k++ {
		i := ((k-cd)%L + L) % L
		g[i] += complex(d.q[k], 0)
	}
	realDFT(g, d.tw)
	margin := 1e-9 // the FFT's error, generously
	if L < size {
		margin += D * math.Pi / float64(L)
	}
	return func(j int) (complex128, float64, bool) {
		i := int((int64(j)*int64(L) + int64(size)/2) / int64(size)) // the nearest grid point
		x := g[i%L]
		return x, cmplxAbs(x) + margin, L == size
	}
}

func cmplxAbs(c complex128) float64 { return math.Hypot(real(c), imag(c)) }

// sum returns the distribution of the sum of n independent values each
// distributed as u: a power by squaring (power) while that takes at most
// fftWork steps, else the tilted FFT of its factors (fftProduct).
func (c *calc) sum(u pmf, n int) (pmf, error) {
	u = u.trim()
	s := len(u.p)
	// The sum of n of u is the sum of n times each of u's factors.
	factors := func() []factor {
		if u.src == nil || len(u.src) > maxFactors {
			return []factor{{lo: u.lo, n: n, p: u.p}}
		}
		fs := make([]factor, len(u.src))
		for i, f := range u.src {
			f.n *= n
			fs[i] = f
		}
		return fs
	}
	if n <= 1 || s == 1 || squaringWork(s, n) <= fftWork {
		p, err := c.power(u, n)
		if p.src = nil; len(p.p) >= factorsFrom && n >= 1 {
			p.src = factors()
		}
		return p, err
	}
	src := factors()
	if n > MaxOddsSupport/(s-1) {
		return pmf{}, tooWide
	}
	lo, ok := mulInt(u.lo, n)
	if _, ok2 := addInt(lo, n*(s-1)); !ok || !ok2 {
		return pmf{}, errOverflow
	}
	width := 1
	for _, f := range src {
		width += f.width() - 1
	}
	if width > MaxOddsSupport {
		// u's factors span zeros (chances that underflow) that u,
		// trimmed, does not.
		src = []factor{{lo: u.lo, n: n, p: u.p}}
	}
	return c.product(src)
}

// squaringWork returns the steps power takes for n values of s each.
func squaringWork(s, n int) float64 {
	a, sum, work := float64(s), 1.0, 0.0
	for first := true; n > 0; first = false {
		if !first {
			work += a * a
			a = 2*a - 1
		}
		if n&1 == 1 {
			work += sum * a
			sum += a - 1
		}
		n >>= 1
	}
	return work
}
