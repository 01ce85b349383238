package burst

import (
	"reflect"
	"testing"
)

func TestQualityDice(t *testing.T) {
	cfg := DefaultConfig()
	// "an ordinary sword deals d8, a heroic axe deals d10"; "heroic d10
	// become ordinary d8".
	if Ordinary.Die(cfg) != 8 || Heroic.Die(cfg) != 10 {
		t.Errorf("ordinary d%d, heroic d%d; want d8 and d10", Ordinary.Die(cfg), Heroic.Die(cfg))
	}
	// Each rank is a step of the bonus dice ladder.
	for q := Feeble; q <= Legendary; q++ {
		if q.Die(cfg) != Ladder[q] {
			t.Errorf("%s deals d%d, want d%d (its step of the ladder)", q, q.Die(cfg), Ladder[q])
		}
	}
}

func TestQualitySteps(t *testing.T) {
	// "Beginning at heroic, weapons ignore armor of three steps lower than
	// the weapon's quality, and armor becomes immune to damage from weapons
	// of three steps or more ranks lower quality."
	tests := []struct {
		weapon, armor   Quality
		ignores, immune bool
	}{
		{Heroic, Feeble, true, false},
		{Epic, Poor, true, false},
		{Legendary, Ordinary, true, false},
		{Legendary, Feeble, true, false},
		{Heroic, Poor, false, false},
		{Ordinary, Ordinary, false, false},
		{Feeble, Heroic, false, true},
		{Poor, Epic, false, true},
		{Ordinary, Legendary, false, true},
		{Poor, Heroic, false, false},
	}
	for _, tt := range tests {
		if got := IgnoresArmor(tt.weapon, tt.armor); got != tt.ignores {
			t.Errorf("%s weapon ignores %s armor: %v, want %v", tt.weapon, tt.armor, got, tt.ignores)
		}
		if got := ArmorImmune(tt.weapon, tt.armor); got != tt.immune {
			t.Errorf("%s armor immune to %s weapon: %v, want %v", tt.armor, tt.weapon, got, tt.immune)
		}
	}
	// "To harm a creature with Heroic Durability requires a weapon of Heroic
	// or higher quality, to harm a creature with Epic Durability requires a
	// weapon of Epic or higher quality."
	durability := []struct {
		weapon, durability Quality
		immune             bool
	}{
		{Ordinary, Heroic, true},
		{Heroic, Heroic, false},
		{Legendary, Heroic, false},
		{Heroic, Epic, true},
		{Epic, Epic, false},
		{Epic, Legendary, true},
		{Feeble, Feeble, false}, // no superior Durability
	}
	for _, tt := range durability {
		if got := DurabilityImmune(tt.weapon, tt.durability); got != tt.immune {
			t.Errorf("%s Durability immune to a %s weapon: %v, want %v", tt.durability, tt.weapon, got, tt.immune)
		}
	}
}

