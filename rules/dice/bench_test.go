package dice

import (
	"math/rand/v2"
	"testing"
)

var benchExprs = []string{"1d20+5", "4d6kh3", "8d6", "2d20kh1+7", "1d20+1d4+3-1d6", "100d100"}

func BenchmarkRoll(b *testing.B) {
	for _, s := range benchExprs {
		b.Run(s+"/parse+roll", func(b *testing.B) {
			roller := NewRandom(rand.New(rand.NewPCG(1, 2)))
			b.ReportAllocs()
			for b.Loop() {
				e, err := Parse(s)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.Roll(roller); err != nil {
					b.Fatal(err)
				}
			}
		})
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
		b.Run(s+"/render", func(b *testing.B) {
			res, err := mustParse(b, s).Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = res.String()
			}
		})
	}
}
