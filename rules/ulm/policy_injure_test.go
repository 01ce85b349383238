package ulm

import (
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/encounter"
)

// Policy.Injure is the Resolution of /ulm injure on a combatant: the
// same ulm.Injure, with the Victim's state and Modifiers from the fight.
func TestPolicyInjure(t *testing.T) {
	percent := DefaultConfig()
	percent.ModifierMode = ModifierPercent
	tests := []struct {
		rule     string
		cfg      Config
		c        encounter.Combatant
		in       InjureInput
		summary  string
		want     map[string]int // resources after, besides reserved
		defeated bool
		skipping bool
	}{
		{"during Resolution, all sources of Mitigation, Amplifications, and Weaknesses are calculated and applied to the Potency: 12 - 3 + 1 + 2, the Victim's own",
			DefaultConfig(), encounter.Combatant{Stats: stats("hp", 10, "mitigation", 3, "amplification", 1, "weakness", 2)},
			InjureInput{Injury: Injury{Type: Incision, Potency: 12}},
			"V took 12 incision damage (Potency 12, Mitigation 3, Amplification 1, Weakness 2, flat), a Sharp-Force Trauma Injury Card (damage 0 -> 12, hp 10): Vulnerable",
			map[string]int{ResDamage: 12, "injury_incision": 12, ResVulnerable: 1}, false, false},
		{"Modifiers given win over the stats, 0 too; the Damage Source is named",
			DefaultConfig(), encounter.Combatant{Stats: stats("hp", 20, "mitigation", 3)},
			InjureInput{Injury: Injury{Source: "Kael", Type: Fire, Potency: 10, Modifiers: Modifiers{Weakness: 2}}, MitigationKnown: true},
			"V took 12 fire damage from Kael (Potency 10, Mitigation 0, Amplification 0, Weakness 2, flat), a Burn Trauma Injury Card (damage 0 -> 12, hp 20)",
			map[string]int{ResDamage: 12, "injury_fire": 12}, false, false},
		{"modifier_mode percent: 10 at 100 - 50 %",
			percent, encounter.Combatant{Stats: stats("hp", 20, "mitigation", 50)},
			InjureInput{Injury: Injury{Type: Ice, Potency: 10}},
			"V took 5 ice damage (Potency 10, Mitigation 50, Amplification 0, Weakness 0, percent), a Frostbite Trauma Injury Card (damage 0 -> 5, hp 20)",
			map[string]int{ResDamage: 5, "injury_ice": 5}, false, false},
		{"the remaining Potency is used to create and apply an Injury Card: none remains, none is made",
			DefaultConfig(), encounter.Combatant{Stats: stats("hp", 10, "mitigation", 5)},
			InjureInput{Injury: Injury{Type: Contusion, Potency: 3}},
			"V took 0 contusion damage (Potency 3, Mitigation 5, Amplification 0, Weakness 0, flat): no Injury Card (damage 0 -> 0, hp 10)",
			map[string]int{ResDamage: 0}, false, false},
		{"Some Actions have Execution, which causes the Vulnerable Stage to be skipped: on a Victim already Vulnerable",
			DefaultConfig(), encounter.Combatant{Stats: stats("hp", 10, "damage", 11)},
			InjureInput{Injury: Injury{Type: Puncture, Potency: 1, Execution: Knockout}},
			"V took 1 puncture damage, a Penetration Trauma Injury Card (damage 11 -> 12, hp 10); Execution: Knockout: Knocked Out for 3 Full Rounds, its Active Phases skipped; in Shock for 1 hour",
			map[string]int{ResDamage: 12, ResUntyped: 11, "injury_puncture": 1, ResVulnerable: 1, ResKnockedOutSeconds: 30, ResShockSeconds: 3600}, false, true},
		{"Holy: Divine Trauma Injury Card",
			DefaultConfig(), encounter.Combatant{Stats: stats("hp", 20, "holy", 4)},
			InjureInput{Injury: Injury{Type: Holy, Potency: 6}},
			"V took 6 holy damage, a Divine Trauma Injury Card (damage 4 -> 10, hp 20)",
			map[string]int{ResDamage: 10, "injury_holy": 10}, false, false},
		{"Raw Damage deals ½ damage to Armor and Object Durability: nothing of the combatant changes",
			DefaultConfig(), encounter.Combatant{Stats: stats("hp", 10)},
			InjureInput{Injury: Injury{Type: Raw, Potency: 9, Object: true}},
			"V's Armor or Object loses 4 Durability to 9 raw damage: no Injury Card",
			map[string]int{ResDamage: 0}, false, false},
	}
	for _, tt := range tests {
		p := newPolicy(tt.cfg)
		c := tt.c
		c.Name = "V"
		e, _ := begun(t, p, encounter.Combatant{Name: "A"}, c)
		v := find(t, e, "V")
		res, line, err := p.Injure(e, v, tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		got := maps.Clone(v.Resources)
		delete(got, ResReserved)
		if line != tt.summary || !reflect.DeepEqual(got, tt.want) || v.Defeated != tt.defeated || v.Skipping != tt.skipping {
			t.Errorf("%s:\n got %q %v defeated %v skipping %v\nwant %q %v defeated %v skipping %v",
				tt.rule, line, got, v.Defeated, v.Skipping, tt.summary, tt.want, tt.defeated, tt.skipping)
		}
		// The result's state is the one the fight keeps.
		if s, _, err := p.load(v); err != nil || res.State.Damage() != s.Damage() || res.State.Vulnerable != s.Vulnerable || res.State.KnockedOut != s.KnockedOut {
			t.Errorf("%s: result state %+v, kept %+v (%v)", tt.rule, res.State, s, err)
		}
	}
}

func TestPolicyInjureRefused(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule string
		c    encounter.Combatant
		in   InjureInput
		msg  string
	}{
		{"no Hit Points, no damage track", encounter.Combatant{}, InjureInput{Injury: Injury{Type: Fire, Potency: 3}}, "no Hit Points"},
		{"the dead take no more damage", encounter.Combatant{Stats: stats("hp", 10), Resources: stats("damage", 0, "dead", 1)},
			InjureInput{Injury: Injury{Type: Fire, Potency: 3}}, "V: the Victim is dead"},
		{"a negative Mitigation is an Amplification", encounter.Combatant{Stats: stats("hp", 10, "mitigation", -2)},
			InjureInput{Injury: Injury{Type: Fire, Potency: 3}}, "a negative one is the other kind"},
		{"as much damage as /init damage takes", encounter.Combatant{Stats: stats("hp", 10)},
			InjureInput{Injury: Injury{Type: Fire, Potency: encounter.MaxAmount + 1}}, "damage must be at most 1000000"},
		{"and after Resolution", encounter.Combatant{Stats: stats("hp", 10)},
			InjureInput{Injury: Injury{Type: Fire, Potency: encounter.MaxAmount, Modifiers: Modifiers{Weakness: 1}}, WeaknessKnown: true}, "damage must be at most 1000000"},
		{"a type of the text", encounter.Combatant{Stats: stats("hp", 10)}, InjureInput{Injury: Injury{Type: "acid", Potency: 3}}, "is not a damage type"},
	}
	for _, tt := range tests {
		c := tt.c
		c.Name = "V"
		e, _ := begun(t, p, encounter.Combatant{Name: "A"}, c)
		before := e.Clone()
		_, _, err := p.Injure(e, find(t, e, "V"), tt.in)
		if !isInvalid(err) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want a user error with %q", tt.rule, err, tt.msg)
		}
		if !reflect.DeepEqual(e, before) {
			t.Errorf("%s: the encounter changed", tt.rule)
		}
	}
}
