package dice

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// fuzzSeeds has an example of every feature, and of every kind of error;
// testdata/fuzz/FuzzParse holds more.
var fuzzSeeds = []string{
	"4d6kh3 + 2", "1d20++5", "(1d6+2)*3", "d%", "-7/2", "2d20KL", "1-(2-3)", "600d6+600d6",
	"3d6!", "5d6!!", "3d6!>=5", "3d6>=5!", "1d1!", "d6!>=1", "1d6r<6!",
	"4d6r1", "4d6ro<3", "1d6r<7", "4d6mi2ma5", "1d6mi4ma3",
	"10d10>=8", "10d10>=8f1", "10d10f1", "8d6!r1kh3>=5",
	"4dF", "4dF=-1", "4dF>=1f=-1",
	"v:20 + 3", "(3v:6+4)", "v:4-1", "adv+5", "dis + 3", "det", "advantage",
	"1d20+5 [to hit] 2d6+3 [slashing]", "2d6[slashing] + 1d8[fire]", "1d20 [unclosed", "1d6 []",
	"6#4d6kh3", "101#1d6", "11#100d6", "2#1d20 [a] 1d8 [b]",
	"1d20+5 to hit", "1d20+5 # attack", "1d20+5 ! attack", "3d6 ! fire", "1d20 adv", "1+2#1d6", "4d6 kill it",
	"6 4d6k3", "6 4d6k3 for stats", "4d6 e6", "4d6ie5", "3d6e", "1d20 [a] 2d6 [b] # sneak attack", "5 # to hit",
	"1d20 #", "1d20 # a\x00b",
	"1d20+som", "1d20+SOM to hit", "dex", "-str*2", "1d20 som", "2#1d20+str [a] 2d6+str [b]", "5 # str", "5#str",
	"1d20+d6x", "1d20+fed", "1d20+khe", "def+1", "advice+v", "x1d6+1d6", "1d20+str_mod2", "v20",
}

