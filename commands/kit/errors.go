package kit

import (
	"errors"
	"fmt"
)

// UserError is a mistake the user can fix: the router shows its message to
// the user, privately, and does not log it as a failure of the bot.
type UserError struct {
	Msg string
	// Detail, when set, is shown below the message in a code block (an
	// expression with a caret under the bad column, say).
	Detail string
	// Err is the underlying error, if any, for errors.Is and errors.As.
	Err error
}

func (e *UserError) Error() string { return e.Msg }

func (e *UserError) Unwrap() error { return e.Err }

// Errorf returns a *UserError with a formatted message. Name the mistake
// and show a correct example.
func Errorf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...)}
}

// ErrMalformed is wrapped by the *UserError the router returns for a
// request Discord's client would never send: an option of the wrong type,
// outside its bounds or choices, too long, missing or not defined. The HTTP
// endpoint answers such a request with 400 before anything runs; the
// console shows the message.
var ErrMalformed = errors.New("a request Discord would not send")

// malformed is a *UserError wrapping ErrMalformed.
func malformed(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
}

// ErrNotGM is returned when a player tries a GM-only command.
var ErrNotGM = &UserError{Msg: "only the GM can do that: it needs the Manage Channels permission or a GM role"}

// AsUserError reports whether err is, or wraps, a *UserError.
func AsUserError(err error) (*UserError, bool) {
	var ue *UserError
	ok := errors.As(err, &ue)
	return ue, ok
}
