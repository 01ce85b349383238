package arc

import (
	"fmt"

	"github.com/tablehand/tablehand/rules/dice"
)

// SOM bounds: State of Mind is checked against 1d10, "Characters with a SOM
// of 10 (Exalted) ... Characters with a SOM of 1 (Panicked)".
const (
	MinSOM = 1
	MaxSOM = 10
)

// ReactionResult is the outcome of a reaction check.
type ReactionResult struct {
	SOM, Roll int
	// Success: "If the roll is higher than SOM, the check is failed; if it
	// is equal or lower than SOM, the check succeeds."
	Success bool
	// Margin is SOM minus the roll: 0 or more succeeds.
	Margin int
	// LosesTurn: "A failure results in a loss of the turn for the
	// character: he will only act from the following turn onwards."
	LosesTurn bool
}

// Reaction rolls a reaction check: "the comparison of the score of SOM
// against the result of 1d10".
func Reaction(som int, r dice.Roller) (ReactionResult, error) {
	if som < MinSOM || som > MaxSOM {
		return ReactionResult{}, fmt.Errorf("SOM must be %d (Panicked) to %d (Exalted), not %d", MinSOM, MaxSOM, som)
	}
	roll, err := r.Roll(10)
	if err != nil {
		return ReactionResult{}, fmt.Errorf("roll the reaction die (1d10): %w", err)
	}
	return ReactionOf(som, roll)
}

// ReactionOf is the reaction check of SOM som for a 1d10 already rolled.
// "Characters with a SOM of 10 (Exalted) always succeed a reaction check.
// Characters with a SOM of 1 (Panicked) succeed only with a roll of 1."
// Both follow from the general rule on a d10; they are spelt out here so
// the code says what the text says.
func ReactionOf(som, roll int) (ReactionResult, error) {
	if som < MinSOM || som > MaxSOM {
		return ReactionResult{}, fmt.Errorf("SOM must be %d (Panicked) to %d (Exalted), not %d", MinSOM, MaxSOM, som)
	}
	if roll < 1 || roll > 10 {
		return ReactionResult{}, fmt.Errorf("a d10 cannot show %d", roll)
	}
	ok := roll <= som
	switch som {
	case MaxSOM:
		ok = true
	case MinSOM:
		ok = roll == 1
	}
	return ReactionResult{SOM: som, Roll: roll, Success: ok, Margin: som - roll, LosesTurn: !ok}, nil
}
