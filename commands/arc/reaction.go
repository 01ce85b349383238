package arc

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// reactionResult is the console's `result` of /arc reaction.
type reactionResult struct {
	kit.Outcome
	Character string `json:"character,omitempty"`
	SOM       int    `json:"som"`
	Roll      int    `json:"roll"`
	// LosesTurn: "A failure results in a loss of the turn for the
	// character: he will only act from the following turn onwards." An
	// encounter reads it to skip the character this turn.
	LosesTurn bool `json:"loses_turn"`
}

// reaction answers /arc reaction: 1d10 at or under the SOM, or the
// character loses the turn.
func (h *handlers) reaction(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc reaction som:6"
	c, _, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	som := c.Need("som")
	res, err := kit.Rule(c, example, func() (rules.ReactionResult, error) { return rules.Reaction(som, c.Tray.Dice()) })
	if err != nil {
		return kit.Response{}, err
	}
	result := reactionResult{Outcome: kit.Outcome{Total: res.Roll}, Character: c.Sheet.Name(), SOM: som, Roll: res.Roll, LosesTurn: res.LosesTurn}
	result.Succeeded(res.Success, res.Margin)
	if err := c.Finish(ctx, "arc reaction", &result.Outcome, &result, "example: dice:4, one d10"); err != nil {
		return kit.Response{}, err
	}
	return c.Reply(result.ID, result,
		fmt.Sprintf("%d vs %s: %s", res.Roll, somText(som), reactionVerdict(som, res)),
		who(c)+" reaction check: 1d10 at or under SOM succeeds"), nil
}

// somText names a SOM, and its state at either end of the scale.
func somText(som int) string {
	s := fmt.Sprintf("SOM %d", som)
	switch som {
	case rules.MaxSOM:
		s += " (Exalted)"
	case rules.MinSOM:
		s += " (Panicked)"
	}
	return s
}

// reactionVerdict words a reaction check's outcome and what it means for
// the turn.
func reactionVerdict(som int, res rules.ReactionResult) string {
	switch {
	case res.Success && som == rules.MaxSOM:
		return "success: a SOM of 10 always succeeds; acts normally"
	case res.Success && res.Margin == 0:
		return "success (equal to SOM succeeds): acts normally"
	case res.Success:
		return fmt.Sprintf("success by %d: acts normally", res.Margin)
	case som == rules.MinSOM:
		return "failure: a SOM of 1 succeeds only on a 1; loses the turn, acts from the next one"
	}
	return fmt.Sprintf("failure by %d: loses the turn, acts from the next one", -res.Margin)
}
