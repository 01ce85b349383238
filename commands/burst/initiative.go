package burst

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// /burst initiative: the initiative roll, the actions a turn, and what an
// ambush or Over Watch changes in the first round.

type initiativeResult struct {
	kit.Outcome
	rolled
	WatchDice  int  `json:"watch_dice"`
	Ambushed   bool `json:"ambushed"`
	Actions    int  `json:"actions"`
	FirstRound int  `json:"first_round"`
}

func (h *handlers) initiative(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst initiative bonus:1 ambush:ambusher"
	read := func(c *kit.Call) rules.InitiativeInput {
		n := c.Or("initiative", 0)
		if v, ok := c.Req.Options.Int("bonus"); ok {
			n = int(v)
		}
		watch := kit.Pick(c, "watch", rules.ParseWatch, "/burst initiative watch:expected")
		ambush := kit.Pick(c, "ambush", rules.ParseAmbush, example)
		return rules.InitiativeInput{Bonus: bonus(c, n), Actions: c.Or("actions", 0), Ambush: ambush, Watch: watch}
	}
	// Initiative needs no configuration.
	apply := func(in rules.InitiativeInput, _ rules.Config, d rules.Dice) (rules.InitiativeResult, error) {
		return rules.Initiative(in, d)
	}
	c, in, res, err := serve(ctx, h, req, example, read, apply)
	if err != nil {
		return kit.Response{}, err
	}
	out := initiativeResult{Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll),
		WatchDice: res.WatchDice, Ambushed: res.Ambushed, Actions: res.Actions, FirstRound: res.FirstRound}
	first := ""
	switch {
	case res.Ambushed:
		first = ", only 1 in the first round (ambushed)"
	case in.Ambush == rules.Ambusher:
		first = fmt.Sprintf(", %d in the first round (ambusher)", res.FirstRound)
	case res.WatchDice > 0:
		first = " (+1 bonus die: Over Watch)"
	}
	line := fmt.Sprintf("**%s**: initiative %d · %d actions a turn%s%s", c.Who(), res.Roll.Total, res.Actions, first, burstsNote(res.Roll.Bursts))
	return answer(ctx, c, &out, &out.Outcome, line)
}
