package burst

import (
	"errors"
	"fmt"

	"github.com/tablehand/tablehand/rules/words"
)

// BaseGuard is a creature's Guard before armor and abilities: "your
// target's Guard, which is 15 plus any bonuses from armor and abilities".
const BaseGuard = 15

// MaxGuard bounds a Guard given as input.
const MaxGuard = 1000

// Vigor costs the text states.
const (
	// DefenseVigor: "Using the Defense reaction consumes 5 Vigor."
	DefenseVigor = 5
	// DefendDiscount: the Defend action reduces "the Vigor cost of
	// defensive reactions until the beginning of your next turn by 2".
	DefendDiscount = 2
	// OpeningVigor: "you may use a reaction to make an ordinary attack
	// action at the cost of 5 Vigor".
	OpeningVigor = 5
	// OffHandVigor: "you may consume 8 Vigor to make an Off-Hand attack".
	OffHandVigor = 8
	// OffHandChallenges: "The Off-Hand attack suffers a 2 Challenge
	// penalty to your Bonus Dice to hit and damage."
	OffHandChallenges = 2
	// WindedUntil: Winded "remains until you recover at least 5 points of
	// Vigor".
	WindedUntil = 5
)

// attackWith is what an attack is made with, in the order offered: its
// word, how a mistake names it, and the ability whose bonus dice it adds:
// "Agility for weapons and hand to hand, Soul for spells, and Speed for
// many techniques."
var attackWith = []struct{ word, phrase, stat string }{
	{"weapon", "a weapon", "agility"},
	{"unarmed", "unarmed", "agility"},
	{"spell", "a spell", "soul"},
	{"technique", "a technique", "speed"},
}

// AttackWith lists what an attack is made with: the words AttackStat
// reads.
func AttackWith() []string {
	out := make([]string, len(attackWith))
	for i, a := range attackWith {
		out[i] = a.word
	}
	return out
}

// AttackStat returns the ability whose bonus dice an attack adds. with is
// one of AttackWith; "" is a weapon.
func AttackStat(with string) (string, error) {
	if with == "" {
		with = "weapon"
	}
	phrases := make([]string, len(attackWith))
	for i, a := range attackWith {
		if a.word == with {
			return a.stat, nil
		}
		phrases[i] = a.phrase
	}
	return "", fmt.Errorf("an attack is with %s, not %q", words.Or(phrases), with)
}

// GuardInput is the target's side of an attack.
type GuardInput struct {
	// Guard is the target's own Guard: 15 plus armor and abilities.
	Guard int
	// Behind: "When you are attacking an opponent from behind [who is
	// unaware], your opponent's Guard is reduced by half, rounding up."
	Behind bool
	Ranged bool // an attack at range: cover and visibility count only then
	Area   bool // an area attack: light cover does not count
	Cover  Cover
	// Size and TargetSize are the attacker's and the target's sizes.
	Size, TargetSize Size
	Visibility       Visibility
	// Feet is the distance to the target, 0 when not given: checked
	// against the visibility's range limit and point blank.
	Feet int
}

// GuardResult is the number an attack must beat, and how it came about.
type GuardResult struct {
	Base       int  `json:"base"`       // the target's own Guard
	Behind     bool `json:"behind"`     // halved, rounding up
	Cover      int  `json:"cover"`      // from cover
	Size       int  `json:"size"`       // from size
	Guard      int  `json:"guard"`      // Guard after all of it
	Visibility int  `json:"visibility"` // VS penalty to hit from visibility
	Target     int  `json:"target"`     // Guard + Visibility: the attack must roll higher
}

