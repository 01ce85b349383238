package burst

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// What damage does to a creature and how it comes back: /burst hurt
// (Durability, then Health, then Shock) and /burst recover (the Recovery
// Phase). Neither rolls dice.

type hurtResult struct {
	kit.Outcome
	rules.HurtResult
}

// hurtInput is what /burst hurt reads.
type hurtInput struct {
	track   rules.Track
	damage  int
	stamina int
}

func (h *handlers) hurt(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, _, res, err := serve(ctx, h, req, "/burst hurt damage:8 durability:10 health:8 stamina:3", readHurt, hurtRule)
	if err != nil {
		return kit.Response{}, err
	}
	out := hurtResult{Outcome: kit.Outcome{Total: res.Damage}, HurtResult: res}
	return kit.Tell(c, &out, &out.Outcome, hurtLine(c.Who(), res))
}

// readHurt reads the damage and the track it falls on; an object has no
// Health.
func readHurt(c *kit.Call) hurtInput {
	damage, _ := c.Req.Options.Int("damage")
	in := hurtInput{track: rules.Track{Object: c.Flag("object"), Shock: c.Flag("shock")}, damage: int(damage)}
	in.track.Durability = c.Need("durability")
	if !in.track.Object {
		in.track.Health = c.Need("health")
	}
	in.stamina = c.Or("stamina", 0)
	return in
}

// hurtRule is rules.Hurt, for serve.
func hurtRule(in hurtInput, cfg rules.Config, _ rules.Dice) (rules.HurtResult, error) {
	return rules.Hurt(in.track, in.damage, in.stamina, cfg)
}

func hurtLine(who string, res rules.HurtResult) string {
	b, a := res.Before, res.After
	parts := []string{}
	if res.Killed {
		return fmt.Sprintf("**%s** takes %d damage in Shock: killed outright", who, res.Damage)
	}
	if res.ToDurability > 0 || a.Object {
		parts = append(parts, fmt.Sprintf("Durability %d → %d", b.Durability, a.Durability))
	}
	if res.Destroyed {
		parts = append(parts, "destroyed beyond meaningful use")
	}
	if res.BecameWounded {
		parts = append(parts, "wounded (bonus dice a step down)")
	}
	if res.ToHealth > 0 {
		parts = append(parts, fmt.Sprintf("Health %d → %d", b.Health, a.Health))
	}
	if res.WentIntoShock {
		rounds := "a number of rounds equal to Stamina"
		if a.ShockRounds > 0 {
			rounds = fmt.Sprintf("%d rounds", a.ShockRounds)
		}
		parts = append(parts, "in Shock, unconscious: dies in "+rounds+" unless stabilised (Medicine VS 20)")
	}
	if res.Damage == 0 {
		parts = append(parts, "no harm done")
	}
	return fmt.Sprintf("**%s** takes %d damage: %s", who, res.Damage, strings.Join(parts, "; "))
}

type recoverResult struct {
	kit.Outcome
	Vigor            int  `json:"vigor"`
	VigorGained      int  `json:"vigor_gained"`
	Winded           bool `json:"winded"`
	Durability       *int `json:"durability,omitempty"`
	DurabilityGained int  `json:"durability_gained"`
	Health           *int `json:"health,omitempty"`
	HealthGained     int  `json:"health_gained"`
	Mana             *int `json:"mana,omitempty"`
	ManaGained       int  `json:"mana_gained"`
	Shock            bool `json:"shock"`
	ShockRounds      int  `json:"shock_rounds,omitempty"`
	Stable           bool `json:"stable,omitempty"`
	Died             bool `json:"died"`
	Woke             bool `json:"woke"`
}

// recoverInput is what /burst recover reads: the rules' input, and which
// of Durability, Health and Mana were given (the others are left out of
// the reply).
type recoverInput struct {
	rules.RecoverInput
	durKnown, healthKnown, manaKnown bool
}

// recovery is the Recovery Phase's outcome, and whether a wound kept
// Durability from coming back (the configuration's choice).
type recovery struct {
	rules.RecoverResult
	woundHeld bool
}

func (h *handlers) recover(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, in, res, err := serve(ctx, h, req, "/burst recover stamina:12 vigor:3", readRecover, recoverRule)
	if err != nil {
		return kit.Response{}, err
	}
	out := recoverResultOf(in, res.RecoverResult)
	return kit.Tell(c, &out, &out.Outcome, recoverLine(c.Who(), in, res))
}

