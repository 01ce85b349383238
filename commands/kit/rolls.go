package kit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// DiceOption is the `dice:` option every roll and action command takes: the
// values of physical dice rolled at the table, used in order instead of
// random ones.
var DiceOption = Option{
	Type: String, Name: "dice", MaxLength: 500,
	Description: "Physical dice you rolled, in order, e.g. 6,5,2,4",
}

// RollResult is the structured outcome of a roll, the console's `result`.
type RollResult struct {
	ID    string      `json:"id,omitempty"`
	Expr  string      `json:"expr"`
	Total int         `json:"total"`
	Rolls []RollGroup `json:"rolls"`
	// Reason is the text after the expression ("to hit" in
	// "1d20+5 to hit"); it is also in Expr, after " # ".
	Reason string `json:"reason,omitempty"`
	// Parts are the separately totalled parts of a repeat (6#4d6kh3) or of
	// labelled expressions side by side; absent for a single expression.
	Parts []RollPart `json:"parts,omitempty"`
	// Stats are the values of the names the roll read ("som" in
	// "1d20+som"), and Character the sheet they came from; absent for a
	// roll without names. Roll again rolls with these values.
	Stats     map[string]int `json:"stats,omitempty"`
	Character string         `json:"character,omitempty"`
	// Macro is the saved roll (/macro) the roll used, absent for none:
	// Expr is then what it expanded to.
	Macro *RollMacro `json:"macro,omitempty"`
	// Notes say how a notation of another bot was read ("read as
	// `1d20`: Roll20's `[[ ]]` left out", "`>` and `<` leave out their
	// number here..."); absent when there is none.
	Notes []string `json:"notes,omitempty"`
}

