package xhalem

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

type initiativeResult struct {
	kit.Outcome
	Kind     rules.Kind `json:"kind"`
	Stat     string     `json:"stat"`
	Score    int        `json:"score"`
	Natural  int        `json:"natural"`
	Opponent *int       `json:"opponent,omitempty"`
	First    string     `json:"first,omitempty"` // you, opponent, or "" when a tie is left open
	Tie      rules.Tie  `json:"tie,omitempty"`
}

// initiativeExample is a correct /xhalem initiative, for its mistakes.
const initiativeExample = "/xhalem initiative kind:machine engine:3"

// initiative answers /xhalem initiative: 1d20 + Engine (machine) or
// Evasion (creature), and, against an opponent's Initiative, who goes
// first.
func (h *handlers) initiative(ctx context.Context, c *kit.Call, _ rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	stat := rules.InitiativeStat(kind)
	in := rules.InitiativeInput{Kind: kind, Score: c.Need(stat), Bonus: opt(c, "bonus")}
	side := pick(c, "side", rules.ParseSide, ex+" side:architect")
	oside := pick(c, "opponent_side", rules.ParseSide, ex+" opponent:14 opponent_side:architect")
	roll, err := kit.Rule(c, ex, func() (rules.Roll, error) { return rules.RollInitiative(in, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	res := initiativeResult{Outcome: kit.Outcome{Total: roll.Total}, Kind: kind, Stat: stat, Score: in.Score, Natural: roll.Natural}
	line := fmt.Sprintf("%s rolls Initiative: %d", who(c), roll.Total)
	if c.Req.Options.Has("opponent") {
		line += order(&res,
			rules.Combatant{Total: roll.Total, Score: in.Score, Side: side},
			rules.Combatant{Total: opt(c, "opponent"), Score: opt(c, "opponent_score"), Side: oside})
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, line)
}

// order sets in res who of you and them goes first, and says it: " vs 14:
// you go first, by 2", or how a tie is broken.
func order(res *initiativeResult, you, them rules.Combatant) string {
	opp := them.Total
	res.Opponent = &opp
	first, tie := rules.Before(you, them)
	res.Tie = tie
	margin := you.Total - opp
	switch first {
	case 1:
		res.First = "you"
		res.Succeeded(true, margin)
	case -1:
		res.First = "opponent"
		res.Succeeded(false, margin)
	}
	switch {
	case tie == rules.TieArchitect:
		return fmt.Sprintf(" vs %d: a tie among the Architect's combatants: the Architect decides the order", opp)
	case tie == rules.TieReroll && you.Side != them.Side:
		return fmt.Sprintf(" vs %d: a tie between the Architect and a player: both reroll", opp)
	case tie == rules.TieReroll:
		return fmt.Sprintf(" vs %d: a tie, and equal scores: both players reroll", opp)
	case tie == rules.TieScore && first == 1:
		return fmt.Sprintf(" vs %d: a tie, your higher %s goes first", opp, res.Stat)
	case tie == rules.TieScore:
		return fmt.Sprintf(" vs %d: a tie, their higher score goes first", opp)
	case first == 1:
		return fmt.Sprintf(" vs %d: you go first, by %d", opp, margin)
	}
	return fmt.Sprintf(" vs %d: they go first, by %d", opp, -margin)
}
