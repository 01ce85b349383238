package dice

import (
	"math"
	"math/bits"
)

// The sum of many plain dice, when the sliding window of uniformSum would
// take too long: an inverse FFT of the sum's characteristic function,
// which for a plain die is a geometric series in closed form, raised to
// the number of dice (for dice of several sizes, the product of each
// size's). Its logarithm is worked out accurate in relative terms near
// ω = 0 (logCharDie), since raising it to the power n multiplies its error
// by n.
//
// A float64 FFT is accurate to about 1e-16 of its largest output, far too
// coarse for the tails. So the dice are tilted: a die's chance of face f
// is weighed by e^{θf} and normalised, which tilts the sum the same way
// (its chance of k weighed by e^{θk}, normalised by the die's moment
// generating function M(θ) to the power n). The FFT of the tilted sum is
// accurate, in relative terms, within a few standard deviations of the
// tilted mean; multiplying back by M(θ)^n·e^{-θk}, in logarithms, gives
// the untilted probabilities there with the same relative accuracy. A
// series of θ from 0 up moves that window from the middle to the highest
// value; the sum of plain dice is symmetric, so the lower half is the
// mirror of the upper.
//
// Each value is taken from the window where its tilted chance is highest
// against that window's peak, and only where it is at least fftKeep of
// it; the windows go on until the highest value, or until the
// probabilities underflow a float64. Measured against exact counts
// (TestFFTSumAgainstExactCounts, TestDistributionManyDice) and the
// sliding window (TestFFTSumAgainstWindow), the relative error is about
// 1e-11 at worst, for any probability a float64 holds. The time grows
// with the range, and with fewer dice, which take more windows of more
// points: 1000d1000 takes six windows of 2^17 and 2^18 points (each one
// complex FFT of half that, the result being real), about 50 ms;
// 101d9900, the slowest over a million values, about 125 ms
// (BenchmarkOdds).

const (
	fftMinDice = 100        // a sum of more plain dice than this ...
	fftWork    = 10_000_000 // ... whose window would take more steps than this takes the FFT
	fftKeep    = 1e-4       // a window's values are kept down to this fraction of its peak
	fftSpread  = 16         // an FFT spans this many tilted standard deviations (or the whole range)
	fftTilts   = 400        // at most this many windows; more would mean something is wrong
)

// dieGroup is n dice showing 0 to s-1 with equal chances.
type dieGroup struct{ n, s int }

// groupsWidth returns how many values the sum of gs spans.
func groupsWidth(gs []dieGroup) int {
	w := 1
	for _, g := range gs {
		w += g.n * (g.s - 1)
	}
	return w
}

// fftUniformSum returns the probabilities of the sums 0, 1, ... of the
// dice of gs, each group of two sides or more.
func fftUniformSum(gs []dieGroup) ([]float64, bool) {
	width := groupsWidth(gs)
	out := make([]float64, width)
	mid := (width - 1) / 2
	if _, ok := fftCover(uniformSum(gs), width, out, mid-1, false); !ok {
		return nil, false
	}
	for k := 0; k < mid; k++ {
		out[k] = out[width-1-k]
	}
	return out, true
}

// tiltedSum is a sum of independent dice as the tilted FFT sees it, for
// θ >= 0: the sum's values are 0 to its width less 1.
type tiltedSum interface {
	// moments returns the mean and standard deviation of the sum tilted
	// by θ.
	moments(theta float64) (mean, sd float64)
	// logNorm returns the log of the sum's moment generating function at
	// θ: a tilted chance times e^{logNorm - θk} is the untilted one.
	logNorm(theta float64) float64
	// holes returns how many values in a row may fall below fftKeep
	// between two above it in one window: 0 for a smooth sum, more for
	// one whose chances alternate (dice showing 1, 3, 5 ...).
	holes() int
	// spectrum sets buf to the DFT of the tilted chances of the sum,
	// shifted so that centre is at index 0, or returns false when that
	// would break its budget.
	spectrum(buf []complex128, theta float64, centre int) bool
}

