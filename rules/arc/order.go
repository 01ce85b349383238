package arc

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Participant is one character in the declarations of a turn.
type Participant struct {
	Name                     string
	SOM, Empathy, Perception int
	// Unaware: "Any character involved in the actions of a turn who is
	// unaware of what is happening (i.e. surprised or unconscious) will not
	// be part of the declarations for that turn, he will act only in the
	// next turn."
	Unaware bool
	// TieRolls are the d10s this character rolled to break ties, in the
	// order rolled. DeclarationOrder fills them; giving them back on the
	// next turn keeps the order: "Once the order of declaration is
	// established in the first turn, this is maintained and updated (in
	// case of changes in SOM) for the whole event. New characters jumping
	// into the action are inserted in the previously established order."
	TieRolls []int
	// Hidden: a combatant the players do not see (the tracker's). It ties
	// only with hidden ones, after those the players see, and their ties
	// are broken after every other, so that no one the players see rolls
	// a d10 because of it, and their d10s are the ones they would be
	// without it (issue 20).
	Hidden bool
}

// Order is the declaration order of a turn.
type Order struct {
	// Declare holds the characters who declare, first to last, with the
	// d10s they rolled for ties in TieRolls.
	Declare []Participant
	// Waiting holds the unaware characters, as given: they act from the
	// next turn, when DeclarationOrder inserts them.
	Waiting []Participant
	// Unresolved is set when a tie was still unbroken after maxTieRounds
	// rounds of d10s; those characters keep the order they were given in.
	Unresolved bool
}

// maxTieRounds bounds the d10s rolled for one tie. The text stops at "then
// the result of a 1d10 roll" and does not say what happens when the d10s
// tie too: they are rolled again among the still tied characters, up to
// this many rounds, so a run of physical dice that keep tying ends.
const maxTieRounds = 5

// DeclarationOrder orders the declarations of a turn: "the declarations are
// in ascending order of State of Mind, from the character with the lowest
// score up to the highest one. In case of tie, the characters follow the
// ascending order of Empathy, then of Perception, then the result of a 1d10
// roll." The d10s are ascending too, like every key before them; they are
// rolled only for characters still tied, in the order given, and only when
// a character has no d10 of that round from an earlier turn.
func DeclarationOrder(ps []Participant, r dice.Roller) (Order, error) {
	seen := map[string]bool{}
	var o Order
	for _, p := range ps {
		key := strings.ToLower(strings.TrimSpace(p.Name))
		if key == "" {
			return Order{}, fmt.Errorf("every character in the declarations needs a name")
		}
		if seen[key] {
			return Order{}, fmt.Errorf("%s is in the declarations twice", p.Name)
		}
		seen[key] = true
		if p.SOM < MinSOM || p.SOM > MaxSOM {
			return Order{}, fmt.Errorf("%s: SOM must be %d to %d, not %d", p.Name, MinSOM, MaxSOM, p.SOM)
		}
		for _, s := range []struct {
			v    int
			name string
		}{{p.Empathy, "Empathy"}, {p.Perception, "Perception"}} {
			if s.v < -maxScore || s.v > maxScore {
				return Order{}, fmt.Errorf("%s: %s %d is out of range (at most ±%d)", p.Name, s.name, s.v, maxScore)
			}
		}
		p.TieRolls = slices.Clone(p.TieRolls)
		if p.Unaware {
			o.Waiting = append(o.Waiting, p)
		} else {
			o.Declare = append(o.Declare, p)
		}
	}
	slices.SortStableFunc(o.Declare, compareScores)
	// The ties of those the players see first, then the hidden ones'.
	for _, hidden := range []bool{false, true} {
		for _, g := range tieGroups(o.Declare) {
			if g[0].Hidden != hidden {
				continue
			}
			unresolved, err := breakTies(g, 0, r)
			if err != nil {
				return Order{}, err
			}
			o.Unresolved = o.Unresolved || unresolved
		}
	}
	return o, nil
}

// tieGroups are the runs of ps, sorted by compareScores, of two or more
// tied characters.
func tieGroups(ps []Participant) [][]Participant {
	var out [][]Participant
	for i := 0; i < len(ps); {
		j := i + 1
		for j < len(ps) && compareScores(ps[i], ps[j]) == 0 {
			j++
		}
		if j-i > 1 {
			out = append(out, ps[i:j])
		}
		i = j
	}
	return out
}

// compareScores orders by SOM, then Empathy, then Perception; a hidden
// character after one the players see with the same scores, which it does
// not tie with (see Participant.Hidden).
func compareScores(a, b Participant) int {
	return cmp.Or(cmp.Compare(a.SOM, b.SOM), cmp.Compare(a.Empathy, b.Empathy), cmp.Compare(a.Perception, b.Perception),
		cmp.Compare(hiddenRank(a), hiddenRank(b)))
}

func hiddenRank(p Participant) int {
	if p.Hidden {
		return 1
	}
	return 0
}

// breakTies orders group, characters tied on every score, by their d10s of
// round and later rounds. unresolved reports a tie left after maxTieRounds.
func breakTies(group []Participant, round int, r dice.Roller) (unresolved bool, err error) {
	if round >= maxTieRounds {
		return true, nil
	}
	for i := range group {
		if len(group[i].TieRolls) > round {
			continue // rolled on an earlier turn: the order is maintained
		}
		v, err := r.Roll(10)
		if err != nil {
			return false, fmt.Errorf("roll 1d10 to break the tie of %s: %w", group[i].Name, err)
		}
		group[i].TieRolls = append(group[i].TieRolls[:round], v)
	}
	slices.SortStableFunc(group, func(a, b Participant) int { return cmp.Compare(a.TieRolls[round], b.TieRolls[round]) })
	for i := 0; i < len(group); {
		j := i + 1
		for j < len(group) && group[j].TieRolls[round] == group[i].TieRolls[round] {
			j++
		}
		if j-i > 1 {
			u, err := breakTies(group[i:j], round+1, r)
			if err != nil {
				return false, err
			}
			unresolved = unresolved || u
		}
		i = j
	}
	return unresolved, nil
}
