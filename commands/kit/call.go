package kit

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/words"
)

// Call is one request to a rules command, the one context every system's
// handlers work in: the request, the character sheet it reads stats from,
// and the tray its dice go through.
//
// Reading options keeps the first mistake, as bufio.Scanner keeps its
// error: a handler reads everything it needs (Need, Or, Flag, Pick),
// then checks Err once, calls the rules, and answers with Reply.
type Call struct {
	Req   *Request
	Sheet Sheet
	Tray  *Tray
	env   *Env
	err   error
	// diceErr is a mistake in `dice:` that BeginDiceLast keeps until the
	// other options' mistakes have been named.
	diceErr error
	// vis is who sees the result (`visibility:`, `private:`); gmChannel
	// the guild's GM channel when vis is gm or blind ("" when none is set).
	vis       Visibility
	gmChannel string
	// gmLater is a secret call whose GM channel is looked up when it is
	// logged (BeginRoll), not when it opens.
	gmLater bool
	// rulesError shows an error of the rules as the system's Pipeline
	// does; nil: RulesError.
	rulesError func(c *Call, err error, example string) error
}

// Visibility is who sees the call's result.
func (c *Call) Visibility() Visibility {
	if c.vis == "" {
		return visibilityOf(c.Req)
	}
	return c.vis
}

// Begin opens the call of req for system: the sheet of its `character:`
// option, which must be of system, and the tray of its `dice:`.
func (e *Env) Begin(ctx context.Context, req *Request, system string) (*Call, error) {
	c, err := e.open(ctx, req, system)
	if err != nil {
		return nil, err
	}
	if c.Tray, err = e.Tray(req); err != nil {
		return nil, err
	}
	return c, nil
}

// open opens the call of req for system without its tray: the sheet, and
// who sees the result. The GM channel of a secret call is read by the
// statement that logs its roll (Finish).
func (e *Env) open(ctx context.Context, req *Request, system string) (*Call, error) {
	sheet, err := e.Sheet(ctx, req, system)
	if err != nil {
		return nil, err
	}
	vis, err := RollVisibility(req)
	if err != nil {
		return nil, err
	}
	return &Call{Req: req, Sheet: sheet, env: e, vis: vis, gmLater: vis.Secret()}, nil
}

// BeginRoll opens the call of a roll whose expression and sheet the
// command reads itself (/roll, which parses its expression once and
// gives its names the values of a sheet or of the roll it rolls again):
// vis is who sees it, and the call's tray rolls the `dice:` values. The
// call has no Sheet, so its roller is the user; the GM channel of a
// secret roll is looked up when Finish logs it.
func (e *Env) BeginRoll(req *Request, vis Visibility) (*Call, error) {
	tray, err := e.Tray(req)
	if err != nil {
		return nil, err
	}
	return &Call{Req: req, Tray: tray, env: e, vis: vis, gmLater: vis.Secret()}, nil
}

// Read opens a Call that only reads req's options, for a command that
// reads no sheet and rolls no dice of its own (the tracker's): its
// options are read as a rules command's are, keeping the first mistake,
// and Reply answers without dice. Finish needs a call from Begin.
func Read(req *Request) *Call { return &Call{Req: req, Tray: &Tray{}} }

// BeginDiceLast is Begin for a command that names the mistakes in its
// other options before one in `dice:` (the order in which the rules use
// them: the dice are rolled last). A `dice:` it cannot read does not stop
// the call from opening: Err returns it once no other mistake was met,
// and until then the call's Tray rolls nothing.
func (e *Env) BeginDiceLast(ctx context.Context, req *Request, system string) (*Call, error) {
	c, err := e.open(ctx, req, system)
	if err != nil {
		return nil, err
	}
	if c.Tray, c.diceErr = e.Tray(req); c.diceErr != nil {
		c.Tray = &Tray{roller: dice.NewPhysical(nil)}
	}
	return c, nil
}

// Who names the actor in a reply, escaped for markdown: the sheet's
// character, else the user.
func (c *Call) Who() string {
	if n := c.Sheet.Name(); n != "" {
		return EscapeMarkdown(n)
	}
	return DisplayName(c.Req.User)
}

// Fail records err as the call's mistake, unless one was met before.
func (c *Call) Fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// Failf records a *UserError, unless a mistake was met before. Name the
// mistake and show a correct example.
func (c *Call) Failf(format string, args ...any) { c.Fail(Errorf(format, args...)) }

// Err returns the first mistake met reading the call's options, else a
// mistake in its `dice:` that BeginDiceLast kept back.
func (c *Call) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.diceErr
}

// Stat returns the integer option name, else the sheet's stat of that
// name; ok is false when neither has it.
func (c *Call) Stat(name string) (v int, ok bool) { return c.Sheet.Stat(c.Req, name) }

// Need is Stat for a value the rules cannot do without: its absence is
// recorded as the user's mistake, and Need returns 0.
func (c *Call) Need(name string) int {
	v, err := c.Sheet.Need(c.Req, name)
	if err != nil {
		c.Fail(err)
	}
	return v
}

// Or is Stat with a default, for a value the rules can do without.
func (c *Call) Or(name string, def int) int { return c.Sheet.Or(c.Req, name, def) }

// Flag reads a yes/no state: the option when given, else the sheet's stat
// of the same name as 0 or 1 (a sheet holds numbers: wounded=1).
func (c *Call) Flag(name string) bool {
	if c.Req.Options.Has(name) {
		return c.Req.Options.Bool(name)
	}
	v, _ := c.Stat(name)
	return v != 0
}

