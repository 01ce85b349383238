package encounter

// Moved is one move of the turn: the user who made it, and when, in
// milliseconds since the Unix epoch by the commands' clock (an Encounter
// keeps no clock of its own).
type Moved struct {
	By string `json:"by"`
	At int64  `json:"at"`
}

// DefaultNextWindow, in milliseconds, is how recent a move of the turn by
// someone else makes a typed "end the turn" ask first (Unseen): the
// issue's "the turn moved in the last few seconds, by someone else". Two
// people who end the same turn at the same moment (two GMs, or a player
// and the GM) type within a few seconds of each other; 5 seconds is the
// default.
const DefaultNextWindow = 5000

// Unseen reports whether user, ending the current turn at now (in
// milliseconds since the Unix epoch), may not have seen it start: someone
// else moved the turn to it less than window milliseconds before now, or
// less than window after (the other's command, typed later, ran first).
// A user who moved it themselves has seen it; a window of 0 or less sees
// every turn.
func (e *Encounter) Unseen(user string, now, window int64) bool {
	m := e.Moved
	if m.By == "" || m.By == user || window <= 0 {
		return false
	}
	d := now - m.At
	return d < window && d > -window
}
