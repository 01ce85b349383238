package xhalem

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Weapon is the kind of weapon (or body) a hit was made with, as far as the
// damage roll cares.
type Weapon string

// Weapons.
const (
	Melee        Weapon = "melee"        // a melee weapon, conventional or energy
	Unarmed      Weapon = "unarmed"      // "your combatant's body is considered a weapon"
	Thrown       Weapon = "thrown"       // a thrown weapon or object
	Energy       Weapon = "energy"       // an energy ranged weapon
	Conventional Weapon = "conventional" // a conventional ranged weapon
)

// WeaponWords are the words of a Weapon.
var WeaponWords = Words[Weapon]{What: "weapon", List: []Word[Weapon]{
	{[]string{"melee"}, Melee},
	{[]string{"unarmed"}, Unarmed},
	{[]string{"thrown"}, Thrown},
	{[]string{"energy"}, Energy},
	{[]string{"conventional"}, Conventional},
}}

// Weapons lists the weapons, for choices and messages.
var Weapons = WeaponWords.Values()

// ParseWeapon reads a Weapon (WeaponWords).
func ParseWeapon(s string) (Weapon, error) { return WeaponWords.Parse(s) }

func (w Weapon) ranged() bool { return w == Thrown || w == Energy || w == Conventional }

// DamageStat names the score added to a damage roll, or "" for none:
//
//   - machines: "you must always add your Hull score to the damage roll if
//     using melee weapons, engaging unarmed, or throwing an object. If you
//     are using an energy ranged weapon, you must always add your Reactor
//     score to the damage roll. Do not add any additional score to
//     conventional ranged weapons, unless it is a thrown weapon."
//   - creatures: "your Strength score to all damage rolls, with some
//     exceptions ... Do not add anything to ranged energy weapon damage
//     rolls."
func DamageStat(k Kind, w Weapon) string {
	switch {
	case k == Machine && (w == Melee || w == Unarmed || w == Thrown):
		return "hull"
	case k == Machine && w == Energy:
		return "reactor"
	case k == Machine:
		return ""
	case w == Energy:
		return ""
	}
	return "strength"
}

// DamageType is what the damage is made of, as far as water cares.
type DamageType string

// Damage types.
const (
	OtherDamage      DamageType = ""
	FireDamage       DamageType = "fire"
	ElectricalDamage DamageType = "electrical"
)

// DamageTypes are the words of a DamageType; "" and "other" are other.
var DamageTypes = Words[DamageType]{What: "damage type", Use: "fire, electrical or other", List: []Word[DamageType]{
	{[]string{"other", ""}, OtherDamage},
	{[]string{"fire"}, FireDamage},
	{[]string{"electrical"}, ElectricalDamage},
}}

// ParseDamageType reads a DamageType (DamageTypes).
func ParseDamageType(s string) (DamageType, error) { return DamageTypes.Parse(s) }

// Immersion is how deep in water the target is.
type Immersion string

// Immersions.
const (
	NotImmersed Immersion = ""
	Partly      Immersion = "partial" // "partially immersed, or at least 25% covered"
	Immersed    Immersion = "full"    // "fully immersed"
)

// Immersions are the words of an Immersion; "" and "none" are dry.
var Immersions = Words[Immersion]{What: "immersion", List: []Word[Immersion]{
	{[]string{"none", ""}, NotImmersed},
	{[]string{"partial"}, Partly},
	{[]string{"full"}, Immersed},
}}

// ParseImmersion reads an Immersion (Immersions).
func ParseImmersion(s string) (Immersion, error) { return Immersions.Parse(s) }

// DamageInput is one damage roll after a hit.
type DamageInput struct {
	Kind   Kind // the attacker's
	Weapon Weapon
	// Roll is the weapon's damage dice, e.g. "2d8": "Your weapon, program,
	// or specialty will determine the dice you use to calculate the
	// damage". Empty for an unarmed hit uses Config.UnarmedDamage.
	Roll  string
	Score int // the score DamageStat names; ignored when it names none
	Bonus int
	// OutOfRange halves the damage of a ranged weapon: "If the target is
	// out of the range, you must roll engagement with disadvantage and the
	// damage is halved."
	OutOfRange bool
	Type       DamageType
	Immersion  Immersion // the target's
	// InsideMech: the target is a creature inside a mech.
	InsideMech bool
}