// Pick reads the text option name through parse, which knows the
// option's words, its aliases and its default (parse is given "" when the
// option is absent). A word parse refuses is recorded as the user's
// mistake, with example; Pick then returns parse's value.
func Pick[T any](c *Call, name string, parse func(string) (T, error), example string) T {
	v, err := parse(c.Req.Options.String(name))
	if err != nil {
		c.Fail(&UserError{Msg: fmt.Sprintf("%v (example: %s)", err, example), Err: err})
	}
	return v
}

// Rule ends the reading of c and applies the rules: it returns the call's
// first mistake, else what apply returns, its error as the system's
// Pipeline shows its rules' errors (RulesError, unless it says
// otherwise), with example. apply rolls through c.Tray.
func Rule[T any](c *Call, example string, apply func() (T, error)) (T, error) {
	var zero T
	if err := c.Err(); err != nil {
		return zero, err
	}
	res, err := apply()
	if err != nil {
		if c.rulesError != nil {
			return zero, c.rulesError(c, err, example)
		}
		return zero, c.RulesError(err, example)
	}
	return res, nil
}

// RulesError turns an error of a rules package into what the user sees.
// A failure of the dice machinery behind it (the tray's) stays ours; a
// *UserError (a `dice:` value, say) is shown as it is; anything else is
// an input the rules cannot use, shown with a correct example.
func (c *Call) RulesError(err error, example string) error {
	if err == nil {
		return nil
	}
	if f := c.Tray.Failed(); f != nil {
		return fmt.Errorf("%s: roll for the rules: %w", c.Req.Path, f)
	}
	if _, ok := AsUserError(err); ok {
		return err
	}
	return &UserError{Msg: fmt.Sprintf("%v (example: %s)", err, example), Err: err}
}

// Finish checks the `dice:` values were used exactly, logs the call's
// rolls under expr with o's total, seen as the call's Visibility, and
// fills o's ID and dice. Call it once, after the last roll. hint, when
// not empty, is added to a mistake in the `dice:` values: which dice the
// command rolls.
func (c *Call) Finish(ctx context.Context, expr string, o *Outcome, detail any, hint string) error {
	if err := c.Tray.Done(); err != nil {
		return WithHint(err, hint)
	}
	o.Rolls = c.Tray.Rolls()
	id, err := c.Log(ctx, expr, o.Total, c.Visibility(), detail)
	if err != nil {
		return err
	}
	o.ID = id
	return nil
}

// Log logs the call's roll under expr with total, seen as vis (a
// command may log it more discreetly than it shows it), and returns its
// ID. The statement that logs it reads the GM channel a secret call's
// reply is shown in: a secret roll costs no round trip more than another.
// Finish calls it; a command that fills its Outcome itself calls it once.
func (c *Call) Log(ctx context.Context, expr string, total int, vis Visibility, detail any) (string, error) {
	id, gmChannel, err := c.env.logRoll(ctx, c.Req, expr, total, vis, detail, DiceGiven(c.Req))
	if err != nil {
		return "", err
	}
	if c.gmLater {
		c.gmChannel, c.gmLater = gmChannel, false
	}
	return id, nil
}

// Reply is a rules command's answer: the lines that say the outcome
// (empty ones are left out), the dice rolled, and the roll's ID when it
// has one; shown as the call's `visibility:` (or `private:`) asks (see
// Conceal).
func (c *Call) Reply(id string, result any, lines ...string) Response {
	var parts []string
	for _, l := range lines {
		if l != "" {
			parts = append(parts, l)
		}
	}
	if bd := c.Tray.Breakdown(); bd != "" {
		parts = append(parts, bd)
	}
	if note := c.Sheet.OwnNote(); note != "" {
		parts = append(parts, note)
	}
	if note := c.DiceGivenNote(); note != "" {
		parts = append(parts, note)
	}
	if id != "" {
		parts = append(parts, "-# roll "+id)
	}
	return c.Conceal(id, Response{Content: strings.Join(parts, "\n"), Result: result})
}

// DiceGivenNote is the line that marks the call's roll when its dice were
// typed in (DiceGivenLine), for a command that writes its answer itself;
// "" when Tablehand rolled them.
func (c *Call) DiceGivenNote() string {
	if given := DiceGiven(c.Req); given != "" && c.Tray != nil && c.Tray.phys != nil {
		return DiceGivenLine(given)
	}
	return ""
}

// Conceal shows resp, the full answer to the call's roll id, as the
// call's visibility asks (see the function Conceal).
func (c *Call) Conceal(id string, resp Response) Response {
	if c.gmLater {
		// A secret call shown with no roll logged (Log reads the GM
		// channel with the roll): read it on its own.
		ch, err := c.env.GMChannel(context.Background(), c.Req.GuildID)
		if err != nil {
			c.env.Log.Warn("read the GM channel: a secret roll is shown as if none were set", "guild", c.Req.GuildID, "err", err)
		}
		c.gmChannel, c.gmLater = ch, false
	}
	return Conceal(c.Req, c.Visibility(), c.gmChannel, c.Who(), id, resp)
}

// WithHint adds hint, in brackets, to the message of a *UserError; any
// other error, and an empty hint, leave err as it is.
func WithHint(err error, hint string) error {
	ue, ok := AsUserError(err)
	if !ok || hint == "" {
		return err
	}
	return &UserError{Msg: ue.Msg + " (" + hint + ")", Detail: ue.Detail, Err: err}
}

// Plural is "1 one" or "n ones" (words.Count).
func Plural(n int, one string) string { return words.Count(n, one) }
