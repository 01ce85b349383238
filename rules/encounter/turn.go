package encounter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// apply runs op on a copy of e and, if it succeeds and the copy keeps the
// invariants, makes e the copy: a failed operation changes nothing.
func (e *Encounter) apply(kind Kind, actor string, op func(x *Encounter, ev *Event) error) (Event, error) {
	x := e.Clone()
	ev := Event{Kind: kind, Actor: actor, shown: e.playersMark()}
	if err := op(x, &ev); err != nil {
		return Event{}, err
	}
	x.pin()
	if err := x.Validate(); err != nil {
		return Event{}, fmt.Errorf("%s: encounter broken after the policy ran: %w", kind, err)
	}
	ev.Round = x.Round
	*e = *x
	return ev, nil
}

// checkPolicy reports a policy of another system than the encounter's: a
// wiring mistake, not the user's.
func (e *Encounter) checkPolicy(p Policy) error {
	want := e.System
	if want == "" {
		want = GenericName
	}
	if p == nil {
		return fmt.Errorf("encounter of system %s run with no policy", want)
	}
	if !strings.EqualFold(p.Name(), want) {
		return fmt.Errorf("encounter of system %s run with the policy of %s", want, p.Name())
	}
	return nil
}

// inFight reports an encounter that is over, or, with begun, one not yet
// begun.
func (e *Encounter) inFight(begun bool) error {
	switch {
	case e.Ended:
		return ended()
	case begun && !e.Begun:
		return notBegun()
	}
	return nil
}

func noOneCanAct() error {
	return invalidf("no one can act: every combatant is defeated; heal someone or end the fight with /init end")
}

// Begin orders the combatants with the policy and starts round 1 with the
// first one who can act. The event's Rolls are the policy's rolls.
func (e *Encounter) Begin(p Policy, r dice.Roller, actor string) (Event, error) {
	return e.apply(KindBegin, actor, func(x *Encounter, ev *Event) error {
		if err := x.checkPolicy(p); err != nil {
			return err
		}
		switch {
		case x.Ended:
			return ended()
		case x.Begun:
			return Errorf(ErrBegun, "the fight has already begun: it is round %d", x.Round)
		case len(x.Combatants) == 0:
			return invalidf("there is no one in the fight: add combatants with /init add")
		case !x.canAct():
			return noOneCanAct()
		}
		before := ids(x.Combatants)
		// Those the players see draw their dice first, in their order, so
		// a hidden combatant's die is never one they would have drawn: the
		// players' initiative is the same with or without it (issue 20).
		// Sorting by initiative orders them all afterwards; a tie with a
		// hidden combatant goes to the one the players see in any case.
		visibleFirst(x.Combatants, func(c *Combatant) bool { return c.Hidden })
		rolls, err := p.Order(x, r)
		if err != nil {
			return err
		}
		if after := ids(x.Combatants); !slices.Equal(sortedInts(before), sortedInts(after)) {
			return fmt.Errorf("policy %s: Order changed who is in the fight", p.Name())
		}
		ev.Rolls = rolls
		x.Begun, x.Round, x.Turn, x.Reached = true, 1, 0, Mark{}
		ev.summaryf(false, "The fight begins: round 1.")
		if p.Resets() == ResetRound {
			for i := range x.Combatants {
				resetCounters(&x.Combatants[i])
			}
		}
		if _, _, err := x.advance(p, ev, -1, false); err != nil {
			return err
		}
		// The order as it stands once the first turn has begun (and maybe
		// revealed its combatant), first.
		turn := ev.Lines
		ev.Lines = nil
		ev.listLine("Order", x.Combatants)
		ev.Lines = append(ev.Lines, turn...)
		return nil
	})
}

func ids(cs []Combatant) []int {
	out := make([]int, len(cs))
	for i := range cs {
		out[i] = cs[i].ID
	}
	return out
}

