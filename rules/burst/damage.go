package burst

import (
	"fmt"
	"strings"
)

// Quality is the quality rank of a weapon, an attack, armor or a
// creature's Durability: "Weapons and armor both have a quality."
type Quality int

// The quality ranks, lowest first. Ordinary, heroic, epic, legendary and
// feeble are the text's words; poor is ours, for the step between feeble
// and ordinary (see Config.QualityDice).
const (
	Feeble Quality = iota
	Poor
	Ordinary
	Heroic
	Epic
	Legendary
)

var qualityNames = []string{"feeble", "poor", "ordinary", "heroic", "epic", "legendary"}

// Qualities lists the quality names, lowest first.
func Qualities() []string { return append([]string(nil), qualityNames...) }

func (q Quality) String() string { return nameOf(qualityNames, int(q)) }

// ParseQuality reads a quality name.
func ParseQuality(name string) (Quality, error) {
	i, err := parseName("quality", qualityNames, name)
	return Quality(i), err
}

// Die returns the damage die of an attack of quality q: "The dice rolled
// depends on the quality Rank of the attack — an ordinary sword deals d8,
// a heroic axe deals d10, and so on."
func (q Quality) Die(cfg Config) int { return cfg.QualityDice[q] }

// QualityGap and QualityFrom are the text's quality rule: "Beginning at
// heroic, weapons ignore armor of three steps lower than the weapon's
// quality, and armor becomes immune to damage from weapons of three steps
// or more ranks lower quality."
const (
	QualityGap  = 3
	QualityFrom = Heroic
)

// IgnoresArmor reports whether a weapon of quality weapon ignores armor of
// quality armor: "When an attack from a superior weapon hits inferior
// armor, it ignores that armor."
func IgnoresArmor(weapon, armor Quality) bool {
	return weapon >= QualityFrom && weapon-armor >= QualityGap
}

// ArmorImmune reports whether armor of quality armor takes no damage from
// a weapon of quality weapon: "when an inferior weapon strikes superior
// armor, the armor will take no damage."
func ArmorImmune(weapon, armor Quality) bool {
	return armor >= QualityFrom && armor-weapon >= QualityGap
}

// DurabilityImmune reports whether a creature with superior Durability of
// rank durability takes no damage from a weapon of quality weapon:
// "Anything with this trait is immune to damage from weapons that are not
// of the same or higher rank." A creature without the trait passes Feeble,
// which every weapon matches.
func DurabilityImmune(weapon, durability Quality) bool { return weapon < durability }

// DamageType is a type of damage: "There are thirteen types of damage".
type DamageType int

// The thirteen types, in the text's order.
const (
	Kinetic DamageType = iota
	Thermal
	Cold
	Electrical
	Radiation
	Chemical
	Sonic
	Toxic
	Umbral
	Entropic
	Crystal
	Aetheric
	Lucent
)

var damageTypeNames = []string{"kinetic", "thermal", "cold", "electrical", "radiation", "chemical", "sonic", "toxic", "umbral", "entropic", "crystal", "aetheric", "lucent"}

// DamageTypes lists the thirteen type names.
func DamageTypes() []string { return append([]string(nil), damageTypeNames...) }

func (t DamageType) String() string { return nameOf(damageTypeNames, int(t)) }

// ParseDamageType reads a damage type; "" is kinetic, "the default type of
// damage for mundane weapons".
func ParseDamageType(name string) (DamageType, error) {
	if name == "" {
		return Kinetic, nil
	}
	i, err := parseName("damage type", damageTypeNames, name)
	return DamageType(i), err
}

// livingOnly: "Pure toxic damage ... only harm[s] living creatures."
func (t DamageType) livingOnly() bool { return t == Toxic }

// weaponKinds are the kinds of attack WeaponStat knows, in the order
// offered, each with the ability whose bonus dice a hit adds to damage
// ("" for none): bow is a pull bow, magic a magic projectile, other
// anything the text gives no bonus dice to damage.
//
//   - "When you score a hit with an unarmed attack, a melee weapon, or a
//     pull bow, you add your Strength Bonus Dice to damage."
//   - "When you score a hit with a crossbow, modern weapon, or magic
//     projectile you add your Skill Bonus Dice to damage."
var weaponKinds = []struct{ kind, stat string }{
	{"melee", "strength"}, {"unarmed", "strength"}, {"bow", "strength"},
	{"crossbow", "skill"}, {"modern", "skill"}, {"magic", "skill"},
	{"other", ""},
}

// WeaponStat returns the ability whose bonus dice a hit adds to damage, or
// "" for none. kind is one of WeaponKinds.
func WeaponStat(kind string) (string, error) {
	for _, k := range weaponKinds {
		if k.kind == kind {
			return k.stat, nil
		}
	}
	return "", fmt.Errorf("weapon kind must be one of %s, not %q", strings.Join(WeaponKinds(), ", "), kind)
}

// WeaponKinds lists the kinds of attack WeaponStat knows.
func WeaponKinds() []string {
	out := make([]string, len(weaponKinds))
	for i, k := range weaponKinds {
		out[i] = k.kind
	}
	return out
}

// Unarmed damage of humanoids: "unarmed attacks, like punches and kicks,
// deal 1 feeble impact damage unless you are trained in martial arts."
const (
	UnarmedCount   = 1
	UnarmedQuality = Feeble
)