// DamageResult is a damage roll and what changed it.
type DamageResult struct {
	Stat       string       `json:"stat,omitempty"` // the score added: hull, reactor, strength, or none
	Score      int          `json:"score"`          // its value, 0 when none
	Rolled     int          `json:"rolled"`         // the weapon dice's total
	Base       int          `json:"base"`           // rolled + score + bonus
	Halved     bool         `json:"halved"`
	Immune     bool         `json:"immune"`
	Vulnerable bool         `json:"vulnerable"`
	Total      int          `json:"total"`
	Dice       *dice.Result `json:"-"`
}

// WaterEffect reports whether the target is immune or vulnerable to damage of
// type t, at immersion, inside a mech or not:
//
//   - "While fully immersed, all creatures and mechs are immune to fire
//     damage, yet not immune if less than fully immersed."
//   - "All creatures and mechs are vulnerable to electrical damage even if
//     partially immersed, or at least 25% covered."
//   - "Creatures inside of mechs are not immune to fire damage if the fire
//     occurs inside the mech, such as the cockpit or holding areas."
//   - "Creatures are unaffected by electrical damage to a mech while inside
//     the mech, even if the mech is fully immersed."
func WaterEffect(t DamageType, at Immersion, insideMech bool) (immune, vulnerable bool) {
	switch t {
	case FireDamage:
		return at == Immersed && !insideMech, false
	case ElectricalDamage:
		if insideMech {
			return true, false
		}
		return false, at == Partly || at == Immersed
	}
	return false, false
}

// Damage rolls the damage of a hit: the weapon's dice plus the score the
// rules add, halved when out of range, then immunity or vulnerability
// (halving first, so a vulnerable target out of range takes about the
// full roll), never below Config.MinDamage.
func Damage(in DamageInput, cfg Config, r ExprRoller) (DamageResult, error) {
	if in.Kind != Machine && in.Kind != Creature {
		return DamageResult{}, fmt.Errorf("kind %q: use machine or creature", in.Kind)
	}
	if _, err := ParseWeapon(string(in.Weapon)); err != nil {
		return DamageResult{}, err
	}
	if in.OutOfRange && !in.Weapon.ranged() {
		return DamageResult{}, fmt.Errorf("a %s hit cannot be out of range: only ranged and thrown weapons engage beyond their range", in.Weapon)
	}
	expr := strings.TrimSpace(in.Roll)
	if expr == "" && in.Weapon == Unarmed {
		expr = cfg.UnarmedDamage
	}
	if expr == "" {
		return DamageResult{}, errors.New("a damage roll needs the weapon's dice, e.g. 2d8")
	}
	res, err := r.Roll(expr)
	if err != nil {
		return DamageResult{}, fmt.Errorf("damage roll %s: %w", expr, err)
	}
	out := DamageResult{Stat: DamageStat(in.Kind, in.Weapon), Rolled: res.Total, Dice: res}
	if out.Stat != "" {
		out.Score = in.Score
	}
	out.Base = out.Rolled + out.Score + in.Bonus
	total := out.Base
	if in.OutOfRange {
		out.Halved = true
		if total, err = cfg.half(total); err != nil {
			return DamageResult{}, err
		}
	}
	out.Immune, out.Vulnerable = WaterEffect(in.Type, in.Immersion, in.InsideMech)
	switch {
	case out.Immune:
		total = 0
	case out.Vulnerable:
		if cfg.VulnerableMultiplier < 1 {
			return DamageResult{}, fmt.Errorf("vulnerable_multiplier %d: at least 1", cfg.VulnerableMultiplier)
		}
		total *= cfg.VulnerableMultiplier
	}
	out.Total = max(total, cfg.MinDamage)
	return out, nil
}

// half halves n, rounding as configured.
func (c Config) half(n int) (int, error) {
	switch c.HalfRounding {
	case "down":
		return floorDiv(n, 2), nil
	case "up":
		return -floorDiv(-n, 2), nil
	}
	return 0, fmt.Errorf("half_rounding %q: use down or up", c.HalfRounding)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
