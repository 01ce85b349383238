package xhalem

import (
	"fmt"
	"strconv"
	"strings"

	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// How /xhalem writes the rules' results: the modes and their reasons,
// compared rolls, signed numbers and distances.

// modeNote says how a roll was made and why, or "" for a plain roll:
// "Engagement with detriment (cloaked target)", or, when sources pull both
// ways, "Engagement with disadvantage (cloaked target: detriment,
// flanking: advantage)".
func modeNote(what string, m rules.Mode, why []rules.Source) string {
	if m == rules.Normal && len(why) == 0 {
		return ""
	}
	same := true
	for _, s := range why {
		same = same && s.Mode == m
	}
	reasons := make([]string, len(why))
	for i, s := range why {
		reasons[i] = s.Why
		if !same {
			reasons[i] += ": " + s.Mode.String()
		}
	}
	note := fmt.Sprintf("%s with %s", what, m)
	if m == rules.Normal {
		note = what + " with one die, the modes cancelling"
	}
	if len(reasons) > 0 {
		note += " (" + strings.Join(reasons, ", ") + ")"
	}
	return note
}

// signed writes n with its sign: +3, -2, +0.
func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// km writes a distance with thousands separators: 60,000 km.
func km(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s + " km"
}

// versus renders a compared engagement: "17 vs 12: hit by 5".
func versus(e rules.EngageResult, hit, miss string) string {
	against := strconv.Itoa(e.EvasionTo)
	if e.Evasion == nil {
		against += " (base Evasion: the target is unaware)"
	}
	switch {
	case e.Automatic == rules.AutoNatural1:
		return "natural 1: automatic " + miss
	case e.Automatic == rules.AutoNatural20:
		return "natural 20: automatic " + hit
	case e.Automatic == rules.AutoHelpless:
		return "the target is incapacitated or immobilized: " + hit + " automatically"
	case e.Automatic == rules.AutoOutOfRange:
		return fmt.Sprintf("%d, but the target is out of range: the engagement fails and you lose your turn", e.Engagement.Total)
	case e.Automatic == rules.AutoBlocked:
		return fmt.Sprintf("%d, but the target's concealment protects it: the engagement fails and you lose your turn", e.Engagement.Total)
	case e.Margin > 0:
		return fmt.Sprintf("%d vs %s: %s by %d", e.Engagement.Total, against, hit, e.Margin)
	case e.Margin == 0:
		return fmt.Sprintf("%d vs %s: %s (a tie goes to the defender)", e.Engagement.Total, against, miss)
	}
	return fmt.Sprintf("%d vs %s: %s by %d", e.Engagement.Total, against, miss, -e.Margin)
}

// joinNotes joins the non-empty notes in one line, capitalised.
func joinNotes(notes []string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	s := strings.Join(kept, " · ")
	return strings.ToUpper(s[:1]) + s[1:]
}