// RollMacro is the saved roll a roll used: what was typed ("atk+2"), the
// macro's name and roll, whose it is ("me": the roller's own; "server":
// the server's) and the text rolled ("(1d20+5)+2").
type RollMacro struct {
	Typed    string `json:"typed"`
	Name     string `json:"name"`
	Roll     string `json:"roll"`
	Scope    string `json:"scope"`
	Expanded string `json:"expanded"`
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

func NewRollResult(res *dice.Result) RollResult {
	out := RollResult{Expr: res.Expr, Total: res.Total, Reason: res.Reason(), Rolls: rollGroups(res.Groups)}
	for _, r := range res.Refs {
		if out.Stats == nil {
			out.Stats = map[string]int{}
		}
		out.Stats[r.Name] = r.Value
	}
	if len(res.Parts) > 1 {
		for _, p := range res.Parts {
			out.Parts = append(out.Parts, RollPart{Label: p.Label, Expr: p.Expr, Total: p.Total})
		}
	}
	return out
}

// rollGroups returns groups as the console's `result` shows them, the
// dice of all of them in one array.
func rollGroups(groups []dice.Group) []RollGroup {
	n := 0
	for i := range groups {
		n += len(groups[i].Dice)
	}
	all := make([]RollDie, 0, n)
	out := make([]RollGroup, 0, len(groups))
	for i := range groups {
		g := &groups[i]
		rg := RollGroup{Expr: g.Expr, Label: g.Label, Total: g.Total}
		if g.Counting {
			counts := [2]int{g.Successes, g.Failures}
			rg.Successes, rg.Failures = &counts[0], &counts[1]
		}
		start := len(all)
		for j := range g.Dice {
			d := &g.Dice[j]
			rd := RollDie{Sides: d.Sides, Value: d.Value, Kept: d.Kept, Physical: d.Physical, Fudge: d.Fudge,
				Rerolled: d.Rerolled, Clamped: d.Clamped, Explodes: d.Explodes, Extra: d.Extra,
				Compounded: d.Compounded, Success: d.Success, Failure: d.Failure}
			if d.Clamped {
				face := d.Face
				rd.Face = &face
			}
			all = append(all, rd)
		}
		rg.Dice = all[start:len(all):len(all)]
		out = append(out, rg)
	}
	return out
}

// RollerFor returns the roller for req: the physical dice of its `dice:`
// option when given (phys is then non-nil, to be checked with Done after
// rolling), random dice otherwise.
func (h *Env) RollerFor(req *Request) (r dice.Roller, phys *dice.Physical, err error) {
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

// ExampleDice lists plausible values for every die res rolled, for an
// example of a correct `dice:` option.
func ExampleDice(res *dice.Result) string {
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

// DiceError turns an error of the dice language into a message for the
// user, with the expression and a caret under the column when known. An
// error that is not the user's (a failing roller) stays an internal error.
func DiceError(err error) error {
	var se *dice.SyntaxError
	if errors.As(err, &se) {
		msg := se.Error()
		if s := dice.Suggest(se.Expr); s != "" {
			msg += ": did you mean `" + CodeSafe(s) + "`?"
		}
		return &UserError{Msg: msg, Detail: se.Detail(), Err: err}
	}
	var de *dice.Error
	if errors.As(err, &de) {
		return &UserError{Msg: de.Error(), Detail: de.Detail(), Err: err}
	}
	return fmt.Errorf("roll dice: %w", err)
}

// LogRoll stores a roll in the roll log and returns its short ID.
// vis says who may find it in /history.
func (h *Env) LogRoll(ctx context.Context, req *Request, expr string, total int, vis Visibility, detail any) (string, error) {
	code, _, err := h.logRoll(ctx, req, expr, total, vis, detail, DiceGiven(req))
	return code, err
}

// LogRollGiven is LogRoll for one of the rolls of a command whose dice:
// values several rolls share: given is the values typed in for this one
// ("" when Tablehand rolled it).
func (h *Env) LogRollGiven(ctx context.Context, req *Request, expr string, total int, vis Visibility, detail any, given string) (string, error) {
	code, _, err := h.logRoll(ctx, req, expr, total, vis, detail, given)
	return code, err
}

// logRoll is LogRollGiven, and returns the guild's GM channel as the
// roll's statement read it ("" for none).
func (h *Env) logRoll(ctx context.Context, req *Request, expr string, total int, vis Visibility, detail any, given string) (code, gmChannel string, err error) {
	js, err := json.Marshal(detail)
	if err != nil {
		return "", "", fmt.Errorf("encode roll: %w", err)
	}
	if given != "" {
		// A roll of typed-in dice says so wherever it is shown again
		// (/history): the detail keeps the values given.
		js = withDiceGiven(js, given)
	}
	code = h.Codes()
	saved, err := h.Rolls.LogRoll(ctx, db.Roll{
		Code: code, GuildID: req.GuildID, ChannelID: req.ChannelID,
		UserID: req.User.ID, UserName: req.User.Name,
		Expr: expr, Total: total, Private: vis != Public, Visibility: string(vis), Detail: js,
	})
	if err != nil {
		return "", "", fmt.Errorf("log roll %q: %w", expr, err)
	}
	return code, saved.GMChannel, nil
}

// DiceGiven is the values of the request's `dice:` option, "20, 3", when
// the dice were typed in rather than rolled by Tablehand; "" otherwise.
func DiceGiven(req *Request) string {
	values, err := dice.ParsePhysical(strings.TrimSpace(req.Options.String("dice")))
	if err != nil || len(values) == 0 {
		return ""
	}
	return JoinValues(values)
}

// JoinValues is dice values as DiceGiven writes them: "20, 3".
func JoinValues(values []int) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = fmt.Sprint(v)
	}
	return strings.Join(out, ", ")
}

// DiceGivenLine is the line that marks a roll of typed-in dice wherever
// it is shown, in words a player reads at a glance: "-# ✋ dice given:
// 20 (typed in, not rolled by Tablehand)".
func DiceGivenLine(given string) string {
	return "-# ✋ dice given: " + given + " (typed in, not rolled by Tablehand)"
}

// withDiceGiven adds "dice_given" to the JSON object js; js that is not
// an object is kept as it is, inside {"roll": js}.
func withDiceGiven(js []byte, given string) []byte {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(js, &obj); err != nil || obj == nil {
		obj = map[string]json.RawMessage{}
		if string(js) != "null" {
			obj["roll"] = js
		}
	}
	g, _ := json.Marshal(given) // a string always encodes
	obj["dice_given"] = g
	out, err := json.Marshal(obj)
	if err != nil {
		return js
	}
	return out
}

// DiceGivenOf reads back the values a logged roll's detail says were
// typed in; "" for dice Tablehand rolled.
func DiceGivenOf(detail []byte) string {
	var d struct {
		DiceGiven string `json:"dice_given"`
	}
	if json.Unmarshal(detail, &d) != nil {
		return ""
	}
	return d.DiceGiven
}
