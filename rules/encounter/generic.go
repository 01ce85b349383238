package encounter

import (
	"slices"
	"strconv"

	"github.com/tablehand/tablehand/rules/dice"
)

// GenericName is the name of the Generic policy.
const GenericName = "generic"

// Stats the Generic policy reads.
const (
	// StatInit is added to the 1d20 of initiative, and breaks ties.
	StatInit = "init"
	// StatInitiative, when a combatant has it, is its initiative as given
	// (rolled at the table, say): no die is rolled for it.
	StatInitiative = "initiative"
)

// maxTieRolls bounds the rounds of d20s rolled to break one tie, so that
// physical dice that keep tying end; a tie still left keeps the order the
// combatants were added in.
const maxTieRolls = 5

// Generic is the policy of a fight with no system. It is neutral, and it
// is the one the package is tested with:
//
//   - Order: each combatant's initiative is the score given at the table
//     (StatGiven, told as a roll with no die) or its "initiative" stat if
//     it has one, else 1d20 + its "init" stat; highest first. A tie goes to
//     the higher "init"; those still tied each roll 1d20 (a "tie-break"),
//     highest first, again while they tie, at most 5 times. A hidden
//     combatant ties only with hidden ones, after those the players see:
//     so its tie-breaks are secret, and a visible combatant rolls one only
//     when tied with another the players see. Dice are rolled in the order
//     the combatants were added, then the tie-breaks.
//   - Insert: a newcomer rolls the same way and goes before the first
//     combatant it beats on initiative then "init", so after everyone it
//     ties with: it does not make the others roll again.
//   - Damage and Heal: the "hp" resource, as Base does; no budget; counters
//     reset at the start of each combatant's turn.
type Generic struct{ Base }

// Name returns "generic".
func (Generic) Name() string { return GenericName }

// Order rolls initiative for everyone and sorts the order.
func (Generic) Order(e *Encounter, r dice.Roller) ([]Roll, error) {
	var rolls []Roll
	for i := range e.Combatants {
		c := &e.Combatants[i]
		roll, err := genericInitiative(c, r)
		if err != nil {
			return nil, err
		}
		if roll != nil {
			rolls = append(rolls, *roll)
		}
	}
	// Highest key first, element by element (slices.Compare: a missing
	// element ranks below any value).
	slices.SortStableFunc(e.Combatants, func(a, b Combatant) int { return slices.Compare(b.Initiative, a.Initiative) })
	more, err := BreakTiesSeenFirst(e.Combatants,
		func(a, b *Combatant) bool { return slices.Compare(a.Initiative, b.Initiative) == 0 },
		func(group []Combatant) ([]Roll, error) { return breakTies(group, 0, r) })
	return append(rolls, more...), err
}

// BreakTiesSeenFirst breaks the ties of cs, sorted best first, where
// tied(a, b) says two neighbours are tied: in each run of tied
// combatants, those the players see come first, and break their tie among
// themselves with breakTie (which sorts its group); a hidden combatant
// ties only with hidden ones, after those the players see, and their ties
// are broken after every tie of those the players see. So no one the
// players see rolls a tie-break because of a hidden combatant, and the
// players' tie-break dice are the ones they would be without them
// (issue 20). Each system's Order that breaks ties calls it, or
// BreakTiesSeenFirstFunc for what it orders other than combatants.
func BreakTiesSeenFirst(cs []Combatant, tied func(a, b *Combatant) bool, breakTie func(group []Combatant) ([]Roll, error)) ([]Roll, error) {
	return BreakTiesSeenFirstFunc(cs, tied, func(c *Combatant) bool { return c.Hidden }, breakTie)
}

