package xhalem

import "testing"

func TestRollInitiative(t *testing.T) {
	tests := []struct {
		rule  string
		in    InitiativeInput
		face  int
		stat  string
		total int
	}{
		{"To determine your machine's Initiative, add your Engine score to 1D20.", InitiativeInput{Kind: Machine, Score: 4}, 13, "engine", 17},
		{"To determine your creature's Initiative, add your Evasion score to 1D20.", InitiativeInput{Kind: Creature, Score: 2}, 13, "evasion", 15},
		{"adding Engine or Evasion scores, and whatever other benefits or penalties", InitiativeInput{Kind: Machine, Score: 4, Bonus: -3}, 13, "engine", 14},
	}
	for _, tt := range tests {
		if got := InitiativeStat(tt.in.Kind); got != tt.stat {
			t.Errorf("InitiativeStat(%s) = %s, want %s (%s)", tt.in.Kind, got, tt.stat, tt.rule)
		}
		r, done := table(t, tt.face)
		roll, err := RollInitiative(tt.in, r)
		if err != nil {
			t.Fatal(err)
		}
		done()
		if roll.Total != tt.total {
			t.Errorf("%+v rolling %d: %d, want %d (%s)", tt.in, tt.face, roll.Total, tt.total, tt.rule)
		}
	}
}

func TestBefore(t *testing.T) {
	tests := []struct {
		rule  string
		a, b  Combatant
		first int
		tie   Tie
	}{
		{"with the combatant with the highest score going first",
			Combatant{Total: 18, Side: Player}, Combatant{Total: 12, Side: Architect}, 1, NoTie},
		{"with the combatant with the highest score going first",
			Combatant{Total: 9, Side: Architect}, Combatant{Total: 12, Side: Player}, -1, NoTie},
		{"If a tie occurs among Architect-controlled combatants, the Architect can determine the order.",
			Combatant{Total: 14, Score: 5, Side: Architect}, Combatant{Total: 14, Score: 2, Side: Architect}, 0, TieArchitect},
		{"If a tie occurs between the Architect-controlled combatants and the player-controlled combatants, both the Architect and the player must reroll for Initiative.",
			Combatant{Total: 14, Score: 5, Side: Player}, Combatant{Total: 14, Score: 2, Side: Architect}, 0, TieReroll},
		{"If the tie occurs between player-controlled combatants, the player with the highest Engine score (machine) or Evasion score (creature) will succeed.",
			Combatant{Total: 14, Score: 5, Side: Player}, Combatant{Total: 14, Score: 2, Side: Player}, 1, TieScore},
		{"If the tie occurs between player-controlled combatants, the player with the highest Engine score (machine) or Evasion score (creature) will succeed.",
			Combatant{Total: 14, Score: 1, Side: Player}, Combatant{Total: 14, Score: 2, Side: Player}, -1, TieScore},
		{"If this option doesn't resolve a tie, the players will have to reroll for Initiative.",
			Combatant{Total: 14, Score: 3, Side: Player}, Combatant{Total: 14, Score: 3, Side: Player}, 0, TieReroll},
	}
	for _, tt := range tests {
		first, tie := Before(tt.a, tt.b)
		if first != tt.first || tie != tt.tie {
			t.Errorf("Before(%+v, %+v) = %d, %q; want %d, %q (%s)", tt.a, tt.b, first, tie, tt.first, tt.tie, tt.rule)
		}
	}
}