// fftCover sets out[k] to the chance of k for every k above hi, and for
// those below that its first window holds, window by window: from θ = 0
// up, or, with next, from the window after one that covered up to hi. It
// returns the lowest value its first window holds, and false when the
// windows leave a gap or run out, or the spectrum its budget.
func fftCover(s tiltedSum, width int, out []float64, hi int, next bool) (lowestFirst int, ok bool) {
	quality := make([]float64, width) // the tilted chance over its peak of the value kept, or 0
	theta := 0.0
	if next {
		theta = nextTilt(s, hi, 0)
	}
	lowestFirst = -1
	// The first window, at θ = 0, is the widest of a sum of plain dice;
	// a buffer too short for a later one grows.
	_, sd0 := s.moments(0)
	first := fftSize(width, sd0)
	spec := make([]complex128, first)
	half := make([]complex128, first/2)
	tw := newTwiddles(first / 2)
	// at returns the tilted chance of centre+t, t mod size.
	var size int
	at := func(t int) float64 {
		t = (t%size + size) % size
		if t%2 == 0 {
			return real(half[t/2])
		}
		return imag(half[t/2])
	}
	for range fftTilts {
		mean, sd := s.moments(theta)
		size = fftSize(width, sd)
		if size > len(spec) {
			spec, half = make([]complex128, size), make([]complex128, size/2)
			tw = newTwiddles(size / 2)
		}
		centre := int(math.Round(mean))
		if !s.spectrum(spec[:size], theta, centre) {
			return lowestFirst, false
		}
		realInverseFFT(half[:size/2], spec[:size], tw)
		peak := 0.0
		for _, c := range half[:size/2] {
			peak = max(peak, real(c), imag(c))
		}
		logNorm := s.logNorm(theta)
		// From the centre out, while the tilted chance stays above the
		// threshold (or comes back above it after at most s.holes()
		// values below, which are kept too where they are the best seen
		// and above 0), at most half the FFT either way.
		keep := func(k int, c float64) {
			if q := c / peak; c > 0 && q > quality[k] {
				quality[k] = q
				out[k] = math.Exp(math.Log(c) + logNorm - theta*float64(k))
			}
		}
		lowest, highest := centre, centre-1
		for dir := -1; dir <= 1; dir += 2 {
			run := 0 // values below the threshold since the last above
			for t := 0; t < size/2; t++ {
				k := centre + dir*t
				if dir < 0 {
					k--
				}
				if k < 0 || k >= width {
					break
				}
				c := at(k - centre)
				if c/peak < fftKeep {
					if run++; run > s.holes() {
						break
					}
					continue
				}
				for ; run > 0; run-- {
					keep(k-dir*run, at(k-dir*run-centre))
				}
				lowest, highest = min(lowest, k), max(highest, k)
				keep(k, c)
			}
		}
		if lowest > hi+1 {
			return lowestFirst, false // a gap: the step was too long
		}
		if lowestFirst < 0 {
			lowestFirst = lowest
		}
		hi = max(hi, highest)
		if hi >= width-1 || out[hi] == 0 {
			return lowestFirst, true
		}
		theta = nextTilt(s, hi, theta)
	}
	return lowestFirst, false
}

// nextTilt returns the θ of the window after one of θ that covered the
// values up to hi: its mean 3.5 of its standard deviations past hi (a
// window keeps about 4.3 either side), and at least 1. A deviation there
// is smaller than at hi: the step is taken with the deviation at a first
// guess, which is smaller still.
func nextTilt(s tiltedSum, hi int, theta float64) float64 {
	atHi := tiltFor(s, float64(hi), theta)
	_, sd := s.moments(atHi)
	guess := tiltFor(s, float64(hi)+max(3.5*sd, 1), atHi)
	_, sd = s.moments(guess)
	return tiltFor(s, float64(hi)+max(3.5*sd, 1), atHi)
}

