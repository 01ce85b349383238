package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

var rollCommand = Command{
	Name:        "roll",
	Description: "Roll dice: 1d20+5, 4d6kh3, 2d6+3",
	Options: []Option{
		{Type: String, Name: "expression", Description: "What to roll, e.g. 1d20+5 or 4d6kh3", Required: true, MaxLength: dice.MaxExprLen, Autocomplete: true},
		diceOption,
		{Type: Boolean, Name: "private", Description: "Only you see the result"},
	},
}

// diceOption is the `dice:` option every roll and action command takes: the
// values of physical dice rolled at the table, used in order instead of
// random ones.
var diceOption = Option{
	Type: String, Name: "dice", MaxLength: 500,
	Description: "Physical dice you rolled, in order, e.g. 6,5,2,4",
}

// RollResult is the structured outcome of a roll, the console's `result`.
type RollResult struct {
	ID    string      `json:"id,omitempty"`
	Expr  string      `json:"expr"`
	Total int         `json:"total"`
	Rolls []RollGroup `json:"rolls"`
	// Parts are the separately totalled parts of a repeat (6#4d6kh3) or of
	// labelled expressions side by side; absent for a single expression.
	Parts []RollPart `json:"parts,omitempty"`
}

// RollPart is one separately totalled part of a roll.
type RollPart struct {
	Label string `json:"label,omitempty"`
	Expr  string `json:"expr"`
	Total int    `json:"total"`
}

// RollGroup is one dice term of a roll.
type RollGroup struct {
	Expr  string    `json:"expr"`
	Label string    `json:"label,omitempty"`
	Total int       `json:"total"`
	Dice  []RollDie `json:"dice"`
	// Successes and Failures are set when the group counts successes.
	Successes *int `json:"successes,omitempty"`
	Failures  *int `json:"failures,omitempty"`
}

// RollDie is one die of a roll, in the order it was rolled (which is the
// order the dice: option's values are used). Face is what the die showed
// when a clamp changed the value that counts.
type RollDie struct {
	Sides      int  `json:"sides"`
	Value      int  `json:"value"`
	Kept       bool `json:"kept"`
	Face       *int `json:"face,omitempty"`
	Physical   bool `json:"physical,omitempty"`
	Fudge      bool `json:"fudge,omitempty"`
	Rerolled   bool `json:"rerolled,omitempty"`
	Clamped    bool `json:"clamped,omitempty"`
	Explodes   bool `json:"explodes,omitempty"`
	Extra      bool `json:"extra,omitempty"`
	Compounded bool `json:"compounded,omitempty"`
	Success    bool `json:"success,omitempty"`
	Failure    bool `json:"failure,omitempty"`
}

func newRollResult(res *dice.Result) RollResult {
	out := RollResult{Expr: res.Expr, Total: res.Total, Rolls: make([]RollGroup, 0, len(res.Groups))}
	for _, g := range res.Groups {
		rg := RollGroup{Expr: g.Expr, Label: g.Label, Total: g.Total, Dice: make([]RollDie, 0, len(g.Dice))}
		if g.Counting {
			rg.Successes, rg.Failures = &g.Successes, &g.Failures
		}
		for _, d := range g.Dice {
			rd := RollDie{Sides: d.Sides, Value: d.Value, Kept: d.Kept, Physical: d.Physical, Fudge: d.Fudge,
				Rerolled: d.Rerolled, Clamped: d.Clamped, Explodes: d.Explodes, Extra: d.Extra,
				Compounded: d.Compounded, Success: d.Success, Failure: d.Failure}
			if d.Clamped {
				face := d.Face
				rd.Face = &face
			}
			rg.Dice = append(rg.Dice, rd)
		}
		out.Rolls = append(out.Rolls, rg)
	}
	if len(res.Parts) > 1 {
		for _, p := range res.Parts {
			out.Parts = append(out.Parts, RollPart{Label: p.Label, Expr: p.Expr, Total: p.Total})
		}
	}
	return out
}

func (h *handlers) roll(ctx context.Context, req *Request) (Response, error) {
	return h.rollReply(ctx, req, req.Options.String("expression"), req.Options.Bool("private"))
}

// rollAgain answers the "Roll again" button: the same expression, rolled
// afresh by whoever clicked, as privately as the first.
func (h *handlers) rollAgain(ctx context.Context, req *Request) (Response, error) {
	_, code, _ := strings.Cut(req.CustomID, ":")
	prev, found, err := h.Rolls.RollByCode(ctx, req.ChannelID, code)
	if err != nil {
		return Response{}, err
	}
	if !found {
		return Response{}, Errorf("roll %s is not in this channel's log any more: use /roll", code)
	}
	req.Options = Options{} // a click carries no dice: roll at random
	return h.rollReply(ctx, req, prev.Expr, prev.Private)
}

func (h *handlers) rollReply(ctx context.Context, req *Request, text string, private bool) (Response, error) {
	res, err := h.rollDice(req, text)
	if err != nil {
		return Response{}, err
	}
	result := newRollResult(res)
	id, err := h.logRoll(ctx, req, res.Expr, res.Total, private, result)
	if err != nil {
		return Response{}, err
	}
	result.ID = id
	return Response{
		Content:   fmt.Sprintf("🎲 **%s** rolled `%s`\n%s\n-# roll %s", displayName(req.User), codeSafe(res.Expr), res.String(), id),
		Ephemeral: private,
		Rows:      []Row{{{Label: "Roll again", Style: Secondary, CustomID: "reroll:" + id}}},
		Result:    result,
	}, nil
}

