package dice

import "testing"

// TestSeedNotation rolls the dice notations of the rule texts in
// /work/shared/seeds as they are written there, quoting them.
func TestSeedNotation(t *testing.T) {
	tests := []struct {
		quote  string // from the seed
		input  string
		norm   string
		values []int
		total  int
		dice   string // codes, see code
	}{
		// Seed 002, Midnight in Vaia: "v:" dice.
		{`002, Calculating Fall Damage: "(3v:6+T) Damage, Minimum T% Hit Points." with T = 12 Tiles`,
			"(3v:6+12)", "3v:6 + 12", []int{4, 1, 6}, 23, "4 1 6"},
		{`002, Jump: "Requires an Accuracy Check (v:20 + Accuracy =/+ 6)" with Accuracy 3`,
			"v:20 + 3", "1v:20 + 3", []int{11}, 14, "11"},
		{`002, Leap: "Failure results in only (v:4-1) Tiles of Movement."`,
			"(v:4-1)", "1v:4 - 1", []int{1}, 0, "1"},

		// Seed 004, Xha'lem: advantage, disadvantage and detriment.
		{`004, Cloaking: "the target is then able to perform an evasion roll with advantage (2D20)"`,
			"adv", "adv", []int{4, 15}, 15, "4- 15"},
		{`004, Concealment: "you must perform an engagement roll with disadvantage (2D20)"`,
			"dis + 3", "dis + 3", []int{4, 15}, 7, "4 15-"},
		{`004, Cloaking: "A detriment is when you must roll 4D20 and use the lowest number."`,
			"det", "det", []int{12, 7, 19, 8}, 7, "12- 7 19- 8-"},
		{`004, Initiative: "add your Engine score to 1D20", with advantage and Engine 4`,
			"adv + 4", "adv + 4", []int{20, 2}, 24, "20 2-"},

		// Seed 003: "All Bonus Dice burst when you roll maximum value on
		// the dice" — an exploding die; a heroic d10 of Strength Bonus
		// Dice to damage with an ordinary sword's d8.
		{`003: "All Bonus Dice burst when you roll maximum value on the dice, including Bonus Dice to damage."`,
			"1d8 + 1d10!", "1d8 + 1d10!", []int{5, 10, 10, 3}, 28, "5 | 10! 10!e 3e"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			e := mustParse(t, tt.input)
			if e.String() != tt.norm {
				t.Errorf("%s\nParse(%q) = %q, want %q", tt.quote, tt.input, e, tt.norm)
			}
			p := NewPhysical(tt.values)
			res, err := e.Roll(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Done(); err != nil {
				t.Fatal(err)
			}
			if res.Total != tt.total || codes(res.Groups) != tt.dice {
				t.Errorf("%s\n%s with %v = %d, dice %q; want %d, %q", tt.quote, tt.input, tt.values, res.Total, codes(res.Groups), tt.total, tt.dice)
			}
		})
	}
}