func TestDamage(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		rule string
		in   DamageInput
		vals []int
		want DamageResult // Roll is checked by Expr and Total only
		expr string
	}{
		{
			"The damage value is ... the number of dice rolled ... an ordinary sword deals d8; a melee weapon adds Strength Bonus Dice",
			DamageInput{Count: 2, Quality: Ordinary, Bonus: Bonus{Dice: 1}, BonusLabel: "strength", ArmorQuality: Ordinary},
			[]int{3, 5, 4},
			DamageResult{Type: "kinetic", ArmorApplies: true, Damage: 12},
			"2d8 [ordinary] + 1d10! [strength]",
		},
		{
			"When one or more of your Bonus Dice to damage burst, it is called a critical hit.",
			DamageInput{Count: 1, Quality: Heroic, Bonus: Bonus{Dice: 1}, BonusLabel: "strength", ArmorQuality: Ordinary},
			[]int{7, 10, 2},
			DamageResult{Type: "kinetic", Critical: true, ArmorApplies: true, Damage: 19},
			"1d10 [heroic] + 1d10! [strength]",
		},
		{
			"the weapon's own dice do not burst: only Bonus Dice do",
			DamageInput{Count: 1, Quality: Ordinary, ArmorQuality: Ordinary},
			[]int{8},
			DamageResult{Type: "kinetic", ArmorApplies: true, Damage: 8},
			"1d8 [ordinary]",
		},
		{
			"You reduce your incoming damage by your Armor Rank, and your armor takes this damage.",
			DamageInput{Count: 2, Quality: Ordinary, Armor: 4, ArmorQuality: Ordinary},
			[]int{6, 6},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 4, Soaked: 4, ArmorDamage: 4, Damage: 8},
			"2d8 [ordinary]",
		},
		{
			"Armor Rank above the damage soaks all of it",
			DamageInput{Count: 1, Quality: Ordinary, Armor: 6, ArmorQuality: Ordinary},
			[]int{4},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 6, Soaked: 4, ArmorDamage: 4, Damage: 0},
			"1d8 [ordinary]",
		},
		{
			"If you have two or more Armor Ranks, you use the highest and then apply damage to any armor you are wearing first.",
			DamageInput{Count: 2, Quality: Ordinary, Armor: 3, OtherArmor: 5, ArmorQuality: Ordinary},
			[]int{6, 6},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 5, Soaked: 5, ArmorDamage: 3, Damage: 7},
			"2d8 [ordinary]",
		},
		{
			"normal armor only protects you from physical damage, not energy attack such as fire",
			DamageInput{Count: 2, Quality: Ordinary, Type: Thermal, Armor: 4, ArmorQuality: Ordinary},
			[]int{6, 6},
			DamageResult{Type: "thermal", Damage: 12},
			"2d8 [ordinary]",
		},
		{
			"Unless stated otherwise: armor stated to protect against lightning",
			DamageInput{Count: 2, Quality: Ordinary, Type: Electrical, Armor: 4, ArmorQuality: Ordinary, Sealed: true},
			[]int{6, 6},
			DamageResult{Type: "electrical", ArmorApplies: true, ArmorRank: 4, Soaked: 4, ArmorDamage: 4, Damage: 8},
			"2d8 [ordinary]",
		},
		{
			"Pure toxic damage may not necessarily damage armor",
			DamageInput{Count: 2, Quality: Ordinary, Type: Toxic, Armor: 4, ArmorQuality: Ordinary, Sealed: true},
			[]int{6, 6},
			DamageResult{Type: "toxic", ArmorApplies: true, ArmorRank: 4, Soaked: 4, Damage: 8},
			"2d8 [ordinary]",
		},
		{
			"[toxic damage] only harm[s] living creatures",
			DamageInput{Count: 2, Quality: Ordinary, Type: Toxic, Object: true},
			[]int{6, 6},
			DamageResult{Type: "toxic", Immune: true},
			"2d8 [ordinary]",
		},
		{
			"Beginning at heroic, weapons ignore armor of three steps lower than the weapon's quality",
			DamageInput{Count: 1, Quality: Heroic, Armor: 4, ArmorQuality: Feeble},
			[]int{9},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorIgnored: true, Damage: 9},
			"1d10 [heroic]",
		},
		{
			"when an inferior weapon strikes superior armor, the armor will take no damage",
			DamageInput{Count: 2, Quality: Feeble, Armor: 3, ArmorQuality: Heroic},
			[]int{4, 4},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorImmune: true, ArmorRank: 3, Soaked: 3, Damage: 5},
			"2d4 [feeble]",
		},
		{
			"To harm a creature with Heroic Durability requires a weapon of Heroic or higher quality",
			DamageInput{Count: 3, Quality: Ordinary, Durability: Heroic},
			[]int{8, 8, 8},
			DamageResult{Type: "kinetic", Immune: true},
			"3d8 [ordinary]",
		},
		{
			"Heroic Durability: a heroic weapon harms it",
			DamageInput{Count: 1, Quality: Heroic, Durability: Heroic, ArmorQuality: Ordinary},
			[]int{5},
			DamageResult{Type: "kinetic", ArmorApplies: true, Damage: 5},
			"1d10 [heroic]",
		},
		{
			"Partial Cover ... you gain a +5 Armor Rank bonus against attacks",
			DamageInput{Count: 2, Quality: Ordinary, Armor: 2, ArmorQuality: Ordinary, Cover: PartialCover},
			[]int{6, 6},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 7, Soaked: 7, ArmorDamage: 2, Damage: 5},
			"2d8 [ordinary]",
		},
		{
			"the worn armor takes damage first, up to its own Armor Rank; cover took the rest",
			DamageInput{Count: 2, Quality: Ordinary, Armor: 2, OtherArmor: 3, ArmorQuality: Ordinary, Cover: FullCover},
			[]int{8, 8},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 13, Soaked: 13, ArmorDamage: 2, Damage: 3},
			"2d8 [ordinary]",
		},
		{
			"Full Cover ... you gain a +10 bonus to your Armor Rank from ranged attacks",
			DamageInput{Count: 2, Quality: Ordinary, ArmorQuality: Ordinary, Cover: FullCover},
			[]int{6, 6},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 10, Soaked: 10, Damage: 2},
			"2d8 [ordinary]",
		},
		{
			"In the case of objects, A.R. is simply subtracted from the damage done to the object.",
			DamageInput{Count: 2, Quality: Legendary, Armor: 5, ArmorQuality: Feeble, Object: true},
			[]int{10, 10},
			DamageResult{Type: "kinetic", ArmorApplies: true, ArmorRank: 5, Soaked: 5, Damage: 15},
			"2d20 [legendary]",
		},
		{
			"The Off-Hand attack suffers a 2 Challenge penalty to your Bonus Dice to hit and damage",
			DamageInput{Count: 1, Quality: Ordinary, Bonus: Bonus{Dice: 1}, BonusLabel: "strength", OffHand: true, ArmorQuality: Ordinary},
			[]int{3, 5},
			DamageResult{Type: "kinetic", Challenges: 2, ArmorApplies: true, Damage: 8},
			"1d8 [ordinary] + 1d6! [strength]",
		},
		{
			"these bonus dice will only benefit from the effects of a charge",
			DamageInput{Count: 1, Quality: Ordinary, Bonus: Bonus{Dice: 1, Charges: 1}, BonusLabel: "skill", ArmorQuality: Ordinary},
			[]int{3, 11},
			DamageResult{Type: "kinetic", ArmorApplies: true, Damage: 14},
			"1d8 [ordinary] + 1d12! [skill]",
		},
		{
			"unarmed attacks, like punches and kicks, deal 1 feeble impact damage",
			DamageInput{Count: UnarmedCount, Quality: UnarmedQuality, ArmorQuality: Ordinary},
			[]int{3},
			DamageResult{Type: "kinetic", ArmorApplies: true, Damage: 3},
			"1d4 [feeble]",
		},
	}
	for _, tt := range tests {
		got, err := Damage(tt.in, cfg, physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if got.Roll.Expr != tt.expr {
			t.Errorf("%q: rolled %s, want %s", tt.rule, got.Roll.Expr, tt.expr)
		}
		got.Roll = Roll{}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.rule, got, tt.want)
		}
	}
}

