package dice_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/tablehand/tablehand/rules/dice"
)

func Example() {
	e, err := dice.Parse("4D6 k3 + 2")
	if err != nil {
		panic(err)
	}
	fmt.Println(e)

	// Dice a player rolled at the table, from the dice: option.
	values, err := dice.ParsePhysical("6, 5, 2, 4")
	if err != nil {
		panic(err)
	}
	p := dice.NewPhysical(values)
	res, err := e.Roll(p)
	if err != nil {
		panic(err)
	}
	if err := p.Done(); err != nil {
		panic(err)
	}
	fmt.Println(res)

	// Or a seeded generator, for a roll that a test can repeat.
	res, err = e.Roll(dice.NewRandom(rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		panic(err)
	}
	fmt.Println(res)
	// Output:
	// 4d6kh3 + 2
	// 4d6kh3 (6, 5, ~~2~~, 4) + 2 = 17
	// 4d6kh3 (5, ~~4~~, 5, 5) + 2 = 17
}

func ExampleSyntaxError() {
	_, err := dice.Parse("1d20++5")
	var se *dice.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se)
		fmt.Println(se.Detail())
	}
	// Output:
	// unexpected '+' at column 6
	// 1d20++5
	//      ^
}