func sortedInts(s []int) []int {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Next ends the current turn and starts the next: see the package comment.
func (e *Encounter) Next(p Policy, actor string) (Event, error) {
	return e.apply(KindNext, actor, func(x *Encounter, ev *Event) error {
		if err := x.checkPolicy(p); err != nil {
			return err
		}
		if err := x.inFight(true); err != nil {
			return err
		}
		if !x.canAct() {
			return noOneCanAct()
		}
		shown := ev.shown
		began, replayed, err := x.advance(p, ev, x.Turn, true)
		if err != nil {
			return err
		}
		// The new turn is the headline: "Round 2: Ogre's turn.", or
		// "Round 3 begins: Aria's turn." when a round began on the way.
		ev.Lines = ev.Lines[:len(ev.Lines)-1]
		head := fmt.Sprintf("Round %d:", x.Round)
		if began >= 0 {
			head = fmt.Sprintf("Round %d begins:", x.Round)
			ev.Lines = slices.Delete(ev.Lines, began, began+1)
		}
		if len(ev.Lines) == 0 {
			ev.Lines = nil
		}
		again := ""
		if replayed {
			again = " again"
		}
		c := &x.Combatants[x.Turn]
		ev.summaryf(c.Hidden, "%s %s's turn%s.", head, c.Name, again)
		// The players read the turn they see (PlayersTurn), when it changed.
		switch pc, round := x.PlayersTurn(); {
		case pc == nil || x.playersMark() == shown:
			ev.Secret, ev.Public = true, ""
		case c.Hidden:
			head := fmt.Sprintf("Round %d:", round)
			if round > shown.Round {
				head = fmt.Sprintf("Round %d begins:", round)
			}
			ev.Public = fmt.Sprintf("%s %s's turn.", head, pc.Name)
			// Last, where the start of that turn would say it.
			for _, l := range x.told(x.playersMark()) {
				ev.Lines = append(ev.Lines, Line{Secret: true, Public: l})
			}
		}
		return nil
	})
}

// advance moves the turn to the first combatant after index from who can
// act, ending the current turn first if end. It ends a round when it
// passes the last combatant, and passes over the defeated and those
// skipping a turn. Its last line is the new turn's ("Round 2: Ogre's
// turn."). began is the index in ev.Lines of the last "Round N begins."
// line it added, or -1.
//
// Up to the turn Reached, the turns were played before Prev went back: it
// replays them (replayed is true) without running hooks, resets or the
// end of a round again. Conditions still expire as their ends go by: one
// that ended the first time is gone already, and one added since ends as
// time passes again.
func (x *Encounter) advance(p Policy, ev *Event, from int, end bool) (began int, replayed bool, err error) {
	began = -1
	if end {
		c := &x.Combatants[x.Turn]
		id := c.ID
		if !x.played(x.Round, x.Turn, AtEnd) {
			ev.addLines(p.EndTurn(x, c), c.Hidden)
		}
		x.expireAt(ev, id, AtEnd)
		if from = x.index(id); from < 0 {
			return -1, false, fmt.Errorf("policy %s: EndTurn removed a combatant", p.Name())
		}
	}
	i := from
	for steps := 0; ; steps++ {
		if steps > 2*len(x.Combatants)+2 {
			return -1, false, noOneCanAct()
		}
		i++
		if i >= len(x.Combatants) {
			playedRound := x.Reached.Round > x.Round
			if !playedRound {
				// What the players read of the round's end when a hidden
				// turn ended it for them (playersStart) is not told again.
				var told []string
				if x.Pinned != nil && x.Pinned.Shown.Round == x.Round+1 {
					told = x.Pinned.Told
				}
				ev.addLines(untold(p.EndRound(x), told), false)
			}
			x.Round++
			i = 0
			began = len(ev.Lines)
			ev.linef(false, "Round %d begins.", x.Round)
			if !playedRound {
				if p.Resets() == ResetRound {
					for j := range x.Combatants {
						resetCounters(&x.Combatants[j])
					}
				}
				round := x.Round
				x.expire(ev, func(cd *Condition) bool { return cd.EndRound < round },
					func(cd *Condition) string { return fmt.Sprintf("its end (round %d) is past", cd.EndRound) })
			}
		}
		c := &x.Combatants[i]
		replay := x.played(x.Round, i, AtStart)
		switch {
		case c.Defeated:
		case c.Skipping && !replay:
			c.Skipping = false
			ev.linef(c.Hidden, "%s's turn is skipped.", c.Name)
		case replay:
			x.Turn = i
			if x.Reached == (Mark{Round: x.Round, ID: c.ID}) {
				x.Reached = Mark{}
			}
			ev.turnLine(x, c, x.Round, " again")
			return began, true, nil
		default:
			x.Reached = Mark{}
			return began, false, x.startTurn(p, ev, i)
		}
		// Time passes the turn: conditions timed on it end.
		x.expireAt(ev, c.ID, AtStart)
		x.expireAt(ev, c.ID, AtEnd)
	}
}

// played reports whether the start or end of the turn of the combatant at
// index i in round r was played before Prev went back: whether it comes
// before the turn Reached (for a start, or is it).
func (x *Encounter) played(r, i int, edge Edge) bool {
	switch {
	case x.Reached == Mark{}:
		return false
	case r != x.Reached.Round:
		return r < x.Reached.Round
	}
	m := x.index(x.Reached.ID)
	return i < m || (i == m && edge == AtStart)
}

// rewound reports, as a mistake, that the turn was moved back by Prev:
// what changes the order waits until the fight is back to the turn it had
// reached.
func (x *Encounter) rewound() error {
	if x.Reached == (Mark{}) {
		return nil
	}
	who := "the latest turn"
	if c := x.byID(x.Reached.ID); c != nil && !c.Hidden {
		who = c.Name + "'s turn"
	}
	return invalidf("the turn was moved back with /init prev: first go forward to %s, round %d, with /init next", who, x.Reached.Round)
}

// startTurn starts the turn of the combatant at index i.
func (x *Encounter) startTurn(p Policy, ev *Event, i int) error {
	x.Turn = i
	c := &x.Combatants[i]
	id := c.ID
	if c.Hidden && c.RevealOnTurn {
		c.Hidden, c.RevealOnTurn = false, false
		ev.linef(false, "%s appears.", c.Name)
	}
	x.expireAt(ev, id, AtStart)
	if p.Resets() == ResetTurn {
		resetCounters(c)
	}
	// What the players read at the start of the hidden turn before this
	// one (playersStart) they are not told again.
	told := x.told(Mark{Round: x.Round, ID: id})
	ev.addLines(untold(p.StartTurn(x, c), told), c.Hidden)
	if x.Turn = x.index(id); x.Turn < 0 {
		return fmt.Errorf("policy %s: StartTurn removed a combatant", p.Name())
	}
	c = &x.Combatants[x.Turn]
	c.Delayed = false
	if b := p.Budget(x, c); b != "" {
		text := fmt.Sprintf("%s: %s.", c.Name, b)
		ev.linef(c.Hidden || slices.Contains(told, text), "%s", text)
	}
	ev.turnLine(x, c, x.Round, "")
	if l := &ev.Lines[len(ev.Lines)-1]; c.Hidden && l.Public != "" {
		// The players read of the turn they see now: its start, as it
		// will say it (the Order's first turn: before the turn line).
		if start := x.playersStart(p); len(start) > 0 {
			l.Public = strings.Join(start, "\n") + "\n" + l.Public
		}
	}
	return nil
}

// playersStart is, while a hidden combatant has the turn, what the start
// of the turn the players see (PlayersTurn) will tell them, as it will:
// the lines of its start they may read and its budget ("Ogre: 2
// actions."). The players read it when the hidden turn begins, as they
// would without it, and that turn's own start then tells them nothing
// they read (told). It pins the turn they see (pin), and keeps what it
// told them in the pin.
func (x *Encounter) playersStart(p Policy) []string {
	x.pin()
	pc, round := x.PlayersTurn()
	if pc == nil || x.Pinned == nil {
		return nil
	}
	y := x.Clone()
	var out []string
	if round > x.Round {
		// The round ends before that turn: the players read its end, as
		// they would without the hidden turn.
		out = publicTexts(p.EndRound(y))
	}
	out = append(out, publicTexts(y.startAhead(p, pc.ID, round))...)
	if c := y.byID(pc.ID); c != nil {
		if b := p.Budget(y, c); b != "" {
			out = append(out, fmt.Sprintf("%s: %s.", c.Name, b))
		}
	}
	x.Pinned.Told = out
	return out
}

// startAhead makes the turn of combatant id in round y's current one, as
// a look ahead from a hidden turn: it resets the combatant's counters as
// they will be then and returns the lines of its start (StartTurn).
func (y *Encounter) startAhead(p Policy, id, round int) []Line {
	newRound := round > y.Round
	y.Turn, y.Round = y.index(id), round
	c := &y.Combatants[y.Turn]
	if p.Resets() == ResetTurn || p.Resets() == ResetRound && newRound {
		resetCounters(c)
	}
	return p.StartTurn(y, c)
}

// publicTexts are the texts of lines the players read.
func publicTexts(lines []Line) []string {
	var out []string
	for _, l := range lines {
		if !l.Secret && l.Text != "" {
			out = append(out, l.Text)
		}
	}
	return out
}

// untold makes secret the lines of lines the players were told already
// (told), and returns lines.
func untold(lines []Line, told []string) []Line {
	for i := range lines {
		if !lines[i].Secret && slices.Contains(told, lines[i].Text) {
			lines[i].Secret = true
		}
	}
	return lines
}

// told is what the players read of turn m's start at the start of the
// hidden turn before it (playersStart); nil when nothing.
func (x *Encounter) told(m Mark) []string {
	if x.Pinned == nil || x.Pinned.Shown != m {
		return nil
	}
	return x.Pinned.Told
}

// PlayersBudget is the combatant whose turn the players see
// (PlayersTurn) and what it may do in it, as p counts it ("" when it
// keeps no count): during a hidden turn, as that combatant's own turn
// will start (its counters reset as they will be then), not as the
// hidden one's.
func (x *Encounter) PlayersBudget(p Policy) (*Combatant, string) {
	pc, round := x.PlayersTurn()
	if pc == nil {
		return nil, ""
	}
	y := x.Clone()
	if cur := x.Current(); cur != nil && cur.ID != pc.ID {
		y.startAhead(p, pc.ID, round)
	}
	c := y.byID(pc.ID)
	if c == nil {
		return nil, ""
	}
	return pc, p.Budget(y, c)
}

// turnLine adds "Round 2: Ogre's turn.". The players read of a turn
// only when the turn they see changes (see PlayersTurn): a hidden
// combatant's turn is, to them, the start of the turn that follows it, and
// that turn's own start then tells them nothing new.
func (ev *Event) turnLine(x *Encounter, c *Combatant, round int, again string) {
	l := Line{Text: fmt.Sprintf("Round %d: %s's turn%s.", round, c.Name, again), Secret: c.Hidden}
	shown := x.playersMark()
	pc, pr := x.PlayersTurn()
	switch {
	case pc == nil || shown == ev.shown:
		l.Secret = true
	case c.Hidden:
		l.Public = fmt.Sprintf("Round %d: %s's turn.", pr, pc.Name)
	}
	ev.shown = shown
	ev.Lines = append(ev.Lines, l)
}

// resetCounters sets c's counters back to 0, keeping their names.
func resetCounters(c *Combatant) {
	for k := range c.Counters {
		c.Counters[k] = 0
	}
}

func (ev *Event) addLines(lines []Line, secret bool) {
	for _, l := range lines {
		if l.Text == "" {
			continue
		}
		l.Secret = l.Secret || secret
		ev.Lines = append(ev.Lines, l)
	}
}

// listLine adds "label: A, B, C." naming cs. When some are hidden, the
// line is secret, marks them "(hidden)", and the players read it without
// them. It adds nothing for no one.
func (ev *Event) listLine(label string, cs []Combatant) {
	var all, seen []string
	for i := range cs {
		if cs[i].Hidden {
			all = append(all, cs[i].Name+" (hidden)")
			continue
		}
		all = append(all, cs[i].Name)
		seen = append(seen, cs[i].Name)
	}
	if len(all) == 0 {
		return
	}
	l := Line{Text: label + ": " + strings.Join(all, ", ") + "."}
	if len(seen) < len(all) {
		l.Secret = true
		if len(seen) > 0 {
			l.Public = label + ": " + strings.Join(seen, ", ") + "."
		}
	}
	ev.Lines = append(ev.Lines, l)
}

// Prev moves the turn back to the combatant before the current one, into
// the round before from a round's first turn. It undoes nothing: Next then
// replays the turns up to the furthest one reached without running their
// hooks again, and until then Add, Move, Delay and removing that furthest
// combatant are refused. To undo, restore a snapshot.
func (e *Encounter) Prev(actor string) (Event, error) {
	return e.apply(KindPrev, actor, func(x *Encounter, ev *Event) error {
		if err := x.inFight(true); err != nil {
			return err
		}
		if !x.canAct() {
			return noOneCanAct()
		}
		i, round := x.Turn, x.Round
		for {
			i--
			if i < 0 {
				if round == 1 {
					return invalidf("this is the first turn of the fight: there is no turn before it")
				}
				round--
				i = len(x.Combatants) - 1
			}
			if !x.Combatants[i].Defeated {
				break
			}
		}
		if x.Reached == (Mark{}) {
			x.Reached = Mark{Round: x.Round, ID: x.Combatants[x.Turn].ID}
		}
		x.Turn, x.Round = i, round
		c := &x.Combatants[i]
		ev.summaryf(c.Hidden, "Back to round %d: %s's turn.", round, c.Name)
		// The players read the turn they see (PlayersTurn), when it changed.
		switch pc, pround := x.PlayersTurn(); {
		case pc == nil || x.playersMark() == ev.shown:
			ev.Secret, ev.Public = true, ""
		case c.Hidden:
			ev.Public = fmt.Sprintf("Back to round %d: %s's turn.", pround, pc.Name)
		}
		ev.linef(ev.Secret && ev.Public == "", "Going back undoes nothing; /init next moves on without running the turn again.")
		return nil
	})
}

// Skip skips a turn. The current combatant's turn ends at once, as with
// Next; another combatant's next turn will be passed over, like that of
// the defeated (before Begin: its turn in round 1).
func (e *Encounter) Skip(p Policy, actor, name string) (Event, error) {
	return e.apply(KindSkip, actor, func(x *Encounter, ev *Event) error {
		i, err := x.target(p, name)
		if err != nil {
			return err
		}
		c := &x.Combatants[i]
		if x.Begun && i == x.Turn {
			ev.summaryf(c.Hidden, "%s skips the rest of its turn.", c.Name)
			if !x.canAct() {
				return noOneCanAct()
			}
			_, _, err := x.advance(p, ev, x.Turn, true)
			return err
		}
		if c.Skipping {
			return invalidf("%s's next turn is already skipped", c.Name)
		}
		c.Skipping = true
		ev.summaryf(c.Hidden, "%s's next turn will be skipped.", c.Name)
		return nil
	})
}

// Move puts a combatant at a position of the order, 1 for first. The
// current combatant keeps the turn. One moved before the current turn has
// had its turn this round; one moved after it acts again.
func (e *Encounter) Move(actor, name string, pos int) (Event, error) {
	return e.apply(KindMove, actor, func(x *Encounter, ev *Event) error {
		i, err := x.combatant(name)
		if err != nil {
			return err
		}
		if err := x.rewound(); err != nil {
			return err
		}
		if n := len(x.Combatants); pos < 1 || pos > n {
			return invalidf("position %d is out of range: give 1 to %d", pos, n)
		}
		cur := x.Combatants[x.Turn].ID
		c := x.Combatants[i]
		x.Combatants = slices.Insert(slices.Delete(x.Combatants, i, i+1), pos-1, c)
		if x.Begun {
			x.Turn = x.index(cur)
		}
		ev.summaryf(c.Hidden, "%s moves to position %d.", c.Name, pos)
		x.expireOverdue(ev)
		return nil
	})
}

// Delay puts off the current combatant's turn until after another
// combatant still to act this round (named by after), or to the end of the
// round (after == ""), for good: its place in the order changes. The turn
// passes on without its end; when it comes back it starts again, with
// Delayed still set for StartTurn to see.
func (e *Encounter) Delay(p Policy, actor, name, after string) (Event, error) {
	return e.apply(KindDelay, actor, func(x *Encounter, ev *Event) error {
		if err := x.checkPolicy(p); err != nil {
			return err
		}
		if err := x.inFight(true); err != nil {
			return err
		}
		i, err := x.find(name)
		if err != nil {
			return err
		}
		c := x.Combatants[i]
		if i != x.Turn {
			return invalidf("only the combatant whose turn it is can delay, and it is not %s's turn", c.Name)
		}
		if err := x.rewound(); err != nil {
			return err
		}
		to := len(x.Combatants) - 1 // the index c will have
		if after == "" {
			if i == to {
				return invalidf("%s is last in the order: no one acts after it this round; use /init next", c.Name)
			}
			ev.summaryf(c.Hidden, "%s delays its turn to the end of the round.", c.Name)
		} else {
			a, err := x.find(after)
			if err != nil {
				return err
			}
			other := &x.Combatants[a]
			switch {
			case a == i:
				return invalidf("%s cannot delay until after itself", c.Name)
			case a < i:
				return invalidf("%s has had its turn this round: delay until after someone still to act", other.Name)
			}
			to = a
			ev.summaryf(c.Hidden || other.Hidden, "%s delays its turn until after %s.", c.Name, other.Name)
		}
		// Moving the current combatant later leaves every other turn on the
		// same side of the current one: no condition falls overdue.
		c.Delayed = true
		x.Combatants = slices.Insert(slices.Delete(x.Combatants, i, i+1), to, c)
		_, _, err = x.advance(p, ev, i-1, false)
		return err
	})
}
