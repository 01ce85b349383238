package dice

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOddsRangeAndCut: the range of a distribution is the expression's
// (Bounds), which for dice that explode is wider than the values the
// calculation keeps; an exact distribution of dice that explode says how
// much the chains it cut could change (Cut); an estimate says from how
// many rolls.
func TestOddsRangeAndCut(t *testing.T) {
	sixth16 := math.Pow(1.0/6, 16) // a d6 exploding 16 times in a row: 3.5e-13
	for _, tt := range []struct {
		text   string
		lo, hi int     // Bounds
		exact  bool    // Dist.Exact
		cut    float64 // Dist.Cut
		mean   float64
	}{
		// 1000d6!: 1000 ones is the lowest total (a chance of 6^-1000,
		// 0 in a float64, so the values worked out start at 1601); a d6
		// is followed to 15 explosions ((1/6)^15 = 2.1e-12 >= OddsTailCut,
		// (1/6)^16 < it): 1000 dice may go further with a chance of at
		// most 1000·(1/6)^16 = 3.5e-10. A d6! has mean 3.5·6/5 = 4.2.
		{"1000d6!", 1000, 606_000, true, 1000 * sixth16, 4200},
		{"3d6!", 3, 1818, true, 3 * sixth16, 12.6},
		{"1d20", 1, 20, true, 0, 10.5},
		{"4d6kh3", 3, 18, true, 0, 15869.0 / 1296},
		// A d2 explodes half the time: followed to 39 explosions, cut
		// (1/2)^40 = 9.1e-13; its mean is 1.5·2/1 = 3.
		{"1d2!", 1, 202, true, math.Pow(0.5, 40), 3},
	} {
		e, err := Parse(tt.text)
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		lo, hi, ok := e.Bounds()
		if !ok || lo != tt.lo || hi != tt.hi {
			t.Errorf("%s: Bounds %d..%d (%v), want %d..%d", tt.text, lo, hi, ok, tt.lo, tt.hi)
		}
		d, err := e.Distribution(nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		if d.Exact != tt.exact || math.Abs(d.Cut-tt.cut) > 1e-9*tt.cut {
			t.Errorf("%s: exact %v, cut %g; want %v, %g", tt.text, d.Exact, d.Cut, tt.exact, tt.cut)
		}
		if d.Min() < lo || d.Max() > hi {
			t.Errorf("%s: values %d..%d outside the bounds %d..%d", tt.text, d.Min(), d.Max(), lo, hi)
		}
		if math.Abs(d.Mean()-tt.mean) > 1e-6*tt.mean {
			t.Errorf("%s: mean %v, want %v", tt.text, d.Mean(), tt.mean)
		}
	}
	if d := mustDist(t, "1000d6!"); d.Min() == 1000 {
		t.Errorf("1000d6!: the chance of 1000 is 6^-1000, below a float64; the test assumed it is left out")
	}

	// An estimate: 2d1000000 spans 1,999,999 values, beyond MaxOddsSupport.
	e, err := Parse("2d1000000")
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Distribution(NewRandom(rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		t.Fatal(err)
	}
	if d.Exact || d.Samples != OddsSamples || d.Cut != 0 {
		t.Errorf("2d1000000: exact %v, %d samples, cut %g; want an estimate from %d rolls", d.Exact, d.Samples, d.Cut, OddsSamples)
	}
	if lo, hi, ok := e.Bounds(); !ok || lo != 2 || hi != 2_000_000 {
		t.Errorf("2d1000000: Bounds %d..%d (%v)", lo, hi, ok)
	}
}

// TestExplosionCutBoundsTheError: 1d6! shows 6k+r (r of 1 to 5) with
// chance (1/6)^(k+1). The calculation stops after 15 explosions, the
// 16th roll standing whatever it shows; every chance it gives is within
// Cut of the true one, and all of them together within 2·Cut.
func TestExplosionCutBoundsTheError(t *testing.T) {
	d := mustDist(t, "1d6!")
	sum := 0.0
	for v := 1; v <= d.Max()+6; v++ {
		want := 0.0
		if r := (v-1)%6 + 1; r != 6 {
			want = math.Pow(1.0/6, float64((v-1)/6+1))
		}
		diff := math.Abs(d.P(v) - want)
		if diff > d.Cut*(1+1e-9) {
			t.Errorf("1d6!: P(%d) = %g, true %g: off by more than the cut %g", v, d.P(v), want, d.Cut)
		}
		sum += diff
	}
	if d.Cut == 0 || sum > 2*d.Cut*(1+1e-9) {
		t.Errorf("1d6!: off by %g in all, cut %g", sum, d.Cut)
	}
}

// TestBoundsHoldRolls: the totals Roll gives for dice that explode lie
// within Bounds.
func TestBoundsHoldRolls(t *testing.T) {
	r := NewRandom(rand.New(rand.NewPCG(5, 6)))
	for _, text := range []string{"3d6!", "4dF!", "10d10!>=9>=8", "3d6!!kh2", "2d4!<=2", "5d6r1!"} {
		e, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		lo, hi, ok := e.Bounds()
		if !ok {
			t.Fatalf("%s: no bounds", text)
		}
		for range 2000 {
			res, err := e.Roll(r)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if res.Total < lo || res.Total > hi {
				t.Fatalf("%s rolled %d, outside Bounds %d..%d", text, res.Total, lo, hi)
			}
		}
	}
}
