package burst

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/encounter"
)

// trackOf reads c's damage track from its resources: durability and
// health for a creature, durability for an object (the object stat). ok
// is false when c has no track.
func trackOf(c *encounter.Combatant) (Track, bool) {
	d, hasD := c.Resources[ResourceDurability]
	h, hasH := c.Resources[ResourceHealth]
	t := Track{Durability: d, Object: flag(c, StatObject), Dead: flag(c, StatDead)}
	switch {
	case !hasD || (!t.Object && !hasH):
		return Track{}, false
	case t.Object:
		t.Destroyed = d == 0
	default:
		t.Health = h
		t.Shock = h == 0
		if t.Shock && !t.Dead {
			t.ShockRounds = c.Resources[ResourceShock]
			t.Stable = hasCondition(c, ConditionStable)
		}
	}
	return t, true
}

// writeTrack stores t in c's resources and stats.
func writeTrack(c *encounter.Combatant, t Track) {
	c.Resources[ResourceDurability] = t.Durability
	if !t.Object {
		c.Resources[ResourceHealth] = t.Health
	}
	if t.Shock && !t.Dead {
		c.Resources[ResourceShock] = t.ShockRounds
	} else {
		delete(c.Resources, ResourceShock)
	}
	setFlag(c, StatDead, t.Dead)
}

func noTrack(c *encounter.Combatant) error {
	return encounter.Errorf(encounter.ErrInvalid,
		"%s has no damage track: give a burst creature durability and health when adding it (an object: durability and object=1)", c.Name)
}

// Damage applies a hit to c's track, after its Armor Rank: "You reduce
// your incoming damage by your Armor Rank" (the highest of armor and
// other_armor), when the armor stops the type ("normal armor only
// protects you from physical damage", Config.ArmorProtects, or every type
// with sealed). Then Hurt: "Damage is first subtracted from your
// Durability. When your Durability is reduced to 0, you are wounded, and
// you begin to subtract damage from your Health." At 0 Health the creature
// goes into Shock, unconscious (defeated); "If you take any additional
// damage while you are in shock, you are killed outright." kind is a
// damage type; "" is kinetic.
func (p Policy) Damage(e *encounter.Encounter, c *encounter.Combatant, amount int, kind string) (string, error) {
	t, ok := trackOf(c)
	if !ok {
		return "", noTrack(c)
	}
	typ, err := ParseDamageType(kind)
	if err != nil {
		return "", encounter.Errorf(encounter.ErrInvalid, "%v", err)
	}
	switch {
	case t.Dead:
		return "", encounter.Errorf(encounter.ErrInvalid, "%s is dead already", c.Name)
	case t.Destroyed:
		return "", encounter.Errorf(encounter.ErrInvalid, "%s is destroyed already", c.Name)
	}
	ar, err := armorRank(c)
	if err != nil {
		return "", err
	}
	what := "damage"
	if strings.TrimSpace(kind) != "" {
		what = typ.String() + " damage"
	}
	s := fmt.Sprintf("%s took %d %s", c.Name, amount, what)
	dmg := amount
	switch {
	case t.Object && typ.livingOnly():
		// "Pure toxic damage ... only harm[s] living creatures."
		dmg = 0
		s += ", which harms only living creatures"
	case ar > 0 && (flag(c, StatSealed) || p.cfg.armorProtects(typ)):
		soaked := min(dmg, ar)
		dmg -= soaked
		s += fmt.Sprintf(", %d stopped by Armor Rank %d", soaked, ar)
	}
	res, err := Hurt(t, dmg, c.Stats[StatStamina], p.cfg)
	if err != nil {
		return "", encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
	}
	writeTrack(c, res.After)
	s += " (" + trackChange(res.Before, res.After) + ")"
	var notes []string
	switch {
	case res.Killed:
		notes = append(notes, "killed outright in Shock")
	case res.Destroyed:
		notes = append(notes, "destroyed")
	case res.WentIntoShock:
		notes = append(notes, fmt.Sprintf("unconscious in Shock, dies in %s", plural(res.After.ShockRounds, "round")))
	case res.BecameWounded:
		notes = append(notes, "wounded")
	}
	if res.Lost > 0 && !res.Killed && !res.Destroyed && !res.WentIntoShock {
		notes = append(notes, fmt.Sprintf("%d did not go on to Health", res.Lost))
	}
	if res.Killed || res.Destroyed || res.WentIntoShock {
		c.Defeated = true
	}
	if len(notes) > 0 {
		s += ": " + strings.Join(notes, ", ")
	}
	return s, nil
}

