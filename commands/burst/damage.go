package burst

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// /burst damage: the damage dice of a weapon's quality, its wielder's
// Strength or Skill dice, and what armor, cover and Durability take off.

// BurstDamageResult is the result of /burst damage.
type BurstDamageResult struct {
	kit.Outcome
	rules.DamageResult
	Quality string `json:"quality"`
}

const damageExample = "/burst damage count:2 rank:ordinary strength:1 armor:3"

func (h *handlers) damage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, in, res, err := serve(ctx, h, req, damageExample, readDamage, rules.Damage)
	if err != nil {
		return kit.Response{}, err
	}
	out := BurstDamageResult{Outcome: kit.Outcome{Total: res.Roll.Total}, DamageResult: res, Quality: in.Quality.String()}
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, damageLine(c.Who(), in, res))
}

// readDamage reads a damage roll: the weapon, the bonus dice its kind
// adds, the damage type, and the target's protection.
func readDamage(c *kit.Call) rules.DamageInput {
	o := c.Req.Options
	kind, stat := readWeaponKind(c)
	in := rules.DamageInput{Count: rules.UnarmedCount, Quality: rules.UnarmedQuality, BonusLabel: stat, OffHand: o.Bool("offhand"),
		Sealed: o.Bool("sealed"), Object: o.Bool("object"), Durability: rules.Feeble, ArmorQuality: rules.Ordinary}
	// An unarmed attack has its own count and quality; a weapon needs both.
	if v, ok := o.Int("count"); ok {
		in.Count = int(v)
	} else if kind != "unarmed" {
		c.Failf("/burst damage needs count: the weapon's damage value (example: %s)", damageExample)
	}
	if o.Has("rank") {
		in.Quality = kit.Pick(c, "rank", rules.ParseQuality, damageExample)
	} else if kind != "unarmed" {
		c.Failf("/burst damage needs rank: the weapon's quality, feeble to legendary (example: %s)", damageExample)
	}
	n := 0
	if stat != "" {
		n = bonusDice(c, stat, stat, damageExample)
	}
	in.Bonus = bonus(c, n)
	in.Type = kit.Pick(c, "type", rules.ParseDamageType, "/burst damage count:2 rank:heroic strength:1 type:thermal")
	readProtection(c, &in)
	return in
}

// readWeaponKind reads the weapon's kind and the stat whose bonus dice it
// adds ("" for none); a bonus option of the other stat is a mistake.
func readWeaponKind(c *kit.Call) (kind, stat string) {
	kind = c.Req.Options.String("kind")
	if kind == "" {
		kind = "melee" // "an ordinary sword deals d8": the text's own first example
	}
	stat, err := rules.WeaponStat(kind)
	if err != nil {
		c.Fail(BurstErr(err, "/burst damage count:2 rank:ordinary kind:crossbow skill:1"))
	}
	for _, other := range []string{"strength", "skill"} {
		if other != stat && c.Req.Options.Has(other) {
			verb := "adds no bonus dice"
			if stat != "" {
				verb = "adds " + stat + " dice"
			}
			c.Failf("%s attack %s, not %s (example: %s)", article(kind), verb, other, damageExample)
		}
	}
	return kind, stat
}

// readProtection reads what stands between the damage and the target:
// its armor and the armor's quality, its Durability's quality, cover.
func readProtection(c *kit.Call, in *rules.DamageInput) {
	o := c.Req.Options
	if o.Has("armor_quality") {
		in.ArmorQuality = kit.Pick(c, "armor_quality", rules.ParseQuality, "/burst damage count:2 rank:heroic strength:1 armor:3 armor_quality:feeble")
	}
	if o.Has("durability") {
		in.Durability = kit.Pick(c, "durability", rules.ParseQuality, "/burst damage count:2 rank:epic strength:1 durability:heroic")
	}
	in.Cover = kit.Pick(c, "cover", rules.ParseCover, "/burst damage count:2 rank:ordinary skill:1 kind:crossbow cover:partial")
	armor, _ := o.Int("armor")
	other, _ := o.Int("other_armor")
	in.Armor, in.OtherArmor = int(armor), int(other)
}

// damageLine says the damage done and why: immunity, what armor stopped
// or did not, and what the armor itself took.
func damageLine(who string, in rules.DamageInput, res rules.DamageResult) string {
	line := fmt.Sprintf("**%s**: %d %s damage", who, res.Damage, res.Type)
	weapon := article(in.Quality.String())
	var why []string
	switch {
	case res.Immune && in.Object:
		why = append(why, fmt.Sprintf("rolled %d, but %s damage only harms living creatures", res.Roll.Total, res.Type))
	case res.Immune:
		why = append(why, fmt.Sprintf("rolled %d, but %s Durability is immune to %s weapon", res.Roll.Total, in.Durability, weapon))
	case !res.ArmorApplies && in.Armor+in.OtherArmor > 0:
		why = append(why, fmt.Sprintf("rolled %d; armor does not stop %s", res.Roll.Total, res.Type))
	case res.ArmorRank > 0:
		why = append(why, fmt.Sprintf("%d rolled − Armor Rank %d", res.Roll.Total, res.ArmorRank))
	}
	if res.ArmorIgnored {
		why = append(why, fmt.Sprintf("%s weapon ignores %s armor", weapon, in.ArmorQuality))
	}
	if res.ArmorDamage > 0 {
		why = append(why, fmt.Sprintf("the armor takes %d", res.ArmorDamage))
	}
	if res.ArmorImmune && res.Soaked > 0 {
		why = append(why, fmt.Sprintf("%s armor takes no damage from %s weapon", in.ArmorQuality, weapon))
	}
	if len(why) > 0 {
		line += " (" + strings.Join(why, "; ") + ")"
	}
	if res.Critical {
		line += " · 💥 critical hit!"
	}
	return line
}
