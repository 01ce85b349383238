package ulm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tablehand/tablehand/rules/encounter"
)

// Describe words a combatant's state on the tracker as the text does: the
// Injury Panel's damage against Hit Points, its damage by type, the
// statuses with the time they have left, the Reserved Slots held, a fall's
// owed slots. The Action Slots of the turn under way are the tracker's
// budget line. (encounter.Describer)
func (p Policy) Describe(c encounter.CombatantView) []string {
	r := c.Resources
	var out []string
	hp, ok := r[StatHP]
	if !ok {
		hp = c.Max[StatHP]
	}
	out = append(out, fmt.Sprintf("damage %d of %d HP", r[ResDamage], hp))
	var injuries []string
	for _, t := range DamageTypes {
		if n := r[ResInjury+string(t)]; n > 0 {
			injuries = append(injuries, fmt.Sprintf("%s %d", t, n))
		}
	}
	if n := r[ResUntyped]; n > 0 {
		injuries = append(injuries, fmt.Sprintf("untyped %d", n))
	}
	if len(injuries) > 0 {
		out = append(out, "("+strings.Join(injuries, ", ")+")")
	}
	seconds := func(k string) time.Duration { return time.Duration(r[k]) * time.Second }
	switch {
	case r[ResDead] > 0:
		out = append(out, "dead")
	case r[ResVulnerable] > 0:
		out = append(out, "Vulnerable")
	}
	if r[ResMaimed] > 0 {
		s := "Maimed"
		if left := seconds(ResMaimSeconds); left > 0 {
			s += fmt.Sprintf(" (reversible for %s)", hoursMinutes(left))
		}
		out = append(out, s)
	}
	if left := seconds(ResKnockedOutSeconds); left > 0 {
		out = append(out, "Knocked Out for "+p.rounds(left))
	}
	if left := seconds(ResShockSeconds); left > 0 {
		out = append(out, "in Shock for "+hoursMinutes(left))
	}
	if n := r[ResReserved]; n > 0 {
		out = append(out, plural(n, "Reserved Slot"))
	}
	if r[ResMomentum] > 0 {
		out = append(out, "Momentum")
	}
	if n := r[ResFallSlots]; n > 0 {
		out = append(out, "falling: owes "+plural(n, "Action Slot"))
	}
	// Anything else kept by hand (/init count) as it is.
	known := map[string]bool{StatHP: true, ResDamage: true, ResUntyped: true, ResDead: true, ResVulnerable: true,
		ResMaimed: true, ResMaimSeconds: true, ResKnockedOutSeconds: true, ResShockSeconds: true, ResFadingSeconds: true,
		ResReserved: true, ResMomentum: true, ResFallSlots: true, ResFallPaid: true, ResSlots: true}
	for _, k := range slices.Sorted(maps.Keys(r)) {
		if known[k] || strings.HasPrefix(k, ResInjury) {
			continue
		}
		s := fmt.Sprintf("%s %d", k, r[k])
		if m, ok := c.Max[k]; ok {
			s += fmt.Sprintf("/%d", m)
		}
		out = append(out, s)
	}
	return out
}

// hoursMinutes words a time left: "45 min", "1 h", "9 h 30 min".
func hoursMinutes(d time.Duration) string {
	d = d.Round(time.Minute)
	h, m := int(d/time.Hour), int((d%time.Hour)/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}
