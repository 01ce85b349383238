package encounter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/words"
)

// Health is how much of a combatant's health the players see (Avrae's
// hidden monster HP, Foundry's and Owlbear Rodeo's "bloodied"): its
// numbers, a word, or nothing. The GM always sees the numbers. The GM
// chooses it for the fight, where it holds for the combatants no player
// controls, and for any one combatant, where it holds whoever controls
// it. Every reader of the players' view follows it alike: the tracker in
// Discord, the replies to damage and healing, /init log and the players'
// page.
type Health string

const (
	// HealthDefault is a combatant's Health when the GM chose none for
	// it: the fight's, for a combatant no player controls; else exact.
	// For the fight it is HealthExact, as it was before the choice.
	HealthDefault Health = ""
	// HealthExact: the numbers ("hp 7/10").
	HealthExact Health = "exact"
	// HealthWord: a word (HealthWordOf's: "unhurt", "hurt", "bloodied" at
	// half or less, "down").
	HealthWord Health = "word"
	// HealthNone: nothing of its health; that it is defeated still shows.
	HealthNone Health = "none"
)

// Healths are the choices, as /init health offers them.
var Healths = []Health{HealthExact, HealthWord, HealthNone}

// The words of HealthWordOf.
const (
	WordUnhurt   = "unhurt"   // at its maximum
	WordHurt     = "hurt"     // above half of it
	WordBloodied = "bloodied" // at half or less
	WordDown     = "down"     // at 0, or defeated
	WordStanding = "standing" // not defeated, with no maximum to measure against
)

// HealthOf is what the players see of c's health: the GM's choice for c,
// else, for a combatant no player controls, the fight's, else exact.
func (e *Encounter) HealthOf(c *Combatant) Health {
	switch {
	case c.Health != HealthDefault:
		return c.Health
	case c.Owner == "" && e.Health != HealthDefault:
		return e.Health
	}
	return HealthExact
}

// HealthWordOf words c's health on its damage track (TrackHP, or the
// policy's: see HealthTrack): "down" at 0 or defeated, "unhurt" at its
// maximum, "hurt" above half of it, "bloodied" at half or less; and
// "standing" for a combatant not defeated whose track has no maximum.
func HealthWordOf(c *Combatant, track string) string {
	cur, ok := c.Resources[track]
	m, hasMax := c.Max[track]
	switch {
	case c.Defeated || (ok && cur <= 0 && hasMax):
		return WordDown
	case !ok || !hasMax || m <= 0:
		return WordStanding
	case cur >= m:
		return WordUnhurt
	case 2*cur > m:
		return WordHurt
	}
	return WordBloodied
}

// HealthTrack is the damage track of p: what Damage and Heal change, and
// what HealthWordOf measures. A policy built on Base names it (Base.Track);
// any other, TrackHP.
func HealthTrack(p Policy) string {
	if t, ok := p.(interface{ DamageTrack() string }); ok {
		return t.DamageTrack()
	}
	return TrackHP
}

// DamageTrack is the resource Damage and Heal apply to (see HealthTrack).
func (b Base) DamageTrack() string { return b.track() }

// checkHealth reports a choice that is not one of Healths (the default
// passes).
func checkHealth(h Health) error {
	if h == HealthDefault || slices.Contains(Healths, h) {
		return nil
	}
	names := make([]string, len(Healths))
	for i, c := range Healths {
		names[i] = string(c)
	}
	return invalidf("health is %s, not %q", words.Or(names), string(h))
}

// SetHealth sets what the players see of the health of the combatant
// named, or, with name "", of the combatants no player controls (the
// fight's choice). HealthDefault puts a combatant back under the fight's
// choice, and the fight back to exact.
func (e *Encounter) SetHealth(actor, name string, h Health) (Event, error) {
	return e.apply(KindHealth, actor, func(x *Encounter, ev *Event) error {
		if err := x.inFight(false); err != nil {
			return err
		}
		if err := checkHealth(h); err != nil {
			return err
		}
		if name == "" {
			x.Health = h
			ev.summaryf(false, "%s", healthSentence("the GM's combatants'", h))
			return nil
		}
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		c := &x.Combatants[i]
		c.Health = h
		s := healthSentence(c.Name+"'s", x.HealthOf(c))
		if h == HealthDefault {
			s = "Back to the default: t" + strings.TrimPrefix(s, "T")
		}
		ev.summaryf(c.Hidden, "%s", s)
		return nil
	})
}

// healthSentence says what the players see of whose health under h.
func healthSentence(whose string, h Health) string {
	switch h {
	case HealthWord:
		return fmt.Sprintf("The players now see %s health as a word: unhurt, hurt, bloodied (half or less), down.", whose)
	case HealthNone:
		return fmt.Sprintf("The players now see nothing of %s health.", whose)
	}
	return fmt.Sprintf("The players now see %s health in numbers.", whose)
}

// publicHealth is what the players read of a change to c's health when
// they may not see its numbers: the change with no number of c's, and
// the word if they see one.
func (x *Encounter) publicHealth(c *Combatant, track, change string) string {
	switch x.HealthOf(c) {
	case HealthWord:
		return fmt.Sprintf("%s %s: %s.", c.Name, change, HealthWordOf(c, track))
	case HealthNone:
		if c.Defeated {
			return fmt.Sprintf("%s %s: defeated.", c.Name, change)
		}
	}
	return fmt.Sprintf("%s %s.", c.Name, change)
}
