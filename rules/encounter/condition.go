package encounter

import (
	"fmt"
	"strconv"
)

// Anchor says whose turn times a condition.
type Anchor string

// Anchors.
const (
	OnBearer Anchor = "bearer" // the combatant who has the condition
	OnSource Anchor = "source" // the combatant who caused it
)

// Edge says whether a condition ends at the start or the end of its
// anchor's turn.
type Edge string

// Edges.
const (
	AtStart Edge = "start"
	AtEnd   Edge = "end"
)

// Condition is a status on a combatant: stunned, blessed, on fire.
type Condition struct {
	Name string `json:"name"`
	// Source is the ID of the combatant who caused it; 0 for none.
	Source int `json:"source"`
	// Rounds is the duration as given: the condition ends the Rounds-th
	// time its anchor's turn reaches Ends after it was applied. 0 lasts
	// until removed.
	Rounds int `json:"rounds"`
	// Relative is whose turn times it; "" is the bearer's.
	Relative Anchor `json:"relative"`
	// Ends is the start or end of that turn; "" is the end of the
	// bearer's turn or the start of the source's.
	Ends Edge `json:"ends"`
	// AnchorID and EndRound are set by AddCondition: the condition ends
	// when AnchorID's turn reaches Ends in round EndRound. Both are 0 for
	// a condition that lasts until removed.
	AnchorID int `json:"anchor_id"`
	EndRound int `json:"end_round"`
}

// check reports what is wrong with a condition's fields.
func (cd Condition) check() error {
	if err := checkName("condition", cd.Name); err != nil {
		return err
	}
	switch {
	case cd.Rounds < 0 || cd.Rounds > MaxRounds:
		return invalidf("a condition lasts 0 to %d rounds (0 until removed), not %d", MaxRounds, cd.Rounds)
	case cd.Relative != OnBearer && cd.Relative != OnSource:
		return invalidf("a condition ends on its bearer's or its source's turn, not %q", cd.Relative)
	case cd.Ends != AtStart && cd.Ends != AtEnd:
		return invalidf("a condition ends at the start or the end of a turn, not %q", cd.Ends)
	case cd.Relative == OnSource && cd.Source == 0:
		return invalidf("%s is timed on its source's turn but has no source", cd.Name)
	case cd.Rounds > 0 && (cd.AnchorID == 0 || cd.EndRound < 1):
		return invalidf("%s lasts %d rounds but has no end", cd.Name, cd.Rounds)
	}
	return nil
}

// Describe says in words when the condition ends: "ends at the start of
// Goblin 2's turn, round 4", or "lasts until removed".
func (cd Condition) Describe(e *Encounter) string { return cd.describe(e, true) }

// describe is Describe; for a player, a hidden anchor is "someone".
func (cd Condition) describe(e *Encounter, forGM bool) string {
	if cd.Rounds == 0 {
		return "lasts until removed"
	}
	who := e.nameOf(cd.AnchorID) + "'s"
	if c := e.byID(cd.AnchorID); c != nil && c.Hidden && !forGM {
		who = "someone's"
	}
	return fmt.Sprintf("ends at the %s of %s turn, round %d", cd.Ends, who, cd.EndRound)
}

// firstRound returns the round in which the turn of the combatant at
// index a next reaches edge: this round if that is still to come, else
// the next. Before Begin every turn is to come, in round 1.
func (e *Encounter) firstRound(a int, edge Edge) int {
	if !e.Begun {
		return 1
	}
	if a > e.Turn || (a == e.Turn && edge == AtEnd) {
		return e.Round
	}
	return e.Round + 1
}

// RoundsLeft returns how many more times the condition's anchor's turn
// will reach its end before it ends, counting the time it ends: Rounds
// when applied, 1 when it ends at the next. ok is false for a condition
// that lasts until removed.
func (e *Encounter) RoundsLeft(cd Condition) (n int, ok bool) {
	if cd.Rounds == 0 {
		return 0, false
	}
	a := e.index(cd.AnchorID)
	if a < 0 {
		return 0, true
	}
	return cd.EndRound - e.firstRound(a, cd.Ends) + 1, true
}

// conditionIndex returns the index of the condition named name on c,
// ignoring case, or -1.
func conditionIndex(c *Combatant, name string) int {
	for i := range c.Conditions {
		if equalFold(c.Conditions[i].Name, name) {
			return i
		}
	}
	return -1
}

// expireAt ends the timed conditions that end as the turn of the combatant
// with ID anchor reaches edge in this round.
func (e *Encounter) expireAt(ev *Event, anchor int, edge Edge) {
	e.expire(ev, func(cd *Condition) bool {
		return cd.AnchorID == anchor && cd.Ends == edge && e.Round >= cd.EndRound
	}, func(cd *Condition) string {
		return fmt.Sprintf("at the %s of %s's turn", edge, e.nameOf(anchor))
	})
}

// expireOverdue ends the timed conditions whose end went by without them
// ending: a reorder moved their anchor's turn behind the current one.
func (e *Encounter) expireOverdue(ev *Event) {
	if !e.Begun {
		return
	}
	e.expire(ev, func(cd *Condition) bool {
		n, ok := e.RoundsLeft(*cd)
		return ok && n < 1
	}, func(cd *Condition) string {
		return "its end (round " + strconv.Itoa(cd.EndRound) + ") is past"
	})
}

// expire removes from every combatant in the fight the conditions that
// match, reporting each with why.
func (e *Encounter) expire(ev *Event, match func(*Condition) bool, why func(*Condition) string) {
	for i := range e.Combatants {
		c := &e.Combatants[i]
		kept := c.Conditions[:0]
		for j := range c.Conditions {
			cd := &c.Conditions[j]
			if cd.Rounds == 0 || !match(cd) {
				kept = append(kept, *cd)
				continue
			}
			ev.linef(e.secret(c.ID, cd.AnchorID), "%s on %s ended: %s.", cd.Name, c.Name, why(cd))
			ev.Expired = append(ev.Expired, Expired{Combatant: c.Name, Condition: cd.Name})
		}
		if len(kept) == len(c.Conditions) {
			continue
		}
		c.Conditions = clearTail(c.Conditions, len(kept))
	}
}

// clearTail zeroes s[n:] and returns s[:n], or nil when n is 0, so a
// combatant without conditions has nil ones whatever path led there.
func clearTail(s []Condition, n int) []Condition {
	clear(s[n:])
	if n == 0 {
		return nil
	}
	return s[:n]
}
