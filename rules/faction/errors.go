package faction

import "errors"

// The kinds of impossible order. Every error an order gets wraps one of
// them (match with errors.Is) and names the problem in its text, so a
// command layer can show it to the player as it is.
var (
	ErrUnknownFaction = errors.New("unknown faction")
	ErrUnknownAction  = errors.New("unknown action")
	ErrUnknownAsset   = errors.New("unknown asset")
	ErrUnknownHabitat = errors.New("unknown habitat")
	ErrBadParam       = errors.New("bad parameter")
	ErrNotEnoughAP    = errors.New("not enough AP")
	ErrNotEnoughStat  = errors.New("not enough points")
	ErrWrongPhase     = errors.New("wrong phase")
	ErrAlreadyActed   = errors.New("already acted")
	ErrCannotAct      = errors.New("cannot act")
	ErrNotAvailable   = errors.New("not available")
	ErrTriggered      = errors.New("triggered action")
	ErrDenied         = errors.New("denied")
)

// OrderError is an order that could not be carried out.
type OrderError struct {
	Faction string
	Order   Order
	Err     error
}

func (e *OrderError) Error() string {
	return e.Faction + ": " + e.Order.String() + ": " + e.Err.Error()
}

func (e *OrderError) Unwrap() error { return e.Err }