// armorRank returns the highest of c's Armor Ranks.
func armorRank(c *encounter.Combatant) (int, error) {
	worn, other := c.Stats[StatArmor], c.Stats[StatOtherArmor]
	if worn < 0 || worn > MaxArmor || other < 0 || other > MaxArmor {
		return 0, encounter.Errorf(encounter.ErrInvalid, "%s's armor ranks must be 0 to %d, not %d and %d", c.Name, MaxArmor, worn, other)
	}
	return max(worn, other), nil
}

// trackChange says how a track changed: "durability 4 -> 0, health 6 ->
// 5".
func trackChange(before, after Track) string {
	s := fmt.Sprintf("durability %d -> %d", before.Durability, after.Durability)
	if !before.Object {
		s += fmt.Sprintf(", health %d -> %d", before.Health, after.Health)
	}
	return s
}

// Heal restores Durability, up to its maximum when it has one: the
// healing of an encounter is emergency aid, "restoring 1d10 Durability".
// Health comes back only with the Recovery Phase (health_regen): "If you
// are stabilized, you remain unconscious until you recover at least 1
// point of health".
func (p Policy) Heal(e *encounter.Encounter, c *encounter.Combatant, amount int) (string, error) {
	t, ok := trackOf(c)
	switch {
	case !ok:
		return "", noTrack(c)
	case t.Dead:
		return "", encounter.Errorf(encounter.ErrInvalid, "%s is dead: healing does not bring it back", c.Name)
	case t.Destroyed:
		return "", encounter.Errorf(encounter.ErrInvalid, "%s is destroyed: healing does not mend it", c.Name)
	}
	was := t.Durability
	now := capAt(was+amount, c.Max[ResourceDurability], was)
	c.Resources[ResourceDurability] = now
	s := fmt.Sprintf("%s healed %d (durability %d -> %d)", c.Name, amount, was, now)
	switch {
	case t.Unconscious():
		s += ": still unconscious in Shock until it recovers 1 Health"
	case t.Wounded() && now > 0:
		s += ": no longer wounded"
	}
	return s, nil
}

// EndRound is the Recovery Phase: "At the end of each round, all
// combatants gain the benefits of their recovery." For each combatant in
// the order, it pays the Vigor and Mana counted as spent this round, then
// runs Recover: Vigor, Winded, Durability (not while wounded), Health and
// Mana from special abilities, and the Shock countdown. The winded sit out
// their next turn.
func (p Policy) EndRound(e *encounter.Encounter) []encounter.Line {
	var lines []encounter.Line
	for i := range e.Combatants {
		lines = append(lines, p.recover(&e.Combatants[i])...)
	}
	return lines
}

// recover is the Recovery Phase of one combatant: it pays the Vigor and
// Mana consumed this round, gains the benefits of its recovery, then says
// where Shock and Winded leave it.
func (p Policy) recover(c *encounter.Combatant) []encounter.Line {
	t, hasTrack := trackOf(c)
	if t.Dead || t.Destroyed {
		return nil
	}
	r := &recovery{c: c, track: t, hasTrack: hasTrack}
	r.vigor, r.hasVigor = c.Resources[ResourceVigor]
	r.mana, r.hasMana = c.Resources[ResourceMana]
	r.in = RecoverInput{
		Track: t, Stamina: c.Stats[StatStamina],
		Vigor: r.vigor, MaxVigor: c.Max[ResourceVigor], Winded: flag(c, StatWinded),
		DurabilityRegen: c.Stats[StatRegen], MaxDurability: c.Max[ResourceDurability],
		HealthRegen: c.Stats[StatHealthRegen], MaxHealth: c.Max[ResourceHealth],
		Mana: r.mana, ManaRegen: c.Stats[StatManaRegen], MaxMana: c.Max[ResourceMana],
	}
	if !hasTrack {
		// Nothing to recover on a track it does not have.
		r.in.Track, r.in.DurabilityRegen, r.in.HealthRegen = Track{Durability: 1, Health: 1}, 0, 0
	}
	r.consume()
	if r.in.MaxVigor > 0 && r.in.Vigor > r.in.MaxVigor {
		// Given above its maximum: it keeps it, and recovers none.
		r.in.MaxVigor = r.in.Vigor
	}
	out, err := Recover(r.in, p.cfg)
	if err != nil {
		return append(r.lines, encounter.Linef(c, "%s does not recover: %v.", c.Name, err))
	}
	r.out = out
	r.gainBenefits()
	r.shock()
	r.winded()
	return r.lines
}

// recovery is one combatant's Recovery Phase under way: its track, Vigor
// and Mana as the round left them, what it spent, the input to Recover
// and its result, and the lines said so far.
type recovery struct {
	c                 *encounter.Combatant
	track             Track
	hasTrack          bool
	vigor, spentVigor int
	hasVigor          bool
	mana, spentMana   int
	hasMana           bool
	in                RecoverInput
	out               RecoverResult
	lines             []encounter.Line
}