// readRecover reads the Recovery Phase's input. Durability, Health and
// Mana are needed only when something restores them or Shock counts
// down; otherwise they are left out of the reply.
func readRecover(c *kit.Call) recoverInput {
	in := recoverInput{RecoverInput: rules.RecoverInput{
		MaxVigor: c.Or("max_vigor", 0), Winded: c.Flag("winded"),
		DurabilityRegen: c.Or("regen", 0), MaxDurability: c.Or("max_durability", 0),
		HealthRegen: c.Or("health_regen", 0), ManaRegen: c.Or("mana_regen", 0), MaxMana: c.Or("max_mana", 0),
		Stamina: c.Need("stamina"), Vigor: c.Need("vigor"),
	}}
	shock := c.Flag("shock") || c.Req.Options.Has("rounds") || c.Req.Options.Has("stable")
	dur, durKnown := c.Stat("durability")
	if in.DurabilityRegen > 0 && !durKnown {
		c.Failf("regen: restores Durability: give durability:<now> too (example: /burst recover stamina:12 vigor:3 regen:2 durability:4)")
	}
	health, healthKnown := c.Stat("health")
	switch {
	case healthKnown:
	case shock:
		health, healthKnown = 0, true // "When you are reduced to 0 Health you ... go into Shock"
	case in.HealthRegen > 0:
		c.Failf("health_regen: restores Health: give health:<now> too (example: /burst recover stamina:12 vigor:3 health_regen:1 health:2)")
	}
	in.Mana, in.manaKnown = c.Stat("mana")
	in.durKnown, in.healthKnown = durKnown, healthKnown
	in.Track = rules.Track{Durability: dur, Health: health, Shock: shock, ShockRounds: c.Or("rounds", 0), Stable: c.Flag("stable")}
	if !durKnown {
		in.Track.Durability = 1 // not given: not wounded, and not shown
	}
	if !healthKnown {
		in.Track.Health = 1 // not given: not in Shock, and not shown
	}
	return in
}

// recoverRule is rules.Recover, and whether a wound held Durability back.
func recoverRule(in recoverInput, cfg rules.Config, _ rules.Dice) (recovery, error) {
	res, err := rules.Recover(in.RecoverInput, cfg)
	held := res.Durability == 0 && in.Track.Wounded() && !cfg.WoundedRecoversDurability
	return recovery{RecoverResult: res, woundHeld: held}, err
}

// recoverResultOf is the result of /burst recover: Durability, Health
// and Mana only where they were given (or restored).
func recoverResultOf(in recoverInput, res rules.RecoverResult) recoverResult {
	out := recoverResult{
		Outcome: kit.Outcome{Total: res.Vigor},
		Vigor:   res.Vigor, VigorGained: res.VigorGained, Winded: res.Winded,
		DurabilityGained: res.Durability, HealthGained: res.Health, ManaGained: res.ManaGained,
		Shock: res.After.Shock, ShockRounds: res.After.ShockRounds, Stable: res.After.Stable, Died: res.Died, Woke: res.Woke,
	}
	if in.durKnown {
		out.Durability = &res.After.Durability
	}
	if in.healthKnown {
		out.Health = &res.After.Health
	}
	if in.manaKnown || in.ManaRegen > 0 {
		out.Mana = &res.Mana
	}
	return out
}

// recoverLine says what came back: Vigor always, Durability and Health
// when something restored them, Mana when given, and the state of Shock.
func recoverLine(who string, in recoverInput, res recovery) string {
	parts := []string{fmt.Sprintf("Vigor %d → %d", in.Vigor, res.Vigor)}
	if res.Winded {
		parts = append(parts, fmt.Sprintf("still winded (until %d Vigor)", rules.WindedUntil))
	}
	if in.durKnown && in.DurabilityRegen > 0 {
		note := ""
		if res.woundHeld {
			note = " (wounded: no quick recovery)"
		}
		parts = append(parts, fmt.Sprintf("Durability %d → %d%s", in.Track.Durability, res.After.Durability, note))
	}
	if in.healthKnown && in.HealthRegen > 0 {
		parts = append(parts, fmt.Sprintf("Health %d → %d", in.Track.Health, res.After.Health))
	}
	if in.manaKnown || in.ManaRegen > 0 {
		parts = append(parts, fmt.Sprintf("Mana %d → %d", in.Mana, res.Mana))
	}
	switch {
	case res.Died:
		parts = append(parts, "died in Shock")
	case res.Woke:
		parts = append(parts, "out of Shock and awake")
	case res.After.Shock && res.After.Stable:
		parts = append(parts, "stable in Shock, unconscious until 1 Health returns")
	case res.After.Shock:
		parts = append(parts, fmt.Sprintf("in Shock: %d rounds left", res.After.ShockRounds))
	}
	return fmt.Sprintf("**%s** recovers: %s", who, strings.Join(parts, " · "))
}
