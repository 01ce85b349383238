package ulm

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// restResult is the `result` of /ulm rest: total is the damage faded.
type restResult struct {
	kit.Outcome
	Target          string      `json:"target"`
	Minutes         int         `json:"minutes"`
	Days            int         `json:"days"`
	FadedHoly       int         `json:"faded_holy"`
	FadedSpite      int         `json:"faded_spite"`
	ShockEnded      bool        `json:"shock_ended"`
	WokeUp          bool        `json:"woke_up"`
	MaimFixed       bool        `json:"maim_fixed"`
	VulnerableEnded bool        `json:"vulnerable_ended"`
	State           stateResult `json:"state"`
}

const restExample = "/ulm rest days:3 hp:20 holy:5"

// rest answers /ulm rest: time passes for a Victim out of a fight (in a
// fight the policy passes each Full Round as the round ends).
func (h *handlers) rest(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, cfg, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.ownSheet(ctx, c, "target"); err != nil {
		return kit.Response{}, err
	}
	rounds, _ := c.Req.Options.Int("rounds")
	hours, _ := c.Req.Options.Int("hours")
	days, _ := c.Req.Options.Int("days")
	if rounds < 0 || hours < 0 || days < 0 || rounds+hours+days == 0 {
		c.Failf("/ulm rest needs the time that passes: rounds:, hours: or days: (example: %s)", restExample)
	}
	d := time.Duration(rounds)*cfg.FullRound() + time.Duration(hours)*time.Hour + time.Duration(days)*rules.Day
	s := state(c, cfg)
	res, err := kit.Rule(c, restExample, func() (rules.PassResult, error) { return rules.Pass(s, d, cfg) })
	if err != nil {
		return kit.Response{}, err
	}
	target := who(c, "target", userName(c.Req.User))
	result := &restResult{
		Outcome: kit.Outcome{Total: res.Faded()}, Target: target, Minutes: int(d / time.Minute), Days: res.Days,
		FadedHoly: res.FadedHoly, FadedSpite: res.FadedSpite, ShockEnded: res.ShockEnded, WokeUp: res.WokeUp,
		MaimFixed: res.MaimFixed, VulnerableEnded: res.VulnerableEnded, State: newStateResult(res.State, cfg),
	}
	line := fmt.Sprintf("**%s** rests %s", kit.EscapeMarkdown(target), restText(rounds, hours, days)) + restNotes(res, cfg)
	return h.reply(ctx, c, "ulm rest", &result.Outcome, result, line)
}

// restNotes is what the rest did, in words, and the state it leaves.
func restNotes(res rules.PassResult, cfg rules.Config) string {
	line := ""
	if n := notes(
		note{res.Faded() > 0, fmt.Sprintf("%d Holy and %d Spite damage fade", res.FadedHoly, res.FadedSpite)},
		note{res.ShockEnded, "Shock ends"},
		note{res.WokeUp, "no longer Knocked Out"},
		note{res.MaimFixed, "the Maim can no longer be reversed"},
		note{res.VulnerableEnded, "no longer Vulnerable"},
	); len(n) > 0 {
		line += ": " + strings.Join(n, "; ")
	}
	return line + "; " + statusLine(res.State, cfg)
}

// restText is the time that passes in words: "3 days, 2 hours".
func restText(rounds, hours, days int64) string {
	return strings.Join(notes(
		note{days > 0, kit.Plural(int(days), "day")},
		note{hours > 0, kit.Plural(int(hours), "hour")},
		note{rounds > 0, kit.Plural(int(rounds), "Full Round")},
	), ", ")
}
