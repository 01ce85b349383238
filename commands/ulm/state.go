package ulm

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmState is a State as the console's `result` shows it, in the units of
// the options that read it back.
type ulmState struct {
	HP               int       `json:"hp"`
	Damage           int       `json:"damage"` // besides Holy and Spite, as the damage: option
	Holy             int       `json:"holy"`
	Spite            int       `json:"spite"`
	TotalDamage      int       `json:"total_damage"`
	Vulnerable       bool      `json:"vulnerable"`
	Dead             bool      `json:"dead"`
	Maimed           bool      `json:"maimed"`
	MaimHoursLeft    int       `json:"maim_hours_left"`
	ShockMinutes     int       `json:"shock_minutes"`
	KnockedOutRounds int       `json:"knocked_out_rounds"`
	Cards            []ulmCard `json:"cards"`
}

type ulmCard struct {
	Source string `json:"source"`
	Type   string `json:"type"`
	Damage int    `json:"damage"`
}

func newUlmState(s rules.State, cfg rules.Config) ulmState {
	out := ulmState{
		HP: s.HitPoints, Holy: s.DamageOf(rules.Holy), Spite: s.DamageOf(rules.Spite), TotalDamage: s.Damage(),
		Vulnerable: s.Vulnerable, Dead: s.Dead, Maimed: s.Maimed,
		MaimHoursLeft:    int((s.MaimWindow + time.Hour - 1) / time.Hour),
		ShockMinutes:     int((s.Shock + time.Minute - 1) / time.Minute),
		KnockedOutRounds: rules.Rounds(s.KnockedOut, cfg),
		Cards:            []ulmCard{},
	}
	out.Damage = out.TotalDamage - out.Holy - out.Spite
	for _, c := range s.Cards {
		t := string(c.Type)
		if c.Type == rules.Earlier {
			t = "earlier"
		}
		out.Cards = append(out.Cards, ulmCard{Source: c.Source, Type: t, Damage: c.Damage})
	}
	return out
}

// ulmStatusLine sums up a State in words: "13/10 damage, Vulnerable".
func ulmStatusLine(s rules.State, cfg rules.Config) string {
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
			parts = append(parts, fmt.Sprintf("Maimed (reversible for %s)", ulmHours(s.MaimWindow)))
		} else {
			parts = append(parts, "Maimed")
		}
	}
	if s.KnockedOut > 0 {
		parts = append(parts, fmt.Sprintf("Knocked Out for %d Full Rounds", rules.Rounds(s.KnockedOut, cfg)))
	}
	if s.Shock > 0 {
		parts = append(parts, fmt.Sprintf("in Shock for %s", ulmHours(s.Shock)))
	}
	return strings.Join(parts, ", ")
}

func ulmHours(d time.Duration) string {
	if d%time.Hour == 0 {
		if d == time.Hour {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
	return fmt.Sprintf("%d minutes", (d+time.Minute-1)/time.Minute)
}

func ulmSigned(n int) string {
	if n < 0 {
		return fmt.Sprintf(" − %d", -n)
	}
	return fmt.Sprintf(" + %d", n)
}

func ulmJoinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// ulmCheckText is the one line a player reads: "16 vs 9: success by 7".
func ulmCheckText(total, target int, ok bool, margin int) string {
	if ok {
		return fmt.Sprintf("%d vs %d: success by %d", total, target, margin)
	}
	return fmt.Sprintf("%d vs %d: failure by %d", total, target, -margin)
}

func ulmTitle(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func ulmPlural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

func ulmCardResult(c *rules.Card) *ulmCard {
	if c == nil {
		return nil
	}
	return &ulmCard{Source: c.Source, Type: string(c.Type), Damage: c.Damage}
}
