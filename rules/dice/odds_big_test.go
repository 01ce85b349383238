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
