package dice

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// benchExprs is the fixed set the package's speed is judged on; see
// BenchmarkRoll. The geometric mean over the set is what counts, so no
// one expression stands for all.
var benchExprs = []string{"1d20+5", "4d6kh3", "8d6", "2d20kh1+7", "10d10>=8", "3d6!", "100d100", "1d20+1d4+3-1d6"}

// BenchmarkRoll measures each expression of benchExprs:
//
//   - parse: Parse alone;
//   - parse+roll: Parse, then Roll into a new Result;
//   - roll: RollInto a Result reused from the last roll (0 allocs/op);
//   - parse+roll+render: parse+roll, then Result.String.
//
// Parse keeps a small cache of the Exprs it parsed lately (cache.go), so
// in a loop over one text every Parse after the first is a hit. The
// "-nocache" variants parse afresh each time: a miss, or a text seen for
// the first time. Run with
//
//	go test -run '^$' -bench BenchmarkRoll -benchmem -count 5 ./rules/dice/
func BenchmarkRoll(b *testing.B) {
	for _, s := range benchExprs {
		for _, p := range []struct {
			suffix string
			parse  func(string) (*Expr, error)
		}{{"", Parse}, {"-nocache", parse}} {
			b.Run(s+"/parse"+p.suffix, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := p.parse(s); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(s+"/parse+roll"+p.suffix, func(b *testing.B) {
				roller := NewRandom(rand.New(rand.NewPCG(1, 2)))
				b.ReportAllocs()
				for b.Loop() {
					e, err := p.parse(s)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := e.Roll(roller); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(s+"/parse+roll+render"+p.suffix, func(b *testing.B) {
				roller := NewRandom(rand.New(rand.NewPCG(1, 2)))
				b.ReportAllocs()
				for b.Loop() {
					e, err := p.parse(s)
					if err != nil {
						b.Fatal(err)
					}
					res, err := e.Roll(roller)
					if err != nil {
						b.Fatal(err)
					}
					_ = res.String()
				}
			})
		}
		b.Run(s+"/roll", func(b *testing.B) {
			e := mustParse(b, s)
			roller := NewRandom(rand.New(rand.NewPCG(1, 2)))
			var res Result
			b.ReportAllocs()
			for b.Loop() {
				if err := e.RollInto(roller, &res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRollBareGenerator is the floor for "100d100/roll": the same
// 100 faces drawn from math/rand/v2's PCG with nothing around them.
func BenchmarkRollBareGenerator(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var faces [100]int
	b.ReportAllocs()
	for b.Loop() {
		for i := range faces {
			faces[i] = r.IntN(100) + 1
		}
	}
	_ = faces
}

// BenchmarkSuggest measures Suggest, which /roll's autocomplete calls at
// each keystroke of a text that does not parse, on a short typo and on
// the worst texts for it: long, many words, nothing one edit away (each
// failing parse looks for a reason in every word; maxSuggestTries bounds
// the candidates).
func BenchmarkSuggest(b *testing.B) {
	for _, s := range []struct{ name, text string }{
		{"typo", "2d6x3"},
		{"words-64", strings.Repeat("q w ", 16)},
		{"words-198", strings.Repeat("ab cd ", 33)},
		{"junk-195", "1d20+" + strings.Repeat("x", 190)},
	} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Suggest(s.text)
			}
		})
	}
}