// uniformSum is a sum of plain dice: its transform in closed form.
type uniformSum []dieGroup

func (gs uniformSum) moments(theta float64) (mean, sd float64) { return tiltedMoments(gs, theta) }

func (gs uniformSum) logNorm(theta float64) float64 {
	l := 0.0
	for _, g := range gs {
		l += float64(g.n) * logMGF(g.s, theta)
	}
	return l
}

func (uniformSum) holes() int { return 0 }

func (gs uniformSum) spectrum(buf []complex128, theta float64, centre int) bool {
	tiltedSpectrum(buf, gs, theta, centre)
	return true
}

// fftSize returns the size of the FFT for a tilted sum of standard
// deviation sd: a power of 2, fftSpread deviations or the whole width.
func fftSize(width int, sd float64) int {
	need := min(float64(width), fftSpread*sd+64)
	return max(4, 1<<bits.Len(uint(need)))
}

// logMGF returns log M(θ) for a die showing 0 to s-1, M(θ) = E[e^{θf}],
// for θ >= 0.
func logMGF(s int, theta float64) float64 {
	if theta == 0 {
		return 0
	}
	sf := float64(s)
	return theta*(sf-1) + math.Log(-math.Expm1(-sf*theta)) - math.Log(-math.Expm1(-theta)) - math.Log(sf)
}

// tiltedMoments returns the mean and standard deviation of the sum of
// the dice of gs, tilted by θ >= 0.
func tiltedMoments(gs []dieGroup, theta float64) (mean, sd float64) {
	var variance float64
	for _, g := range gs {
		sf := float64(g.s)
		m, v := (sf-1)/2, (sf*sf-1)/12
		if theta*sf > 1e-4 {
			// The mirror die, s-1-f, has chances in proportion to
			// r^g, r = e^{-θ}: a truncated geometric distribution.
			a := 1 / math.Expm1(theta)     // r/(1-r)
			b := sf / math.Expm1(sf*theta) // s·r^s/(1-r^s)
			m = sf - 1 - (a - b)
			v = a*a + a - (b*b + b*sf) // r/(1-r)² - s²r^s/(1-r^s)²
		}
		mean += float64(g.n) * m
		variance += float64(g.n) * max(v, 0)
	}
	return mean, math.Sqrt(variance)
}

// tiltFor returns the θ >= 0 that puts the mean of the tilted sum at
// target (or as near the top as it goes), from a θ below it. The mean's
// derivative in θ is the tilted variance, so Newton's method finds it in
// a few steps, each kept within what is known to bracket it (doubling θ
// until the mean passes target, then halving): a call of moments may
// take a pass over a whole distribution (chanceSum).
func tiltFor(s tiltedSum, target, from float64) float64 {
	lo, hi := from, math.Inf(1) // the mean at lo is below target, at hi not
	theta := from
	for range 200 {
		m, sd := s.moments(theta)
		if m >= target {
			hi = theta
		} else {
			lo = theta
		}
		if math.Abs(m-target) <= 1e-9*max(1, sd) || !math.IsInf(hi, 1) && hi-lo <= 1e-15*hi {
			return theta
		}
		if m < target && theta > 1e3 {
			return theta // the top: the mean goes no further
		}
		next := theta + (target-m)/(sd*sd)
		if !(next > lo && next < hi) { // out of the bracket, or NaN
			if math.IsInf(hi, 1) {
				next = max(2*theta, 1e-9)
			} else {
				next = (lo + hi) / 2
			}
		}
		theta = next
	}
	return theta
}

