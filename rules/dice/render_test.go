package dice

import "testing"

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
