package xhalem

import "testing"

func TestDamageStat(t *testing.T) {
	tests := []struct {
		rule   string
		kind   Kind
		weapon Weapon
		want   string
	}{
		{"you must always add your Hull score to the damage roll if using melee weapons", Machine, Melee, "hull"},
		{"... engaging unarmed", Machine, Unarmed, "hull"},
		{"... or throwing an object", Machine, Thrown, "hull"},
		{"If you are using an energy ranged weapon, you must always add your Reactor score to the damage roll.", Machine, Energy, "reactor"},
		{"Do not add any additional score to conventional ranged weapons, unless it is a thrown weapon.", Machine, Conventional, ""},
		{"you will add ... your Strength score to all damage rolls", Creature, Melee, "strength"},
		{"your Strength score to all damage rolls (unarmed)", Creature, Unarmed, "strength"},
		{"your Strength score to all damage rolls (thrown)", Creature, Thrown, "strength"},
		{"your Strength score to all damage rolls (conventional ranged)", Creature, Conventional, "strength"},
		{"Do not add anything to ranged energy weapon damage rolls.", Creature, Energy, ""},
	}
	for _, tt := range tests {
		if got := DamageStat(tt.kind, tt.weapon); got != tt.want {
			t.Errorf("DamageStat(%s, %s) = %q, want %q (%s)", tt.kind, tt.weapon, got, tt.want, tt.rule)
		}
	}
}

func TestDamage(t *testing.T) {
	tests := []struct {
		rule  string
		in    DamageInput
		cfg   func(*Config)
		faces []int
		want  DamageResult
	}{
		{"you must always add your Hull score to the damage roll if using melee weapons",
			DamageInput{Kind: Machine, Weapon: Melee, Roll: "2d8", Score: 3}, nil, []int{5, 4},
			DamageResult{Stat: "hull", Score: 3, Rolled: 9, Base: 12, Total: 12}},
		{"Do not add any additional score to conventional ranged weapons",
			DamageInput{Kind: Machine, Weapon: Conventional, Roll: "2d8", Score: 3}, nil, []int{5, 4},
			DamageResult{Rolled: 9, Base: 9, Total: 9}},
		{"If you are using an energy ranged weapon, you must always add your Reactor score",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "1d10", Score: 2, Bonus: 1}, nil, []int{7},
			DamageResult{Stat: "reactor", Score: 2, Rolled: 7, Base: 10, Total: 10}},
		{"If the target is out of the range ... the damage is halved. (rounded down by default)",
			DamageInput{Kind: Creature, Weapon: Conventional, Roll: "1d10", Score: 2, OutOfRange: true}, nil, []int{9},
			DamageResult{Stat: "strength", Score: 2, Rolled: 9, Base: 11, Halved: true, Total: 5}},
		{"... the damage is halved. (half_rounding up)",
			DamageInput{Kind: Creature, Weapon: Conventional, Roll: "1d10", Score: 2, OutOfRange: true}, func(c *Config) { c.HalfRounding = "up" }, []int{9},
			DamageResult{Stat: "strength", Score: 2, Rolled: 9, Base: 11, Halved: true, Total: 6}},
		{"when engaging unarmed, your combatant's body is considered a weapon (unarmed_damage 1d4 by default)",
			DamageInput{Kind: Creature, Weapon: Unarmed, Score: 1}, nil, []int{3},
			DamageResult{Stat: "strength", Score: 1, Rolled: 3, Base: 4, Total: 4}},
		{"While fully immersed, all creatures and mechs are immune to fire damage",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "2d6", Score: 2, Type: FireDamage, Immersion: Immersed}, nil, []int{6, 6},
			DamageResult{Stat: "reactor", Score: 2, Rolled: 12, Base: 14, Immune: true, Total: 0}},
		{"yet not immune if less than fully immersed",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "2d6", Score: 2, Type: FireDamage, Immersion: Partly}, nil, []int{6, 6},
			DamageResult{Stat: "reactor", Score: 2, Rolled: 12, Base: 14, Total: 14}},
		{"Creatures inside of mechs are not immune to fire damage if the fire occurs inside the mech",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "2d6", Type: FireDamage, Immersion: Immersed, InsideMech: true}, nil, []int{2, 3},
			DamageResult{Stat: "reactor", Rolled: 5, Base: 5, Total: 5}},
		{"All creatures and mechs are vulnerable to electrical damage even if partially immersed, or at least 25% covered. (vulnerable_multiplier 2)",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "1d8", Score: 1, Type: ElectricalDamage, Immersion: Partly}, nil, []int{4},
			DamageResult{Stat: "reactor", Score: 1, Rolled: 4, Base: 5, Vulnerable: true, Total: 10}},
		{"vulnerable and out of range: halved first, then doubled",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "1d8", Score: 0, Type: ElectricalDamage, Immersion: Immersed, OutOfRange: true}, nil, []int{5},
			DamageResult{Stat: "reactor", Rolled: 5, Base: 5, Halved: true, Vulnerable: true, Total: 4}},
		{"Creatures are unaffected by electrical damage to a mech while inside the mech, even if the mech is fully immersed.",
			DamageInput{Kind: Machine, Weapon: Energy, Roll: "1d8", Type: ElectricalDamage, Immersion: Immersed, InsideMech: true}, nil, []int{4},
			DamageResult{Stat: "reactor", Rolled: 4, Base: 4, Immune: true, Total: 0}},
		{"a negative score never takes damage below min_damage",
			DamageInput{Kind: Creature, Weapon: Melee, Roll: "1d4", Score: -3}, nil, []int{1},
			DamageResult{Stat: "strength", Score: -3, Rolled: 1, Base: -2, Total: 0}},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		if tt.cfg != nil {
			tt.cfg(&cfg)
		}
		r, done := table(t, tt.faces...)
		got, err := Damage(tt.in, cfg, r)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		done()
		got.Dice = nil
		if got != tt.want {
			t.Errorf("%+v rolling %v:\n got %+v\nwant %+v\n(%s)", tt.in, tt.faces, got, tt.want, tt.rule)
		}
	}
}

func TestDamageMistakes(t *testing.T) {
	for name, in := range map[string]DamageInput{
		"melee out of range": {Kind: Machine, Weapon: Melee, Roll: "1d6", OutOfRange: true},
		"no dice":            {Kind: Machine, Weapon: Melee},
		"no kind":            {Weapon: Melee, Roll: "1d6"},
		"bad weapon":         {Kind: Machine, Weapon: "laser", Roll: "1d6"},
	} {
		r, _ := table(t)
		if _, err := Damage(in, DefaultConfig(), r); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
