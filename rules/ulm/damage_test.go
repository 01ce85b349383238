package ulm

import (
	"strings"
	"testing"
	"time"
)

func TestInjure(t *testing.T) {
	tests := []struct {
		rule       string
		cfg        func(*Config)
		state      State
		in         Injury
		damage     int
		card       bool
		after      int
		durability int
		vulnerable bool
		became     bool
	}{
		{"Each time a Character or Unit takes damage, an Injury card is made.",
			nil, State{HitPoints: 20}, Injury{Source: "Goblin", Type: Incision, Potency: 7}, 7, true, 7, 0, false, false},
		{"If the total Damage on Injury Cards exceeds Hit Points, the Character or Unit becomes Vulnerable: 15 + 6 = 21 over 20",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Earlier, Damage: 15}}}, Injury{Type: Contusion, Potency: 6}, 6, true, 21, 0, true, true},
		{"exceeds: 15 + 5 = 20 equals 20 Hit Points and does not exceed them",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Earlier, Damage: 15}}}, Injury{Type: Contusion, Potency: 5}, 5, true, 20, 0, false, false},
		{"all sources of Mitigation, Amplifications, and Weaknesses are calculated and applied to the Potency (flat): 10 - 4 + 1 + 2",
			nil, State{HitPoints: 20}, Injury{Type: Fire, Potency: 10, Modifiers: Modifiers{Mitigation: 4, Amplification: 1, Weakness: 2}}, 9, true, 9, 0, false, false},
		{"Mitigation (percent): 10 at 100 - 50 + 20 % = 7",
			func(c *Config) { c.ModifierMode = ModifierPercent }, State{HitPoints: 20}, Injury{Type: Ice, Potency: 10, Modifiers: Modifiers{Mitigation: 50, Weakness: 20}}, 7, true, 7, 0, false, false},
		{"the remaining Potency is used to create and apply an Injury Card: none remains, no card",
			nil, State{HitPoints: 20}, Injury{Type: Puncture, Potency: 3, Modifiers: Modifiers{Mitigation: 5}}, 0, false, 0, 0, false, false},
		{"Raw Damage deals ½ damage to Armor and Object Durability: 9 Raw to armor is 4",
			nil, State{}, Injury{Type: Raw, Potency: 9, Object: true}, 9, false, 0, 4, false, false},
		{"½ damage, raw_armor_round_up = true: 9 Raw to armor is 5",
			func(c *Config) { c.RawArmorRoundUp = true }, State{}, Injury{Type: Raw, Potency: 9, Object: true}, 9, false, 0, 5, false, false},
		{"other types deal full damage to Armor: 9 Contusion is 9",
			nil, State{}, Injury{Type: Contusion, Potency: 9, Object: true}, 9, false, 0, 9, false, false},
		{"a Vulnerable Victim hit again stays Vulnerable, and does not become so anew",
			nil, State{HitPoints: 10, Vulnerable: true, Cards: []Card{{Type: Earlier, Damage: 12}}}, Injury{Type: Holy, Potency: 2}, 2, true, 14, 0, true, false},
		{"a Victim no longer considered Vulnerable after a Barrier becomes Vulnerable with its next Injury Card",
			nil, State{HitPoints: 10, Cards: []Card{{Type: Earlier, Damage: 12}}}, Injury{Type: Spite, Potency: 1}, 1, true, 13, 0, true, true},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		if tt.cfg != nil {
			tt.cfg(&cfg)
		}
		before := tt.state.Clone()
		got, err := Injure(tt.state, tt.in, cfg)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if got.Damage != tt.damage || (got.Card != nil) != tt.card || got.After != tt.after || got.Durability != tt.durability ||
			got.State.Vulnerable != tt.vulnerable || got.BecameVulnerable != tt.became {
			t.Errorf("%s:\n got damage %d card %v after %d durability %d vulnerable %v became %v\nwant damage %d card %v after %d durability %d vulnerable %v became %v",
				tt.rule, got.Damage, got.Card != nil, got.After, got.Durability, got.State.Vulnerable, got.BecameVulnerable,
				tt.damage, tt.card, tt.after, tt.durability, tt.vulnerable, tt.became)
		}
		if c := got.Card; c != nil && (c.Source != tt.in.Source || c.Type != tt.in.Type || c.Damage != tt.damage) {
			t.Errorf("%s: card %+v; want Damage Source %q, Damage Type %s, Total Damage %d", tt.rule, *c, tt.in.Source, tt.in.Type, tt.damage)
		}
		if len(tt.state.Cards) != len(before.Cards) {
			t.Errorf("%s: Injure changed its argument", tt.rule)
		}
	}
}

