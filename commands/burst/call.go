package burst

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// serve is kit.Serve with the rules of rules/burst, which take what was
// read, the configuration, and the call's tray as their dice.
func serve[In, Res any](ctx context.Context, h *handlers, req *kit.Request, example string,
	read func(*kit.Call) In, apply func(In, rules.Config, rules.Dice) (Res, error)) (*kit.Call, In, Res, error) {
	return kit.Serve(ctx, pipeline, h.Env, req, example, read, func(c *kit.Call, cfg rules.Config, in In) (Res, error) {
		return apply(in, cfg, c.Tray)
	})
}

// BurstErr turns an error of rules/burst into what the user sees: an
// impossible input is the user's mistake, shown with a correct example; a
// failure of the dice keeps its own kind (a `dice:` value that does not
// fit is already a *UserError, anything else is ours).
//
// It stays beside kit.Call.RulesError, which differs in two ways that
// would change an error: a *rules.DiceError that is neither the user's
// nor the tray's failure (the dice engine returning no dice) is ours
// here, where RulesError would show it as the user's mistake; and a
// `dice:` mistake comes back as the tray's *UserError itself, unwrapped.
func BurstErr(err error, example string) error {
	var de *rules.DiceError
	if errors.As(err, &de) {
		if ue, ok := kit.AsUserError(err); ok {
			return ue // the user's dice: value; the rules' expression adds nothing for them
		}
		return err
	}
	return &kit.UserError{Msg: fmt.Sprintf("%s (example: %s)", err, example), Err: err}
}

// bonus reads the charges, challenges and wounds that step n bonus dice.
// Charges and challenges are the options only: a sheet holds no
// situation.
func bonus(c *kit.Call, n int) rules.Bonus {
	charges, _ := c.Req.Options.Int("charges")
	challenges, _ := c.Req.Options.Int("challenges")
	return rules.Bonus{Dice: n, Charges: int(charges), Challenges: int(challenges), Wounded: c.Flag("wounded")}
}

// bonusDice reads bonus dice from option when given, else from the
// sheet's stat. Without either it records the user's mistake, naming both
// ways to give them, and returns 0.
func bonusDice(c *kit.Call, option, stat, example string) int {
	if n, ok := c.Req.Options.Int(option); ok {
		return int(n)
	}
	if v, ok := c.Stat(stat); ok {
		return v
	}
	if name := c.Sheet.Name(); name != "" {
		c.Failf("/%s needs %s bonus dice: give %s:<number>, or add %s to %s's sheet with /character set name:%s stats:\"%s=2\"",
			c.Req.Typed(), stat, option, stat, name, name, stat)
	} else {
		c.Failf("/%s needs %s bonus dice: give %s:<number>, or character:<name> to read them from a sheet (example: %s)",
			c.Req.Typed(), stat, option, example)
	}
	return 0
}

// vigor returns the Vigor to pay a cost from: the option, else the
// sheet's vigor, else nil (not tracked).
func vigor(c *kit.Call) *int {
	if v, ok := c.Stat("vigor"); ok {
		return &v
	}
	return nil
}

// rolled is what every roll of the action die and bonus dice shows.
type rolled struct {
	Action    int `json:"action,omitempty"`
	BonusDice int `json:"bonus_dice"`
	Die       int `json:"die,omitempty"` // sides of the bonus dice after charges, challenges and wounds
	Bursts    int `json:"bursts"`
}

func rolledOf(r rules.Roll) rolled {
	return rolled{Action: r.Action, BonusDice: r.BonusDice, Die: r.BonusSides, Bursts: r.Bursts}
}

// burstsNote is the reply's note of bursting dice, "" for none.
func burstsNote(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " · 💥 1 die burst"
	}
	return fmt.Sprintf(" · 💥 %d dice burst", n)
}

// verdict words a margin: "success by 7", "failure by 3", and a total
// that meets its sum exactly "success, exactly".
func verdict(ok bool, margin int, yes, no string) string {
	switch {
	case ok && margin == 0:
		return yes + ", exactly"
	case ok:
		return fmt.Sprintf("%s by %d", yes, margin)
	}
	return fmt.Sprintf("%s by %d", no, -margin)
}

// article returns word after "a" or "an".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
