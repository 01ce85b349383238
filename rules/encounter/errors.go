package encounter

import (
	"errors"
	"fmt"
)

// The kinds of mistake an *Error reports, for errors.Is.
var (
	ErrNotFound  = errors.New("no such combatant or condition")
	ErrDuplicate = errors.New("name already taken")
	ErrNotBegun  = errors.New("the fight has not begun")
	ErrBegun     = errors.New("the fight has already begun")
	ErrEnded     = errors.New("the fight is over")
	ErrInvalid   = errors.New("invalid request")
)

// Error is a mistake the user can fix. Its message names the mistake in
// words fit for the reply ("there is no combatant named Ogre: see /init
// list"); Kind is one of the Err values above. A policy returns an *Error
// for a mistake of the user's, any other error for a failure of its own
// (a Roller's, say).
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// Errorf returns an *Error of the given kind with a formatted message.
func Errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

func invalidf(format string, args ...any) error { return Errorf(ErrInvalid, format, args...) }

func notBegun() error {
	return Errorf(ErrNotBegun, "the fight has not begun: start it with /init begin")
}

func ended() error {
	return Errorf(ErrEnded, "the fight is over: start a new one")
}