func TestDamageTypes(t *testing.T) {
	// "There are thirteen types of damage: Kinetic, Thermal, Cold,
	// Electrical, Radiation, Chemical, Sonic, Toxic, Umbral, Entropic,
	// Crystal, Aetheric, and Lucent."
	text := []string{"Kinetic", "Thermal", "Cold", "Electrical", "Radiation", "Chemical", "Sonic", "Toxic", "Umbral", "Entropic", "Crystal", "Aetheric", "Lucent"}
	if len(DamageTypes()) != 13 {
		t.Fatalf("%d damage types, want thirteen", len(DamageTypes()))
	}
	for i, name := range text {
		dt, err := ParseDamageType(name)
		if err != nil || int(dt) != i {
			t.Errorf("ParseDamageType(%q) = %v, %v", name, dt, err)
		}
	}
	// "Kinetic. Considered the default type of damage for mundane weapons"
	if dt, err := ParseDamageType(""); err != nil || dt != Kinetic {
		t.Errorf("default damage type %v, %v; want kinetic", dt, err)
	}
	if _, err := ParseDamageType("necrotic"); err == nil {
		t.Error("necrotic is named by the text but is not one of the thirteen: no error")
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
	bad := DefaultConfig()
	bad.QualityDice = []int{8, 10}
	if err := bad.Validate(); err == nil {
		t.Error("two quality dice for six ranks: no error")
	}
	bad = DefaultConfig()
	bad.ArmorProtects = []string{"fire"}
	if err := bad.Validate(); err == nil {
		t.Error("armor_protects names no damage type: no error")
	}
}

func TestConfigIsZero(t *testing.T) {
	if !(Config{}).IsZero() {
		t.Error("the zero Config is not zero")
	}
	if DefaultConfig().IsZero() {
		t.Error("the defaults are zero")
	}
	c := Config{QualityDice: []int{4, 6, 8, 10, 12, 20}}
	if c.IsZero() {
		t.Error("a Config with only quality_dice set is zero")
	}
}
