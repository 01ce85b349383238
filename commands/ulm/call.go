package ulm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmRun is what every /ulm subcommand needs: the validated rules
// configuration, the sheet, the table, and its dice as the rules roll them.
type ulmRun struct {
	cfg   rules.Config
	sheet kit.Sheet
	t     *kit.Tray
	dice  *ulmDice
}

func (h *handlers) ulmStart(ctx context.Context, req *kit.Request) (*ulmRun, error) {
	cfg := h.config()
	if err := cfg.Validate(); err != nil {
		return nil, err // the operator's mistake, not the player's
	}
	sheet, err := h.Sheet(ctx, req, "ulm")
	if err != nil {
		return nil, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return nil, err
	}
	return &ulmRun{cfg: cfg, sheet: sheet, t: t, dice: &ulmDice{t: t}}, nil
}

// ulmDice lets the rules roll through the table, and remembers a failure
// that was not the user's doing, so fail can tell it from a rule the
// input broke.
type ulmDice struct {
	t      *kit.Tray
	rolls  int
	failed error
}

func (d *ulmDice) Roll(expr string) (*dice.Result, error) {
	d.rolls++
	res, err := d.t.Roll(expr)
	if err != nil {
		if _, ok := kit.AsUserError(err); !ok {
			d.failed = err
		}
	}
	return res, err
}

// fail turns an error of the rules into the user's mistake, with a
// correct example, unless the dice failed on our side.
func (u *ulmRun) fail(what string, err error, example string) error {
	if u.dice.failed != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if ue, ok := kit.AsUserError(err); ok {
		return ue
	}
	return &kit.UserError{Msg: fmt.Sprintf("%s (example: %s)", err, example), Err: err}
}

// who names the actor or Victim: the option, else the sheet's character,
// else fallback. The name is as given: escape it for the reply, not for
// the `result`.
func (u *ulmRun) who(req *kit.Request, option, fallback string) (string, error) {
	if name := req.Options.String(option); name != "" {
		n, err := kit.CleanName(option+" name", name)
		if err != nil {
			return "", err
		}
		return n, nil
	}
	if n := u.sheet.Name(); n != "" {
		return n, nil
	}
	return fallback, nil
}

// flag reads a yes/no: the Boolean option, else the sheet's stat as
// nonzero, else def.
func (u *ulmRun) flag(req *kit.Request, name string, def bool) bool {
	if req.Options.Has(name) {
		return req.Options.Bool(name)
	}
	if v, ok := u.sheet.Stat(req, name); ok {
		return v != 0
	}
	return def
}

// list reads a comma list of whole numbers from a text option, else one
// number from the sheet's stat of that name.
func (u *ulmRun) list(req *kit.Request, name, example string) ([]int, error) {
	text := strings.TrimSpace(req.Options.String(name))
	if text == "" {
		if v, ok := u.sheet.Stat(req, name); ok {
			return []int{v}, nil
		}
		return nil, nil
	}
	var out []int
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(strings.TrimPrefix(f, "+"))
		if err != nil || n < 0 || n > 1000 {
			return nil, kit.Errorf("%s takes whole numbers from 0 to 1000 separated by commas, not %q (example: %s)", name, f, example)
		}
		out = append(out, n)
	}
	return out, nil
}

// amount reads a number or rolls a dice expression the user gave.
func (u *ulmRun) amount(req *kit.Request, name string) (int, error) {
	text := strings.TrimSpace(req.Options.String(name))
	if text == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(text); err == nil {
		if n < 0 {
			return 0, kit.Errorf("%s is %d: give 0 or more (example: %s:7 or %s:2d6+3)", name, n, name, name)
		}
		return n, nil
	}
	e, err := dice.Parse(text)
	if err != nil {
		return 0, kit.DiceError(err)
	}
	res, err := u.dice.Roll(e.String())
	if err != nil {
		return 0, err
	}
	if res.Total < 0 {
		return 0, kit.Errorf("%s rolled %d: it must come to 0 or more (example: %s:2d6+3)", name, res.Total, name)
	}
	return res.Total, nil
}