// tiltedSpectrum sets buf to the DFT of the chances of the sum of the
// dice of gs, tilted by θ >= 0, shifted so that centre is at index 0: at
// ω = 2πj/N, the product of each die's characteristic function.
func tiltedSpectrum(buf []complex128, gs []dieGroup, theta float64, centre int) {
	size := len(buf)
	clear(buf)
	// top is the largest j whose term does not underflow: the modulus of
	// a die's characteristic function is at most env(ω), decreasing.
	env := func(j int) float64 {
		x := math.Pi * float64(j) / float64(size)
		e := 0.0
		for _, g := range gs {
			if theta == 0 {
				e -= float64(g.n) * math.Log(float64(g.s)*math.Sin(x))
				continue
			}
			r := math.Exp(-theta)
			rs := math.Exp(-theta * float64(g.s))
			d := math.Hypot(1-r*math.Cos(2*x), r*math.Sin(2*x))
			e += float64(g.n) * math.Log((1+rs)/d*(1-r)/(1-rs))
		}
		return e
	}
	top := size / 2
	if j := 1; env(size/2) < -800 {
		lo, hi := 1, size/2 // env(lo) may be above, env(hi) below
		for hi-lo > 1 {
			j = (lo + hi) / 2
			if env(j) < -800 {
				hi = j
			} else {
				lo = j
			}
		}
		top = hi
	}
	// faces is the sum of the faces' offsets, Σ n(s-1).
	faces := 0
	for _, g := range gs {
		faces += g.n * (g.s - 1)
	}
	gS := make([]float64, len(gs))
	g1 := 1 / math.Expm1(theta)
	for k, g := range gs {
		gS[k] = 1 / math.Expm1(float64(g.s)*theta)
	}
	for j := 0; j <= top; j++ {
		var re, im float64
		for k, g := range gs {
			r, i := logCharDie(g.s, theta, j, size, gS[k], g1)
			re += float64(g.n) * r
			if theta == 0 {
				// i is 0 or π: what counts is how many such factors.
				if g.n%2 == 1 {
					im += i
				}
			} else {
				im += float64(g.n) * i
			}
		}
		mod := math.Exp(re)
		if mod == 0 {
			continue
		}
		// The shift by centre and the face offset of the mirror dice,
		// linear in ω, reduced exactly in integers.
		var ph float64
		if theta == 0 {
			// Each die's own e^{iω(s-1)/2} joins the shift.
			off := (int64(j) * int64(2*centre-faces)) % int64(2*size)
			ph = im + math.Pi*float64(off)/float64(size)
		} else {
			off := (int64(j) * int64(centre-faces)) % int64(size)
			ph = im + 2*math.Pi*float64(off)/float64(size)
		}
		sn, cs := math.Sincos(ph)
		buf[j] = complex(mod*cs, mod*sn)
		if j > 0 && j < size-j {
			buf[size-j] = complex(mod*cs, -mod*sn)
		}
	}
}

// logCharDie returns log ψ(ω), ω = 2πj/size, where ψ is the
// characteristic function of the mirror die g = s-1-f tilted by θ: its
// chances in proportion to e^{-θg}. The real part is accurate in relative
// terms near ω = 0, which is what raising it to the power n needs.
//
// gs and g1 are 1/(e^{sθ}-1) and 1/(e^θ-1), the same for every j.
func logCharDie(s int, theta float64, j, size int, gs, g1 float64) (re, im float64) {
	if j == 0 {
		return 0, 0
	}
	// angle(m) is mω/2 reduced exactly: π·(j·m mod 2·size)/size.
	angle := func(m int) float64 {
		return math.Pi * float64((int64(j)*int64(m))%int64(2*size)) / float64(size)
	}
	if theta == 0 {
		// ψ = e^{iω(s-1)/2}·sin(sx)/(s·sin x), x = ω/2.
		x := math.Pi * float64(j) / float64(size)
		y := math.Pi * float64(j) * float64(s) / float64(size)
		sy := math.Sin(angle(s))
		re = logSinc(y, sy) - logSinc(x, math.Sin(x))
		if sy < 0 {
			im = math.Pi // the linear part, ω(s-1)/2, is left to the caller
		}
		return re, im
	}
	// ψ = (1-(rζ)^s)/(1-r^s) / ((1-rζ)/(1-r)), ζ = e^{iω}, each factor
	// 1 + w with w = (1-ζ^m)/(e^{mθ}-1).
	l := func(m int, g float64) (float64, float64) {
		sa, ca := math.Sincos(angle(m))
		wr, wi := 2*sa*sa*g, -2*sa*ca*g // 1-ζ^m = 2sin²(mω/2) - i·sin(mω)
		return 0.5 * math.Log1p(2*wr+wr*wr+wi*wi), math.Atan2(wi, 1+wr)
	}
	r1, i1 := l(s, gs)
	r2, i2 := l(1, g1)
	return r1 - r2, i1 - i2
}

