package xhalem

import "fmt"

// InitiativeStat names the score a combatant adds to its Initiative roll:
// "To determine your machine's Initiative, add your Engine score to 1D20.
// To determine your creature's Initiative, add your Evasion score to 1D20."
func InitiativeStat(k Kind) string {
	if k == Machine {
		return "engine"
	}
	return "evasion"
}

// InitiativeInput is one combatant's (or one Architect group's) Initiative
// roll.
type InitiativeInput struct {
	Kind  Kind
	Score int // Engine (machine) or Evasion (creature)
	Bonus int // "whatever other benefits or penalties"
}

// RollInitiative rolls 1D20 + Engine (machine) or Evasion (creature) +
// bonus. A group the Architect controls rolls once for all its members.
func RollInitiative(in InitiativeInput, r ExprRoller) (Roll, error) {
	roll, err := d20(r, Normal, in.Score+in.Bonus)
	if err != nil {
		return Roll{}, fmt.Errorf("initiative: %w", err)
	}
	return roll, nil
}

// Side is who controls a combatant.
type Side string

// Sides.
const (
	Player    Side = "player"
	Architect Side = "architect"
)

// Sides are the words of a Side: "player" or "architect" ("gm" is the
// Architect); "" is a player.
var Sides = Words[Side]{What: "side", List: []Word[Side]{
	{[]string{"player", ""}, Player},
	{[]string{"architect", "gm"}, Architect},
}}

// ParseSide reads a Side (Sides).
func ParseSide(s string) (Side, error) { return Sides.Parse(s) }

// Tie says how a tie in Initiative is settled.
type Tie string

// Ties.
const (
	NoTie Tie = ""
	// TieArchitect: "If a tie occurs among Architect-controlled combatants,
	// the Architect can determine the order."
	TieArchitect Tie = "architect decides"
	// TieReroll: "If a tie occurs between the Architect-controlled
	// combatants and the player-controlled combatants, both the Architect
	// and the player must reroll for Initiative." and, between players,
	// "If this option doesn't resolve a tie, the players will have to
	// reroll for Initiative."
	TieReroll Tie = "reroll"
	// TieScore: "If the tie occurs between player-controlled combatants, the
	// player with the highest Engine score (machine) or Evasion score
	// (creature) will succeed."
	TieScore Tie = "higher score"
)

// Combatant is one entry of the Initiative list.
type Combatant struct {
	Total int  // the Initiative score rolled
	Score int  // Engine (machine) or Evasion (creature), for ties
	Side  Side // who controls it
}

// Before reports whether a acts before b: first is 1 when a goes first, -1
// when b does, 0 when the tie is left to the Architect or a reroll. "The
// Initiative scores are then placed in order from highest to lowest, with
// the combatant with the highest score going first."
func Before(a, b Combatant) (first int, tie Tie) {
	switch {
	case a.Total > b.Total:
		return 1, NoTie
	case a.Total < b.Total:
		return -1, NoTie
	case a.Side == Architect && b.Side == Architect:
		return 0, TieArchitect
	case a.Side != b.Side:
		return 0, TieReroll
	case a.Score > b.Score:
		return 1, TieScore
	case a.Score < b.Score:
		return -1, TieScore
	}
	return 0, TieReroll
}