func (r *recovery) linef(format string, args ...any) {
	r.lines = append(r.lines, encounter.Linef(r.c, format, args...))
}

// consume pays this round's costs: "Throughout each round, you will
// consume Vigor and Mana to use abilities you have". Spending more than is
// left leaves 0 (and, for Vigor, Winded).
func (r *recovery) consume() {
	c := r.c
	r.spentVigor = c.Counters[CounterVigor]
	if r.hasVigor && r.spentVigor > 0 {
		left, winded, err := SpendVigor(r.vigor, r.spentVigor)
		if err != nil {
			r.linef("%s spent %d Vigor but had %d: %v; Vigor 0.", c.Name, r.spentVigor, r.vigor, err)
			left, winded = 0, true
		}
		r.in.Vigor, r.in.Winded = left, r.in.Winded || winded
	}
	r.spentMana = c.Counters[CounterMana]
	if r.hasMana && r.spentMana > 0 {
		if r.spentMana > r.mana {
			r.linef("%s spent %d Mana but had %d: Mana 0.", c.Name, r.spentMana, r.mana)
		}
		r.in.Mana = max(r.mana-r.spentMana, 0)
	}
}

// gainBenefits: "At the end of each round, all combatants gain the
// benefits of their recovery": it stores the Vigor, track and Mana
// Recover gave, and says what changed.
func (r *recovery) gainBenefits() {
	c, out := r.c, r.out
	var got []string
	if r.hasVigor {
		if s := change("Vigor", r.vigor, out.Vigor, r.spentVigor); s != "" {
			got = append(got, s)
		}
		c.Resources[ResourceVigor] = out.Vigor
	}
	if r.hasTrack {
		if out.Durability > 0 {
			got = append(got, change("Durability", r.track.Durability, out.After.Durability, 0))
		}
		if out.Health > 0 {
			got = append(got, change("Health", r.track.Health, out.After.Health, 0))
		}
		writeTrack(c, out.After)
	}
	if r.hasMana {
		if s := change("Mana", r.mana, out.Mana, r.spentMana); s != "" {
			got = append(got, s)
		}
		c.Resources[ResourceMana] = out.Mana
	}
	if len(got) > 0 {
		r.linef("%s recovers: %s.", c.Name, strings.Join(got, ", "))
	}
}

// shock says where Shock leaves the combatant: "A creature in Shock is on
// death's door and will die in a number rounds equal to your Stamina
// score"; stabilized, "you remain unconscious until you recover at least 1
// point of health". Out of Shock, it is stable no longer.
func (r *recovery) shock() {
	if !r.hasTrack {
		return
	}
	c, out := r.c, r.out
	switch {
	case out.Died:
		c.Defeated = true
		r.linef("%s dies in Shock.", c.Name)
	case out.Woke:
		c.Defeated = false
		r.linef("%s recovers Health and wakes from Shock: back in the fight.", c.Name)
	case out.After.Shock && out.After.Stable:
		r.linef("%s is stable in Shock: unconscious until it recovers 1 Health.", c.Name)
	case out.After.Shock:
		r.linef("%s is in Shock: dies in %s.", c.Name, plural(out.After.ShockRounds, "round"))
	}
	if !out.After.Shock {
		c.Conditions = slices.DeleteFunc(c.Conditions, func(cd encounter.Condition) bool { return strings.EqualFold(cd.Name, ConditionStable) })
		if len(c.Conditions) == 0 {
			c.Conditions = nil
		}
	}
}

// winded: "If you exhaust your Vigor, you become Winded, and you cannot
// take any actions. This condition remains until you recover at least 5
// points of Vigor." The winded sit out their next turn.
func (r *recovery) winded() {
	if !r.hasVigor {
		return
	}
	c, out := r.c, r.out
	was := r.in.Winded || r.in.Vigor == 0 // after paying this round's costs
	setFlag(c, StatWinded, out.Winded)
	switch {
	case out.Winded && !c.Defeated:
		c.Skipping = true
		r.linef("%s is winded (Vigor %d, needs %d): it sits out its next turn.", c.Name, out.Vigor, WindedUntil)
	case was && !out.Winded:
		r.linef("%s is no longer winded.", c.Name)
	}
}

// change says how a resource changed over the Recovery Phase: "Vigor 10
// -> 7 (5 spent)", or "" when it did not.
func change(what string, before, after, spent int) string {
	if before == after && spent == 0 {
		return ""
	}
	s := fmt.Sprintf("%s %d -> %d", what, before, after)
	if spent > 0 {
		s += fmt.Sprintf(" (%d spent)", spent)
	}
	return s
}
