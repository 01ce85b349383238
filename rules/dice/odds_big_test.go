package dice

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// exactPlainSum returns the chance that n dice of s sides show a total of
// v, exactly, by inclusion and exclusion: the ways for the n faces less
// one (0 to s-1) to add up to k = v-n, counting every way with no upper
// limit, C(k+n-1, n-1), less those with a die at s or more, and so on.
func exactPlainSum(n, s, v int) float64 {
	k := v - n
	count := new(big.Int)
	term, choose := new(big.Int), new(big.Int)
	for i := 0; i <= n && k-i*s >= 0; i++ {
		term.Binomial(int64(k-i*s+n-1), int64(n-1))
		term.Mul(term, choose.Binomial(int64(n), int64(i)))
		if i%2 == 0 {
			count.Add(count, term)
		} else {
			count.Sub(count, term)
		}
	}
	total := new(big.Int).Exp(big.NewInt(int64(s)), big.NewInt(int64(n)), nil)
	p, _ := new(big.Rat).SetFrac(count, total).Float64()
	return p
}

// TestDistributionManyDice holds /odds's promise for sums of many dice
// over up to MaxOddsSupport values (the tilted FFT of fftUniformSum):
// exact to float64 precision, every probability above 1e-12 within a
// relative 1e-9. Each case's chances add up to 1, its mean and variance
// are those of n dice (n·(s+1)/2 and n·(s²-1)/12), it is symmetric, and
// the probabilities at a few values, from the most likely down to below
// 1e-15, match the exact ones counted by inclusion and exclusion.
func TestDistributionManyDice(t *testing.T) {
	for _, c := range []struct {
		n, s   int
		points []int // values to check exactly
	}{
		{1000, 1000, []int{500500, 480000, 440000, 560000, 436000}},
		{150, 1000, []int{75075, 60000, 30000, 20000}},
		{101, 9900, nil},                     // few dice over the whole range: the most windows
		{1000, 20, []int{10500, 8000, 6000}}, // small dice
		{500, 2000, nil},
	} {
		expr := fmt.Sprintf("%dd%d", c.n, c.s)
		d, err := mustParse(t, expr).Distribution(nil)
		if err != nil || !d.Exact {
			t.Fatalf("Distribution(%q): %v, exact %v", expr, err, d != nil && d.Exact)
		}
		n, s := float64(c.n), float64(c.s)
		sum, mean := 0.0, 0.0
		for v, p := range d.All() {
			sum += p
			mean += float64(v) * p
			if q := d.P(c.n*(c.s+1) - v); math.Abs(q-p) > 1e-12*p {
				t.Errorf("%s: P(%d) = %g but P(%d) = %g", expr, v, p, c.n*(c.s+1)-v, q)
				break
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: the chances add up to %.15g", expr, sum)
		}
		if want := n * (s + 1) / 2; math.Abs(mean-want) > 1e-12*want {
			t.Errorf("%s: mean %.15g, want %.15g", expr, mean, want)
		}
		if sd, want := d.StdDev(), math.Sqrt(n*(s*s-1)/12); math.Abs(sd-want) > 1e-9*want {
			t.Errorf("%s: standard deviation %.15g, want %.15g", expr, sd, want)
		}
		for _, v := range c.points {
			got, want := d.P(v), exactPlainSum(c.n, c.s, v)
			if want < 1e-300 || math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s: P(%d) = %.17g, want %.17g", expr, v, got, want)
			}
		}
	}
}

// TestDistributionPlainSums holds the same promise for sums and
// differences of plain dice of several sizes and numbers, in one part or
// several and repeated, which the
// operators one by one would take too long for: the mean and variance of
// the dice, symmetry about the mean, and for two dice, whose chances are a
// triangle, every value exactly.
func TestDistributionPlainSums(t *testing.T) {
	for _, c := range []struct {
		expr           string
		mean, variance float64 // of the dice: n(s+1)/2 and n(s²-1)/12 each
	}{
		{"500d1000+500d999", 500*1001.0/2 + 500*1000.0/2, 500*(1e6-1)/12 + 500*(999.0*999-1)/12},
		{"500d1000 - 500d6 + 7", 500*1001.0/2 - 500*3.5 + 7, 500*(1e6-1)/12 + 500*35.0/12},
		{"50d10000 [base] + 50d9999 [bonus]", 50*10001.0/2 + 50*10000.0/2, 50*(1e8-1)/12 + 50*(9999.0*9999-1)/12},
		{"300d100 + 200d20 + 100d6", 300*50.5 + 200*10.5 + 100*3.5, 300*(1e4-1)/12 + 200*399.0/12 + 100*35.0/12},
		{"1d500000+1d499999", 250000.5 + 250000, (25e10-1)/12 + (499999.0*499999-1)/12},
		// Parts and repeats: the total of every part.
		{"2#500d1000 [twice] 3", 1000*500.5 + 3, 1000 * (1e6 - 1) / 12},
		{"500d1000 [a] 500d999", 500*1001.0/2 + 500*1000.0/2, 500*(1e6-1)/12 + 500*(999.0*999-1)/12},
	} {
		d, err := mustParse(t, c.expr).Distribution(nil)
		if err != nil || !d.Exact {
			t.Fatalf("Distribution(%q): %v, exact %v", c.expr, err, d != nil && d.Exact)
		}
		sum := 0.0
		for v, p := range d.All() {
			sum += p
			if w := 2*c.mean - float64(v); p > 1e-300 && math.Abs(d.P(int(w))-p) > 1e-9*p {
				t.Errorf("%s: P(%d) = %g but P(%g) = %g", c.expr, v, p, w, d.P(int(w)))
				break
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: the chances add up to %.15g", c.expr, sum)
		}
		if m := d.Mean(); math.Abs(m-c.mean) > 1e-11*math.Abs(c.mean) {
			t.Errorf("%s: mean %.15g, want %.15g", c.expr, m, c.mean)
		}
		if sd, want := d.StdDev(), math.Sqrt(c.variance); math.Abs(sd-want) > 1e-9*want {
			t.Errorf("%s: standard deviation %.15g, want %.15g", c.expr, sd, want)
		}
	}
	// 1d500000+1d499999: the number of ways to make v is the number of
	// faces a of the first die with 1 <= v-a <= 499999.
	d, err := mustParse(t, "1d500000+1d499999").Distribution(nil)
	if err != nil {
		t.Fatal(err)
	}
	for v := 2; v <= 999999; v++ {
		ways := min(500000, v-1) - max(1, v-499999) + 1
		want := float64(ways) / (500000.0 * 499999)
		if got := d.P(v); math.Abs(got-want) > 1e-9*want {
			t.Fatalf("1d500000+1d499999: P(%d) = %.17g, want %.17g", v, got, want)
		}
	}
}
