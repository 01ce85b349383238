package faction

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// RollType is one of the text's roll types (4.2.1).
type RollType string

// The roll types.
const (
	RollNone RollType = "none"
	// "Straight Faction Roll: 1d10 =< Attribute"
	RollStraightFaction RollType = "straight-faction"
	// "Straight Asset Roll: 1d10 =< [Level*2]"
	RollStraightAsset RollType = "straight-asset"
	// "Opposed Faction Roll: [(Level*2) + 1d10] vs [Attribute + 1d10]"
	RollOpposedFaction RollType = "opposed-faction"
	// "Opposed Asset Roll: [(Level*2) + 1d10] vs [(Level*2) + 1d10]"
	RollOpposedAsset RollType = "opposed-asset"
)

// RollTypes are the words of a roll type: the roll types that roll dice
// are offered, "none" is read too; in any case, with spaces or
// underscores for hyphens ("Straight Faction", "opposed_asset").
var RollTypes = Words[RollType]{
	Values:  []RollType{RollStraightFaction, RollStraightAsset, RollOpposedFaction, RollOpposedAsset},
	Also:    map[string]RollType{string(RollNone): RollNone},
	Same:    sameRollWord,
	Mistake: "roll type %q",
}

// sameRollWord reads a roll type in any case, spaces around it ignored,
// with spaces or underscores for hyphens.
func sameRollWord(typed, name string) bool {
	return rollHyphens.Replace(strings.ToLower(strings.TrimSpace(typed))) == name
}

var rollHyphens = strings.NewReplacer(" ", "-", "_", "-")

// ParseRollType reads a roll type (RollTypes).
func ParseRollType(s string) (RollType, error) { return RollTypes.Parse(s) }

func (t RollType) title() string {
	switch t {
	case RollStraightFaction:
		return "Straight Faction roll"
	case RollStraightAsset:
		return "Straight Asset roll"
	case RollOpposedFaction:
		return "Opposed Faction roll"
	case RollOpposedAsset:
		return "Opposed Asset roll"
	}
	return "no roll"
}

// Part is one term of a bonus or target: "Level 2 x 2" = 4, "Home Turf INT"
// = 3.
type Part struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
}

// Side is one side of a test: who rolls, and the terms of its bonus (of its
// target, for a straight roll).
type Side struct {
	Name  string `json:"name,omitempty"`
	Parts []Part `json:"parts,omitempty"`
}

// Bonus is the sum of the side's parts.
func (s Side) Bonus() int {
	n := 0
	for _, p := range s.Parts {
		n += p.Value
	}
	return n
}

func (s Side) terms() string {
	if len(s.Parts) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, p := range s.Parts {
		if i > 0 {
			if p.Value < 0 {
				b.WriteString(" - ")
			} else {
				b.WriteString(" + ")
			}
		} else if p.Value < 0 {
			b.WriteString("-")
		}
		v := p.Value
		if v < 0 {
			v = -v
		}
		b.WriteString(p.Name + " " + strconv.Itoa(v))
	}
	return b.String()
}

// Test is the result of one roll.
type Test struct {
	Type RollType `json:"type"`
	// Label says what the roll was for: "Invest INF", "Attack".
	Label string `json:"label,omitempty"`
	// Actor is the acting side. For a straight roll its parts make the
	// target.
	Actor    Side  `json:"actor"`
	Defender *Side `json:"defender,omitempty"`
	// Roll is the actor's d10; DefRoll the defender's.
	Roll    int `json:"roll"`
	DefRoll int `json:"def_roll,omitempty"`
	// Target: a straight roll succeeds on Roll <= Target.
	Target int `json:"target,omitempty"`
	// Total and DefTotal are the sides' totals in an opposed roll.
	Total    int  `json:"total,omitempty"`
	DefTotal int  `json:"def_total,omitempty"`
	Success  bool `json:"success"`
	// Margin is the Margin of Success when Success, of Failure otherwise;
	// never negative. When a natural die decides against the numbers (a
	// natural 1 under a target below 1, a natural 10 under a target of 10
	// or more, an opposed 10 beating a 1 it would not have beaten) it is 0.
	Margin int `json:"margin"`
	// Natural is "1" or "10" when the actor's die showed a natural 1 or 10
	// in a straight roll, "10 beats 1" or "1 loses to 10" when that rule
	// decided an opposed one.
	Natural string `json:"natural,omitempty"`
	// Chance is the probability of success before the roll.
	Chance float64 `json:"chance"`
	Text   string  `json:"text"`
}