// logSinc returns log|sin y / y| given sy = sin y, accurate in relative
// terms for small y.
func logSinc(y, sy float64) float64 {
	if y < 1 {
		// sin y/y - 1 by its series.
		y2 := y * y
		t, sum := 1.0, 0.0
		for k := 1; k < 12; k++ {
			t *= -y2 / float64((2*k)*(2*k+1))
			sum += t
		}
		return math.Log1p(sum)
	}
	return math.Log(math.Abs(sy) / y)
}

// twiddles holds, for each butterfly of half-width h (a power of 2), the
// factors e^{2πik/(2h)} for k < h at [h, 2h): one table serves every FFT
// of up to its length.
type twiddles []complex128

func newTwiddles(n int) twiddles {
	t := make(twiddles, max(n, 2))
	h := len(t) / 2
	for k := range h {
		s, c := math.Sincos(math.Pi * float64(k) / float64(h))
		t[h+k] = complex(c, s)
	}
	for h /= 2; h >= 1; h /= 2 {
		for k := range h {
			t[h+k] = t[2*h+2*k]
		}
	}
	return t
}

// realInverseFFT sets out, of length N/2, to the inverse DFT of x, of
// length N, whose result is real: out[m] is x_{2m} + i·x_{2m+1}. It takes
// one complex FFT of length N/2.
func realInverseFFT(out, x []complex128, tw twiddles) {
	n := len(x)
	h := n / 2
	for j := range h {
		a, b := x[j], x[j+h]
		e := (a + b) / 2
		o := (a - b) / 2
		if o != 0 { // rarely: the spectrum is mostly 0
			s, c := math.Sincos(2 * math.Pi * float64(j) / float64(n))
			o *= complex(c, s)
		}
		out[j] = e + complex(-imag(o), real(o)) // e + i·o
	}
	inverseFFT(out, tw)
}

// realDFT replaces buf, of a power-of-2 length N and real values, by
// their DFT, Σ_k buf[k]·e^{-2πijk/N}: N times the conjugate of the
// inverse DFT. tw must be at least as long as buf.
func realDFT(buf []complex128, tw twiddles) {
	inverseFFT(buf, tw)
	n := float64(len(buf))
	for i, x := range buf {
		buf[i] = complex(n*real(x), -n*imag(x))
	}
}

// inverseFFT replaces buf, of a power-of-2 length, by its inverse DFT,
// 1/N·Σ_j buf[j]·e^{2πijk/N}. tw must be at least as long as buf.
func inverseFFT(buf []complex128, tw twiddles) {
	n := len(buf)
	if n < 2 {
		return
	}
	shift := 64 - bits.Len(uint(n-1))
	for i := range buf {
		if j := int(bits.Reverse64(uint64(i)) >> shift); i < j {
			buf[i], buf[j] = buf[j], buf[i]
		}
	}
	for h := 1; h < n; h <<= 1 {
		w := tw[h : 2*h]
		for start := 0; start < n; start += 2 * h {
			lo, hi := buf[start:start+h], buf[start+h:start+2*h]
			for k, wk := range w {
				a, b := lo[k], hi[k]*wk
				lo[k], hi[k] = a+b, a-b
			}
		}
	}
	inv := complex(1/float64(n), 0)
	for i := range buf {
		buf[i] *= inv
	}
}
