package dice

import (
	"math"
	"math/big"
	"testing"
)

// weightFactor is a factor of fftProduct and its exact counts: n values
// each showing k (from 0) with weight w[k].
type weightFactor struct {
	w     []int64
	n     int
	plain bool
}

// factor returns f as fftProduct takes it.
func (f weightFactor) factor() factor {
	sum := int64(0)
	for _, x := range f.w {
		sum += x
	}
	p := make([]float64, len(f.w))
	for k, x := range f.w {
		p[k] = float64(x) / float64(sum)
	}
	return factor{n: f.n, p: p, plain: f.plain}
}

// convolveCounts returns the counts of the sum of two independent values
// of counts a and b.
func convolveCounts(a, b []*big.Int) []*big.Int {
	out := make([]*big.Int, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Int)
	}
	t := new(big.Int)
	for i, x := range a {
		if x.Sign() == 0 {
			continue
		}
		for j, y := range b {
			out[i+j].Add(out[i+j], t.Mul(x, y))
		}
	}
	return out
}

// TestFFTProductAgainstExactCounts compares the tilted FFT of a product
// of factors' transforms (fftProduct: a sum of different terms, each
// too wide to convolve with the other) with the sum's exact counts, by
// enumeration: every probability above 1e-12 within a relative 1e-9, as
// issue 15 asks of /odds, and none above 1e-300 off by more than a
// relative 1e-6. The factors are of each kind: plain dice (closed form),
// dice that reroll, clamp, explode or count (a die's power), a value of
// known chances (n = 1, an FFT of its chances), mirrored (a difference),
// and one with holes (3 times a sum).
func TestFFTProductAgainstExactCounts(t *testing.T) {
	roLess3 := []int64{2, 2, 12, 12, 12, 12, 12, 12, 12, 12}   // d10ro<3
	mi5ma15 := []int64{5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6}        // d20mi5ma15, from 5
	countF1 := []int64{1, 6, 3}                                // d10>=8f1, from -1
	d8 := []int64{1, 1, 1, 1, 1, 1, 1, 1}                      // a plain d8
	d6r6 := []int64{25, 25, 25, 25, 25, 36 * 31}               // d6r<6, twice
	reversed := []int64{6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5}       // -d20mi5ma15
	fortyRo, fortyTotal := exactPowerCounts(roLess3, 40)       // 40d10ro<3, as one value
	eight, _ := exactPowerCounts([]int64{1, 1, 1, 1, 1, 1}, 8) // 8d6, whose counts fit an int64
	thrice := make([]int64, 3*(len(eight)-1)+1)                // 3 times 8d6, as one value
	for k, c := range eight {
		thrice[3*k] = c.Int64()
	}
	forty := make([]int64, len(fortyRo)) // scaled down to fit an int64, exactly enough
	for k, c := range fortyRo {
		f, _ := new(big.Rat).SetFrac(c, fortyTotal).Float64()
		forty[k] = int64(math.Round(f * 1e15))
	}
	for _, c := range []struct {
		name string
		fs   []weightFactor
		tail float64 // the relative error allowed below 1e-12, if not 1e-6
	}{
		{"150d10ro<3 + 120d20mi5ma15", []weightFactor{{roLess3, 150, false}, {mi5ma15, 120, false}}, 0},
		{"300d10>=8f1 + 110d6!", []weightFactor{{countF1, 300, false}, {chainWeights(6, 2), 110, false}}, 0},
		{"100d8 + 80d20mi5ma15", []weightFactor{{d8, 100, true}, {mi5ma15, 80, false}}, 0},
		{"40d10ro<3 (known chances) + 100d6r<6 + 60d8", []weightFactor{{forty, 1, false}, {d6r6, 100, false}, {d8, 60, true}}, 0},
		{"100d6r<6 - 90d20mi5ma15", []weightFactor{{d6r6, 100, false}, {reversed, 90, false}}, 0},
		{"3*(8d6) (known chances) + 30d8 + 50d10ro<3", []weightFactor{{thrice, 1, false}, {d8, 30, true}, {roLess3, 50, false}}, 0},
	} {
		counts := []*big.Int{big.NewInt(1)}
		total := big.NewInt(1)
		fs := make([]factor, len(c.fs))
		for i, f := range c.fs {
			cnt, tot := exactPowerCounts(f.w, f.n)
			counts = convolveCounts(counts, cnt)
			total.Mul(total, tot)
			fs[i] = f.factor()
		}
		lo, got, _, ok := fftProduct(fs, MaxOddsWork)
		if !ok {
			t.Errorf("%s: no result", c.name)
			continue
		}
		// Values that cannot occur (weights rounded to 0) are left out
		// at the ends.
		for k, cnt := range counts {
			if (k < lo || k >= lo+len(got)) && cnt.Sign() != 0 {
				t.Fatalf("%s: the result from %d to %d leaves out %d", c.name, lo, lo+len(got)-1, k)
			}
		}
		counts = counts[lo : lo+len(got)]
		tail := 1e-6
		if c.tail > 0 {
			tail = c.tail
		}
		checkCounts(t, c.name, got, counts, total, tail)
	}
}