// MoS is the Margin of Success, 0 on a failure.
func (t Test) MoS() int {
	if t.Success {
		return t.Margin
	}
	return 0
}

// MoF is the Margin of Failure, 0 on a success.
func (t Test) MoF() int {
	if t.Success {
		return 0
	}
	return t.Margin
}

// Half is a margin halved: "Divided results are always rounded down."
func Half(n int) int {
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}

// HalfMin1 is [MoS/2] (minimum 1), the heal of Invest, Maintenance, Repair
// and Produce.
func HalfMin1(mos int) int { return max(Half(mos), 1) }

func rollD10(r dice.Roller) (int, error) {
	v, err := r.Roll(Die)
	if err != nil {
		return 0, fmt.Errorf("roll 1d10: %w", err)
	}
	if v < 1 || v > Die {
		return 0, fmt.Errorf("roll 1d10: the roller gave %d", v)
	}
	return v, nil
}

// straightWins is the straight roll rule: "1d10 =< target", with "A roll of
// 10 is always a failure for Straight Rolls, even if the Attribute in
// question is 10 or higher. Likewise, a roll of 1 is always a success."
func straightWins(roll, target int) bool {
	switch roll {
	case 1:
		return true
	case 10:
		return false
	}
	return roll <= target
}

// StraightChance is the chance of a straight roll against target.
func StraightChance(target int) float64 {
	n := 0
	for roll := 1; roll <= Die; roll++ {
		if straightWins(roll, target) {
			n++
		}
	}
	return float64(n) / Die
}

// opposedWins is the opposed roll rule: "High roll wins in Opposed Rolls",
// "Ties go to the defender", "An Opposed Roll of 10 beats a roll of 1
// regardless of bonuses."
func opposedWins(a, aBonus, d, dBonus int) bool {
	switch {
	case a == 10 && d == 1:
		return true
	case a == 1 && d == 10:
		return false
	}
	return a+aBonus > d+dBonus
}

// OpposedChance is the chance the actor wins an opposed roll.
func OpposedChance(actorBonus, defBonus int) float64 {
	n := 0
	for a := 1; a <= Die; a++ {
		for d := 1; d <= Die; d++ {
			if opposedWins(a, actorBonus, d, defBonus) {
				n++
			}
		}
	}
	return float64(n) / (Die * Die)
}

// Straight rolls 1d10 against the target the side's parts add up to.
func Straight(kind RollType, side Side, r dice.Roller) (Test, error) {
	roll, err := rollD10(r)
	if err != nil {
		return Test{}, err
	}
	target := side.Bonus()
	t := Test{Type: kind, Actor: side, Roll: roll, Target: target,
		Success: straightWins(roll, target), Chance: StraightChance(target)}
	if t.Success {
		t.Margin = max(target-roll, 0)
	} else {
		t.Margin = max(roll-target, 0)
	}
	note := ""
	switch {
	case roll == 1:
		t.Natural = "1"
		if target < 1 {
			note = " (a natural 1 always succeeds)"
		}
	case roll == 10:
		t.Natural = "10"
		if target >= 10 {
			note = " (a natural 10 always fails)"
		}
	}
	t.Text = fmt.Sprintf("%s: rolled %d vs %d (%s): %s%s", kind.title(), roll, target, side.terms(), t.verdict(), note)
	return t, nil
}

