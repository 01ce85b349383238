package xhalem

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

type damageResult struct {
	kit.Outcome
	Kind       rules.Kind   `json:"kind"`
	Weapon     rules.Weapon `json:"weapon"`
	Stat       string       `json:"stat"`
	Score      int          `json:"score"`
	Rolled     int          `json:"rolled"`
	Base       int          `json:"base"`
	Halved     bool         `json:"halved"`
	Immune     bool         `json:"immune"`
	Vulnerable bool         `json:"vulnerable"`
}

// damageExample is a correct /xhalem damage, for its mistakes.
const damageExample = "/xhalem damage kind:machine weapon:melee roll:2d8 hull:3"

// damage answers /xhalem damage: the damage of a hit, the weapon's dice
// plus Hull, Reactor or Strength, halved out of range, changed by water.
func (h *handlers) damage(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	d := readDamage(c, kind, ex)
	r, err := kit.Rule(c, ex, func() (rules.DamageResult, error) { return rules.Damage(d, cfg, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	res := damageResult{Outcome: kit.Outcome{Total: r.Total}, Kind: kind, Weapon: d.Weapon, Stat: r.Stat, Score: r.Score,
		Rolled: r.Rolled, Base: r.Base, Halved: r.Halved, Immune: r.Immune, Vulnerable: r.Vulnerable}
	line := fmt.Sprintf("%s deals %d damage %s%s", who(c), r.Total, damageSum(kind, d, r), damageChange(d, r, cfg.VulnerableMultiplier))
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, line)
}

// readDamage reads a hit's options, in the order their mistakes are told:
// the weapon and the water, the stat the weapon adds, its dice.
func readDamage(c *kit.Call, kind rules.Kind, ex string) rules.DamageInput {
	o := c.Req.Options
	d := rules.DamageInput{Kind: kind, Bonus: opt(c, "bonus"), OutOfRange: o.Bool("out_of_range"), InsideMech: o.Bool("inside_mech")}
	d.Weapon = pick(c, "weapon", rules.ParseWeapon, ex)
	d.Type = pick(c, "type", rules.ParseDamageType, ex+" type:fire")
	d.Immersion = pick(c, "immersion", rules.ParseImmersion, ex+" immersion:full")
	if stat := rules.DamageStat(kind, d.Weapon); stat != "" {
		d.Score = c.Need(stat)
	}
	d.Roll = strings.TrimSpace(o.String("roll"))
	if d.Roll == "" && d.Weapon != rules.Unarmed {
		c.Failf("/xhalem damage needs roll: the weapon's damage dice (example: %s)", ex)
	}
	if d.Roll != "" {
		// The dice are the user's text: a mistake in them is theirs, shown
		// with a caret, before the rules roll them.
		if _, err := dice.Parse(d.Roll); err != nil {
			c.Fail(kit.DiceError(err))
		}
	}
	return d
}

// damageSum says, in brackets, what the damage adds up: "(9 rolled +5
// hull +1 bonus)", or what the weapon does not add.
func damageSum(kind rules.Kind, d rules.DamageInput, r rules.DamageResult) string {
	parts := []string{fmt.Sprintf("%d rolled", r.Rolled)}
	if r.Stat != "" {
		parts = append(parts, fmt.Sprintf("%s %s", signed(r.Score), r.Stat))
	}
	if d.Bonus != 0 {
		parts = append(parts, signed(d.Bonus)+" bonus")
	}
	sum := "(" + strings.Join(parts, " ")
	if r.Stat == "" {
		sum += fmt.Sprintf("; nothing added for a %s's %s", kind, weaponName(d.Weapon))
	}
	return sum + ")"
}

// damageChange says what changed the sum: the range and the water, with
// multiplier the campaign's for vulnerable targets.
func damageChange(d rules.DamageInput, r rules.DamageResult, multiplier int) string {
	switch {
	case r.Halved && r.Immune:
		return ", halved out of range, and the target is immune"
	case r.Halved && r.Vulnerable:
		return fmt.Sprintf(", halved out of range, then ×%d: vulnerable to electrical damage in water", multiplier)
	case r.Halved:
		return ", halved: out of range"
	case r.Immune && d.Type == rules.FireDamage:
		return ": immune to fire while fully immersed"
	case r.Immune:
		return ": a creature inside a mech is unaffected by electrical damage to it"
	case r.Vulnerable:
		return fmt.Sprintf(", ×%d: vulnerable to electrical damage in water", multiplier)
	}
	return ""
}

// weaponName names a weapon as the text does.
func weaponName(w rules.Weapon) string {
	switch w {
	case rules.Energy:
		return "energy ranged weapon"
	case rules.Conventional:
		return "conventional ranged weapon"
	case rules.Thrown:
		return "thrown weapon"
	case rules.Unarmed:
		return "unarmed engagement"
	}
	return "melee weapon"
}
