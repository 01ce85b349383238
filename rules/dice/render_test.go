package dice

import (
	"math/rand/v2"
	"testing"
)

func TestResultString(t *testing.T) {
	tests := []struct {
		input  string
		values []int
		want   string
	}{
		{"4d6kh3", []int{6, 5, 2, 4}, "4d6kh3 (6, 5, ~~2~~, 4) = 15"},
		{"2d6+3", []int{4, 5}, "2d6 (4, 5) + 3 = 12"},
		{"4d6kh3 + 2", []int{6, 5, 2, 4}, "4d6kh3 (6, 5, ~~2~~, 4) + 2 = 17"},
		{"(1d6+2)*3", []int{4}, "(1d6 (4) + 2) * 3 = 18"},
		{"-1d4", []int{3}, "-1d4 (3) = -3"},
		{"0d6 + 1", nil, "0d6 () + 1 = 1"},
		{"7", nil, "7 = 7"},
		// A kept natural 20 on a d20 is a crit, a kept natural 1 a fumble.
		{"1d20+5", []int{20}, "1d20 (**20**) + 5 = 25"},
		{"1d20+5", []int{1}, "1d20 (__1__) + 5 = 6"},
		{"2d20kh1", []int{20, 1}, "2d20kh1 (**20**, ~~1~~) = 20"},
		{"2d20kl1", []int{1, 20}, "2d20kl1 (__1__, ~~20~~) = 1"},
		{"2d20kh1", []int{1, 1}, "2d20kh1 (__1__, ~~1~~) = 1"},
		// Only a d20 crits or fumbles.
		{"1d6 + 1d100", []int{1, 20}, "1d6 (1) + 1d100 (20) = 21"},
		// A term that is also the tail of an earlier one stays in place.
		{"11d1 + 1d1", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "11d1 (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) + 1d1 (1) = 12"},
		{"1d1 + 11d1", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "1d1 (1) + 11d1 (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) = 12"},

		// An exploding die is followed by "!" and its extra die.
		{"3d6!", []int{6, 6, 2, 4, 3}, "3d6! (6!, 6!, 2, 4, 3) = 21"},
		{"1d20!", []int{20, 5}, "1d20! (**20!**, 5) = 25"},
		// A compounding die shows its rolls joined by "+", marked as one.
		{"3d6!!", []int{6, 6, 2, 4, 3}, "3d6!! (6!+6!+2, 4, 3) = 21"},
		{"2d6!!kh1", []int{6, 1, 5}, "2d6!!kh1 (6!+1, ~~5~~) = 7"},
		{"2d6!!kl1", []int{6, 1, 5}, "2d6!!kl1 (~~6!+1~~, 5) = 5"},
		// A rerolled die is struck through, an arrow to what replaced it.
		{"4d6r1kh3", []int{1, 5, 6, 2, 4}, "4d6r1kh3 (~~1~~→5, 6, ~~2~~, 4) = 15"},
		{"1d6r1", []int{1, 1, 5}, "1d6r1 (~~1~~→~~1~~→5) = 5"},
		{"2d6r1kl1", []int{1, 5, 2}, "2d6r1kl1 (~~1~~→~~5~~, 2) = 2"},
		{"1d6r1!!", []int{6, 1, 4}, "1d6r1!! (6!+~~1~~→4) = 10"},
		{"2d6r1!!kl1", []int{6, 1, 4, 2}, "2d6r1!!kl1 (~~6!+1→4~~, 2) = 2"},
		// A clamped die shows its face, an arrow and what it counts.
		{"1d6mi3", []int{1}, "1d6mi3 (1↑3) = 3"},
		{"2d6ma4", []int{6, 2}, "2d6ma4 (6↓4, 2) = 6"},
		// Successes are bold, failures underlined, and the total counts them.
		{"10d10>=8f1", []int{8, 1, 9, 10, 3, 4, 5, 6, 7, 1}, "10d10>=8f1 (**8**, __1__, **9**, **10**, 3, 4, 5, 6, 7, __1__) = 1 success"},
		{"4d10>=8", []int{8, 1, 9, 10}, "4d10>=8 (**8**, 1, **9**, **10**) = 3 successes"},
		{"3d10>=8", []int{1, 2, 3}, "3d10>=8 (1, 2, 3) = 0 successes"},
		{"4d10kh2>=8", []int{9, 1, 1, 3}, "4d10kh2>=8 (**9**, ~~1~~, ~~1~~, 3) = 1 success"},
		// With success counting a d20 neither crits nor fumbles.
		{"2d20>=20", []int{20, 1}, "2d20>=20 (**20**, 1) = 1 success"},
		// Fudge dice.
		{"4dF", []int{1, 2, 3, 3}, "4dF (-1, 0, +1, +1) = 1"},
		// Aliases keep their notation.
		{"adv+5", []int{17, 3}, "adv (17, ~~3~~) + 5 = 22"},
		{"adv", []int{20, 1}, "adv (**20**, ~~1~~) = 20"},
		{"dis", []int{20, 1}, "dis (~~20~~, __1__) = 1"},
		{"det", []int{17, 3, 20, 9}, "det (~~17~~, 3, ~~20~~, ~~9~~) = 3"},
		{"v:20 + 3", []int{20}, "1v:20 (**20**) + 3 = 23"},
		// Labels follow the dice of their term, escaped.
		{"2d6[slashing] + 1d8[fire]", []int{3, 4, 5}, "2d6 (3, 4) [slashing] + 1d8 (5) [fire] = 12"},
		{"1d20 + 5 [to hit]", []int{14}, "1d20 (14) + 5 [to hit] = 19"},
		{"1d4 [1d6 fire] + 1d6", []int{2, 5}, "1d4 (2) [1d6 fire] + 1d6 (5) = 7"},
		{"1d20 [*bold* _x_ ~~s~~ `c` @everyone <@1> -1 #2]", []int{7}, `1d20 (7) [\*bold\* \_x\_ \~\~s\~\~ \` + "`c\\`" + ` \@everyone \<\@1> -1 #2] = 7`},
		// Several parts take a line each, with the label in front.
		{"1d20+5 [to hit] 2d6+3 [slashing]", []int{14, 3, 4}, "to hit: 1d20 (14) + 5 = 19\nslashing: 2d6 (3, 4) + 3 = 10"},
		{"1d20 [init] 1d6", []int{14, 3}, "init: 1d20 (14) = 14\n1d6 (3) = 3"},
		{"1d20 [# big] 1d6 [- list]", []int{14, 3}, "\\# big: 1d20 (14) = 14\n\\- list: 1d6 (3) = 3"},
		{"5d10>=8 [hits] 2d6 [dmg]", []int{8, 1, 2, 3, 4, 5, 6}, "hits: 5d10>=8 (**8**, 1, 2, 3, 4) = 1 success\ndmg: 2d6 (5, 6) = 11"},
		{"2d6 [fire] + 1d4 [cold] 1d20 [save]", []int{1, 2, 3, 4}, "cold: 2d6 (1, 2) [fire] + 1d4 (3) = 6\nsave: 1d20 (4) = 4"},
		// A repeat takes a line each repetition.
		{"3#1d6", []int{1, 2, 3}, "1d6 (1) = 1\n1d6 (2) = 2\n1d6 (3) = 3"},
		{"2#1d20+5 [attack] 1d8 [damage]", []int{11, 19, 4}, "attack: 1d20 (11) + 5 = 16\nattack: 1d20 (19) + 5 = 24\ndamage: 1d8 (4) = 4"},
	}
	for _, tt := range tests {
		res, err := mustParse(t, tt.input).Roll(NewPhysical(tt.values))
		if err != nil {
			t.Fatalf("%s: %v", tt.input, err)
		}
		if got := res.String(); got != tt.want {
			t.Errorf("%s with %v:\n got %s\nwant %s", tt.input, tt.values, got, tt.want)
		}
	}
}

// A Result rebuilt from its exported fields, as from storage, renders the same.
func TestResultStringStored(t *testing.T) {
	r := Result{
		Expr:  "2d20kh1 + 7",
		Total: 27,
		Groups: []Group{{Expr: "2d20kh1", Total: 20, Dice: []Die{
			{Sides: 20, Value: 20, Kept: true}, {Sides: 20, Value: 5},
		}}},
	}
	if got, want := r.String(), "2d20kh1 (**20**, ~~5~~) + 7 = 27"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// A cached roll of the common expressions allocates twice: the Result,
// with its part, groups and dice, and the string String renders (a roll
// of more than 16 dice once more, for its dice); the render alone once,
// the string. BenchmarkRoll times the same work.
func TestRollRenderAllocs(t *testing.T) {
	for _, tt := range []struct {
		input string
		want  float64
	}{
		{"1d20+5", 2}, {"2d20kh1+7", 2}, {"4d6kh3", 2}, {"8d6", 2}, {"3d6!", 2},
		{"10d10>=8", 2}, {"1d20+1d4+3-1d6", 2}, {"100d100", 3},
	} {
		input := tt.input
		roller := NewRandom(rand.New(rand.NewPCG(1, 2)))
		var res *Result
		roll := func() {
			e, err := Parse(input)
			if err != nil {
				t.Fatal(err)
			}
			if res, err = e.Roll(roller); err != nil {
				t.Fatal(err)
			}
			_ = res.String()
		}
		roll() // the parse cache now holds input
		if allocs := testing.AllocsPerRun(100, roll); allocs != tt.want {
			t.Errorf("%s: parse+roll+render: %v allocs, want %v", input, allocs, tt.want)
		}
		if allocs := testing.AllocsPerRun(100, func() { _ = res.String() }); allocs != 1 {
			t.Errorf("%s: String: %v allocs, want 1", input, allocs)
		}
	}
}
