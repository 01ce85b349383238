package ulm

import (
	"fmt"
	"strings"
	"time"

	"github.com/tablehand/tablehand/rules/encounter"
)

// A combatant's State lives in its Resources (see the Res constants): the
// Injury Panel as one card per damage type holding that type's total, in
// the order of the text after the untyped damage (so healing, which takes
// off the newest card first, takes off the last type first), and the
// statuses with their times in seconds. The cards' Damage Sources are not
// kept: the maps hold numbers, and "/init damage" names no source.

// hitPoints returns c's Hit Points: the stat hp, or a resource hp.
func hitPoints(c *encounter.Combatant) (int, bool) {
	if v, ok := c.Stats[StatHP]; ok {
		return v, true
	}
	v, ok := c.Resources[StatHP]
	return v, ok
}

// panelOrder is the order of the cards of a kept Injury Panel.
var panelOrder = append([]DamageType{Earlier}, DamageTypes...)

func injuryKey(t DamageType) string {
	if t == Earlier {
		return ResUntyped
	}
	return ResInjury + string(t)
}

// load reads c's State. ok is false when c has no Hit Points, so no damage
// track. A combatant whose state is not kept yet (no "damage" resource)
// starts from its sheet's stats.
func (p Policy) load(c *encounter.Combatant) (s State, ok bool, err error) {
	hp, ok := hitPoints(c)
	if !ok {
		return State{}, false, nil
	}
	if hp < 1 {
		return State{}, false, encounter.Errorf(encounter.ErrInvalid, "%s has %d hp: Hit Points are 1 or more", c.Name, hp)
	}
	s = State{HitPoints: hp}
	if total, kept := c.Resources[ResDamage]; kept {
		for _, t := range panelOrder {
			n := c.Resources[injuryKey(t)]
			if t == Earlier {
				// Damage given by hand, beyond the typed cards, is untyped.
				typed := 0
				for _, u := range DamageTypes {
					typed += c.Resources[injuryKey(u)]
				}
				n += max(total-typed-n, 0)
			}
			if n != 0 {
				s.Cards = append(s.Cards, Card{Type: t, Damage: n})
			}
		}
		r := c.Resources
		s.Vulnerable = r[ResVulnerable] != 0
		s.Dead = r[ResDead] != 0
		s.Maimed = r[ResMaimed] != 0
		s.MaimWindow = seconds(r[ResMaimSeconds])
		s.Shock = seconds(r[ResShockSeconds])
		s.KnockedOut = seconds(r[ResKnockedOutSeconds])
		s.Fading = seconds(r[ResFadingSeconds])
	} else {
		st := c.Stats
		for _, k := range []struct {
			stat string
			t    DamageType
		}{{StatDamage, Earlier}, {StatHoly, Holy}, {StatSpite, Spite}} {
			if v := st[k.stat]; v != 0 {
				s.Cards = append(s.Cards, Card{Source: "earlier", Type: k.t, Damage: v})
			}
		}
		s.Vulnerable = s.Over()
		if v, ok := st[StatVulnerable]; ok {
			s.Vulnerable = v != 0
		}
		s.Shock = time.Duration(st[StatShock]) * time.Minute
		s.KnockedOut = time.Duration(st[StatKnockedOut]) * p.cfg.FullRound()
		if hours, ok := st[StatMaimed]; ok {
			if hours < 0 {
				return State{}, false, encounter.Errorf(encounter.ErrInvalid, "%s: maimed is the hours since the Maim: 0 or more", c.Name)
			}
			s.Maimed = true
			s.MaimWindow = max(MaimWindow-time.Duration(hours)*time.Hour, 0)
		}
	}
	if err := s.Check(); err != nil {
		return State{}, false, encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
	}
	return s, true, nil
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }

