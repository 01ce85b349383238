package burst

import (
	"reflect"
	"strings"
	"testing"
)

func TestHurt(t *testing.T) {
	cfg := DefaultConfig()
	noCarry := cfg
	noCarry.CarryOver = false
	tests := []struct {
		rule    string
		track   Track
		damage  int
		stamina int
		cfg     Config
		want    HurtResult // Before and Damage are filled in
	}{
		{"Damage is first subtracted from your Durability.",
			Track{Durability: 10, Health: 8}, 4, 3, cfg,
			HurtResult{ToDurability: 4, After: Track{Durability: 6, Health: 8}}},
		{"When your Durability is reduced to 0, you are wounded, and you begin to subtract damage from your Health.",
			Track{Durability: 3, Health: 8}, 5, 3, cfg,
			HurtResult{ToDurability: 3, ToHealth: 2, BecameWounded: true, After: Track{Durability: 0, Health: 6}}},
		{"damage_carries_to_health = false: the rest of the hit is lost",
			Track{Durability: 3, Health: 8}, 5, 3, noCarry,
			HurtResult{ToDurability: 3, Lost: 2, BecameWounded: true, After: Track{Durability: 0, Health: 8}}},
		{"Any damage you take once you are wounded is potentially life-threatening damage to your Health.",
			Track{Durability: 0, Health: 6}, 4, 3, noCarry,
			HurtResult{ToHealth: 4, After: Track{Durability: 0, Health: 2}}},
		{"When you are reduced to 0 Health you do not die instantly, but you do go into Shock ... will die in a number rounds equal to your Stamina score",
			Track{Durability: 0, Health: 2}, 5, 3, cfg,
			HurtResult{ToHealth: 2, Lost: 3, WentIntoShock: true, After: Track{Health: 0, Shock: true, ShockRounds: 3}}},
		{"If you take any additional damage while you are in shock, you are killed outright.",
			Track{Health: 0, Shock: true, ShockRounds: 2}, 1, 3, cfg,
			HurtResult{Lost: 1, Killed: true, After: Track{Health: 0, Shock: true, Dead: true}}},
		{"in shock and stabilised: still killed by more damage",
			Track{Health: 0, Shock: true, Stable: true}, 1, 3, cfg,
			HurtResult{Lost: 1, Killed: true, After: Track{Health: 0, Shock: true, Dead: true}}},
		{"a hit fully soaked by armor is no damage taken, even in shock",
			Track{Health: 0, Shock: true, ShockRounds: 2}, 0, 3, cfg,
			HurtResult{After: Track{Health: 0, Shock: true, ShockRounds: 2}}},
		{"When an inanimate object's Durability is depleted it is destroyed beyond meaningful use.",
			Track{Durability: 5, Object: true}, 7, 0, cfg,
			HurtResult{ToDurability: 5, Lost: 2, Destroyed: true, After: Track{Durability: 0, Object: true, Destroyed: true}}},
	}
	for _, tt := range tests {
		got, err := Hurt(tt.track, tt.damage, tt.stamina, tt.cfg)
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		tt.want.Before, tt.want.Damage = got.Before, tt.damage
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.rule, got, tt.want)
		}
	}
	if _, err := Hurt(Track{Health: 0, Dead: true}, 3, 3, cfg); err == nil {
		t.Error("hurting the dead: no error")
	}
	if _, err := Hurt(Track{Health: 4, Shock: true}, 1, 3, cfg); err == nil {
		t.Error("Shock at 4 Health: no error; \"When you are reduced to 0 Health ... you do go into Shock\"")
	}
	if _, err := Hurt(Track{Durability: 2, Health: 2}, -1, 3, cfg); err == nil {
		t.Error("negative damage: no error")
	}
}

func TestWounded(t *testing.T) {
	// "Once you have taken enough damage to reduce your Durability to 0, you
	// become wounded."
	if !(Track{Durability: 0, Health: 5}).Wounded() || (Track{Durability: 1, Health: 5}).Wounded() {
		t.Error("wounded is 0 Durability")
	}
	// "When your Health is reduced to 0, you lose consciousness"
	if !(Track{Health: 0, Shock: true}).Unconscious() {
		t.Error("0 Health is unconscious")
	}
}

