package dice

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"
)

// exactPowerCounts returns the number of ways n dice of integer weights
// w (face k weighing w[k]) make each sum, and the total weight, exactly.
func exactPowerCounts(w []int64, n int) ([]*big.Int, *big.Int) {
	cur := []*big.Int{big.NewInt(1)}
	total := big.NewInt(1)
	sum := int64(0)
	for _, x := range w {
		sum += x
	}
	t := new(big.Int)
	for range n {
		next := make([]*big.Int, len(cur)+len(w)-1)
		for i := range next {
			next[i] = new(big.Int)
		}
		for i, c := range cur {
			for k, x := range w {
				if x != 0 {
					next[i+k].Add(next[i+k], t.Mul(c, big.NewInt(x)))
				}
			}
		}
		cur = next
		total.Mul(total, big.NewInt(sum))
	}
	return cur, total
}

// chainWeights returns the weights of the total of one die of s sides
// that explodes on its highest face at most depth times, the last roll
// standing whatever it shows, over s^(depth+1): enumerated roll by roll.
func chainWeights(s, depth int) []int64 {
	w := make([]int64, s*(depth+1)+1)
	var roll func(total, left int, weight int64)
	roll = func(total, left int, weight int64) {
		for f := 1; f <= s; f++ {
			if f == s && left > 0 {
				roll(total+f, left-1, weight/int64(s))
				continue
			}
			w[total+f] += weight / int64(s)
		}
	}
	all := int64(1)
	for range depth + 1 {
		all *= int64(s)
	}
	roll(0, depth, all)
	lo := slices.IndexFunc(w, func(x int64) bool { return x != 0 })
	return w[lo:]
}

// TestFFTPowerAgainstExactCounts compares the tilted FFT of a die that is
// not plain (fftPower) with exact counts, for each modifier's shape of
// die: every probability above 1e-12 within a relative 1e-9, and none
// above 1e-300 off by more than a relative 1e-6.
func TestFFTPowerAgainstExactCounts(t *testing.T) {
	for _, c := range []struct {
		name string
		w    []int64 // face k's weight
		n    int
		tail float64 // the relative error allowed below 1e-12, if not 1e-6
	}{
		// ro<3 on a d10: a 1 or 2 stands with 1/10·2/10, another face
		// with 1/10·(1 + 2/10).
		{"d10ro<3", []int64{2, 2, 12, 12, 12, 12, 12, 12, 12, 12}, 150, 0},
		// mi5ma15 on a d20: 5 with 5/20, 15 with 6/20.
		{"d20mi5ma15", []int64{5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6}, 120, 0},
		// r<6 on a d6, as if twice: almost always 6, the sum's
		// chances falling by about 1e-4 a step from the top.
		{"d6r<6 (twice)", []int64{25, 25, 25, 25, 25, 36 * 31}, 150, 0},
		// Counting: >=8 on a d10, and >=8f1 (-1, 0, +1).
		{"d10>=8", []int64{7, 3}, 400, 0},
		{"d10>=8f1", []int64{1, 6, 3}, 300, 0},
		// Explosions, enumerated: a d6 exploding twice, a d2 (whose
		// totals are mostly odd) exploding eight times.
		{"d6! (depth 2)", chainWeights(6, 2), 110, 0},
		// (A total of the rare parity, below 1e-40 here, is a hole
		// between likely ones in every window: a relative 1e-4.)
		{"d2! (depth 8)", chainWeights(2, 8), 150, 1e-4},
	} {
		counts, total := exactPowerCounts(c.w, c.n)
		p := make([]float64, len(c.w))
		sum := int64(0)
		for _, x := range c.w {
			sum += x
		}
		for k, x := range c.w {
			p[k] = float64(x) / float64(sum)
		}
		got, _, ok := fftPower(p, c.n, MaxOddsWork)
		name := fmt.Sprintf("%d%s", c.n, c.name)
		if !ok {
			t.Errorf("%s: no result", name)
			continue
		}
		tail := 1e-6
		if c.tail > 0 {
			tail = c.tail
		}
		checkCounts(t, name, got, counts, total, tail)
	}
}

