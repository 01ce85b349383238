package dice

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// FuzzParse checks that any text parses or fails with a *SyntaxError, that
// a parsed expression rolls or fails with an *Error, and that the normal
// form parses back to itself and to an expression that rolls the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"4d6kh3 + 2", "1d20++5", "(1d6+2)*3", "d%", "-7/2", "2d20KL", "1-(2-3)", "600d6+600d6"} {
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

		res, err := e.Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
		res2, err2 := again.Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
		if (err == nil) != (err2 == nil) || err == nil && res.Total != res2.Total {
			t.Fatalf("%q and its normal form %q roll differently: %v, %v; %v, %v", s, norm, res, err, res2, err2)
		}
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("Roll(%q) error %v is not an *Error", s, err)
			}
			return
		}
		if out := res.String(); !strings.HasSuffix(out, " = "+strconv.Itoa(res.Total)) {
			t.Fatalf("Roll(%q).String() = %q does not end in the total %d", s, out, res.Total)
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
