package encounter

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tablehand/tablehand/rules/dice"
)

// Add puts a combatant into the encounter: at the end of the order before
// Begin, where the policy's Insert says after. c is copied; its ID is
// given by the encounter, and it may not carry conditions (add them with
// AddCondition) or a Delayed flag. One inserted before the current turn
// acts from the next round.
func (e *Encounter) Add(p Policy, r dice.Roller, actor string, c Combatant) (Event, error) {
	return e.apply(KindAdd, actor, func(x *Encounter, ev *Event) error {
		if err := x.checkPolicy(p); err != nil {
			return err
		}
		if err := x.inFight(false); err != nil {
			return err
		}
		c = c.Clone()
		c.Name = strings.TrimSpace(c.Name)
		if err := checkName("combatant", c.Name); err != nil {
			return err
		}
		if i, err := x.find(c.Name); err == nil {
			if c.Hidden || !x.Combatants[i].Hidden {
				return Errorf(ErrDuplicate, "there is already a combatant named %s: choose another name", c.Name)
			}
			// A name the players see wins over a hidden combatant's: to
			// them the hidden one is not there, so its name is free
			// (issue 20). The hidden one yields it, which the GMs read.
			held := x.Combatants[i].Name
			x.Combatants[i].Name = x.freeName(held)
			ev.linef(true, "The hidden %s is now %s: %s takes its name.", held, x.Combatants[i].Name, c.Name)
		}
		if len(x.Combatants) >= MaxCombatants {
			return invalidf("the fight is full (at most %d combatants): remove someone first", MaxCombatants)
		}
		for _, m := range []struct {
			what string
			m    map[string]int
		}{{"stats", c.Stats}, {"resources", c.Resources}, {"maxima", c.Max}, {"counters", c.Counters}} {
			if err := checkMap(m.what, m.m); err != nil {
				return err
			}
		}
		if err := CheckTracks(&c, MaxValue); err != nil {
			return err
		}
		if ns, ok := p.(NoScorer); ok {
			if _, given := Given(&c); given {
				return invalidf("%s", ns.NoScore())
			}
		}
		if len(c.Conditions) > 0 || c.Delayed {
			return fmt.Errorf("add %s: a new combatant has no conditions and no delay", c.Name)
		}
		x.LastID++
		c.ID = x.LastID
		if err := x.rewound(); err != nil {
			return err
		}
		if !x.Begun {
			x.Combatants = append(x.Combatants, c)
			ev.summaryf(c.Hidden, "%s joins the encounter.", c.Name)
			return nil
		}
		pos, rolls, err := p.Insert(x, &c, r)
		if err != nil {
			return err
		}
		if pos < 0 || pos > len(x.Combatants) {
			return fmt.Errorf("policy %s: Insert gave position %d of %d", p.Name(), pos, len(x.Combatants))
		}
		c.ID = x.LastID // whatever Insert did
		x.Combatants = slices.Insert(x.Combatants, pos, c)
		ev.Rolls = rolls
		// Name the place by the visible combatant it follows: a position
		// number would count hidden combatants and betray them.
		where := "at the top of the order"
		for i := pos - 1; i >= 0; i-- {
			if !x.Combatants[i].Hidden {
				where = "after " + x.Combatants[i].Name
				break
			}
		}
		ev.summaryf(c.Hidden, "%s joins the fight %s.", c.Name, where)
		if pos <= x.Turn {
			x.Turn++
			ev.linef(c.Hidden, "Its place in the order has passed: %s acts from round %d.", c.Name, x.Round+1)
		}
		return nil
	})
}

