package xhalem

import (
	"testing"
)

func TestModeDice(t *testing.T) {
	tests := []struct {
		rule  string
		mode  Mode
		faces []int
		want  int // the kept face
		expr  string
	}{
		{"Most engagements by a combatant require an engagement roll of 1D20.", Normal, []int{7}, 7, "1d20"},
		{"The target is then able to perform an evasion roll with advantage (2D20).", Advantage, []int{7, 15}, 15, "2d20kh1"},
		{"you must perform an engagement roll with disadvantage (2D20)", Disadvantage, []int{7, 15}, 7, "2d20kl1"},
		{"A detriment is when you must roll 4D20 and use the lowest number.", Detriment, []int{12, 18, 4, 9}, 4, "4d20kl1"},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			if got := tt.mode.Dice(20); got != tt.expr {
				t.Errorf("Dice(20) = %q, want %q (%s)", got, tt.expr, tt.rule)
			}
			r, done := table(t, tt.faces...)
			roll, err := d20(r, tt.mode, 3)
			if err != nil {
				t.Fatal(err)
			}
			done()
			if roll.Natural != tt.want || roll.Total != tt.want+3 {
				t.Errorf("%v + 3 in %s: natural %d total %d, want %d and %d (%s)", tt.faces, tt.mode, roll.Natural, roll.Total, tt.want, tt.want+3, tt.rule)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Normal, "normal": Normal, "advantage": Advantage, "adv": Advantage, "Disadvantage": Disadvantage, "det": Detriment} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseMode("double"); err == nil {
		t.Error(`ParseMode("double"): no error`)
	}
}

// The text names every source of advantage, disadvantage and detriment but
// not how they meet: Config.Stacking chooses, "net" by default.
func TestCombine(t *testing.T) {
	A, N, D, X := Advantage, Normal, Disadvantage, Detriment
	tests := []struct {
		name   string
		modes  []Mode
		net    Mode
		cancel Mode
		worst  Mode
	}{
		{"nothing", nil, N, N, N},
		{"flanking and assist: one advantage, not two", []Mode{A, A}, A, A, A},
		{"concealed target", []Mode{D}, D, D, D},
		{"cloaked target", []Mode{X}, X, X, X},
		{"concealed target, flanking", []Mode{D, A}, N, N, D},
		{"cloaked target, flanking", []Mode{X, A}, D, N, X},
		{"cloaked target underwater", []Mode{X, D}, X, X, X},
		{"cloaked, underwater, flanking", []Mode{X, D, A}, X, N, X},
		{"underwater twice", []Mode{D, D}, D, D, D},
	}
	for _, tt := range tests {
		for policy, want := range map[string]Mode{StackNet: tt.net, StackCancel: tt.cancel, StackWorst: tt.worst} {
			got, err := Combine(policy, tt.modes...)
			if err != nil || got != want {
				t.Errorf("%s, %s: Combine = %v, %v; want %v", tt.name, policy, got, err, want)
			}
		}
	}
	if _, err := Combine("sum", A); err == nil {
		t.Error("an unknown policy: no error")
	}
}

func TestDefaultConfigIsValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	delete(c.SizeRanks, "giant")
	if err := c.Validate(); err == nil {
		t.Error("size_ranks without giant: no error")
	}
	if DefaultConfig().SizeRanks["gargantuan"] != DefaultConfig().SizeRanks["giant"] {
		t.Error(`"gargantuan-sized mechs, and giant and behemoth-sized creatures" share a reach: gargantuan should rank with giant`)
	}
}
