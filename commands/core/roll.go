package core

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

func (h *handlers) roll(ctx context.Context, req *kit.Request) (kit.Response, error) {
	vis, err := kit.RollVisibility(req)
	if err != nil {
		return kit.Response{}, err
	}
	return h.rollReply(ctx, req, req.Options.String("expression"), vis)
}

// rollAgain answers the "Roll again" button: the same expression, rolled
// afresh by whoever clicked, seen by the same people as the first.
func (h *handlers) rollAgain(ctx context.Context, req *kit.Request) (kit.Response, error) {
	_, code, _ := strings.Cut(req.CustomID, ":")
	prev, found, err := h.Rolls.RollByCode(ctx, req.ChannelID, code)
	if err != nil {
		return kit.Response{}, err
	}
	if !found || (prev.Private && prev.UserID != req.User.ID) {
		// A private roll is its roller's alone: to anyone else who has its
		// ID it is not there, and its expression is not rolled again.
		return kit.Response{}, kit.Errorf("roll %s is not in this channel's log any more: use /roll", code)
	}
	req.Options = kit.Options{} // a click carries no dice: roll at random
	vis := kit.Visibility(prev.Visibility)
	if vis == "" {
		vis = kit.Public
	}
	return h.rollReply(ctx, req, prev.Expr, vis)
}

func (h *handlers) rollReply(ctx context.Context, req *kit.Request, text string, vis kit.Visibility) (kit.Response, error) {
	res, err := h.rollDice(req, text)
	if err != nil {
		return kit.Response{}, err
	}
	result := kit.NewRollResult(res)
	var gmChannel string
	if vis.Secret() {
		if gmChannel, err = h.GMChannel(ctx, req.GuildID); err != nil {
			return kit.Response{}, err
		}
	}
	id, err := h.LogRoll(ctx, req, res.Expr, res.Total, vis, result)
	if err != nil {
		return kit.Response{}, err
	}
	result.ID = id
	full := kit.Response{
		Content: fmt.Sprintf("🎲 **%s** rolled `%s`\n%s\n-# roll %s", kit.DisplayName(req.User), kit.CodeSafe(res.Expr), res.String(), id),
		Result:  result,
	}
	// The button rolls again with the same visibility: on the answer its
	// roller sees (a blind roll's roller sees none to click).
	again := []kit.Row{{{Label: "Roll again", Style: kit.Secondary, CustomID: "reroll:" + id}}}
	if !vis.Secret() {
		full.Rows = again
	}
	out := kit.Conceal(req, vis, gmChannel, kit.DisplayName(req.User), id, full)
	if vis == kit.GMRoll {
		out.Followups[0].Rows = again
	}
	return out, nil
}

// suggestRolls autocompletes an expression: first what is being typed,
// checked as it is typed (a mistake shows before sending), then the user's
// recent expressions that contain it.
func (h *handlers) suggestRolls(ctx context.Context, req *kit.Request) (kit.Response, error) {
	typed := strings.TrimSpace(req.Options.String("expression"))
	var choices []kit.Choice
	if typed != "" && len(typed) <= kit.MaxChoiceStringLen {
		name := typed
		_, err := dice.Parse(typed)
		if err != nil {
			name = "⚠️ " + typed + ": " + err.Error()
		}
		choices = append(choices, kit.Choice{Name: name, Value: typed})
		if s := dice.Suggest(typed); err != nil && s != "" {
			choices = append(choices, kit.Choice{Name: "did you mean " + s, Value: s})
		}
	}
	recent, err := h.Rolls.RecentExprs(ctx, req.User.ID, kit.MaxChoices)
	if err != nil {
		return kit.Response{}, err
	}
	for _, e := range recent {
		if len(choices) == kit.MaxChoices {
			break
		}
		if e != typed && len(e) <= kit.MaxChoiceStringLen && strings.Contains(strings.ReplaceAll(e, " ", ""), strings.ReplaceAll(typed, " ", "")) {
			choices = append(choices, kit.Choice{Name: e, Value: e})
		}
	}
	return kit.Response{Choices: choices}, nil
}

// rollDice parses and rolls text, with the request's `dice:` values when
// given. Every mistake comes back as a *UserError.
func (h *handlers) rollDice(req *kit.Request, text string) (*dice.Result, error) {
	expr, err := dice.Parse(text)
	if err != nil {
		return nil, kit.DiceError(err)
	}
	roller, phys, err := h.RollerFor(req)
	if err != nil {
		return nil, err
	}
	res, err := expr.Roll(roller)
	if err != nil {
		return nil, kit.DiceError(err)
	}
	if phys != nil {
		if err := phys.Done(); err != nil {
			return nil, &kit.UserError{Msg: err.Error() + fmt.Sprintf(" (example: /roll %s dice:%s)", expr, kit.ExampleDice(res)), Err: err}
		}
	}
	return res, nil
}
