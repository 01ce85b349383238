package xhalem

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

type checkResult struct {
	kit.Outcome
	Stat    string     `json:"stat"`
	Score   int        `json:"score"`
	Natural int        `json:"natural"`
	Mode    rules.Mode `json:"mode"`
	CR      int        `json:"cr"`
}

// checkExample is a correct /xhalem check, for its mistakes.
const checkExample = "/xhalem check stat:scanners cr:15 score:3"

// check answers /xhalem check (scan, Stealth, mount, ...): 1d20 + a stat
// of any name must beat the CR; a tie fails.
func (h *handlers) check(ctx context.Context, c *kit.Call, cfg rules.Config, _ rules.Kind, ex string) (kit.Response, error) {
	stat, score := checkStat(c, ex)
	in := rules.CheckInput{Score: score, Bonus: opt(c, "bonus"), Mode: mode(c, ex), CR: opt(c, "cr")}
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	roll, ok, err := rules.Check(in, cfg, c.Tray)
	if err != nil {
		return kit.Response{}, c.RulesError(err, ex)
	}
	res := checkResult{Outcome: kit.Outcome{Total: roll.Total}, Stat: stat, Score: score, Natural: roll.Natural, Mode: in.Mode, CR: in.CR}
	margin := roll.Total - in.CR
	res.Succeeded(ok, margin)
	line := fmt.Sprintf("%s %s check: %d vs %d: ", who(c), stat, roll.Total, in.CR)
	switch {
	case ok:
		line += fmt.Sprintf("success by %d", margin)
	case margin == 0:
		line += "failure (a check must beat the number)"
	default:
		line += fmt.Sprintf("failure by %d", -margin)
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, line, modeNote("Roll", in.Mode, nil))
}

// checkStat reads the stat: a check is of, and its value: score: when
// given, else the option or the sheet's stat of that name. Its mistakes
// name the stat the user asked for, so they are written here rather than
// by Call.Need.
func checkStat(c *kit.Call, ex string) (string, int) {
	given := c.Req.Options.String("stat")
	stat := strings.ToLower(strings.TrimSpace(given))
	if !kit.StatNameRE.MatchString(stat) || len(stat) > kit.MaxStatName {
		c.Failf("stat %q: a stat is a name like hull or scanners (example: %s)", given, ex)
		return stat, 0
	}
	score, ok := c.Stat(stat)
	if v, isGiven := c.Req.Options.Int("score"); isGiven {
		score, ok = int(v), true
	}
	switch n := c.Sheet.Name(); {
	case ok:
	case n != "":
		c.Failf("/xhalem check needs %s: give score:<number>, or add it to %s's sheet with /character set name:%s stats:\"%s=3\"", stat, n, n, stat)
	default:
		c.Failf("/xhalem check needs the value of %s: give score:<number>, or character:<name> to read it from a sheet (example: %s)", stat, ex)
	}
	return stat, score
}