// DamageInput is a hit's damage and what stands against it.
type DamageInput struct {
	Count   int     // the Damage Value: "the number of dice rolled for damage"
	Quality Quality // the attack's quality rank, which sets the die
	// Bonus is the Strength or Skill bonus dice, with the charges,
	// explicitly stated challenges and wounds that step them.
	Bonus      Bonus
	BonusLabel string
	// OffHand: "The Off-Hand attack suffers a 2 Challenge penalty to your
	// Bonus Dice to hit and damage."
	OffHand bool
	Type    DamageType

	// Armor is the Armor Rank of the armor the target wears, of quality
	// ArmorQuality; OtherArmor another Armor Rank it has (natural, magic).
	// "If you have two or more Armor Ranks, you use the highest and then
	// apply damage to any armor you are wearing first."
	Armor, OtherArmor int
	ArmorQuality      Quality
	// Sealed: the armor is stated to protect against every type ("Unless
	// stated otherwise, normal armor only protects you from physical
	// damage").
	Sealed bool
	// Cover is the target's cover against this ranged attack.
	Cover Cover
	// Durability is the target's superior Durability, Feeble for none.
	Durability Quality
	// Object: the target is an object or construct: "In the case of
	// objects, A.R. is simply subtracted from the damage done to the
	// object."
	Object bool
}

// DamageResult is the damage a hit does.
type DamageResult struct {
	Roll Roll `json:"roll"`
	// Critical: "When one or more of your Bonus Dice to damage burst, it is
	// called a critical hit."
	Critical   bool   `json:"critical"`
	Type       string `json:"type"`
	Challenges int    `json:"challenges"` // on the bonus dice, off-hand included
	// Immune: superior Durability, or toxic damage on an object.
	Immune       bool `json:"immune"`
	ArmorApplies bool `json:"armor_applies"` // the armor stops this type
	ArmorIgnored bool `json:"armor_ignored"` // the weapon ignores the worn armor
	ArmorImmune  bool `json:"armor_immune"`  // the worn armor takes no damage
	ArmorRank    int  `json:"armor_rank"`    // the Armor Rank that reduced the damage, cover included
	Soaked       int  `json:"soaked"`        // damage the Armor Rank took off
	ArmorDamage  int  `json:"armor_damage"`  // damage the worn armor takes
	Damage       int  `json:"damage"`        // damage the target takes
}

// MaxArmor bounds an Armor Rank.
const MaxArmor = 1000

// Damage rolls a hit's damage and applies armor, cover and quality.
//
// "You reduce your incoming damage by your Armor Rank, and your armor
// takes this damage." Cover adds to the Armor Rank; the weapon's and the
// armor's qualities may make the weapon ignore the worn armor or the armor
// immune to damage; superior Durability makes the target immune to lower
// weapons.
func Damage(in DamageInput, cfg Config, d Dice) (DamageResult, error) {
	if err := cfg.Validate(); err != nil {
		return DamageResult{}, err
	}
	for _, q := range []Quality{in.Quality, in.ArmorQuality, in.Durability} {
		if q < Feeble || q > Legendary {
			return DamageResult{}, fmt.Errorf("no quality rank %d", q)
		}
	}
	if in.Armor < 0 || in.Armor > MaxArmor || in.OtherArmor < 0 || in.OtherArmor > MaxArmor {
		return DamageResult{}, fmt.Errorf("armor ranks must be 0 to %d, not %d and %d", MaxArmor, in.Armor, in.OtherArmor)
	}
	if in.Count < 1 && in.Bonus.Dice < 1 {
		return DamageResult{}, fmt.Errorf("a damage value of %d with no bonus dice deals nothing to roll", in.Count)
	}
	b := in.Bonus
	if in.OffHand {
		b.Challenges += OffHandChallenges
	}
	label := in.BonusLabel
	if label == "" {
		label = "bonus"
	}
	r, err := EffectRoll(in.Count, in.Quality.Die(cfg), in.Quality.String(), b, label, d)
	if err != nil {
		return DamageResult{}, err
	}
	out := DamageResult{Roll: r, Critical: r.Bursts > 0, Type: in.Type.String(), Challenges: b.Challenges}
	dmg := r.Total
	if DurabilityImmune(in.Quality, in.Durability) || (in.Object && in.Type.livingOnly()) {
		out.Immune = true
		return out, nil
	}
	out.ArmorApplies = in.Sealed || cfg.armorProtects(in.Type)
	if !out.ArmorApplies {
		out.Damage = dmg
		return out, nil
	}
	worn := in.Armor
	if !in.Object && worn > 0 {
		// Objects: "A.R. is simply subtracted".
		out.ArmorIgnored = IgnoresArmor(in.Quality, in.ArmorQuality)
		out.ArmorImmune = ArmorImmune(in.Quality, in.ArmorQuality)
		if out.ArmorIgnored {
			worn = 0
		}
	}
	out.ArmorRank = max(worn, in.OtherArmor) + in.Cover.Armor()
	out.Soaked = min(dmg, out.ArmorRank)
	out.Damage = dmg - out.Soaked
	if !in.Object && worn > 0 && !out.ArmorImmune && !cfg.sparesArmor(in.Type) {
		// "apply damage to any armor you are wearing first": the worn
		// armor takes what was soaked, up to its own Armor Rank; the rest
		// was stopped by the cover or the other Armor Rank.
		out.ArmorDamage = min(out.Soaked, worn)
	}
	return out, nil
}
