// Package burst implements the rules of seed 003 (../shared/seeds/003_88b8445f1f52ae9c.txt):
// the d20 action die with stepped bonus dice that burst, charges and
// challenges, attacks and Guard, reactions, damage, Durability/Health/Shock.
package burst

import (
	"fmt"
	"slices"
	"strings"
)

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [burst] section of the config file.
type Config struct {
	// TieMeetsVS: does a total equal to the victory sum succeed? The text
	// says only "1d20 (the Action Dice) + any Bonus dice against a victory
	// sum, VS". It says "higher" for attacks ("you must roll higher than
	// your target's Guard") and for the Defense reaction, and those keep
	// their own rule; a plain check meets its sum, as "victory sum" reads.
	TieMeetsVS bool `toml:"vs_tie_succeeds"`

	// QualityDice are the damage dice of the six quality ranks, feeble,
	// poor, ordinary, heroic, epic, legendary, in that order. The text
	// gives two: "an ordinary sword deals d8, a heroic axe deals d10", and
	// names the ranks as steps of the bonus dice ladder: "heroic d10 become
	// ordinary d8". Epic and legendary follow heroic ("Heroic, Epic or even
	// Legendary") up the ladder to d12 and d20. Below ordinary the text
	// names "feeble" ("1 feeble impact damage") and needs one more rank so
	// that a heroic weapon has armor "three steps lower" to ignore: we call
	// it poor, and give feeble d4 and poor d6, the bottom of the ladder.
	QualityDice []int `toml:"quality_dice"`

	// BehindHalvesBaseGuard: when attacking an unaware opponent from
	// behind, "your opponent's Guard is reduced by half, rounding up"
	// ("must beat a Guard of 8, rather than 15"). The text does not say
	// whether cover, size and visibility are added before or after the
	// halving. true halves the target's own Guard (15 + armor and
	// abilities) and adds the situation afterwards; false halves the sum.
	BehindHalvesBaseGuard bool `toml:"behind_halves_base_guard"`

	// PointBlankFeet is the distance under which a ranged attack in zero
	// visibility takes no penalty: "no penalties at point blank (under 3
	// meters)". Three meters is 9.8 feet; the other ranges are in feet.
	PointBlankFeet int `toml:"point_blank_feet"`

	// ProneRoundUp: prone, "your Speed is reduced to 1/4 for calculating
	// your movement and your Bonus Dice to Defense". The text does not say
	// how to round; its one stated rounding ("reduced by half, round up")
	// rounds up, and so do we unless this is false.
	ProneRoundUp bool `toml:"prone_round_up"`

	// CarryOver: does the damage left over when a hit takes Durability to
	// 0 go on to Health in the same hit? "Damage is first subtracted from
	// your Durability. When your Durability is reduced to 0, you are
	// wounded, and you begin to subtract damage from your Health."
	CarryOver bool `toml:"damage_carries_to_health"`

	// ArmorProtects lists the damage types normal armor reduces: "Unless
	// stated otherwise, normal armor only protects you from physical
	// damage, not energy attack such as fire or lightning." Of the
	// thirteen types only Kinetic is plainly physical ("the default type
	// of damage for mundane weapons"). Armor stated to protect against
	// more is the `sealed` option of /burst damage.
	ArmorProtects []string `toml:"armor_protects"`

	// SparesArmor lists the damage types that do not damage the armor that
	// stops them: "Pure toxic damage may not necessarily damage armor".
	SparesArmor []string `toml:"spares_armor"`

	// WoundedRecoversDurability: "The most important effect of becoming
	// wounded, however, is that you no longer recover Durability quickly"
	// and "Durability recovers quickly unless you are wounded". The text
	// gives no slower rate, so by default a wounded creature recovers no
	// Durability in the Recovery Phase.
	WoundedRecoversDurability bool `toml:"wounded_recovers_durability"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		TieMeetsVS:                true,
		QualityDice:               []int{4, 6, 8, 10, 12, 20},
		BehindHalvesBaseGuard:     true,
		PointBlankFeet:            10,
		ProneRoundUp:              true,
		CarryOver:                 true,
		ArmorProtects:             []string{"kinetic"},
		SparesArmor:               []string{"toxic"},
		WoundedRecoversDurability: false,
	}
}

// IsZero reports whether c is the zero Config: no configuration was given
// at all (a caller that built its dependencies without the rules'
// configuration), as opposed to one that sets some values false or empty.
func (c Config) IsZero() bool {
	return !c.TieMeetsVS && c.QualityDice == nil && !c.BehindHalvesBaseGuard && c.PointBlankFeet == 0 &&
		!c.ProneRoundUp && !c.CarryOver && c.ArmorProtects == nil && c.SparesArmor == nil && !c.WoundedRecoversDurability
}

// Validate reports a configuration the rules cannot work with.
func (c Config) Validate() error {
	if len(c.QualityDice) != len(qualityNames) {
		return fmt.Errorf("burst: quality_dice needs %d die sizes (%v), has %d", len(qualityNames), qualityNames, len(c.QualityDice))
	}
	for i, s := range c.QualityDice {
		if s < 2 {
			return fmt.Errorf("burst: quality_dice: %s die d%d needs at least 2 sides", qualityNames[i], s)
		}
	}
	if c.PointBlankFeet < 0 {
		return fmt.Errorf("burst: point_blank_feet is %d; it cannot be negative", c.PointBlankFeet)
	}
	for _, list := range [][]string{c.ArmorProtects, c.SparesArmor} {
		for _, t := range list {
			if _, err := ParseDamageType(t); err != nil {
				return fmt.Errorf("burst: config: %w", err)
			}
		}
	}
	return nil
}

func (c Config) armorProtects(t DamageType) bool { return listed(c.ArmorProtects, t) }

func (c Config) sparesArmor(t DamageType) bool { return listed(c.SparesArmor, t) }

func listed(list []string, t DamageType) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(strings.TrimSpace(s), t.String()) })
}