// TargetGuard works out the Guard an attack must beat.
func TargetGuard(in GuardInput, cfg Config) (GuardResult, error) {
	if in.Guard < 1 || in.Guard > MaxGuard {
		return GuardResult{}, fmt.Errorf("guard must be 1 to %d, not %d", MaxGuard, in.Guard)
	}
	if in.Feet < 0 {
		return GuardResult{}, fmt.Errorf("the distance cannot be negative (%d feet)", in.Feet)
	}
	if !in.Ranged {
		// "Cover comes into play when an attacker at range is targeting an
		// opponent"; visibility causes "penalties to ranges attacks".
		switch {
		case in.Cover != NoCover:
			return GuardResult{}, errors.New("cover only counts against attacks at range: say the attack is ranged")
		case in.Visibility != Normal:
			return GuardResult{}, errors.New("visibility only penalises attacks at range: say the attack is ranged")
		case in.Area:
			return GuardResult{}, errors.New("an area attack here is one at range: say the attack is ranged")
		}
	}
	g := GuardResult{Base: in.Guard, Behind: in.Behind, Size: SizeGuard(in.Size, in.TargetSize)}
	if in.Ranged {
		g.Cover = in.Cover.Guard(in.Area)
		pen, err := in.Visibility.RangedPenalty(in.Feet, cfg)
		if err != nil {
			return GuardResult{}, err
		}
		g.Visibility = pen
	}
	switch {
	case !in.Behind:
		g.Guard = g.Base + g.Cover + g.Size
	case cfg.BehindHalvesBaseGuard:
		g.Guard = halfUp(g.Base) + g.Cover + g.Size
	default:
		g.Guard = halfUp(g.Base + g.Cover + g.Size)
	}
	g.Target = g.Guard + g.Visibility
	return g, nil
}

func halfUp(n int) int { return (n + 1) / 2 }

// AttackInput is one attack roll, and the target's Defense if it reacts.
type AttackInput struct {
	Bonus Bonus
	Label string // the ability the bonus dice come from
	Guard GuardInput
	// Prone: the target is knocked down; "ranged attacks against you are
	// made with a Challenge".
	Prone bool
	// OffHand: the off-hand attack made as part of an attack action, for 8
	// Vigor and two challenges.
	OffHand bool
	// Opening: the attack is the Take Opening reaction, for 5 Vigor.
	Opening bool
	// Vigor is the attacker's Vigor before the attack, when known.
	Vigor *int
	// Defense, when set, is the target's Defense reaction; its Attack is
	// filled in from the attack roll.
	Defense *DefenseInput
}

// AttackResult is the outcome of an attack.
type AttackResult struct {
	Roll       Roll        `json:"roll"`
	Challenges int         `json:"challenges"` // on the bonus dice, off-hand and prone included
	Guard      GuardResult `json:"guard"`
	// Hit: "To land your attack, you must roll higher than your target's
	// Guard".
	Hit         bool           `json:"hit"`
	GuardMargin int            `json:"guard_margin"` // total - Guard target
	Defense     *DefenseResult `json:"defense,omitempty"`
	// Success: the attack lands, past Guard and any Defense.
	Success bool `json:"success"`
	// Margin is against what decided: the Defense roll if it was rolled,
	// else the Guard.
	Margin    int  `json:"margin"`
	VigorCost int  `json:"vigor_cost"`
	Vigor     *int `json:"vigor,omitempty"` // left after the cost
	Winded    bool `json:"winded,omitempty"`
}

// Attack rolls an attack: "An attack roll is your action dice plus any
// Bonus Dice against your target's Guard." When the attack beats the Guard
// and the target reacts, it then rolls its Defense: "Once an attack is
// rolled, the defender has the option to use a reaction". An attack that
// misses needs no reaction, so none is rolled.
func Attack(in AttackInput, cfg Config, d Dice) (AttackResult, error) {
	if in.OffHand && in.Opening {
		return AttackResult{}, errors.New("an off-hand attack is part of an attack action on your turn; taking an opening is a reaction, which you cannot take on your turn")
	}
	g, err := TargetGuard(in.Guard, cfg)
	if err != nil {
		return AttackResult{}, err
	}
	out := AttackResult{Guard: g}
	switch {
	case in.OffHand:
		out.VigorCost = OffHandVigor
	case in.Opening:
		out.VigorCost = OpeningVigor
	}
	if in.Vigor != nil {
		left, winded, err := SpendVigor(*in.Vigor, out.VigorCost)
		if err != nil {
			return AttackResult{}, err
		}
		out.Vigor, out.Winded = &left, winded
	}
	b := in.Bonus
	if in.OffHand {
		b.Challenges += OffHandChallenges
	}
	if in.Prone && in.Guard.Ranged {
		b.Challenges++
	}
	out.Challenges = b.Challenges
	label := in.Label
	if label == "" {
		label = "bonus"
	}
	r, err := ActionRoll(b, label, d)
	if err != nil {
		return AttackResult{}, err
	}
	out.Roll = r
	out.GuardMargin = r.Total - g.Target
	out.Hit = out.GuardMargin > 0
	out.Success, out.Margin = out.Hit, out.GuardMargin
	if !out.Hit || in.Defense == nil {
		return out, nil
	}
	def := *in.Defense
	def.Attack = r.Total
	def.Prone = def.Prone || in.Prone
	dr, err := Defend(def, cfg, d)
	if err != nil {
		return AttackResult{}, fmt.Errorf("the target's defense: %w", err)
	}
	out.Defense = &dr
	out.Success, out.Margin = !dr.Success, r.Total-dr.Roll.Total
	return out, nil
}