// store writes s into c's Resources.
func (p Policy) store(c *encounter.Combatant, s State) {
	if c.Resources == nil {
		c.Resources = map[string]int{}
	}
	r := c.Resources
	r[ResDamage] = s.Damage()
	for _, t := range panelOrder {
		delete(r, injuryKey(t))
	}
	for _, card := range s.Cards {
		if card.Damage != 0 {
			r[injuryKey(card.Type)] += card.Damage
		}
	}
	put := func(k string, v int) {
		if v == 0 {
			delete(r, k)
		} else {
			r[k] = v
		}
	}
	put(ResVulnerable, b2i(s.Vulnerable))
	put(ResDead, b2i(s.Dead))
	put(ResMaimed, b2i(s.Maimed))
	put(ResMaimSeconds, int(s.MaimWindow/time.Second))
	put(ResShockSeconds, int(s.Shock/time.Second))
	put(ResKnockedOutSeconds, int(s.KnockedOut/time.Second))
	put(ResFadingSeconds, int(s.Fading/time.Second))
}

// mustLoad is load for Damage and Heal: a combatant with no Hit Points is
// the user's mistake.
func (p Policy) mustLoad(c *encounter.Combatant) (State, error) {
	s, ok, err := p.load(c)
	if err != nil {
		return State{}, err
	}
	if !ok {
		return State{}, encounter.Errorf(encounter.ErrInvalid, "%s has no Hit Points to take damage against: give it the stat hp when adding it", c.Name)
	}
	return s, nil
}

// Damage applies damage to the Injury Panel. kind says what it is:
//
//   - a damage type ("incision"): an Injury Card of that type for amount
//     ("Each time a Character or Unit takes damage, an Injury card is
//     made"), and Vulnerable when the damage exceeds the Hit Points;
//   - a damage type and an Epilogue ("incision execute"): the same, by an
//     Action with Execution, "which causes the Vulnerable Stage to be
//     skipped, and Epilogue being applied during the Actions Resolution";
//   - an Epilogue alone ("knockout"), with amount 0: a Character or Unit
//     spends 1 Slot to activate it on the Vulnerable Victim. Its activator
//     is not named here: it counts the slot itself, or the command uses
//     Policy.Epilogue, which spends it.
//
// A kind of "" is refused: an Injury Card records its Damage Type.
func (p Policy) Damage(e *encounter.Encounter, c *encounter.Combatant, amount int, kind string) (string, error) {
	t, epi, err := parseKind(kind)
	if err != nil {
		return "", err
	}
	s, err := p.mustLoad(c)
	if err != nil {
		return "", err
	}
	if t == Earlier {
		if amount != 0 {
			return "", encounter.Errorf(encounter.ErrInvalid, "an Epilogue deals no damage: give 0 for %s, or a damage type with it as the Action's Execution (incision %s)", epi, epi)
		}
		res, err := ActivateEpilogue(s, EpilogueInput{Kind: epi, Phase: Active}, p.cfg)
		if err != nil {
			return "", encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
		}
		line := fmt.Sprintf("%s suffers %s (an Epilogue: its activator spends 1 Action Slot or Reserved Slot)", c.Name, title(epi))
		return line + p.apply(c, s, res.State), nil
	}
	// The amount is the damage that makes the card: no Mitigation,
	// Amplification or Weakness is read from the stats.
	_, line, err := p.Injure(e, c, InjureInput{Injury: Injury{Type: t, Potency: amount, Execution: epi},
		MitigationKnown: true, AmplificationKnown: true, WeaknessKnown: true})
	return line, err
}

// InjureInput is an Injury dealt to a combatant. A Modifier that is 0 and
// not marked known is the Victim's: read from its stat mitigation,
// amplification or weakness (0 without it).
type InjureInput struct {
	Injury
	MitigationKnown, AmplificationKnown, WeaknessKnown bool
}