// state reads the Victim's Hit Points and statuses: options first, then the
// sheet. Damage typed in becomes one Injury Card per kind, from "earlier".
func (u *ulmRun) state(req *kit.Request) (rules.State, error) {
	hp, err := u.sheet.Need(req, "hp")
	if err != nil {
		return rules.State{}, err
	}
	if hp < 1 {
		return rules.State{}, kit.Errorf("hp is %d: Hit Points are 1 or more (example: hp:20)", hp)
	}
	s := rules.State{HitPoints: hp}
	for _, k := range []struct {
		stat string
		typ  rules.DamageType
	}{{"damage", rules.Earlier}, {"holy", rules.Holy}, {"spite", rules.Spite}} {
		v := u.sheet.Or(req, k.stat, 0)
		if v < 0 {
			return rules.State{}, kit.Errorf("%s is %d: damage is 0 or more (example: %s:5)", k.stat, v, k.stat)
		}
		if v > 0 {
			s.Cards = append(s.Cards, rules.Card{Source: "earlier", Type: k.typ, Damage: v})
		}
	}
	s.Vulnerable = u.flag(req, "vulnerable", s.Over())
	minutes := u.sheet.Or(req, "shock", 0)
	rounds := u.sheet.Or(req, "knocked_out", 0)
	if minutes < 0 || rounds < 0 {
		return rules.State{}, kit.Errorf("shock and knocked_out are the time left: 0 or more (example: shock:30)")
	}
	s.Shock = time.Duration(minutes) * time.Minute
	s.KnockedOut = time.Duration(rounds) * u.cfg.FullRound()
	if hours, ok := u.sheet.Stat(req, "maimed"); ok {
		if hours < 0 {
			return rules.State{}, kit.Errorf("maimed is the hours since the Maim: 0 or more (example: maimed:2)")
		}
		s.Maimed = true
		s.MaimWindow = max(rules.MaimWindow-time.Duration(hours)*time.Hour, 0)
	}
	return s, nil
}

// reply finishes a /ulm subcommand: the dice checked and logged, the
// outcome line, the dice, the roll ID.
func (h *handlers) ulmReply(ctx context.Context, req *kit.Request, u *ulmRun, expr string, out *kit.Outcome, result any, line string) (kit.Response, error) {
	if err := u.diceUsed(req); err != nil {
		return kit.Response{}, err
	}
	if err := h.Finish(ctx, req, u.t, expr, out, result); err != nil {
		return kit.Response{}, err
	}
	content := line
	if b := u.t.Breakdown(); b != "" {
		content += "\n" + b
	}
	content += "\n-# roll " + out.ID
	return kit.Response{Content: content, Ephemeral: req.Options.Bool("private"), Result: result}, nil
}

// diceUsed refuses `dice:` given to a subcommand that rolled nothing.
func (u *ulmRun) diceUsed(req *kit.Request) error {
	if u.dice.rolls == 0 && strings.TrimSpace(req.Options.String("dice")) != "" {
		// Say why, rather than only that the values were too many: what
		// this subcommand rolls depends on its options.
		return kit.Errorf("/%s rolls no dice here: leave out dice: (it is for the rolls of a jump or leap, a fall, or an amount like 2d6)", strings.ReplaceAll(req.Path, "/", " "))
	}
	return nil
}

func ulmPhase(req *kit.Request) rules.Phase {
	if p := req.Options.String("phase"); p != "" {
		return rules.Phase(p)
	}
	return rules.Active
}

// ulmUserName is the user's name as given (displayName escapes it).
func ulmUserName(u kit.User) string {
	if u.Name == "" {
		return u.ID
	}
	return u.Name
}

// ulmNamed is the name a subcommand gives its actor or Victim: the option,
// else the sheet's character; "" for neither.
func ulmNamed(req *kit.Request, u *ulmRun, option string) string {
	if name := strings.TrimSpace(req.Options.String(option)); name != "" {
		return name
	}
	return u.sheet.Name()
}