// Opposed rolls the actor's d10, then the defender's, each added to its
// bonus: high wins, ties to the defender, a natural 10 beats a natural 1.
func Opposed(kind RollType, actor, defender Side, r dice.Roller) (Test, error) {
	a, err := rollD10(r)
	if err != nil {
		return Test{}, err
	}
	d, err := rollD10(r)
	if err != nil {
		return Test{}, err
	}
	ab, db := actor.Bonus(), defender.Bonus()
	def := defender
	t := Test{Type: kind, Actor: actor, Defender: &def, Roll: a, DefRoll: d,
		Total: a + ab, DefTotal: d + db, Success: opposedWins(a, ab, d, db),
		Chance: OpposedChance(ab, db)}
	diff := t.Total - t.DefTotal
	switch {
	case t.Success && diff > 0, !t.Success && diff <= 0:
		t.Margin = max(diff, -diff)
	default:
		t.Margin = 0 // the natural rule decided against the totals
	}
	note := ""
	switch {
	case a == 10 && d == 1:
		t.Natural = "10 beats 1"
		note = " (a 10 beats a 1 regardless of bonuses)"
	case a == 1 && d == 10:
		t.Natural = "1 loses to 10"
		note = " (a 10 beats a 1 regardless of bonuses)"
	case diff == 0:
		note = " (ties go to the defender)"
	}
	t.Text = fmt.Sprintf("%s: %d + %d = %d (%s) vs %d + %d = %d (%s): %s%s", kind.title(),
		a, ab, t.Total, actor.terms(), d, db, t.DefTotal, defender.terms(), t.verdict(), note)
	return t, nil
}

func (t Test) verdict() string {
	if t.Success {
		return "success by " + strconv.Itoa(t.Margin)
	}
	return "failure by " + strconv.Itoa(t.Margin)
}

func levelPart(level int) Part {
	return Part{Name: "Level " + strconv.Itoa(level) + " x 2", Value: level * 2}
}

// StraightFaction is a Straight Faction Roll: "1d10 =< Attribute".
func StraightFaction(attr int, r dice.Roller) (Test, error) {
	return Straight(RollStraightFaction, Side{Parts: []Part{{Name: "Attribute", Value: attr}}}, r)
}

// StraightAsset is a Straight Asset Roll: "1d10 =< [Level*2]", plus bonus
// (Home Turf Advantage, upgrades).
func StraightAsset(level, bonus int, r dice.Roller) (Test, error) {
	s := Side{Parts: []Part{levelPart(level)}}
	if bonus != 0 {
		s.Parts = append(s.Parts, Part{Name: "bonus", Value: bonus})
	}
	return Straight(RollStraightAsset, s, r)
}

// OpposedFaction is an Opposed Faction Roll, an asset acting against a
// faction: "[(Level*2) + 1d10] vs [Attribute + 1d10]". bonus is the asset's
// Home Turf Advantage and upgrades.
func OpposedFaction(level, bonus, attr int, r dice.Roller) (Test, error) {
	a := Side{Parts: []Part{levelPart(level)}}
	if bonus != 0 {
		a.Parts = append(a.Parts, Part{Name: "bonus", Value: bonus})
	}
	return Opposed(RollOpposedFaction, a, Side{Parts: []Part{{Name: "Attribute", Value: attr}}}, r)
}

// OpposedAsset is an Opposed Asset Roll: "[(Level*2) + 1d10] vs [(Level*2)
// + 1d10]", each with its bonus.
func OpposedAsset(level, bonus, defLevel, defBonus int, r dice.Roller) (Test, error) {
	a := Side{Parts: []Part{levelPart(level)}}
	if bonus != 0 {
		a.Parts = append(a.Parts, Part{Name: "bonus", Value: bonus})
	}
	d := Side{Parts: []Part{levelPart(defLevel)}}
	if defBonus != 0 {
		d.Parts = append(d.Parts, Part{Name: "bonus", Value: defBonus})
	}
	return Opposed(RollOpposedAsset, a, d, r)
}