// fftPower returns the chances of the sums 0, 1, ... of n dice each
// showing k = 0, 1, ... with chance p[k], p[0] and the last above 0: the
// tilted FFT of one factor, as calc.sum takes it.
func fftPower(p []float64, n int, budget float64) (out []float64, spent float64, ok bool) {
	_, out, spent, ok = fftProduct([]factor{{n: n, p: p}}, budget)
	return out, spent, ok
}

// termDie returns the distribution of the total of one die of the term s
// ("d1000r1"), as faceProbs, faceMap and chain work it out.
func termDie(t *testing.T, s string) pmf {
	t.Helper()
	e := mustParse(t, "1"+s)
	d := &e.dice[0]
	d.count = 1
	c := calc{e: e}
	u, err := c.term(d)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return u
}

// termMoments returns the mean and variance of one die of the term s
// ("d1000r1"), from termDie.
func termMoments(t *testing.T, s string) (mean, variance float64) {
	t.Helper()
	u := termDie(t, s)
	for i, x := range u.p {
		mean += x * float64(u.lo+i)
	}
	for i, x := range u.p {
		y := float64(u.lo+i) - mean
		variance += x * y * y
	}
	return mean, variance
}

// TestDistributionWideModifiers holds /odds's promise for sums of many
// dice with rerolls, clamps, explosions and counting over up to
// MaxOddsSupport values: exact, the chances adding up to 1, and the mean
// and variance n times those of one die (a die's chances being exact,
// TestDistributionKnown). The moments are what a wrong value anywhere in
// the bulk would change.
func TestDistributionWideModifiers(t *testing.T) {
	for _, c := range []struct {
		n    int
		term string
	}{
		{1000, "d1000r1"},
		{500, "d100mi3"},
		{200, "d20ro<3"},
		{1000, "d6!"},
		{1000, "d2!"},
		{1000, "d1000mi100ma900"},
		{1000, "d1000ro<500"},
		{600, "d100!!"},
		{1000, "d10>=8f1"},
		{1000, "d6r<6"},
		{150, "d1000r1"},
	} {
		expr := fmt.Sprintf("%d%s", c.n, c.term)
		d, err := mustParse(t, expr).Distribution(nil)
		if err != nil || !d.Exact {
			t.Errorf("Distribution(%q): %v, exact %v", expr, err, d != nil && d.Exact)
			continue
		}
		um, uv := termMoments(t, c.term)
		n := float64(c.n)
		sum := 0.0
		for _, p := range d.All() {
			sum += p
		}
		if math.Abs(sum-1) > 1e-10 {
			t.Errorf("%s: the chances add up to %.15g", expr, sum)
		}
		if m, want := d.Mean(), n*um; math.Abs(m-want) > 1e-10*math.Abs(want)+1e-9 {
			t.Errorf("%s: mean %.15g, want %.15g", expr, m, want)
		}
		if sd, want := d.StdDev(), math.Sqrt(n*uv); math.Abs(sd-want) > 1e-9*want {
			t.Errorf("%s: standard deviation %.15g, want %.15g", expr, sd, want)
		}
	}
}

// TestFFTPowerAgainstSquaring compares the tilted FFT with the powers by
// squaring it stands in for (calc.power, direct convolutions that add
// only chances of one sign, accurate to about 1e-14), given the time:
// every value above 1e-12 within a relative 1e-9.
func TestFFTPowerAgainstSquaring(t *testing.T) {
	cases := []string{"300d20ro<3", "200d100r1", "150d30!", "400d50mi10ma40"}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, expr := range cases {
		e := mustParse(t, expr)
		d := &e.dice[0]
		n := int(d.count)
		u := termDie(t, strings.TrimPrefix(expr, fmt.Sprint(n)))
		c := calc{e: e, work: -1e12, direct: true}
		want, err := c.power(u.trim(), n)
		if err != nil {
			t.Fatal(err)
		}
		got, _, ok := fftPower(u.trim().p, n, MaxOddsWork)
		if !ok {
			t.Fatalf("%s: no result", expr)
		}
		worst := 0.0
		for k, w := range want.p {
			if w <= 1e-12 {
				continue
			}
			rel := math.Abs(got[k]-w) / w
			worst = max(worst, rel)
			if rel > 1e-9 {
				t.Errorf("%s: P(%d) = %.17g by the FFT, %.17g by squaring", expr, want.lo+k, got[k], w)
			}
		}
		t.Logf("%s: worst relative difference %.2g", expr, worst)
	}
}
