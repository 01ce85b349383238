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

func ExampleResult_String() {
	for _, roll := range []struct{ expr, dice string }{
		{"8d6!r1kh3>=5", "1, 6, 3, 2, 2, 2, 2, 2, 2, 5"},
		{"10d10>=8f1", "8, 1, 9, 10, 3, 4, 5, 6, 7, 1"},
		{"3d6!!", "6, 6, 2, 4, 3"},
		{"2d6mi3 + 4dF", "1, 5, 1, 2, 3, 3"},
		{"1d20+5 [to hit] 2d6+3 [slashing]", "14, 3, 4"},
		{"3#adv + 2", "20, 4, 3, 9, 1, 1"},
	} {
		e, err := dice.Parse(roll.expr)
		if err != nil {
			panic(err)
		}
		values, err := dice.ParsePhysical(roll.dice)
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
	}
	// Output:
	// 8d6r1!kh3>=5 (~~1~~→**6!**, 3, ~~2~~, ~~2~~, ~~2~~, ~~2~~, ~~2~~, ~~2~~, **5**) = 2 successes
	// 10d10>=8f1 (**8**, __1__, **9**, **10**, 3, 4, 5, 6, 7, __1__) = 1 success
	// 3d6!! (6!+6!+2, 4, 3) = 21
	// 2d6mi3 (1↑3, 5) + 4dF (-1, 0, +1, +1) = 9
	// to hit: 1d20 (14) + 5 = 19
	// slashing: 2d6 (3, 4) + 3 = 10
	// adv (**20**, ~~4~~) + 2 = 22
	// adv (~~3~~, 9) + 2 = 11
	// adv (__1__, ~~1~~) + 2 = 3
}