// FuzzParse checks that any text parses or fails with a *SyntaxError (and
// that Suggest's correction of a short one parses), that
// a parsed expression rolls or fails with an *Error, that the normal form
// parses back to itself and to an expression that rolls the same, and that
// every Result holds together (see checkResult). Names roll as their
// length, and the breakdown shows each name's value after it.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %v is not a *SyntaxError", s, err)
			}
			if se.Pos < 0 || se.Pos > len(s) {
				t.Fatalf("Parse(%q) error position %d outside the text", s, se.Pos)
			}
			// A correction parses. (Short texts only: Suggest parses
			// hundreds of candidates.)
			if len(s) <= 24 {
				if sg := Suggest(s); sg != "" {
					if _, err := Parse(sg); err != nil {
						t.Fatalf("Suggest(%q) = %q does not parse: %v", s, sg, err)
					}
				}
			}
			return
		}
		norm := e.String()
		// The normal form may be longer than MaxExprLen, so skip that check.
		again, err := parse(norm)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, norm, err)
		}
		if again.String() != norm {
			t.Fatalf("normal form not stable: %q -> %q -> %q", s, norm, again.String())
		}

		res, err := e.RollWith(NewRandom(rand.New(rand.NewPCG(1, 2))), fuzzLookup)
		res2, err2 := again.RollWith(NewRandom(rand.New(rand.NewPCG(1, 2))), fuzzLookup)
		if (err == nil) != (err2 == nil) || err == nil && (res.Total != res2.Total || res.String() != res2.String()) {
			t.Fatalf("%q and its normal form %q roll differently: %v, %v; %v, %v", s, norm, res, err, res2, err2)
		}
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("Roll(%q) error %v is not an *Error", s, err)
			}
			return
		}
		checkResult(t, res)
		noReason := res
		if r := e.Reason(); r != res.Reason() {
			t.Fatalf("Roll(%q).Reason() = %q, Parse's %q", s, res.Reason(), r)
		} else if r != "" {
			// The reason never changes the total: the text without it
			// rolls the same.
			bare, err := parse(strings.TrimSuffix(strings.TrimSuffix(norm, " # "+r), " ! "+r))
			if err != nil {
				t.Fatalf("%q without its reason %q does not parse: %v", norm, r, err)
			}
			if bare.Reason() != "" {
				t.Fatalf("%q without its reason %q still has the reason %q", norm, r, bare.Reason())
			}
			if noReason, err = bare.RollWith(NewRandom(rand.New(rand.NewPCG(1, 2))), fuzzLookup); err != nil {
				t.Fatalf("%q without its reason %q does not roll: %v", norm, r, err)
			}
		}
		out := res.String()
		checkRenderPaths(t, res)
		if res.Reason() != "" && res.Total != noReason.Total {
			t.Fatalf("Roll(%q) = %d, but without its reason %q = %d", s, res.Total, res.Reason(), noReason.Total)
		}
		if len(res.Parts) > 1 {
			lines := strings.Split(out, "\n")
			if res.Reason() != "" {
				lines = lines[1:]
			}
			if len(lines) != len(res.Parts) {
				t.Fatalf("Roll(%q).String() has %d lines for %d parts: %q", s, len(lines), len(res.Parts), out)
			}
			for i, line := range lines {
				if !strings.Contains(line, " = "+strconv.Itoa(res.Parts[i].Total)) {
					t.Fatalf("Roll(%q).String() line %d = %q does not show the part's total %d", s, i, line, res.Parts[i].Total)
				}
			}
		} else if !strings.Contains(out, " = "+strconv.Itoa(res.Total)) {
			t.Fatalf("Roll(%q).String() = %q does not show the total %d", s, out, res.Total)
		}

		for _, ref := range res.Refs {
			if want := ref.Name + " (" + strconv.Itoa(ref.Value) + ")"; !strings.Contains(out, want) {
				t.Fatalf("Roll(%q).String() = %q does not show %q", s, out, want)
			}
		}

		// Rolled again into the same Result, it still holds together.
		if err := e.RollIntoWith(NewRandom(rand.New(rand.NewPCG(3, 4))), fuzzLookup, res); err == nil {
			checkResult(t, res)
		}

		p := NewPhysical([]int{1, 2, 3})
		if _, err := e.Roll(p); err == nil {
			err = p.Done()
		}
		var de *Error
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("Roll(%q) with physical dice: error %v is not an *Error", s, err)
		}
	})
}

// fuzzLookup gives each name its length.
func fuzzLookup(name string) (int, bool) { return len(name), true }

// checkRenderPaths holds String's fast paths for a roll without names or
// labels to the general ones they stand for.
func checkRenderPaths(t *testing.T, res *Result) {
	t.Helper()
	expr, reason, labels := res.split()
	if e, r := splitSlow(res.Expr); e != expr || r != reason {
		t.Fatalf("split(%q) = %q, %q; by bytes %q, %q", res.Expr, expr, reason, e, r)
	}
	if !labels && strings.Contains(expr, "[") {
		t.Fatalf("split(%q) says no labels in %q", res.Expr, expr)
	}
	for _, g := range res.Groups {
		general := g
		general.plain = false
		if fast, slow := string(appendDice(nil, &g)), string(appendDice(nil, &general)); fast != slow {
			t.Fatalf("%q: group %q renders %q, by the general path %q", res.Expr, g.Expr, fast, slow)
		}
	}
	var none []Ref
	for _, p := range res.Parts {
		if len(res.Refs) > 0 || strings.Contains(p.Expr, "[") {
			continue
		}
		fast := string(appendTermsPlain(nil, p.Expr, p.Groups))
		if slow := string(appendTerms(nil, p.Expr, p.Groups, &none)); fast != slow {
			t.Fatalf("%q: part %q renders %q, by the general path %q", res.Expr, p.Expr, fast, slow)
		}
	}
}