func TestDamageTypes(t *testing.T) {
	// "There are three major categories of damage; Physical, Elemental, and
	// Divine", each type with its Injury Card.
	tests := []struct {
		name, category, trauma string
		lasting                bool
	}{
		{"contusion", "physical", "Blunt-Force Trauma", false},
		{"incision", "physical", "Sharp-Force Trauma", false},
		{"puncture", "physical", "Penetration Trauma", false},
		{"raw", "physical", "Raw Trauma", false},
		{"fire", "elemental", "Burn Trauma", false},
		{"ice", "elemental", "Frostbite Trauma", false},
		{"shock", "elemental", "Shock Trauma", false},
		{"holy", "divine", "Divine Trauma", true},
		{"spite", "demonic", "Demonic Trauma", true},
	}
	if len(tests) != len(DamageTypes) {
		t.Fatalf("%d damage types tested, %d defined", len(tests), len(DamageTypes))
	}
	for _, tt := range tests {
		dt, err := ParseDamageType(strings.ToUpper(tt.name))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		info, _ := dt.Info()
		if info.Category != tt.category || info.Trauma != tt.trauma || info.Lasting != tt.lasting || info.Effect == "" {
			t.Errorf("%s: %+v; want %s, %s Injury Card, lasting %v", tt.name, info, tt.category, tt.trauma, tt.lasting)
		}
	}
	for _, bad := range []string{"", "acid", "earlier"} {
		if _, err := ParseDamageType(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestInjureErrors(t *testing.T) {
	cfg := DefaultConfig()
	for _, tt := range []struct {
		s  State
		in Injury
	}{
		{State{HitPoints: 10}, Injury{Type: "acid", Potency: 1}},
		{State{HitPoints: 10}, Injury{Type: Earlier, Potency: 1}},
		{State{HitPoints: 10}, Injury{Type: Fire, Potency: -1}},
		{State{HitPoints: 0}, Injury{Type: Fire, Potency: 1}},
		{State{HitPoints: 10, Dead: true}, Injury{Type: Fire, Potency: 1}},
		{State{HitPoints: 10}, Injury{Type: Fire, Potency: 1, Modifiers: Modifiers{Mitigation: -1}}},
	} {
		if _, err := Injure(tt.s, tt.in, cfg); err == nil {
			t.Errorf("%+v, %+v: no error", tt.s, tt.in)
		}
	}
}

func TestExecution(t *testing.T) {
	// "Some Actions have Execution, which causes the Vulnerable Stage to be
	// skipped, and Epilogue being applied during the Actions Resolution."
	cfg := DefaultConfig()
	s := State{HitPoints: 10, Cards: []Card{{Type: Earlier, Damage: 8}}}
	got, err := Injure(s, Injury{Type: Incision, Potency: 5, Execution: Knockout}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Execution == nil || got.Execution.Celerity != 0 || got.State.KnockedOut != 3*cfg.FullRound() || got.State.Shock != time.Hour {
		t.Errorf("Execution knockout on 13 damage over 10 Hit Points: %+v, state %+v", got.Execution, got.State)
	}
	got, err = Injure(s, Injury{Type: Incision, Potency: 2, Execution: Execute}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Execution != nil || got.State.Dead {
		t.Errorf("Execution on 10 damage, not over 10 Hit Points: applied %+v", got.Execution)
	}
}