func TestRecover(t *testing.T) {
	cfg := DefaultConfig()
	slowWounds := cfg
	slowWounds.WoundedRecoversDurability = true
	tests := []struct {
		rule string
		in   RecoverInput
		cfg  Config
		want RecoverResult
	}{
		{"You'll recover 1 point of Vigor for every 5 points of Stamina.",
			RecoverInput{Track: Track{Durability: 5, Health: 5}, Stamina: 12, Vigor: 10}, cfg,
			RecoverResult{Vigor: 12, VigorGained: 2, After: Track{Durability: 5, Health: 5}}},
		{"Vigor stops at its maximum",
			RecoverInput{Track: Track{Durability: 5, Health: 5}, Stamina: 15, Vigor: 19, MaxVigor: 20}, cfg,
			RecoverResult{Vigor: 20, VigorGained: 1, After: Track{Durability: 5, Health: 5}}},
		{"If you exhaust your Vigor, you become Winded ... until you recover at least 5 points of Vigor.",
			RecoverInput{Track: Track{Durability: 5, Health: 5}, Stamina: 10, Vigor: 0}, cfg,
			RecoverResult{Vigor: 2, VigorGained: 2, Winded: true, After: Track{Durability: 5, Health: 5}}},
		{"Winded ends at 5 Vigor recovered",
			RecoverInput{Track: Track{Durability: 5, Health: 5}, Stamina: 10, Vigor: 4, Winded: true}, cfg,
			RecoverResult{Vigor: 6, VigorGained: 2, After: Track{Durability: 5, Health: 5}}},
		{"If you have a special ability, you may recover some Durability.",
			RecoverInput{Track: Track{Durability: 5, Health: 5}, Vigor: 3, DurabilityRegen: 2, MaxDurability: 6}, cfg,
			RecoverResult{Vigor: 3, Durability: 1, After: Track{Durability: 6, Health: 5}}},
		{"you no longer recover Durability quickly [when wounded]",
			RecoverInput{Track: Track{Durability: 0, Health: 5}, Vigor: 3, DurabilityRegen: 2}, cfg,
			RecoverResult{Vigor: 3, After: Track{Durability: 0, Health: 5}, WoundedStill: true}},
		{"wounded_recovers_durability = true",
			RecoverInput{Track: Track{Durability: 0, Health: 5}, Vigor: 3, DurabilityRegen: 2}, slowWounds,
			RecoverResult{Vigor: 3, Durability: 2, After: Track{Durability: 2, Health: 5}}},
		{"You may recover some depleted Mana if you have a special ability.",
			RecoverInput{Track: Track{Durability: 5, Health: 5}, Vigor: 3, Mana: 4, ManaRegen: 3, MaxMana: 6}, cfg,
			RecoverResult{Vigor: 3, Mana: 6, ManaGained: 2, After: Track{Durability: 5, Health: 5}}},
		{"A creature in Shock ... will die in a number rounds equal to your Stamina score: one round gone",
			RecoverInput{Track: Track{Health: 0, Shock: true, ShockRounds: 3}, Stamina: 3, Vigor: 1}, cfg,
			RecoverResult{Vigor: 1, After: Track{Health: 0, Shock: true, ShockRounds: 2}, WoundedStill: true}},
		{"the last round in Shock",
			RecoverInput{Track: Track{Health: 0, Shock: true, ShockRounds: 1}, Stamina: 3, Vigor: 1}, cfg,
			RecoverResult{Vigor: 1, Died: true, After: Track{Health: 0, Dead: true}}},
		{"If you are stabilized, you remain unconscious until you recover at least 1 point of health.",
			RecoverInput{Track: Track{Health: 0, Shock: true, Stable: true}, Stamina: 3, Vigor: 1}, cfg,
			RecoverResult{Vigor: 1, After: Track{Health: 0, Shock: true, Stable: true}, WoundedStill: true}},
		{"recovering 1 Health ends Shock and wakes",
			RecoverInput{Track: Track{Health: 0, Shock: true, Stable: true}, Stamina: 3, Vigor: 1, HealthRegen: 1}, cfg,
			RecoverResult{Vigor: 1, Health: 1, Woke: true, After: Track{Health: 1}, WoundedStill: true}},
	}
	for _, tt := range tests {
		got, err := Recover(tt.in, tt.cfg)
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.rule, got, tt.want)
		}
	}
	if _, err := Recover(RecoverInput{Vigor: -1}, cfg); err == nil {
		t.Error("negative vigor: no error")
	}
}