// suggestRolls autocompletes an expression: first what is being typed,
// checked as it is typed (a mistake shows before sending), then the user's
// recent expressions that contain it.
func (h *handlers) suggestRolls(ctx context.Context, req *Request) (Response, error) {
	typed := strings.TrimSpace(req.Options.String("expression"))
	var choices []Choice
	if typed != "" && len(typed) <= MaxChoiceStringLen {
		name := typed
		if _, err := dice.Parse(typed); err != nil {
			name = "⚠️ " + typed + ": " + err.Error()
		}
		choices = append(choices, Choice{Name: name, Value: typed})
	}
	recent, err := h.Rolls.RecentExprs(ctx, req.User.ID, MaxChoices)
	if err != nil {
		return Response{}, err
	}
	for _, e := range recent {
		if len(choices) == MaxChoices {
			break
		}
		if e != typed && len(e) <= MaxChoiceStringLen && strings.Contains(strings.ReplaceAll(e, " ", ""), strings.ReplaceAll(typed, " ", "")) {
			choices = append(choices, Choice{Name: e, Value: e})
		}
	}
	return Response{Choices: choices}, nil
}

// rollDice parses and rolls text, with the request's `dice:` values when
// given. Every mistake comes back as a *UserError.
func (h *handlers) rollDice(req *Request, text string) (*dice.Result, error) {
	expr, err := dice.Parse(text)
	if err != nil {
		return nil, diceError(err)
	}
	roller, phys, err := h.rollerFor(req)
	if err != nil {
		return nil, err
	}
	res, err := expr.Roll(roller)
	if err != nil {
		return nil, diceError(err)
	}
	if phys != nil {
		if err := phys.Done(); err != nil {
			return nil, &UserError{Msg: err.Error() + fmt.Sprintf(" (example: /roll %s dice:%s)", expr, exampleDice(res)), Err: err}
		}
	}
	return res, nil
}

// rollerFor returns the roller for req: the physical dice of its `dice:`
// option when given (phys is then non-nil, to be checked with Done after
// rolling), random dice otherwise.
func (h *handlers) rollerFor(req *Request) (r dice.Roller, phys *dice.Physical, err error) {
	if text := strings.TrimSpace(req.Options.String("dice")); text != "" {
		values, err := dice.ParsePhysical(text)
		if err != nil {
			return nil, nil, &UserError{Msg: err.Error() + " (example: dice:6,5,2,4)", Err: err}
		}
		phys = dice.NewPhysical(values)
		return phys, phys, nil
	}
	return h.Roller(), nil, nil
}

// exampleDice lists plausible values for every die res rolled, for an
// example of a correct `dice:` option.
func exampleDice(res *dice.Result) string {
	var vals []string
	for _, g := range res.Groups {
		for _, d := range g.Dice {
			vals = append(vals, fmt.Sprint((d.Sides+1)/2))
		}
	}
	if len(vals) == 0 {
		return "3"
	}
	return strings.Join(vals, ",")
}

// diceError turns an error of the dice language into a message for the
// user, with the expression and a caret under the column when known. An
// error that is not the user's (a failing roller) stays an internal error.
func diceError(err error) error {
	var se *dice.SyntaxError
	if errors.As(err, &se) {
		return &UserError{Msg: se.Error(), Detail: se.Detail(), Err: err}
	}
	var de *dice.Error
	if errors.As(err, &de) {
		return &UserError{Msg: de.Error(), Detail: de.Detail(), Err: err}
	}
	return fmt.Errorf("roll dice: %w", err)
}

// logRoll stores a roll in the roll log and returns its short ID.
func (h *handlers) logRoll(ctx context.Context, req *Request, expr string, total int, private bool, detail any) (string, error) {
	js, err := json.Marshal(detail)
	if err != nil {
		return "", fmt.Errorf("encode roll: %w", err)
	}
	code := h.Codes()
	_, err = h.Rolls.SaveRoll(ctx, db.Roll{
		Code: code, GuildID: req.GuildID, ChannelID: req.ChannelID,
		UserID: req.User.ID, UserName: req.User.Name,
		Expr: expr, Total: total, Private: private, Detail: js,
	})
	if err != nil {
		return "", fmt.Errorf("log roll %q: %w", expr, err)
	}
	return code, nil
}

// displayName is the name to show for u, with Discord markdown escaped so a
// name like "*bob*" shows as written.
func displayName(u User) string {
	name := u.Name
	if name == "" {
		name = u.ID
	}
	return escapeMarkdown(name)
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `~`, `\~`, `|`, `\|`, `>`, `\>`, `#`, `\#`, `-`, `\-`)

func escapeMarkdown(s string) string { return markdownEscaper.Replace(s) }

// codeSafe keeps s inside a `code span`: a backtick (from a label) would
// end it, so it becomes a look-alike.
func codeSafe(s string) string { return strings.ReplaceAll(s, "`", "ˋ") }