// DefenseInput is the Defense reaction (Dodge, Deflect or Block).
type DefenseInput struct {
	Attack int // the attack roll's total to beat
	// Speed is the defender's Speed bonus dice: "Roll your action dice
	// (1d20) plus any Bonus Dice you have from Speed."
	Speed      int
	Charges    int
	Challenges int
	Wounded    bool
	// Prone: "your Speed is reduced to 1/4 for calculating your movement
	// and your Bonus Dice to Defense".
	Prone bool
	// Defending: the defender took the Defend action, "reducing the Vigor
	// cost of defensive reactions until the beginning of your next turn
	// by 2".
	Defending bool
	// Vigor is the defender's Vigor before the reaction, when known.
	Vigor *int
}

// DefenseResult is the outcome of a Defense reaction.
type DefenseResult struct {
	Roll      Roll `json:"roll"`
	SpeedDice int  `json:"speed_dice"` // bonus dice after prone
	Attack    int  `json:"attack"`
	// Success: "If you score higher than your attacker's roll, you
	// successfully evade the attack." and "If they tie, the contest goes
	// to the attacker, and the strike hits."
	Success   bool `json:"success"`
	Margin    int  `json:"margin"` // defense total - attack total
	VigorCost int  `json:"vigor_cost"`
	Vigor     *int `json:"vigor,omitempty"`
	Winded    bool `json:"winded,omitempty"`
}

// Defend rolls the Defense reaction against an attack roll.
func Defend(in DefenseInput, cfg Config, d Dice) (DefenseResult, error) {
	if in.Attack < 1 {
		return DefenseResult{}, fmt.Errorf("the attack roll to beat must be at least 1, not %d", in.Attack)
	}
	if in.Speed < 0 {
		return DefenseResult{}, fmt.Errorf("speed bonus dice cannot be negative (%d)", in.Speed)
	}
	out := DefenseResult{Attack: in.Attack, SpeedDice: in.Speed, VigorCost: DefenseVigor}
	if in.Prone {
		out.SpeedDice = Quarter(in.Speed, cfg)
	}
	if in.Defending {
		out.VigorCost -= DefendDiscount
	}
	if in.Vigor != nil {
		left, winded, err := SpendVigor(*in.Vigor, out.VigorCost)
		if err != nil {
			return DefenseResult{}, err
		}
		out.Vigor, out.Winded = &left, winded
	}
	r, err := ActionRoll(Bonus{Dice: out.SpeedDice, Charges: in.Charges, Challenges: in.Challenges, Wounded: in.Wounded}, "speed", d)
	if err != nil {
		return DefenseResult{}, err
	}
	out.Roll = r
	out.Margin = r.Total - in.Attack
	out.Success = out.Margin > 0
	return out, nil
}

// Quarter returns a quarter of n, rounded as cfg.ProneRoundUp says: the
// prone creature's Speed "is reduced to 1/4".
func Quarter(n int, cfg Config) int {
	if cfg.ProneRoundUp {
		return (n + 3) / 4
	}
	return n / 4
}

// Movement returns how far one Move action takes a creature, in feet:
// "this is 1 foot per point of your Speed Score", a quarter of it prone.
func Movement(speedScore int, prone bool, cfg Config) int {
	if prone {
		return Quarter(speedScore, cfg)
	}
	return speedScore
}

// SpendVigor pays cost out of vigor. "reactions consume Vigor, which limits
// the number of reactions you may take", so a cost above what is left
// cannot be paid; "If you exhaust your Vigor, you become Winded, and you
// cannot take any actions", so nothing can be done at 0 Vigor, and paying
// the last of it leaves the creature winded.
func SpendVigor(vigor, cost int) (left int, winded bool, err error) {
	if vigor < 0 {
		return 0, false, fmt.Errorf("vigor cannot be negative (%d)", vigor)
	}
	if vigor == 0 {
		return 0, true, fmt.Errorf("winded at 0 Vigor: no actions until %d Vigor is recovered", WindedUntil)
	}
	if cost > vigor {
		return 0, false, fmt.Errorf("not enough Vigor: this costs %d and %d is left", cost, vigor)
	}
	left = vigor - cost
	return left, left == 0, nil
}