func TestStabiliseAndAid(t *testing.T) {
	cfg := DefaultConfig()
	// "A creature in shock can be stabilized by making a successful Medicine
	// or Medical Science check VS 20."
	s, err := Stabilise(Bonus{Dice: 1}, cfg, physical(t, 14, 6))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Stable || s.VS != 20 || s.Margin != 0 {
		t.Errorf("14 + 6 vs 20: stable %v VS %d margin %d; want stable at VS 20 margin 0", s.Stable, s.VS, s.Margin)
	}
	s, err = Stabilise(Bonus{Dice: 1}, cfg, physical(t, 14, 5))
	if err != nil {
		t.Fatal(err)
	}
	if s.Stable {
		t.Error("19 vs 20: stabilised")
	}

	// "You may also perform emergency aid on a wounded or injured creature,
	// using 2 Actions and restoring 1d10 Durability on a Medicine
	// (treatment) VS 20 check."
	tests := []struct {
		rule     string
		in       AidInput
		vals     []int
		success  bool
		restored int
		after    int
	}{
		{"restoring 1d10 Durability on a Medicine (treatment) VS 20 check", AidInput{Medicine: Bonus{Dice: 1}}, []int{15, 5, 7}, true, 7, 7},
		{"a failed check restores nothing and rolls no 1d10", AidInput{Medicine: Bonus{Dice: 1}, Durability: 2}, []int{10, 3}, false, 0, 2},
		{"the sheet's maximum Durability caps it", AidInput{Medicine: Bonus{Dice: 2}, Durability: 8, MaxDurability: 10}, []int{12, 4, 4, 9}, true, 2, 10},
	}
	for _, tt := range tests {
		a, err := Aid(tt.in, cfg, physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if a.Success != tt.success || a.Restored != tt.restored || a.Durability != tt.after || a.Actions != 2 || (a.Restore != nil) != tt.success {
			t.Errorf("%q: success %v restored %d durability %d actions %d; want %v %d %d 2", tt.rule, a.Success, a.Restored, a.Durability, a.Actions, tt.success, tt.restored, tt.after)
		}
	}
	if _, err := Aid(AidInput{Durability: 12, MaxDurability: 10}, cfg, physical(t)); err == nil || !strings.Contains(err.Error(), "above its maximum") {
		t.Errorf("durability over its maximum: err = %v", err)
	}
}

func TestInitiative(t *testing.T) {
	tests := []struct {
		rule       string
		in         InitiativeInput
		vals       []int
		total      int
		actions    int
		firstRound int
		ambushed   bool
	}{
		{"all participants who wish to act roll their action dice. Talents or skills might add bonus dice; You begin with 2 Actions.", InitiativeInput{Bonus: Bonus{Dice: 1}}, []int{12, 4}, 16, 2, 2, false},
		{"Over Watch ... gain a +1 bonus dice to initiative on the first turn of combat so long as it initiated form the expected attack vector", InitiativeInput{Bonus: Bonus{Dice: 1}, Watch: Expected}, []int{12, 4, 3}, 19, 2, 2, false},
		{"if an attack is initiated from another vector, the Over Watch combatant is considered Ambushed", InitiativeInput{Watch: OtherVector}, []int{12}, 12, 2, 1, true},
		{"Ambushed characters may only take 1 action at the beginning of the first round.", InitiativeInput{Ambush: Ambushed, Actions: 3}, []int{5}, 5, 3, 1, true},
		{"Ambushers gain 1 extra action for the first round.", InitiativeInput{Ambush: Ambusher}, []int{5}, 5, 2, 3, false},
		{"You gain additional actions through upgrading skill trees and learning talents", InitiativeInput{Ambush: Ambusher, Actions: 3}, []int{5}, 5, 3, 4, false},
	}
	for _, tt := range tests {
		r, err := Initiative(tt.in, physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if r.Roll.Total != tt.total || r.Actions != tt.actions || r.FirstRound != tt.firstRound || r.Ambushed != tt.ambushed {
			t.Errorf("%q: total %d actions %d first round %d ambushed %v; want %d %d %d %v", tt.rule, r.Roll.Total, r.Actions, r.FirstRound, r.Ambushed, tt.total, tt.actions, tt.firstRound, tt.ambushed)
		}
	}
	if _, err := Initiative(InitiativeInput{Watch: Expected, Ambush: Ambusher}, physical(t)); err == nil {
		t.Error("Over Watch and an ambush side together: no error")
	}
}
