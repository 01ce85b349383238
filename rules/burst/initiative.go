package burst

import (
	"errors"
	"fmt"
	"strconv"
)

// BaseActions: "You begin with 2 Actions. ... You gain additional actions
// through upgrading skill trees and learning talents."
const BaseActions = 2

// MaxActions bounds the actions a creature has.
const MaxActions = 20

// Ambush is a combatant's side of an ambush.
type Ambush int

// Ambush sides.
const (
	NoAmbush Ambush = iota
	// Ambusher: "When the attack is launched, Ambushers gain 1 extra
	// action for the first round."
	Ambusher
	// Ambushed: "Ambushed characters may only take 1 action at the
	// beginning of the first round."
	Ambushed
)

var ambushNames = []string{"none", "ambusher", "ambushed"}

// Ambushes lists the ambush names.
func Ambushes() []string { return append([]string(nil), ambushNames...) }

func (a Ambush) String() string { return nameOf(ambushNames, int(a)) }

// ParseAmbush reads an ambush side; "" is none.
func ParseAmbush(name string) (Ambush, error) {
	if name == "" {
		return NoAmbush, nil
	}
	i, err := parseName("ambush", ambushNames, name)
	return Ambush(i), err
}

// Watch is Over Watch: "A combatant that is actively expecting an attack
// from a narrow vector is considered in Over Watch."
type Watch int

// Over Watch outcomes.
const (
	NoWatch Watch = iota
	// Expected: "gain a +1 bonus dice to initiative on the first turn of
	// combat so long as it initiated form the expected attack vector"
	Expected
	// Other: "if an attack is initiated from another vector, the Over
	// Watch combatant is considered Ambushed."
	OtherVector
)

var watchNames = []string{"none", "expected", "other"}

// Watches lists the Over Watch names.
func Watches() []string { return append([]string(nil), watchNames...) }

func (w Watch) String() string { return nameOf(watchNames, int(w)) }

// ParseWatch reads an Over Watch outcome; "" is none.
func ParseWatch(name string) (Watch, error) {
	if name == "" {
		return NoWatch, nil
	}
	i, err := parseName("watch", watchNames, name)
	return Watch(i), err
}

// InitiativeInput is one combatant's initiative roll: "When combat begins,
// all participants who wish to act roll their action dice. Talents or
// skills might add bonus dice, as might situational modifiers."
type InitiativeInput struct {
	Bonus   Bonus
	Actions int // actions a turn; 0 is BaseActions
	Ambush  Ambush
	Watch   Watch
}

// InitiativeResult is a combatant's initiative and first round.
type InitiativeResult struct {
	Roll Roll `json:"roll"`
	// WatchDice is the Over Watch bonus die, included in Roll.
	WatchDice int `json:"watch_dice"`
	// Ambushed is true for the ambushed, Over Watch from another vector
	// included.
	Ambushed bool `json:"ambushed"`
	// Actions is the actions of each turn; FirstRound those of the first.
	Actions    int `json:"actions"`
	FirstRound int `json:"first_round"`
}

// GivenInitiative is Initiative for a score rolled at the table: total is
// the action roll with its bonus dice, as the text defines the score
// ("all participants who wish to act roll their action dice. Talents or
// skills might add bonus dice"); no die is rolled, and the rest (the first
// round's actions, Over Watch, ambush) is as Initiative's.
func GivenInitiative(in InitiativeInput, total int) (InitiativeResult, error) {
	out, b, err := initiativeSetup(in)
	if err != nil {
		return InitiativeResult{}, err
	}
	if err := b.validate(); err != nil {
		return InitiativeResult{}, err
	}
	out.Roll = Roll{Expr: strconv.Itoa(total), BonusDice: b.Dice, Total: total}
	return out, nil
}

// Initiative rolls initiative. "Each round, all fighters act in order of
// their initiative roll from highest to lowest."
func Initiative(in InitiativeInput, d Dice) (InitiativeResult, error) {
	out, b, err := initiativeSetup(in)
	if err != nil {
		return InitiativeResult{}, err
	}
	r, err := ActionRoll(b, "initiative", d)
	if err != nil {
		return InitiativeResult{}, err
	}
	out.Roll = r
	return out, nil
}

// initiativeSetup is the part of Initiative that rolls nothing: the
// actions of the first round, and the bonus dice of the roll.
func initiativeSetup(in InitiativeInput) (InitiativeResult, Bonus, error) {
	actions := in.Actions
	if actions == 0 {
		actions = BaseActions
	}
	if actions < 1 || actions > MaxActions {
		return InitiativeResult{}, Bonus{}, fmt.Errorf("actions must be 1 to %d, not %d", MaxActions, actions)
	}
	if in.Watch != NoWatch && in.Ambush != NoAmbush {
		return InitiativeResult{}, Bonus{}, errors.New("give Over Watch or an ambush side, not both: Over Watch from another vector already counts as ambushed")
	}
	out := InitiativeResult{Actions: actions, FirstRound: actions}
	b := in.Bonus
	switch in.Watch {
	case Expected:
		out.WatchDice = 1
		b.Dice++
	case OtherVector:
		out.Ambushed = true
	}
	switch in.Ambush {
	case Ambusher:
		out.FirstRound = actions + 1
	case Ambushed:
		out.Ambushed = true
	}
	if out.Ambushed {
		out.FirstRound = 1
	}
	return out, b, nil
}
