package arc

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

type arcReactionResult struct {
	kit.Outcome
	Character string `json:"character,omitempty"`
	SOM       int    `json:"som"`
	Roll      int    `json:"roll"`
	// LosesTurn: "A failure results in a loss of the turn for the
	// character: he will only act from the following turn onwards." An
	// encounter reads it to skip the character this turn.
	LosesTurn bool `json:"loses_turn"`
}

func (h *handlers) arcReaction(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc reaction som:6"
	sheet, err := h.Sheet(ctx, req, "arc")
	if err != nil {
		return kit.Response{}, err
	}
	som, err := sheet.Need(req, "som")
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	d := &arcDice{t: t}
	res, err := rules.Reaction(som, d)
	if err != nil {
		return kit.Response{}, arcRulesError(err, d, example)
	}
	result := arcReactionResult{Outcome: kit.Outcome{Total: res.Roll}, Character: sheet.Name(), SOM: som, Roll: res.Roll, LosesTurn: res.LosesTurn}
	result.Succeeded(res.Success, res.Margin)
	if err := h.arcFinish(ctx, req, t, "arc reaction", &result.Outcome, &result, "example: dice:4, one d10"); err != nil {
		return kit.Response{}, err
	}
	somText := fmt.Sprintf("SOM %d", som)
	switch som {
	case rules.MaxSOM:
		somText += " (Exalted)"
	case rules.MinSOM:
		somText += " (Panicked)"
	}
	var verdict string
	switch {
	case res.Success && som == rules.MaxSOM:
		verdict = "success: a SOM of 10 always succeeds; acts normally"
	case res.Success && res.Margin == 0:
		verdict = "success (equal to SOM succeeds): acts normally"
	case res.Success:
		verdict = fmt.Sprintf("success by %d: acts normally", res.Margin)
	case som == rules.MinSOM:
		verdict = "failure: a SOM of 1 succeeds only on a 1; loses the turn, acts from the next one"
	default:
		verdict = fmt.Sprintf("failure by %d: loses the turn, acts from the next one", -res.Margin)
	}
	content := fmt.Sprintf("%d vs %s: %s\n%s reaction check: 1d10 at or under SOM succeeds\n%s\n-# roll %s",
		res.Roll, somText, verdict, arcWho(req, sheet.Name()), t.Breakdown(), result.ID)
	return kit.Response{Content: content, Ephemeral: req.Options.Bool("private"), Result: result}, nil
}
