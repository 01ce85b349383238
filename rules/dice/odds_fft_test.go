package dice

import (
	"math"
	"math/big"
	"testing"
)

// exactUniformCounts returns the number of ways n dice showing 0 to s-1
// make each sum, and s^n, exactly.
func exactUniformCounts(n, s int) ([]*big.Int, *big.Int) {
	cur := []*big.Int{big.NewInt(1)}
	for range n {
		next := make([]*big.Int, len(cur)+s-1)
		for i := range next {
			next[i] = new(big.Int)
		}
		// A sliding window, exactly.
		sum := new(big.Int)
		for k := range next {
			if k < len(cur) {
				sum.Add(sum, cur[k])
			}
			if k-s >= 0 && k-s < len(cur) {
				sum.Sub(sum, cur[k-s])
			}
			next[k].Set(sum)
		}
		cur = next
	}
	return cur, new(big.Int).Exp(big.NewInt(int64(s)), big.NewInt(int64(n)), nil)
}

// TestFFTSumAgainstExactCounts compares the tilted FFT with exact counts
// for sums small enough to count, but large enough to take many windows:
// every probability above 1e-12 within a relative 1e-9, and none below
// 1e-300 off by more than a relative 1e-6.
func TestFFTSumAgainstExactCounts(t *testing.T) {
	for _, c := range []struct{ n, s int }{{2, 6}, {30, 6}, {200, 2}, {150, 20}, {120, 100}, {400, 7}, {60, 1000}} {
		got, ok := fftUniformSum(c.n, c.s)
		if !ok {
			t.Fatalf("%dd%d: no result", c.n, c.s)
		}
		counts, total := exactUniformCounts(c.n, c.s)
		if len(got) != len(counts) {
			t.Fatalf("%dd%d: %d values, want %d", c.n, c.s, len(got), len(counts))
		}
		worst, worstTail := 0.0, 0.0
		for k, cnt := range counts {
			want, _ := new(big.Rat).SetFrac(cnt, total).Float64()
			if want < 1e-300 {
				continue
			}
			rel := math.Abs(got[k]-want) / want
			if want > 1e-12 {
				worst = max(worst, rel)
				if rel > 1e-9 {
					t.Errorf("%dd%d: P(%d) = %.17g, want %.17g (relative error %.2g)", c.n, c.s, k, got[k], want, rel)
				}
			} else {
				worstTail = max(worstTail, rel)
				if rel > 1e-6 {
					t.Errorf("%dd%d: P(%d) = %.17g, want %.17g (relative error %.2g)", c.n, c.s, k, got[k], want, rel)
				}
			}
		}
		t.Logf("%dd%d: worst relative error %.2g above 1e-12, %.2g below", c.n, c.s, worst, worstTail)
	}
}