// Injure resolves damage dealt to c with ulm.Injure, the rules /ulm
// injure works out outside a fight: "during Resolution, all sources of
// Mitigation, Amplifications, and Weaknesses are calculated and applied to
// the Potency of the Action. After these Calculations are completed, the
// remaining Potency is used to create and apply an Injury Card." Then
// Vulnerable when the damage exceeds the Hit Points, and an Action's
// Execution, "which causes the Vulnerable Stage to be skipped, and
// Epilogue being applied during the Actions Resolution". in.Potency is the
// Total Potency "determined in Execution", dice already rolled.
//
// An Injury to an Object (in.Object: c's Armor, or an Object it holds)
// takes Durability, which the encounter does not keep: nothing of c
// changes, and the line says what was lost ("Raw Damage deals ½ damage to
// Armor and Object Durability"). The Damage Source is named in the line,
// not kept: the Injury Panel keeps one total per damage type.
func (p Policy) Injure(e *encounter.Encounter, c *encounter.Combatant, in InjureInput) (InjuryResult, string, error) {
	for _, v := range []struct {
		what string
		n    int
	}{{"damage", in.Potency}, {"mitigation", in.Mitigation}, {"amplification", in.Amplification}, {"weakness", in.Weakness}} {
		if v.n > encounter.MaxAmount {
			return InjuryResult{}, "", encounter.Errorf(encounter.ErrInvalid, "%s must be at most %d, not %d", v.what, encounter.MaxAmount, v.n)
		}
	}
	for _, m := range []struct {
		known bool
		stat  string
		to    *int
	}{{in.MitigationKnown, StatMitigation, &in.Mitigation}, {in.AmplificationKnown, StatAmplification, &in.Amplification}, {in.WeaknessKnown, StatWeakness, &in.Weakness}} {
		if !m.known && *m.to == 0 {
			*m.to = c.Stats[m.stat]
		}
	}
	var s State
	if !in.Object { // Armor and Objects have Durability, not Hit Points
		var err error
		if s, err = p.mustLoad(c); err != nil {
			return InjuryResult{}, "", err
		}
	}
	res, err := Injure(s, in.Injury, p.cfg)
	if err != nil {
		return InjuryResult{}, "", userError(c, err)
	}
	if res.Damage > encounter.MaxAmount {
		return InjuryResult{}, "", encounter.Errorf(encounter.ErrInvalid, "%s: %d damage after Resolution: damage must be at most %d", c.Name, res.Damage, encounter.MaxAmount)
	}
	from, mods := "", ""
	if in.Source != "" {
		from = " from " + in.Source
	}
	if m := in.Modifiers; m != (Modifiers{}) {
		mods = fmt.Sprintf(" (Potency %d, Mitigation %d, Amplification %d, Weakness %d, %s)", res.Potency, m.Mitigation, m.Amplification, m.Weakness, p.cfg.ModifierMode)
	}
	if in.Object {
		return res, fmt.Sprintf("%s's Armor or Object loses %d Durability to %d %s damage%s%s: no Injury Card", c.Name, res.Durability, res.Damage, in.Type, from, mods), nil
	}
	line := fmt.Sprintf("%s took %d %s damage%s%s", c.Name, res.Damage, in.Type, from, mods)
	if res.Card != nil {
		line += ", a " + res.Info.Trauma + " Injury Card"
	} else {
		line += ": no Injury Card"
	}
	line += fmt.Sprintf(" (damage %d -> %d, hp %d)", res.Before, res.After, s.HitPoints)
	if res.BecameVulnerable {
		line += ": Vulnerable"
	}
	if res.Execution != nil {
		line += "; Execution: " + title(in.Execution)
	}
	return res, line + p.apply(c, s, res.State), nil
}

// parseKind reads the kind of Damage: a damage type, an Epilogue, or both
// ("incision execute"). An Epilogue alone comes back with type Earlier.
func parseKind(kind string) (DamageType, Epilogue, error) {
	words := strings.Fields(strings.ToLower(kind))
	usage := func() error {
		return encounter.Errorf(encounter.ErrInvalid,
			"ulm damage needs its Damage Type for the Injury Card (%s), optionally followed by the Execution's Epilogue (incision execute), or an Epilogue alone with 0 damage (maim, knockout, execute); not %q",
			typeList(), kind)
	}
	switch len(words) {
	case 1:
		if e, err := ParseEpilogue(words[0]); err == nil {
			return Earlier, e, nil
		}
		t, err := ParseDamageType(words[0])
		if err != nil {
			return "", "", usage()
		}
		return t, "", nil
	case 2:
		t, err := ParseDamageType(words[0])
		if err != nil {
			return "", "", usage()
		}
		e, err := ParseEpilogue(words[1])
		if err != nil {
			return "", "", usage()
		}
		return t, e, nil
	}
	return "", "", usage()
}

