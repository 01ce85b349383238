package xhalem

import (
	"slices"
	"testing"

	"github.com/tablehand/tablehand/rules/encounter"
)

// given sets c's Initiative as rolled at the table.
func given(c encounter.Combatant, score int) encounter.Combatant {
	c.Stats[encounter.StatGiven] = score
	return c
}

// TestGivenInitiative: a score given at the table is the Initiative, "1D20,
// adding Engine or Evasion scores", with no die rolled for it; its ties are
// settled as the text says: "If a tie occurs between the
// Architect-controlled combatants and the player-controlled combatants,
// both the Architect and the player must reroll for Initiative."; "If the
// tie occurs between player-controlled combatants, the player with the
// highest Engine score (machine) or Evasion score (creature) will
// succeed."
func TestGivenInitiative(t *testing.T) {
	tests := []struct {
		name   string
		cs     []encounter.Combatant
		faces  []int
		order  []string
		rolls  []string
		firstT string
	}{
		{"given beats a roll", []encounter.Combatant{given(creature("Aria", "alice", 3), 15), mech("Drone", "", 2)},
			[]int{1}, []string{"Aria", "Drone"}, []string{"Aria initiative 15", "Drone initiative 3"},
			"15, as rolled at the table (1d20 + Evasion)"},
		{"a tie with the Architect rerolls", []encounter.Combatant{given(mech("Vanguard", "bob", 3), 15), creature("Skrell", "", 2)},
			[]int{13, 4, 9}, []string{"Skrell", "Vanguard"},
			[]string{"Vanguard initiative 15", "Skrell initiative 15", "Vanguard reroll 7", "Skrell reroll 11"},
			"15, as rolled at the table (1d20 + Engine)"},
		{"players tie: the higher score first", []encounter.Combatant{given(creature("Aria", "alice", 1), 12), given(creature("Bo", "bob", 4), 12)},
			nil, []string{"Bo", "Aria"}, []string{"Aria initiative 12", "Bo initiative 12"},
			"12, as rolled at the table (1d20 + Evasion)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ev, err := begin(t, tt.cs, tt.faces...)
			if err != nil {
				t.Fatal(err)
			}
			if got := order(e); !slices.Equal(got, tt.order) {
				t.Errorf("order %v, want %v", got, tt.order)
			}
			if got := rollsOf(ev.Rolls); !slices.Equal(got, tt.rolls) {
				t.Errorf("rolls %v, want %v", got, tt.rolls)
			}
			if r := ev.Rolls[0]; !r.Given || r.Text != tt.firstT || len(r.Faces) != 0 {
				t.Errorf("first roll %+v, want a given one: %q", r, tt.firstT)
			}
		})
	}
}
