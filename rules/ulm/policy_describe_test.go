package ulm_test

import (
	"slices"
	"testing"

	"github.com/tablehand/tablehand/rules/encounter"
	"github.com/tablehand/tablehand/rules/ulm"
)

// The tracker's line of a ulm combatant, in the text's words: the Injury
// Panel against Hit Points, its damage by type, the statuses with their
// time left ("Knocked Out for 3 Full Rounds", "Shock is applied to them
// for 1 hour", the Maim reversible "within 10 Hours"), the Reserved Slots
// held, Momentum, a fall's owed slots; other resources as they are.
func TestPolicyDescribe(t *testing.T) {
	p, ok := ulm.NewPolicy(ulm.DefaultConfig()).(encounter.Describer)
	if !ok {
		t.Fatal("the ulm policy words no tracker line of its own")
	}
	for _, tc := range []struct {
		name string
		c    encounter.CombatantView
		want []string
	}{
		{"fresh", encounter.CombatantView{Resources: map[string]int{"hp": 10, "damage": 0, "slots": 7, "reserved": 0}, Max: map[string]int{"hp": 10}},
			[]string{"damage 0 of 10 HP"}},
		{"knocked out", encounter.CombatantView{Resources: map[string]int{"hp": 8, "damage": 9, "injury_incision": 9, "vulnerable": 1,
			"knocked_out_seconds": 30, "shock_seconds": 3600, "reserved": 0}},
			[]string{"damage 9 of 8 HP", "(incision 9)", "Vulnerable", "Knocked Out for 3 Full Rounds", "in Shock for 1 h"}},
		{"maimed, holding slots, falling", encounter.CombatantView{Resources: map[string]int{"hp": 20, "damage": 23, "injury_holy": 3,
			"injury_puncture": 20, "vulnerable": 1, "maimed": 1, "maim_seconds": 34200, "shock_seconds": 2700, "reserved": 4,
			"momentum": 1, "fall_slots": 2, "ammo": 3}, Max: map[string]int{"ammo": 6}},
			[]string{"damage 23 of 20 HP", "(puncture 20, holy 3)", "Vulnerable", "Maimed (reversible for 9 h 30 min)",
				"in Shock for 45 min", "4 Reserved Slots", "Momentum", "falling: owes 2 Action Slots", "ammo 3/6"}},
		{"dead", encounter.CombatantView{Resources: map[string]int{"hp": 5, "damage": 9, "injury_untyped": 9, "vulnerable": 1, "dead": 1}},
			[]string{"damage 9 of 5 HP", "(untyped 9)", "dead"}},
	} {
		if got := p.Describe(tc.c); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