func title(e Epilogue) string {
	if e == "" {
		return ""
	}
	return strings.ToUpper(string(e[:1])) + string(e[1:])
}

// apply stores the state after a change and sets what the encounter
// tracks from it: the dead are defeated; a Maim disables ("The Agony
// caused by this effect is disabling"), so the Maimed are out of the fight
// until "Receiving the proper healing and removing Shock"; the Knocked Out
// sit out their Active Phases. It returns what changed, for the summary.
func (p Policy) apply(c *encounter.Combatant, before, after State) string {
	p.store(c, after)
	var out []string
	if after.Maimed && !before.Maimed {
		out = append(out, "Maimed, disabled: out of the fight; in Shock for "+duration(after.Shock))
		c.Defeated = true
	}
	if after.KnockedOut > 0 && before.KnockedOut == 0 {
		out = append(out, fmt.Sprintf("Knocked Out for %s, its Active Phases skipped; in Shock for %s", p.rounds(after.KnockedOut), duration(after.Shock)))
		c.Skipping = true
	}
	if after.Dead && !before.Dead {
		out = append(out, "dies")
		c.Defeated = true
	}
	if before.Maimed && !after.Maimed && !after.Dead {
		if after.Shock > 0 {
			out = append(out, fmt.Sprintf("Maim reversed; it returns to combat when its Shock is removed (%s left)", duration(after.Shock)))
		} else {
			out = append(out, "Maim reversed: back in the fight")
			c.Defeated = false
		}
	}
	if len(out) == 0 {
		return ""
	}
	return ": " + strings.Join(out, "; ")
}

// rounds says a time in Full Rounds: "3 Full Rounds".
func (p Policy) rounds(d time.Duration) string { return plural(Rounds(d, p.cfg), "Full Round") }

// duration says a time in hours or minutes, a part counting whole.
func duration(d time.Duration) string {
	if d%time.Hour == 0 {
		return plural(int(d/time.Hour), "hour")
	}
	return plural(int((d+time.Minute-1)/time.Minute), "minute")
}

// Heal is normal healing of amount: it takes damage off the Injury Cards
// but not Holy or Spite ("can not be healed by normal means"), and ends
// Vulnerable. Specialized healing and Barriers go through HealWith.
func (p Policy) Heal(e *encounter.Encounter, c *encounter.Combatant, amount int) (string, error) {
	_, line, err := p.HealWith(e, c, Healing{Amount: amount})
	return line, err
}

// HealWith applies h to c: healing, specialized healing that may reverse a
// Maim within 10 Hours, or a Barrier. "A Vulnerable Character or Unit
// which is healed or otherwise granted Hit Points or a Barrier will no
// longer be considered Vulnerable." A command calls it on its own copy of
// the encounter, as every operation works on one.
func (p Policy) HealWith(e *encounter.Encounter, c *encounter.Combatant, h Healing) (HealResult, string, error) {
	s, err := p.mustLoad(c)
	if err != nil {
		return HealResult{}, "", err
	}
	res, err := Heal(s, h)
	if err != nil {
		return HealResult{}, "", encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
	}
	what := "healed"
	switch {
	case h.Special:
		what = "received specialized healing of"
	case h.Barrier:
		what = "gained a Barrier and healed"
	}
	line := fmt.Sprintf("%s %s %d (damage %d -> %d, hp %d)", c.Name, what, h.Amount, s.Damage(), res.State.Damage(), s.HitPoints)
	var notes []string
	if res.Resisted > 0 {
		notes = append(notes, fmt.Sprintf("%d Holy or Spite damage cannot be healed by normal means", res.Resisted))
	}
	if res.VulnerableEnded {
		notes = append(notes, "no longer Vulnerable")
	}
	if res.MaimTooLate {
		notes = append(notes, "too late to reverse the Maim: the 10 Hours have passed")
	}
	if len(notes) > 0 {
		line += ": " + strings.Join(notes, "; ")
	}
	if more := p.apply(c, s, res.State); more != "" {
		if len(notes) > 0 {
			more = ";" + more[1:]
		}
		line += more
	}
	return res, line, nil
}