// checkTracks refuses damage tracks a combatant cannot have, naming the
// valid range: a maximum is at least 1, a current value from 0 to its
// maximum (no system here keeps temporary hit points above it), and hit
// points (TrackHP) at least 1, since a combatant at 0 would join the
// fight already down (unless it is added Defeated, on purpose). ceiling
// is the largest value either may take: Add's is MaxValue, a command's
// the limit of the option that gives it.
func CheckTracks(c *Combatant, ceiling int) error {
	for _, k := range slices.Sorted(maps.Keys(c.Resources)) {
		v, low := c.Resources[k], 0
		if k == TrackHP && !c.Defeated {
			low = 1
		}
		top, bounded := c.Max[k]
		if !bounded || top < low || top > ceiling {
			top = ceiling
		}
		if v < low || v > top {
			return invalidf("%s must be %d to %d, not %d (example: /init add name:Orc hp:10)", k, low, top, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.Max)) {
		m := c.Max[k]
		if m < 1 || m > ceiling {
			return invalidf("max_%s must be 1 to %d, not %d (example: /init add name:Orc hp:10 stats:\"max_hp=12\")", k, ceiling, m)
		}
		if v, ok := c.Resources[k]; ok && v > m {
			return invalidf("%s %d is above its maximum: max_%s must be %d to %d, not %d (example: /init add name:Orc hp:10 stats:\"max_hp=12\")", k, v, k, max(v, 1), MaxValue, m)
		}
	}
	return nil
}

// Remove takes a combatant out of the fight for good. Conditions timed on
// its turn end. When it is the current one, the turn passes to the next
// combatant without its turn's end. The last combatant of a fight under
// way cannot be removed: end the fight instead.
func (e *Encounter) Remove(p Policy, actor, name string) (Event, error) {
	return e.apply(KindRemove, actor, func(x *Encounter, ev *Event) error {
		i, err := x.target(p, name)
		if err != nil {
			return err
		}
		c := x.Combatants[i]
		if x.Begun && len(x.Combatants) == 1 {
			return invalidf("%s is the last one in the fight: end it with /init end instead", c.Name)
		}
		if c.ID == x.Reached.ID {
			return x.rewound()
		}
		ev.summaryf(c.Hidden, "%s leaves the fight.", c.Name)
		x.Combatants = slices.Delete(x.Combatants, i, i+1)
		x.expire(ev, func(cd *Condition) bool { return cd.AnchorID == c.ID },
			func(*Condition) string { return c.Name + " left the fight" })
		c.Conditions = nil // nothing times them any more
		x.Removed = append(x.Removed, c)
		switch {
		case !x.Begun || i > x.Turn:
		case i < x.Turn:
			x.Turn--
		default:
			if !x.canAct() {
				return noOneCanAct()
			}
			_, _, err := x.advance(p, ev, i-1, false)
			return err
		}
		return nil
	})
}

// Damage applies damage through the policy. kind is a damage type or "".
func (e *Encounter) Damage(p Policy, actor, name string, amount int, kind string) (Event, error) {
	return e.apply(KindDamage, actor, func(x *Encounter, ev *Event) error {
		switch {
		case amount < 0:
			return invalidf("damage must be 0 or more, not %d: to heal, use /init heal", amount)
		case amount > MaxAmount:
			return invalidf("damage must be at most %d, not %d", MaxAmount, amount)
		}
		kind = strings.TrimSpace(kind)
		if utf8.RuneCountInString(kind) > MaxKeyLen {
			return invalidf("the damage type %s is too long (at most %d characters)", kind, MaxKeyLen)
		}
		change := fmt.Sprintf("took %d damage", amount)
		if kind != "" {
			change = fmt.Sprintf("took %d %s damage", amount, kind)
		}
		return x.track(p, ev, name, change, func(c *Combatant) (string, error) { return p.Damage(x, c, amount, kind) })
	})
}

// Heal applies healing through the policy.
func (e *Encounter) Heal(p Policy, actor, name string, amount int) (Event, error) {
	return e.apply(KindHeal, actor, func(x *Encounter, ev *Event) error {
		switch {
		case amount < 1:
			return invalidf("healing must be 1 to %d, not %d: for damage, use /init damage (example: /init heal target:Aria amount:5)", MaxAmount, amount)
		case amount > MaxAmount:
			return invalidf("healing must be at most %d, not %d", MaxAmount, amount)
		}
		return x.track(p, ev, name, fmt.Sprintf("healed %d", amount), func(c *Combatant) (string, error) { return p.Heal(x, c, amount) })
	})
}

// track runs a Damage or Heal of the policy on the combatant named. When
// the players may not see its numbers (HealthOf), they read the change
// (what it did, "took 5 damage", with no number of the combatant's) and
// the word if they see one, and the GM the policy's account.
func (x *Encounter) track(p Policy, ev *Event, name, change string, f func(*Combatant) (string, error)) error {
	i, err := x.target(p, name)
	if err != nil {
		return err
	}
	c := &x.Combatants[i]
	hidden := c.Hidden
	s, err := f(c)
	if err != nil {
		return err
	}
	ev.summaryf(hidden, "%s", s)
	if !hidden && x.HealthOf(c) != HealthExact {
		ev.Secret, ev.Public = true, x.publicHealth(c, HealthTrack(p), change)
	}
	return nil
}

// Count adds n (which may be negative) to one of the combatant's
// per-round Counters ("reactions" used, "vigor" spent), creating it if
// need be. A counter cannot go below 0.
func (e *Encounter) Count(actor, name, counter string, n int) (Event, error) {
	return e.apply(KindCount, actor, func(x *Encounter, ev *Event) error {
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		c := &x.Combatants[i]
		counter = strings.TrimSpace(counter)
		if n < -MaxAmount || n > MaxAmount {
			return invalidf("count by %d to %d, not %d", -MaxAmount, MaxAmount, n)
		}
		if err := checkMap("counters", map[string]int{counter: 0}); err != nil {
			return err
		}
		was, ok := c.Counters[counter]
		if !ok && len(c.Counters) >= MaxKeys {
			return invalidf("%s has %d counters already, the most it can have", c.Name, MaxKeys)
		}
		now := was + n
		if now < 0 {
			return invalidf("%s's %s is %d: it cannot go below 0", c.Name, counter, was)
		}
		if c.Counters == nil {
			c.Counters = map[string]int{}
		}
		c.Counters[counter] = now
		ev.summaryf(c.Hidden, "%s's %s: %d -> %d this round.", c.Name, counter, was, now)
		return nil
	})
}

// SetDefeated marks a combatant defeated, or back in the fight, by the
// GM's word rather than the damage track.
func (e *Encounter) SetDefeated(actor, name string, defeated bool) (Event, error) {
	return e.apply(KindDefeat, actor, func(x *Encounter, ev *Event) error {
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		c := &x.Combatants[i]
		switch {
		case defeated && c.Defeated:
			return invalidf("%s is already defeated", c.Name)
		case !defeated && !c.Defeated:
			return invalidf("%s is not defeated", c.Name)
		}
		c.Defeated = defeated
		if defeated {
			ev.summaryf(c.Hidden, "%s is defeated.", c.Name)
		} else {
			ev.summaryf(c.Hidden, "%s is back in the fight.", c.Name)
		}
		return nil
	})
}

// Reveal shows a hidden combatant to the players.
func (e *Encounter) Reveal(actor, name string) (Event, error) {
	return e.apply(KindReveal, actor, func(x *Encounter, ev *Event) error {
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		c := &x.Combatants[i]
		if !c.Hidden {
			return invalidf("%s is not hidden", c.Name)
		}
		c.Hidden, c.RevealOnTurn = false, false
		ev.summaryf(false, "%s appears.", c.Name)
		return nil
	})
}

// AddCondition puts a condition on the combatant named, caused by the one
// named source ("" for none). cd gives Name, Rounds, Relative and Ends;
// Relative "" is the bearer, Ends "" the end of the bearer's turn or the
// start of the source's. AddCondition works out when it ends (see the
// package comment). A condition of the same name on the same combatant is
// replaced.
func (e *Encounter) AddCondition(actor, name string, cd Condition, source string) (Event, error) {
	return e.apply(KindAddCondition, actor, func(x *Encounter, ev *Event) error {
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		anchor := i
		cd.Source = 0
		if strings.TrimSpace(source) != "" {
			s, err := x.find(source)
			if err != nil {
				return err
			}
			cd.Source = x.Combatants[s].ID
			if cd.Relative == OnSource {
				anchor = s
			}
		}
		cd.Name = strings.TrimSpace(cd.Name)
		if cd.Relative == "" {
			cd.Relative = OnBearer
		}
		if cd.Ends == "" {
			cd.Ends = AtEnd
			if cd.Relative == OnSource {
				cd.Ends = AtStart
			}
		}
		cd.AnchorID, cd.EndRound = 0, 0
		if cd.Rounds > 0 {
			cd.AnchorID = x.Combatants[anchor].ID
			cd.EndRound = x.firstRound(anchor, cd.Ends) + cd.Rounds - 1
		}
		if err := cd.check(); err != nil {
			return err
		}
		c := &x.Combatants[i]
		from := ""
		if cd.Source != 0 {
			from = " (from " + x.nameOf(cd.Source) + ")"
		}
		ev.summaryf(x.secret(c.ID, cd.Source, cd.AnchorID), "%s on %s%s: %s.", cd.Name, c.Name, from, cd.describe(x, true))
		if ev.Secret && !c.Hidden {
			// The players see the condition on one they can see; its
			// hidden source is "someone" to them.
			if x.secret(cd.Source) {
				from = " (from someone)"
			}
			ev.Public = fmt.Sprintf("%s on %s%s: %s.", cd.Name, c.Name, from, cd.describe(x, false))
		}
		if j := conditionIndex(c, cd.Name); j >= 0 {
			c.Conditions[j] = cd
			ev.linef(c.Hidden, "It replaces the %s %s had.", cd.Name, c.Name)
			return nil
		}
		if len(c.Conditions) >= MaxConditions {
			return invalidf("%s has %d conditions already, the most it can have: remove one first", c.Name, MaxConditions)
		}
		c.Conditions = append(c.Conditions, cd)
		return nil
	})
}

// RemoveCondition ends a condition before its time.
func (e *Encounter) RemoveCondition(actor, name, condition string) (Event, error) {
	return e.apply(KindRemoveCondition, actor, func(x *Encounter, ev *Event) error {
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		c := &x.Combatants[i]
		j := conditionIndex(c, condition)
		if j < 0 {
			return Errorf(ErrNotFound, "%s has no condition named %s", c.Name, strings.TrimSpace(condition))
		}
		ev.summaryf(c.Hidden, "%s on %s removed.", c.Conditions[j].Name, c.Name)
		ev.Expired = append(ev.Expired, Expired{Combatant: c.Name, Condition: c.Conditions[j].Name})
		c.Conditions = slices.Delete(c.Conditions, j, j+1)
		if len(c.Conditions) == 0 {
			c.Conditions = nil
		}
		return nil
	})
}

// End ends the encounter. The event sums it up: the rounds fought, who is
// still standing, who was defeated, who left. One the policy says is down
// without being Defeated yet (a Downer: at 0 and falling when the round
// ends, knocked out) is down when the fight ends: End marks it Defeated,
// so the summary and the tracker agree, and names why.
func (e *Encounter) End(p Policy, actor string) (Event, error) {
	return e.apply(KindEnd, actor, func(x *Encounter, ev *Event) error {
		if x.Ended {
			return ended()
		}
		x.Ended = true
		if !x.Begun {
			ev.summaryf(false, "The encounter ended before the fight began.")
			return nil
		}
		rounds := "1 round"
		if x.Round != 1 {
			rounds = fmt.Sprintf("%d rounds", x.Round)
		}
		ev.summaryf(false, "The fight is over after %s.", rounds)
		downer, _ := p.(Downer)
		var standing, down []Combatant
		for i := range x.Combatants {
			c := &x.Combatants[i]
			if !c.Defeated && downer != nil {
				if why := downer.Down(x, c); why != "" {
					c.Defeated = true
					named := *c
					named.Name += " (" + why + ")"
					down = append(down, named)
					continue
				}
			}
			if c.Defeated {
				down = append(down, *c)
			} else {
				standing = append(standing, *c)
			}
		}
		ev.listLine("Still standing", standing)
		ev.listLine("Defeated", down)
		ev.listLine("Left the fight", x.Removed)
		return nil
	})
}

// target checks that p is the fight's policy, then guards as combatant
// does: for a change to one combatant that the policy takes part in.
func (x *Encounter) target(p Policy, name string) (int, error) {
	if err := x.checkPolicy(p); err != nil {
		return 0, err
	}
	return x.combatant(name)
}

// combatant is the guard of a change to one combatant that needs no
// policy: the encounter still on, and the index of the one named.
func (x *Encounter) combatant(name string) (int, error) {
	if err := x.inFight(false); err != nil {
		return 0, err
	}
	return x.find(name)
}

// freeName is name with the first number after it, " (2)" on, that no
// combatant has, cut to fit MaxNameLen.
func (e *Encounter) freeName(name string) string {
	for n := 2; ; n++ {
		suffix := fmt.Sprintf(" (%d)", n)
		base := []rune(name)
		if keep := MaxNameLen - utf8.RuneCountInString(suffix); len(base) > keep {
			base = base[:keep]
		}
		if try := strings.TrimSpace(string(base)) + suffix; !e.has(try) {
			return try
		}
	}
}

// has reports whether a combatant is named name.
func (e *Encounter) has(name string) bool {
	_, err := e.find(name)
	return err == nil
}
