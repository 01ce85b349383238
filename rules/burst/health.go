package burst

import (
	"errors"
	"fmt"
)

// Track is a creature's or object's damage track: "Living creatures can
// sustain an amount of damage before they are wounded and before they go
// into shock."
type Track struct {
	Durability int `json:"durability"`
	Health     int `json:"health"`
	// Shock: "When you are reduced to 0 Health you do not die instantly,
	// but you do go into Shock". A creature at 0 Health is in Shock.
	Shock bool `json:"shock"`
	// ShockRounds is how many Recovery Phases are left before a creature
	// in Shock dies: "A creature in Shock is on death's door and will die
	// in a number rounds equal to your Stamina score."
	ShockRounds int `json:"shock_rounds,omitempty"`
	// Stable: stabilised in Shock; no longer dying, but "you remain
	// unconscious until you recover at least 1 point of health".
	Stable bool `json:"stable,omitempty"`
	Dead   bool `json:"dead,omitempty"`
	// Object: "Everything has Durability, even objects." An object has no
	// Health: "When an inanimate object's Durability is depleted it is
	// destroyed beyond meaningful use."
	Object    bool `json:"object,omitempty"`
	Destroyed bool `json:"destroyed,omitempty"`
}

// Wounded: "Once you have taken enough damage to reduce your Durability to
// 0, you become wounded." Restoring Durability (emergency aid) lifts it.
func (t Track) Wounded() bool { return !t.Object && !t.Dead && t.Durability == 0 }

// Unconscious: "When your Health is reduced to 0, you lose consciousness".
func (t Track) Unconscious() bool { return !t.Object && !t.Dead && t.Health == 0 }

func (t Track) validate() error {
	switch {
	case t.Durability < 0 || t.Health < 0:
		return fmt.Errorf("durability and health cannot be negative (%d, %d)", t.Durability, t.Health)
	case t.ShockRounds < 0:
		return fmt.Errorf("shock rounds cannot be negative (%d)", t.ShockRounds)
	case t.Dead:
		return errors.New("the creature is dead")
	case t.Destroyed:
		return errors.New("the object is destroyed")
	case t.Object && t.Durability == 0:
		return errors.New("an object at 0 Durability is already destroyed")
	case !t.Object && t.Shock && t.Health > 0:
		return fmt.Errorf("a creature in Shock has 0 Health, not %d", t.Health)
	}
	return nil
}

// normal fills in what follows from the numbers: 0 Health is Shock.
func (t Track) normal() Track {
	if !t.Object && t.Health == 0 {
		t.Shock = true
	}
	if !t.Shock {
		t.Stable, t.ShockRounds = false, 0
	}
	return t
}

// HurtResult is what a hit did to a track.
type HurtResult struct {
	Before       Track `json:"before"`
	After        Track `json:"after"`
	Damage       int   `json:"damage"`
	ToDurability int   `json:"to_durability"`
	ToHealth     int   `json:"to_health"`
	// Lost is damage past 0 Durability that did not go on to Health
	// (Config.CarryOver false) or past 0 Health.
	Lost          int  `json:"lost"`
	BecameWounded bool `json:"became_wounded"`
	WentIntoShock bool `json:"went_into_shock"`
	Killed        bool `json:"killed"`
	Destroyed     bool `json:"destroyed"`
}

// Hurt applies damage to t. stamina sets how many rounds a creature going
// into Shock has left.
//
// "Damage is first subtracted from your Durability. When your Durability
// is reduced to 0, you are wounded, and you begin to subtract damage from
// your Health." "When you are reduced to 0 Health you do not die
// instantly, but you do go into Shock" and "If you take any additional
// damage while you are in shock, you are killed outright." A hit fully
// soaked by armor is no damage taken.
func Hurt(t Track, damage, stamina int, cfg Config) (HurtResult, error) {
	if err := t.validate(); err != nil {
		return HurtResult{}, err
	}
	if damage < 0 {
		return HurtResult{}, fmt.Errorf("damage cannot be negative (%d)", damage)
	}
	if stamina < 0 {
		return HurtResult{}, fmt.Errorf("stamina cannot be negative (%d)", stamina)
	}
	t = t.normal()
	out := HurtResult{Before: t, Damage: damage}
	if damage == 0 {
		out.After = t
		return out, nil
	}
	if t.Object {
		out.ToDurability = min(damage, t.Durability)
		out.Lost = damage - out.ToDurability
		t.Durability -= out.ToDurability
		if t.Durability == 0 {
			t.Destroyed, out.Destroyed = true, true
		}
		out.After = t
		return out, nil
	}
	if t.Shock {
		t.Dead, out.Killed = true, true
		t.Stable, t.ShockRounds = false, 0
		out.Lost = damage
		out.After = t
		return out, nil
	}
	wasWounded := t.Wounded()
	out.ToDurability = min(damage, t.Durability)
	t.Durability -= out.ToDurability
	rest := damage - out.ToDurability
	out.BecameWounded = !wasWounded && t.Durability == 0
	if !wasWounded && !cfg.CarryOver {
		out.Lost, rest = rest, 0
	}
	out.ToHealth = min(rest, t.Health)
	out.Lost += rest - out.ToHealth
	t.Health -= out.ToHealth
	if t.Health == 0 {
		t.Shock, out.WentIntoShock = true, true
		t.ShockRounds = stamina
	}
	out.After = t
	return out, nil
}

