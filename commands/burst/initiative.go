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

const initiativeExample = "/burst initiative bonus:1 ambush:ambusher"

func (h *handlers) initiative(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, in, res, err := serve(ctx, h, req, initiativeExample, readInitiative, rollInitiative)
	if err != nil {
		return kit.Response{}, err
	}
	out := initiativeResult{Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll),
		WatchDice: res.WatchDice, Ambushed: res.Ambushed, Actions: res.Actions, FirstRound: res.FirstRound}
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, initiativeLine(c.Who(), in, res))
}

// readInitiative reads the initiative bonus dice (`bonus:`, else the
// sheet's initiative), the actions a turn, and an ambush or Over Watch.
func readInitiative(c *kit.Call) rules.InitiativeInput {
	n := c.Or("initiative", 0)
	if v, ok := c.Req.Options.Int("bonus"); ok {
		n = int(v)
	}
	watch := kit.Pick(c, "watch", rules.ParseWatch, "/burst initiative watch:expected")
	ambush := kit.Pick(c, "ambush", rules.ParseAmbush, initiativeExample)
	return rules.InitiativeInput{Bonus: bonus(c, n), Actions: c.Or("actions", 0), Ambush: ambush, Watch: watch}
}

// rollInitiative is rules.Initiative, which needs no configuration.
func rollInitiative(in rules.InitiativeInput, _ rules.Config, d rules.Dice) (rules.InitiativeResult, error) {
	return rules.Initiative(in, d)
}

func initiativeLine(who string, in rules.InitiativeInput, res rules.InitiativeResult) string {
	first := ""
	switch {
	case res.Ambushed:
		first = ", only 1 in the first round (ambushed)"
	case in.Ambush == rules.Ambusher:
		first = fmt.Sprintf(", %d in the first round (ambusher)", res.FirstRound)
	case res.WatchDice > 0:
		first = " (+1 bonus die: Over Watch)"
	}
	return fmt.Sprintf("**%s**: initiative %d · %d actions a turn%s%s", who, res.Roll.Total, res.Actions, first, burstsNote(res.Roll.Bursts))
}
