package faction

import (
	"math"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

func TestStraightRolls(t *testing.T) {
	tests := []struct {
		rule       string
		kind       RollType
		n, bonus   int // Attribute, or Level and bonus
		roll       int
		success    bool
		margin     int
		natural    string
		chance     float64
		textSuffix string
	}{
		{"Straight Faction Roll: 1d10 =< Attribute", RollStraightFaction, 4, 0, 4, true, 0, "", 0.4, "success by 0"},
		{"Straight Faction Roll: 1d10 =< Attribute", RollStraightFaction, 4, 0, 5, false, 1, "", 0.4, "failure by 1"},
		{"Straight Faction Roll: 1d10 =< Attribute", RollStraightFaction, 6, 0, 2, true, 4, "", 0.6, "success by 4"},
		{"A roll of 10 is always a failure for Straight Rolls, even if the Attribute in question is 10 or higher.", RollStraightFaction, 10, 0, 10, false, 0, "10", 0.9, "(a natural 10 always fails)"},
		{"A roll of 10 is always a failure ... even if the Attribute in question is 10 or higher.", RollStraightFaction, 12, 0, 10, false, 0, "10", 0.9, "(a natural 10 always fails)"},
		{"Likewise, a roll of 1 is always a success.", RollStraightFaction, 0, 0, 1, true, 0, "1", 0.1, "(a natural 1 always succeeds)"},
		{"Likewise, a roll of 1 is always a success.", RollStraightFaction, 4, 0, 1, true, 3, "1", 0.4, "success by 3"},
		{"Straight Asset Roll: 1d10 =< [Level*2]", RollStraightAsset, 2, 0, 4, true, 0, "", 0.4, "success by 0"},
		{"Straight Asset Roll: 1d10 =< [Level*2]", RollStraightAsset, 2, 0, 5, false, 1, "", 0.4, "failure by 1"},
		{"Straight Asset Roll (+HTA): Level 2 and RES 4 at home", RollStraightAsset, 2, 4, 8, true, 0, "", 0.8, "success by 0"},
		{"Straight Asset Roll: Level 5 (Research's maximum) still fails on a 10", RollStraightAsset, 5, 0, 10, false, 0, "10", 0.9, "(a natural 10 always fails)"},
	}
	for _, tt := range tests {
		var got Test
		var err error
		if tt.kind == RollStraightFaction {
			got, err = StraightFaction(tt.n, dice.NewPhysical([]int{tt.roll}))
		} else {
			got, err = StraightAsset(tt.n, tt.bonus, dice.NewPhysical([]int{tt.roll}))
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if got.Success != tt.success || got.Margin != tt.margin || got.Natural != tt.natural || math.Abs(got.Chance-tt.chance) > 1e-9 {
			t.Errorf("%s: roll %d vs %d+%d: got success %v margin %d natural %q chance %v; want %v %d %q %v",
				tt.rule, tt.roll, tt.n, tt.bonus, got.Success, got.Margin, got.Natural, got.Chance, tt.success, tt.margin, tt.natural, tt.chance)
		}
		if !strings.HasSuffix(got.Text, tt.textSuffix) {
			t.Errorf("%s: text %q does not end %q", tt.rule, got.Text, tt.textSuffix)
		}
	}
}

func TestOpposedRolls(t *testing.T) {
	tests := []struct {
		rule             string
		level, bonus     int
		defLevel, defBon int
		faces            []int
		success          bool
		margin           int
		natural          string
	}{
		{"High roll wins in Opposed Rolls", 2, 0, 2, 0, []int{6, 5}, true, 1, ""},
		{"High roll wins in Opposed Rolls", 2, 0, 2, 0, []int{3, 7}, false, 4, ""},
		{"Ties go to the defender.", 2, 0, 2, 0, []int{5, 5}, false, 0, ""},
		{"Ties go to the defender.", 3, 0, 2, 2, []int{4, 4}, false, 0, ""},
		{"An Opposed Roll of 10 beats a roll of 1 regardless of bonuses.", 1, 0, 5, 5, []int{10, 1}, true, 0, "10 beats 1"},
		{"An Opposed Roll of 10 beats a roll of 1 regardless of bonuses (the defender's 10).", 5, 5, 1, 0, []int{1, 10}, false, 0, "1 loses to 10"},
		{"A 10 against a 1 that wins on the numbers keeps its margin", 2, 0, 2, 0, []int{10, 1}, true, 9, "10 beats 1"},
		{"Opposed Asset Roll: [(Level*2) + 1d10] vs [(Level*2) + 1d10], HTA added", 2, 4, 3, 0, []int{8, 9}, true, 1, ""},
	}
	for _, tt := range tests {
		got, err := OpposedAsset(tt.level, tt.bonus, tt.defLevel, tt.defBon, dice.NewPhysical(tt.faces))
		if err != nil {
			t.Fatal(err)
		}
		if got.Success != tt.success || got.Margin != tt.margin || got.Natural != tt.natural {
			t.Errorf("%s: %v: got success %v margin %d natural %q (%s); want %v %d %q",
				tt.rule, tt.faces, got.Success, got.Margin, got.Natural, got.Text, tt.success, tt.margin, tt.natural)
		}
		if got.Roll != tt.faces[0] || got.DefRoll != tt.faces[1] {
			t.Errorf("%s: the actor's die is rolled first: got %d, %d", tt.rule, got.Roll, got.DefRoll)
		}
	}
	// "Opposed Faction Roll: [(Level*2) + 1d10] vs [Attribute + 1d10]"
	got, err := OpposedFaction(2, 0, 4, dice.NewPhysical([]int{7, 5}))
	if err != nil || !got.Success || got.Total != 11 || got.DefTotal != 9 || got.Margin != 2 {
		t.Errorf("OpposedFaction(2, 0, 4) with 7, 5 = %+v, %v; want 11 vs 9, success by 2", got, err)
	}
}

func TestChances(t *testing.T) {
	for _, tt := range []struct {
		name string
		got  float64
		want float64
	}{
		{"straight 4", StraightChance(4), 0.4},
		{"straight 0: only the natural 1", StraightChance(0), 0.1},
		{"straight 15: never the natural 10", StraightChance(15), 0.9},
		{"opposed even: 45 of 100, ties to the defender", OpposedChance(4, 4), 0.45},
		{"opposed +9: the 10 beats 1 rule still loses 1 in 100", OpposedChance(0, 9), 0.01},
		{"opposed -9 the other way: 99 of 100", OpposedChance(9, 0), 0.99},
	} {
		if math.Abs(tt.got-tt.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestHalf(t *testing.T) {
	// "Divided results are always rounded down."
	for _, tt := range []struct{ n, half, min1 int }{{0, 0, 1}, {1, 0, 1}, {2, 1, 1}, {5, 2, 2}, {8, 4, 4}, {-3, -2, 1}} {
		if Half(tt.n) != tt.half || HalfMin1(tt.n) != tt.min1 {
			t.Errorf("Half(%d) = %d, HalfMin1 = %d; want %d, %d", tt.n, Half(tt.n), HalfMin1(tt.n), tt.half, tt.min1)
		}
	}
}

func TestRollTypes(t *testing.T) {
	for _, s := range []string{"straight-faction", "Straight Faction", "opposed_asset", "STRAIGHT-ASSET", "opposed faction"} {
		if _, err := ParseRollType(s); err != nil {
			t.Errorf("ParseRollType(%q): %v", s, err)
		}
	}
	if _, err := ParseRollType("d20"); err == nil {
		t.Error("ParseRollType(d20): no error")
	}
	// "All tests use 1d10, counting from 1 - 10 (not 0 - 9)."
	if _, err := StraightFaction(4, dice.NewPhysical([]int{11})); err == nil {
		t.Error("an 11 on a d10: no error")
	}
}
