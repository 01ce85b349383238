package dice

import "testing"

// TestBoundsAgreeWithTheDistribution: where the distribution is exact,
// Bounds gives its lowest and highest values; beyond it, the bounds of
// the text ("1000d1000": 1000 to 1000000).
func TestBoundsAgreeWithTheDistribution(t *testing.T) {
	for _, text := range []string{
		"3d6", "1d20+5", "4d6kh3", "4d6dl1", "2d20kl1", "10d10>=8", "10d10>=8f1", "4dF", "3d6r1", "3d6ro<3",
		"2d6mi3", "2d6ma4", "2d6 * 3 - 1d4", "-2d6", "(1d6+1) * (2d4-5)", "1d20 / 3", "20 / 1d4",
		"1d20+5 [to hit] 2d6 [dmg]", "3#4d6kh3", "1d6 - -3", "d%",
	} {
		e, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		d, err := e.Distribution(nil)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		lo, hi, ok := e.Bounds()
		if !ok || lo != d.Min() || hi != d.Max() {
			t.Errorf("%s: Bounds %d..%d (%v), the distribution %d..%d", text, lo, hi, ok, d.Min(), d.Max())
		}
	}
	for _, tt := range []struct {
		text   string
		lo, hi int
		ok     bool
	}{
		{"1000d1000", 1000, 1_000_000, true},
		{"1000d1000000", 1000, 1_000_000_000, true},
		{"2#500d1000", 1000, 1_000_000, true},
		// A die explodes at most MaxExplosions (100) times in a row: 1d6!
		// is 1 to 101·6.
		{"3d6!", 3, 1818, true},
		{"1000d6!", 1000, 606_000, true},
		{"4dF!", -4, 404, true},         // ends on -1 at least, or 100 +1s and a +1
		{"10d10!>=9>=8", 0, 1010, true}, // explodes on 9 and up; every die of a chain counts, 101 at most
		{"3d6!!kh2", 2, 1212, true},     // a compounded die is one unit
		{"8d6!kh3", 0, 0, false},        // how many dice it keeps depends on the explosions
		{"5d6!!>=5>=8", 0, 0, false},    // a compounded sum counted: not worked out
		{"1d6 / (1d3 - 2)", 0, 0, false},
	} {
		e, err := Parse(tt.text)
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		if lo, hi, ok := e.Bounds(); lo != tt.lo || hi != tt.hi || ok != tt.ok {
			t.Errorf("%s: Bounds %d..%d (%v), want %d..%d (%v)", tt.text, lo, hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
}
