package encounter

import (
	"fmt"
	"strings"
)

// Kind names an operation.
type Kind string

// Kinds of event, one per operation.
const (
	KindAdd             Kind = "add"
	KindRemove          Kind = "remove"
	KindBegin           Kind = "begin"
	KindNext            Kind = "next"
	KindPrev            Kind = "prev"
	KindSkip            Kind = "skip"
	KindMove            Kind = "move"
	KindDelay           Kind = "delay"
	KindDamage          Kind = "damage"
	KindHeal            Kind = "heal"
	KindCount           Kind = "count"
	KindDefeat          Kind = "defeat"
	KindReveal          Kind = "reveal"
	KindAddCondition    Kind = "condition"
	KindRemoveCondition Kind = "uncondition"
	KindEnd             Kind = "end"
	KindHealth          Kind = "health"
)

// Event says what one operation changed. Storage keeps it with the state
// after the operation.
type Event struct {
	Kind  Kind   `json:"kind"`
	Actor string `json:"actor"` // user ID of who ran the command
	Round int    `json:"round"` // the round after the operation
	// Summary is the headline: "Goblin 2 took 5 damage (hp 7 -> 2)".
	// Secret when it names a combatant the players cannot see; Public is
	// then what the players read instead, if anything.
	Summary string `json:"summary"`
	Secret  bool   `json:"secret"`
	Public  string `json:"public,omitempty"`
	// Lines are what followed: turns ending and starting, the policy's
	// notes, conditions expiring, reveals.
	Lines []Line `json:"lines"`
	// Rolls are the dice rolled, in order.
	Rolls []Roll `json:"rolls"`
	// Expired lists the conditions that ended, also told in Lines.
	Expired []Expired `json:"expired"`

	// shown is the turn the players saw last (see PlayersTurn), while
	// the operation runs.
	shown Mark
}

// Line is one line of an event's account. A secret line is for the GM;
// the players read Public instead, if it is not "".
type Line struct {
	Text   string `json:"text"`
	Secret bool   `json:"secret"`
	Public string `json:"public,omitempty"`
}

// Linef returns a line about c, secret when c is hidden. c may be nil.
func Linef(c *Combatant, format string, args ...any) Line {
	return Line{Text: fmt.Sprintf(format, args...), Secret: c != nil && c.Hidden}
}

// Expired is a condition that ended.
type Expired struct {
	Combatant string `json:"combatant"`
	Condition string `json:"condition"`
}

// Text returns the event as a reply: the summary, the lines and the rolls,
// one a line. For players (forGM false) it leaves out what is secret.
func (ev Event) Text(forGM bool) string { return ev.Format(forGM, nil) }

// Format is Text with esc (chat markup escaping, say; nil for none)
// applied to every part but the dice of the rolls, which a Roll's Text
// already renders in the chat's markup (a natural 1 underlined, as /roll
// shows it).
func (ev Event) Format(forGM bool, esc func(string) string) string {
	if esc == nil {
		esc = func(s string) string { return s }
	}
	var b strings.Builder
	add := func(s string, secret bool, public string) {
		if secret && !forGM {
			s = public
		}
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	add(esc(ev.Summary), ev.Secret, esc(ev.Public))
	for _, l := range ev.Lines {
		add(esc(l.Text), l.Secret, esc(l.Public))
	}
	for _, r := range ev.Rolls {
		add(r.line(esc), r.Secret, "")
	}
	return b.String()
}

// line is the roll as a line of a reply: its roller's name and what it is
// for, escaped with esc, then its dice as Text renders them.
func (r Roll) line(esc func(string) string) string {
	if r.Typed {
		return esc(r.Name+" ("+r.For+"): ") + r.Text + " " + TypedMark
	}
	return esc(r.Name+" ("+r.For+"): ") + r.Text
}

// TypedMark follows a roll of dice typed in (Roll.Typed) wherever the
// roll is shown.
const TypedMark = "✋ dice given"

// SecretText is what Text(true) shows that the players may not read: the
// GM's text of each secret part, one a line; "" when there is none.
func (ev Event) SecretText() string { return ev.SecretFormat(nil) }

// SecretFormat is SecretText with esc applied as Format does.
func (ev Event) SecretFormat(esc func(string) string) string {
	if esc == nil {
		esc = func(s string) string { return s }
	}
	var parts []string
	if ev.Secret && ev.Summary != "" {
		parts = append(parts, esc(ev.Summary))
	}
	for _, l := range ev.Lines {
		if l.Secret && l.Text != "" {
			parts = append(parts, esc(l.Text))
		}
	}
	for _, r := range ev.Rolls {
		if r.Secret {
			parts = append(parts, r.line(esc))
		}
	}
	return strings.Join(parts, "\n")
}

func (ev *Event) linef(secret bool, format string, args ...any) {
	ev.Lines = append(ev.Lines, Line{Text: fmt.Sprintf(format, args...), Secret: secret})
}

func (ev *Event) summaryf(secret bool, format string, args ...any) {
	ev.Summary = fmt.Sprintf(format, args...)
	ev.Secret = secret
}

// secret reports whether any of the combatants with the given IDs is
// hidden from the players.
func (e *Encounter) secret(ids ...int) bool {
	for _, id := range ids {
		if c := e.byID(id); c != nil && c.Hidden {
			return true
		}
	}
	return false
}

func equalFold(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
