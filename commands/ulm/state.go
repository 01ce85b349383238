package ulm

import (
	"fmt"
	"strings"
	"time"

	rules "github.com/tablehand/tablehand/rules/ulm"
)

// stateResult is a State as the console's `result` shows it, in the units of
// the options that read it back.
type stateResult struct {
	HP               int          `json:"hp"`
	Damage           int          `json:"damage"` // besides Holy and Spite, as the damage: option
	Holy             int          `json:"holy"`
	Spite            int          `json:"spite"`
	TotalDamage      int          `json:"total_damage"`
	Vulnerable       bool         `json:"vulnerable"`
	Dead             bool         `json:"dead"`
	Maimed           bool         `json:"maimed"`
	MaimHoursLeft    int          `json:"maim_hours_left"`
	ShockMinutes     int          `json:"shock_minutes"`
	KnockedOutRounds int          `json:"knocked_out_rounds"`
	Cards            []cardResult `json:"cards"`
}

// cardResult is an Injury Card in the `result`.
type cardResult struct {
	Source string `json:"source"`
	Type   string `json:"type"`
	Damage int    `json:"damage"`
}

// newStateResult is s as the `result` shows it.
func newStateResult(s rules.State, cfg rules.Config) stateResult {
	out := stateResult{
		HP: s.HitPoints, Holy: s.DamageOf(rules.Holy), Spite: s.DamageOf(rules.Spite), TotalDamage: s.Damage(),
		Vulnerable: s.Vulnerable, Dead: s.Dead, Maimed: s.Maimed,
		MaimHoursLeft:    int((s.MaimWindow + time.Hour - 1) / time.Hour),
		ShockMinutes:     int((s.Shock + time.Minute - 1) / time.Minute),
		KnockedOutRounds: rules.Rounds(s.KnockedOut, cfg),
		Cards:            []cardResult{},
	}
	out.Damage = out.TotalDamage - out.Holy - out.Spite
	for _, c := range s.Cards {
		t := string(c.Type)
		if c.Type == rules.Earlier {
			t = "earlier"
		}
		out.Cards = append(out.Cards, cardResult{Source: c.Source, Type: t, Damage: c.Damage})
	}
	return out
}

// statusLine sums up a State in words: "13/10 damage, Vulnerable".
func statusLine(s rules.State, cfg rules.Config) string {
	parts := []string{fmt.Sprintf("%d/%d damage", s.Damage(), s.HitPoints)}
	if holy, spite := s.DamageOf(rules.Holy), s.DamageOf(rules.Spite); holy+spite > 0 {
		parts[0] += fmt.Sprintf(" (%d Holy, %d Spite)", holy, spite)
	}
	if s.Dead {
		return strings.Join(append(parts, "**dead**"), ", ")
	}
	if s.Vulnerable {
		parts = append(parts, "**Vulnerable**")
	}
	if s.Maimed {
		if s.MaimWindow > 0 {
			parts = append(parts, fmt.Sprintf("Maimed (reversible for %s)", hoursText(s.MaimWindow)))
		} else {
			parts = append(parts, "Maimed")
		}
	}
	if s.KnockedOut > 0 {
		parts = append(parts, fmt.Sprintf("Knocked Out for %d Full Rounds", rules.Rounds(s.KnockedOut, cfg)))
	}
	if s.Shock > 0 {
		parts = append(parts, fmt.Sprintf("in Shock for %s", hoursText(s.Shock)))
	}
	return strings.Join(parts, ", ")
}

// hoursText is a duration in hours when whole, else in minutes rounded up.
func hoursText(d time.Duration) string {
	if d%time.Hour == 0 {
		if d == time.Hour {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
	return fmt.Sprintf("%d minutes", (d+time.Minute-1)/time.Minute)
}

// title capitalises a word: "maim" is "Maim".
func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// newCardResult is an Injury Card as the `result` shows it; nil for none.
func newCardResult(c *rules.Card) *cardResult {
	if c == nil {
		return nil
	}
	return &cardResult{Source: c.Source, Type: string(c.Type), Damage: c.Damage}
}

// note is a text to say when on holds.
type note struct {
	on   bool
	text string
}

// notes are the texts of ns that hold, in order.
func notes(ns ...note) []string {
	var out []string
	for _, n := range ns {
		if n.on {
			out = append(out, n.text)
		}
	}
	return out
}
