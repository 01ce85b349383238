package ulm

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmRestResult is the `result` of /ulm rest: total is the damage faded.
type ulmRestResult struct {
	kit.Outcome
	Target          string   `json:"target"`
	Minutes         int      `json:"minutes"`
	Days            int      `json:"days"`
	FadedHoly       int      `json:"faded_holy"`
	FadedSpite      int      `json:"faded_spite"`
	ShockEnded      bool     `json:"shock_ended"`
	WokeUp          bool     `json:"woke_up"`
	MaimFixed       bool     `json:"maim_fixed"`
	VulnerableEnded bool     `json:"vulnerable_ended"`
	State           ulmState `json:"state"`
}

const ulmRestExample = "/ulm rest days:3 hp:20 holy:5"

func (h *handlers) ulmRest(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	rounds, _ := req.Options.Int("rounds")
	hours, _ := req.Options.Int("hours")
	days, _ := req.Options.Int("days")
	if rounds < 0 || hours < 0 || days < 0 || rounds+hours+days == 0 {
		return kit.Response{}, kit.Errorf("/ulm rest needs the time that passes: rounds:, hours: or days: (example: %s)", ulmRestExample)
	}
	d := time.Duration(rounds)*u.cfg.FullRound() + time.Duration(hours)*time.Hour + time.Duration(days)*rules.Day
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Pass(s, d, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm rest", err, ulmRestExample)
	}
	target, err := u.who(req, "target", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmRestResult{
		Outcome: kit.Outcome{Total: res.Faded()}, Target: target, Minutes: int(d / time.Minute), Days: res.Days,
		FadedHoly: res.FadedHoly, FadedSpite: res.FadedSpite, ShockEnded: res.ShockEnded, WokeUp: res.WokeUp,
		MaimFixed: res.MaimFixed, VulnerableEnded: res.VulnerableEnded, State: newUlmState(res.State, u.cfg),
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** rests %s", kit.EscapeMarkdown(target), ulmRestText(rounds, hours, days))
	var notes []string
	if res.Faded() > 0 {
		notes = append(notes, fmt.Sprintf("%d Holy and %d Spite damage fade", res.FadedHoly, res.FadedSpite))
	}
	if res.ShockEnded {
		notes = append(notes, "Shock ends")
	}
	if res.WokeUp {
		notes = append(notes, "no longer Knocked Out")
	}
	if res.MaimFixed {
		notes = append(notes, "the Maim can no longer be reversed")
	}
	if res.VulnerableEnded {
		notes = append(notes, "no longer Vulnerable")
	}
	if len(notes) > 0 {
		b.WriteString(": " + strings.Join(notes, "; "))
	}
	b.WriteString("; " + ulmStatusLine(res.State, u.cfg))
	return h.ulmReply(ctx, req, u, "ulm rest", &result.Outcome, result, b.String())
}

func ulmRestText(rounds, hours, days int64) string {
	var parts []string
	if days > 0 {
		parts = append(parts, ulmPlural(int(days), "day"))
	}
	if hours > 0 {
		parts = append(parts, ulmPlural(int(hours), "hour"))
	}
	if rounds > 0 {
		parts = append(parts, ulmPlural(int(rounds), "Full Round"))
	}
	return strings.Join(parts, ", ")
}