// VigorPerStamina: "You'll recover 1 point of Vigor for every 5 points of
// Stamina."
const VigorPerStamina = 5

// RecoverInput is one creature at the Recovery Phase: "At the end of each
// round, all combatants gain the benefits of their recovery."
type RecoverInput struct {
	Track   Track
	Stamina int
	// Vigor and MaxVigor (0: no cap given); Winded as the creature was,
	// which 0 Vigor always is.
	Vigor, MaxVigor int
	Winded          bool
	// DurabilityRegen, HealthRegen and ManaRegen come from special
	// abilities: "If you have a special ability, you may recover some
	// Durability", "You may recover some depleted Mana if you have a
	// special ability", "potentially other resources such as Durability
	// and Health. Although this is uncommon."
	DurabilityRegen, MaxDurability int
	HealthRegen, MaxHealth         int
	Mana, ManaRegen, MaxMana       int
}

// RecoverResult is the creature after the Recovery Phase.
type RecoverResult struct {
	Vigor        int   `json:"vigor"`
	VigorGained  int   `json:"vigor_gained"`
	Winded       bool  `json:"winded"`
	Durability   int   `json:"durability_gained"`
	Health       int   `json:"health_gained"`
	Mana         int   `json:"mana"`
	ManaGained   int   `json:"mana_gained"`
	After        Track `json:"after"`
	Died         bool  `json:"died"`
	Woke         bool  `json:"woke"`
	WoundedStill bool  `json:"wounded"`
}

// Recover applies the Recovery Phase at the end of a round. Health comes
// back before the Shock count goes down, so a creature that recovers
// Health in its last round lives; a creature that recovers at least 1
// Health leaves Shock and wakes.
func Recover(in RecoverInput, cfg Config) (RecoverResult, error) {
	t := in.Track
	if err := t.validate(); err != nil {
		return RecoverResult{}, err
	}
	for _, v := range []int{in.Stamina, in.Vigor, in.MaxVigor, in.DurabilityRegen, in.MaxDurability, in.HealthRegen, in.MaxHealth, in.Mana, in.ManaRegen, in.MaxMana} {
		if v < 0 {
			return RecoverResult{}, fmt.Errorf("recovery values cannot be negative (%d)", v)
		}
	}
	if in.MaxVigor > 0 && in.Vigor > in.MaxVigor {
		return RecoverResult{}, fmt.Errorf("vigor %d is above its maximum %d", in.Vigor, in.MaxVigor)
	}
	t = t.normal()
	out := RecoverResult{}
	// Vigor.
	gain := in.Stamina / VigorPerStamina
	out.Vigor = capAt(in.Vigor+gain, in.MaxVigor, in.Vigor)
	out.VigorGained = out.Vigor - in.Vigor
	out.Winded = (in.Winded || in.Vigor == 0) && out.Vigor < WindedUntil
	// Durability, unless wounded: "you no longer recover Durability
	// quickly".
	if in.DurabilityRegen > 0 && (!t.Wounded() || cfg.WoundedRecoversDurability) {
		after := capAt(t.Durability+in.DurabilityRegen, in.MaxDurability, t.Durability)
		out.Durability, t.Durability = after-t.Durability, after
	}
	if in.HealthRegen > 0 && !t.Object {
		after := capAt(t.Health+in.HealthRegen, in.MaxHealth, t.Health)
		out.Health, t.Health = after-t.Health, after
		if t.Shock && t.Health > 0 {
			// "you remain unconscious until you recover at least 1 point of
			// health"
			t.Shock, t.Stable, t.ShockRounds = false, false, 0
			out.Woke = true
		}
	}
	out.Mana = capAt(in.Mana+in.ManaRegen, in.MaxMana, in.Mana)
	out.ManaGained = out.Mana - in.Mana
	if t.Shock && !t.Stable {
		if t.ShockRounds == 0 {
			t.ShockRounds = in.Stamina
		}
		t.ShockRounds--
		if t.ShockRounds <= 0 {
			t.Dead, out.Died = true, true
			t.Shock, t.ShockRounds = false, 0
		}
	}
	out.After = t
	out.WoundedStill = t.Wounded()
	return out, nil
}

// capAt returns v held to limit when limit is above 0, never below floor
// (a value already over its cap does not drop).
func capAt(v, limit, floor int) int {
	if limit > 0 && v > limit {
		v = limit
	}
	return max(v, floor)
}