// TestDistributionSumsOfWideTerms holds /odds's promise for sums and
// differences of different wide terms (issue 15), each exact alone but
// too wide to convolve with the others: exact, the chances adding up to
// 1, and the mean and variance the sums of the terms', each n times its
// die's (a die's chances being exact, TestDistributionKnown).
func TestDistributionSumsOfWideTerms(t *testing.T) {
	type term struct {
		n    int
		die  string
		sign float64
	}
	for _, c := range []struct {
		expr  string
		terms []term
		shift float64
		scale float64 // of the first term, if not 1
	}{
		{"500d100mi3 + 300d20r1", []term{{500, "d100mi3", 1}, {300, "d20r1", 1}}, 0, 0},
		{"500d100mi3 - 300d20r1 + 7", []term{{500, "d100mi3", 1}, {300, "d20r1", -1}}, 7, 0},
		{"2#500d100mi3", []term{{1000, "d100mi3", 1}}, 0, 0},
		{"400d6! + 500d100mi3", []term{{400, "d6!", 1}, {500, "d100mi3", 1}}, 0, 0},
		{"200d20ro<3 + 100d100r1 + 600d10", []term{{200, "d20ro<3", 1}, {100, "d100r1", 1}, {600, "d10", 1}}, 0, 0},
		{"800d1000 + 100d100r1", []term{{800, "d1000", 1}, {100, "d100r1", 1}}, 0, 0},
		{"500d1000r1 + 400d1000mi2", []term{{500, "d1000r1", 1}, {400, "d1000mi2", 1}}, 0, 0},
		{"3*(200d100mi3) + 100d100r1", []term{{200, "d100mi3", 1}, {100, "d100r1", 1}}, 0, 3},
		{"500d100mi3 [a] 300d20r1 [b]", []term{{500, "d100mi3", 1}, {300, "d20r1", 1}}, 0, 0},
	} {
		d, err := mustParse(t, c.expr).Distribution(nil)
		if err != nil || !d.Exact {
			t.Errorf("Distribution(%q): %v, exact %v", c.expr, err, d != nil && d.Exact)
			continue
		}
		mean, variance := c.shift, 0.0
		for i, tm := range c.terms {
			um, uv := termMoments(t, tm.die)
			a := tm.sign
			if i == 0 && c.scale != 0 {
				a *= c.scale
			}
			mean += a * float64(tm.n) * um
			variance += a * a * float64(tm.n) * uv
		}
		sum := 0.0
		for _, p := range d.All() {
			sum += p
		}
		if math.Abs(sum-1) > 1e-10 {
			t.Errorf("%s: the chances add up to %.15g", c.expr, sum)
		}
		if m := d.Mean(); math.Abs(m-mean) > 1e-10*math.Abs(mean)+1e-9 {
			t.Errorf("%s: mean %.15g, want %.15g", c.expr, m, mean)
		}
		if sd, want := d.StdDev(), math.Sqrt(variance); math.Abs(sd-want) > 1e-9*want {
			t.Errorf("%s: standard deviation %.15g, want %.15g", c.expr, sd, want)
		}
	}
}

// TestSumOfWideTermsAgainstConvolution compares 500d100mi3 + 300d20r1
// with the direct convolution of its two terms' exact distributions
// (2.8·10^8 steps, which /odds would not take): every value above 1e-12
// within a relative 1e-9.
func TestSumOfWideTermsAgainstConvolution(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of convolution")
	}
	dist := func(s string) pmf {
		d, err := mustParse(t, s).Distribution(nil)
		if err != nil || !d.Exact {
			t.Fatalf("Distribution(%q): %v", s, err)
		}
		lo := d.vals[0]
		p := make([]float64, d.vals[len(d.vals)-1]-lo+1)
		for i, v := range d.vals {
			p[v-lo] = d.probs[i]
		}
		return pmf{lo: lo, p: p}
	}
	a, b := dist("500d100mi3"), dist("300d20r1")
	c := calc{work: -1e12, direct: true}
	want, err := c.add(a, b)
	if err != nil {
		t.Fatal(err)
	}
	got := dist("500d100mi3 + 300d20r1")
	worst := 0.0
	for k, w := range want.p {
		v := want.lo + k
		if w <= 1e-12 {
			continue
		}
		g := 0.0
		if v >= got.lo && v <= got.hi() {
			g = got.p[v-got.lo]
		}
		rel := math.Abs(g-w) / w
		worst = max(worst, rel)
		if rel > 1e-9 {
			t.Fatalf("P(%d) = %.17g, by convolution %.17g", v, g, w)
		}
	}
	t.Logf("worst relative difference %.2g", worst)
}