// BreakTiesSeenFirstFunc is BreakTiesSeenFirst for any xs, hidden(x)
// saying whether the players see x.
func BreakTiesSeenFirstFunc[T any](xs []T, tied func(a, b *T) bool, hidden func(*T) bool, breakTie func(group []T) ([]Roll, error)) ([]Roll, error) {
	var rolls []Roll
	var hiddenTies [][]T
	for i := 0; i < len(xs); {
		j := i + 1
		for j < len(xs) && tied(&xs[i], &xs[j]) {
			j++
		}
		if j-i > 1 {
			seen, hid := visibleFirst(xs[i:j], hidden)
			if len(seen) > 1 {
				more, err := breakTie(seen)
				if err != nil {
					return nil, err
				}
				rolls = append(rolls, more...)
			}
			if len(hid) > 1 {
				hiddenTies = append(hiddenTies, hid)
			}
		}
		i = j
	}
	for _, group := range hiddenTies {
		more, err := breakTie(group)
		if err != nil {
			return nil, err
		}
		rolls = append(rolls, more...)
	}
	return rolls, nil
}

// visibleFirst puts the members of group, tied on every key so far, the
// players see before the hidden ones (a tie with a hidden combatant is no
// business of the players), and returns both parts.
func visibleFirst[T any](group []T, hidden func(*T) bool) (seen, hid []T) {
	slices.SortStableFunc(group, func(a, b T) int {
		ha, hb := hidden(&a), hidden(&b)
		switch {
		case ha == hb:
			return 0
		case ha:
			return 1
		}
		return -1
	})
	k := slices.IndexFunc(group, func(x T) bool { return hidden(&x) })
	if k < 0 {
		k = len(group)
	}
	return group[:k], group[k:]
}

// Insert rolls the newcomer's initiative and places it after everyone it
// does not beat.
func (Generic) Insert(e *Encounter, c *Combatant, r dice.Roller) (int, []Roll, error) {
	roll, err := genericInitiative(c, r)
	if err != nil {
		return 0, nil, err
	}
	var rolls []Roll
	if roll != nil {
		rolls = append(rolls, *roll)
	}
	for i := range e.Combatants {
		if slices.Compare(c.Initiative, prefix(e.Combatants[i].Initiative, 2)) > 0 {
			return i, rolls, nil
		}
	}
	return len(e.Combatants), rolls, nil
}

// genericInitiative sets c's Initiative to (initiative, init) and returns
// the roll, or nil when c's initiative was given.
func genericInitiative(c *Combatant, r dice.Roller) (*Roll, error) {
	bonus := c.Stats[StatInit]
	c.InitiativeRolls = nil
	if v, ok := Given(c); ok {
		c.Initiative = []int{v, bonus}
		roll := GivenRoll(c, "initiative", v, "")
		c.InitiativeRolls = []Roll{roll}
		return &roll, nil
	}
	if v, ok := c.Stats[StatInitiative]; ok {
		c.Initiative = []int{v, bonus}
		return nil, nil
	}
	expr := "1d20"
	switch {
	case bonus > 0:
		expr += "+" + strconv.Itoa(bonus)
	case bonus < 0:
		expr += strconv.Itoa(bonus)
	}
	roll, err := RollExpr(r, c, "initiative", expr)
	if err != nil {
		return nil, err
	}
	c.Initiative = []int{roll.Total, bonus}
	c.InitiativeRolls = []Roll{roll}
	return &roll, nil
}

// breakTies orders group, combatants tied on every key so far, by a d20
// each, highest first, again among those still tied.
func breakTies(group []Combatant, depth int, r dice.Roller) ([]Roll, error) {
	if depth >= maxTieRolls {
		return nil, nil
	}
	var rolls []Roll
	for i := range group {
		c := &group[i]
		roll, err := RollExpr(r, c, "tie-break", "1d20")
		if err != nil {
			return nil, err
		}
		c.Initiative = append(c.Initiative, roll.Total)
		c.InitiativeRolls = append(c.InitiativeRolls, roll)
		rolls = append(rolls, roll)
	}
	slices.SortStableFunc(group, func(a, b Combatant) int { return slices.Compare(b.Initiative, a.Initiative) })
	for i := 0; i < len(group); {
		j := i + 1
		for j < len(group) && slices.Compare(group[i].Initiative, group[j].Initiative) == 0 {
			j++
		}
		if j-i > 1 {
			more, err := breakTies(group[i:j], depth+1, r)
			if err != nil {
				return nil, err
			}
			rolls = append(rolls, more...)
		}
		i = j
	}
	return rolls, nil
}

func prefix(s []int, n int) []int { return s[:min(n, len(s))] }
