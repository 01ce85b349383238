package ulm

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// named is the name a subcommand gives its actor or Victim, to look for
// in the fight: the option, else the sheet's character; "" for neither.
func named(c *kit.Call, option string) string {
	if name := strings.TrimSpace(c.Req.Options.String(option)); name != "" {
		return name
	}
	return c.Sheet.Name()
}

// ownSheet reads, when neither character: nor subject (the option naming
// who the command is about, actor: or target:; "" for none) is given, the
// asker's one ulm character (kit's DefaultSheet), as /arc and /burst do:
// the reply says which it read. The subcommands about the asker's own
// character use it (slots, move, fall, heal, rest); injure and epilogue do
// not, as their sheet is a Victim's, whom someone else harms.
func (h *handlers) ownSheet(ctx context.Context, c *kit.Call, subject string) error {
	if c.Sheet.Name() != "" || (subject != "" && strings.TrimSpace(c.Req.Options.String(subject)) != "") {
		return nil
	}
	sheet, err := h.DefaultSheet(ctx, c.Req, rules.SystemName)
	if err != nil {
		return err
	}
	c.Sheet = sheet
	return nil
}

// who names the actor or Victim: the option, else the sheet's character,
// else fallback. The name is as given: escape it for the reply, not for
// the `result`. A name that cannot be one is the call's mistake.
func who(c *kit.Call, option, fallback string) string {
	if name := c.Req.Options.String(option); name != "" {
		return cleanName(c, option, name)
	}
	if n := c.Sheet.Name(); n != "" {
		return n
	}
	return fallback
}

// cleanName checks the name the option gives (kit.CleanName); a name
// that cannot be one is the call's mistake.
func cleanName(c *kit.Call, option, name string) string {
	n, err := kit.CleanName(option+" name", name)
	if err != nil {
		c.Fail(err)
	}
	return n
}

// userName is the user's name as given (kit.DisplayName escapes it).
func userName(u kit.User) string {
	if u.Name == "" {
		return u.ID
	}
	return u.Name
}

// flagOr is Call.Flag with a default other than false: the Boolean
// option, else the sheet's stat as nonzero, else def.
func flagOr(c *kit.Call, name string, def bool) bool {
	if c.Req.Options.Has(name) {
		return c.Req.Options.Bool(name)
	}
	if v, ok := c.Stat(name); ok {
		return v != 0
	}
	return def
}

// phase is the phase: option, the Active Phase by default.
func phase(c *kit.Call) rules.Phase {
	if p := c.Req.Options.String("phase"); p != "" {
		return rules.Phase(p)
	}
	return rules.Active
}

// numbers reads a comma list of whole numbers from a text option, else one
// number from the sheet's stat of that name. A word that is not one is
// the call's mistake.
func numbers(c *kit.Call, name, example string) []int {
	text := strings.TrimSpace(c.Req.Options.String(name))
	if text == "" {
		if v, ok := c.Stat(name); ok {
			return []int{v}
		}
		return nil
	}
	var out []int
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(strings.TrimPrefix(f, "+"))
		if err != nil || n < 0 || n > 1000 {
			c.Failf("%s takes whole numbers from 0 to 1000 separated by commas, not %q (example: %s)", name, f, example)
			return nil
		}
		out = append(out, n)
	}
	return out
}

// amount reads a number, or rolls a dice expression, the user gave. Read
// it last: it rolls only when no mistake was met before, so a refused
// command spends no dice. A mistake, and a failure of the roll, are the
// call's.
func amount(c *kit.Call, name string) int {
	text := strings.TrimSpace(c.Req.Options.String(name))
	if text == "" || c.Err() != nil {
		return 0
	}
	if n, err := strconv.Atoi(text); err == nil {
		if n < 0 {
			c.Failf("%s is %d: give 0 or more (example: %s:7 or %s:2d6+3)", name, n, name, name)
			return 0
		}
		return n
	}
	e, err := dice.Parse(text)
	if err != nil {
		c.Fail(kit.DiceError(err))
		return 0
	}
	res, err := c.Tray.Roll(e.String())
	if err != nil {
		c.Fail(err)
		return 0
	}
	if res.Total < 0 {
		c.Failf("%s rolled %d: it must come to 0 or more (example: %s:2d6+3)", name, res.Total, name)
		return 0
	}
	return res.Total
}

