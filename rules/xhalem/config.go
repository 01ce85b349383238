// Package xhalem implements the rules of seed 004 (../shared/seeds/004_6c85084f8ccdb34d.txt):
// mechs and creatures, engagement and evasion rolls, advantage, disadvantage
// and detriment, grapple, shove, movement and space speed.
//
// The package is pure: every roll goes through an [ExprRoller] passed in,
// which rolls the dice expressions these rules write ("2d20kh1 + 3"), so the
// caller can show and log each roll the way every roll is shown.
package xhalem

import (
	"fmt"
	"slices"
)

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [xhalem] section of the config file.
type Config struct {
	// Stacking says how several advantages, disadvantages and detriments on
	// one roll combine: "net", "cancel" or "worst" (see [Combine]). The
	// text names each source ("flanking would provide both attackers
	// advantage", "all underwater engagements have a disadvantage", "an
	// engagement roll with a detriment") and "The Architect will determine
	// if the target is cloaked or concealed, or if you have an advantage or
	// disadvantage against the target", but never says what happens when
	// two of them meet. Default "net": advantage counts +1, disadvantage
	// -1, detriment -2, each at most once, and the sum picks the roll.
	Stacking string `toml:"stacking"`

	// HalfRounding is how halved damage and halved speed round, "down" or
	// "up": "If the target is out of the range, you must roll engagement
	// with disadvantage and the damage is halved." and, dragging a grappled
	// combatant, "your speed is halved". The text does not say how an odd
	// number halves. Default "down".
	HalfRounding string `toml:"half_rounding"`

	// VulnerableMultiplier multiplies damage a combatant is vulnerable to:
	// "All creatures and mechs are vulnerable to electrical damage even if
	// partially immersed, or at least 25% covered." The text does not say
	// what vulnerable does. Default 2 (double damage).
	VulnerableMultiplier int `toml:"vulnerable_multiplier"`

	// MinDamage is the least a damage roll deals after scores, halving,
	// immunity and vulnerability are applied: "Your weapon, program, or
	// specialty will determine the dice you use to calculate the damage"
	// — a negative score could take a roll below zero, and the text does
	// not say what then. Default 0 (a hit never heals).
	MinDamage int `toml:"min_damage"`

	// UnarmedDamage is the dice of an unarmed engagement when no roll is
	// given: "when engaging unarmed, your combatant's body is considered a
	// weapon" and "Your weapon ... will determine the dice you use to
	// calculate the damage", but the body's dice are in no table of the
	// text. Default "1d4".
	UnarmedDamage string `toml:"unarmed_damage"`

	// CreatureSpeed is a creature's base speed in feet when neither the
	// sheet nor the command gives one: "The base speed for creatures
	// depend on the race." The race table is not in the text. Default 30.
	CreatureSpeed int `toml:"creature_speed"`

	// CheckSides is the die of an ability or skill check (a Hull or
	// Strength check when shoving, a scan against a CR, a Stealth check):
	// "you make a Hull (machine) or Strength (creature) check. The
	// opponent would need to do the same" names the check but not its die;
	// the text's other rolls, including breaking a grapple ("roll 1D20
	// and use their Hull (machine) or Strength (creature) score"), are
	// d20s. Default 20.
	CheckSides int `toml:"check_sides"`

	// ShoveTie is who wins equal totals in the Hull or Strength contest of
	// a shove, "defender" or "attacker": "The opponent would need to do the
	// same to see who is successful." says nothing of ties; the engagement
	// rule "A tie always goes to the defender." is the nearest. Default
	// "defender".
	ShoveTie string `toml:"shove_tie"`

	// DifficultCost is how many feet or hexes of speed one of movement
	// costs in difficult terrain: "Difficult terrain in the air, such as a
	// hurricane, would have the same effect as difficult terrain on the
	// ground." The effect on the ground is not in the text. Default 2
	// (difficult terrain halves the distance covered).
	DifficultCost int `toml:"difficult_cost"`

	// SizeRanks orders the sizes for "no more than one size larger", "two
	// or more sizes smaller" and "at least one size larger". The text names
	// "small, medium, and large-size", "extra large", "giant or behemoth"
	// creatures and "Small mechs" and "Gargantuan-sized models", but gives
	// no size table; it groups "gargantuan-sized mechs, and giant and
	// behemoth-sized creatures" for reach, so gargantuan ranks with giant
	// by default.
	SizeRanks map[string]int `toml:"size_ranks"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Stacking:             StackNet,
		HalfRounding:         "down",
		VulnerableMultiplier: 2,
		MinDamage:            0,
		UnarmedDamage:        "1d4",
		CreatureSpeed:        30,
		CheckSides:           20,
		ShoveTie:             "defender",
		DifficultCost:        2,
		SizeRanks: map[string]int{
			"small": 1, "medium": 2, "large": 3, "extra_large": 4,
			"giant": 5, "gargantuan": 5, "behemoth": 6,
		},
	}
}

// Validate reports a configuration these rules cannot work with.
func (c Config) Validate() error {
	if !slices.Contains([]string{StackNet, StackCancel, StackWorst}, c.Stacking) {
		return fmt.Errorf("xhalem config: stacking %q: use net, cancel or worst", c.Stacking)
	}
	if c.HalfRounding != "down" && c.HalfRounding != "up" {
		return fmt.Errorf("xhalem config: half_rounding %q: use down or up", c.HalfRounding)
	}
	if c.VulnerableMultiplier < 1 {
		return fmt.Errorf("xhalem config: vulnerable_multiplier %d: at least 1", c.VulnerableMultiplier)
	}
	if c.CreatureSpeed < 0 {
		return fmt.Errorf("xhalem config: creature_speed %d: at least 0", c.CreatureSpeed)
	}
	if c.CheckSides < 2 {
		return fmt.Errorf("xhalem config: check_sides %d: at least 2", c.CheckSides)
	}
	if c.DifficultCost < 1 {
		return fmt.Errorf("xhalem config: difficult_cost %d: at least 1", c.DifficultCost)
	}
	if c.ShoveTie != "defender" && c.ShoveTie != "attacker" {
		return fmt.Errorf("xhalem config: shove_tie %q: use defender or attacker", c.ShoveTie)
	}
	for _, s := range Sizes {
		if _, ok := c.SizeRanks[string(s)]; !ok {
			return fmt.Errorf("xhalem config: size_ranks has no rank for %s", s)
		}
	}
	return nil
}
