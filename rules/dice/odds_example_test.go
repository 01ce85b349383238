package dice_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/tablehand/tablehand/rules/dice"
)

func ExampleExpr_Distribution() {
	e, err := dice.Parse("4d6kh3")
	if err != nil {
		panic(err)
	}
	// The roller is for an expression out of exact reach; 4d6kh3 is not.
	d, err := e.Distribution(dice.NewRandom(rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		panic(err)
	}
	fmt.Printf("exact %v: mean %.4f, sd %.4f\n", d.Exact, d.Mean(), d.StdDev())
	fmt.Printf("P(18) = %.4f, P(>= 15) = %.4f, most likely %v\n", d.P(18), d.AtLeast(15), d.MostLikely(3))
	// Output:
	// exact true: mean 12.2446, sd 2.8468
	// P(18) = 0.0162, P(>= 15) = 0.2315, most likely [13 12 14]
}

func ExampleOpposed() {
	dist := func(s string) *dice.Dist {
		e, err := dice.Parse(s)
		if err != nil {
			panic(err)
		}
		d, err := e.Distribution(nil)
		if err != nil {
			panic(err)
		}
		return d
	}
	win, tie, lose := dice.Opposed(dist("1d20+5"), dist("1d20+3"))
	fmt.Printf("win %.4f, tie %.4f, lose %.4f\n", win, tie, lose)
	// Output:
	// win 0.5725, tie 0.0450, lose 0.3825
}