// state reads the Victim's Hit Points and statuses: options first, then the
// sheet. Damage typed in becomes one Injury Card per kind, from "earlier".
func state(c *kit.Call, cfg rules.Config) rules.State {
	hp := c.Need("hp")
	if hp < 1 {
		c.Failf("hp is %d: Hit Points are 1 or more (example: hp:20)", hp)
	}
	s := rules.State{HitPoints: hp}
	for _, k := range []struct {
		stat string
		typ  rules.DamageType
	}{{"damage", rules.Earlier}, {"holy", rules.Holy}, {"spite", rules.Spite}} {
		v := c.Or(k.stat, 0)
		if v < 0 {
			c.Failf("%s is %d: damage is 0 or more (example: %s:5)", k.stat, v, k.stat)
		}
		if v > 0 {
			s.Cards = append(s.Cards, rules.Card{Source: "earlier", Type: k.typ, Damage: v})
		}
	}
	s.Vulnerable = flagOr(c, "vulnerable", s.Over())
	minutes, rounds := c.Or("shock", 0), c.Or("knocked_out", 0)
	if minutes < 0 || rounds < 0 {
		c.Failf("shock and knocked_out are the time left: 0 or more (example: shock:30)")
	}
	s.Shock = time.Duration(minutes) * time.Minute
	s.KnockedOut = time.Duration(rounds) * cfg.FullRound()
	if hours, ok := c.Stat("maimed"); ok {
		if hours < 0 {
			c.Failf("maimed is the hours since the Maim: 0 or more (example: maimed:2)")
		}
		s.Maimed = true
		s.MaimWindow = max(rules.MaimWindow-time.Duration(hours)*time.Hour, 0)
	}
	return s
}

// rulesError, the pipeline's, is Call.RulesError, except that a *UserError inside the
// rules' error is returned alone, without the rules' wrapping: the
// console's error then reads "dice: 1 value given, ...", not "fall damage:
// dice: ...", as it always has. (The user reads the *UserError's message
// either way.)
func rulesError(c *kit.Call, err error, example string) error {
	if ue, ok := kit.AsUserError(err); ok && c.Tray.Failed() == nil {
		return ue
	}
	return c.RulesError(err, example)
}

// diceUsed refuses `dice:` given to a subcommand that rolled nothing.
// Every roll of a /ulm subcommand goes through its tray and shows in the
// breakdown, and a roll that failed ended the subcommand before this, so
// an empty breakdown is a subcommand that rolled nothing (a roll with no
// dice, 2+3, still counts, as the tray then reports the values left over).
func diceUsed(c *kit.Call) error {
	if c.Tray.Breakdown() == "" && strings.TrimSpace(c.Req.Options.String("dice")) != "" {
		// Say why, rather than only that the values were too many: what
		// this subcommand rolls depends on its options.
		return kit.Errorf("/%s rolls no dice here: leave out dice: (it is for the rolls of a jump or leap, a fall, or an amount like 2d6)", c.Req.Typed())
	}
	return nil
}

// reply finishes a /ulm subcommand out of a fight: the dice checked and
// logged, the outcome line, the dice, the roll ID. A mistake the call met
// after the rules ran (a name it names the actor or Victim by, which is
// checked after the rules, as their mistakes come first) is the answer
// instead.
func (h *handlers) reply(ctx context.Context, c *kit.Call, expr string, out *kit.Outcome, result any, line string) (kit.Response, error) {
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	if err := diceUsed(c); err != nil {
		return kit.Response{}, err
	}
	return kit.Answer(ctx, c, expr, &result, out, line)
}
