package xhalem

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// /xhalem grapple, escape and shove: the contests of Hull or Strength.

type grappleResult struct {
	kit.Outcome
	engagement
	Grappled bool `json:"grappled"`
}

// grappleExample is a correct /xhalem grapple, for its mistakes.
const grappleExample = "/xhalem grapple kind:creature evasion:2 strength:3"

// grapple answers /xhalem grapple: 1d20 + Hull or Strength against the
// target's evasion roll, automatic against a helpless target.
func (h *handlers) grapple(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	stat := rules.MightStat(kind)
	g := rules.GrappleInput{Kind: kind, Score: c.Need(stat), Bonus: opt(c, "bonus"), Evasion: opt(c, "evasion"), Helpless: c.Req.Options.Bool("helpless")}
	g.Mode, g.TargetMode = modes(c, ex)
	g.Water = pick(c, "underwater", rules.ParseWater, ex)
	g.Size, g.TargetSize = sizes(c, ex)
	r, err := kit.Rule(c, ex, func() (rules.EngageResult, error) { return rules.Grapple(g, cfg, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	res := grappleResult{engagement: engagementOf(kind, stat, g.Score, r), Grappled: r.Hit}
	engaged(&res.Outcome, r)
	line := fmt.Sprintf("%s grapples: %s", who(c), versus(r, "grappled", "the target evades"))
	if r.Hit {
		line += "; it may spend its action to break free (/xhalem escape); while you hold it you take no other action, and dragging it halves your speed unless it is two or more sizes smaller"
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, line, joinNotes(engageNotes(r)))
}

type escapeResult struct {
	kit.Outcome
	Kind     rules.Kind `json:"kind"`
	Stat     string     `json:"stat"`
	Score    int        `json:"score"`
	Natural  int        `json:"natural"`
	Grappler int        `json:"grappler"` // the grappler's counter total
}

// escapeExample is a correct /xhalem escape, for its mistakes.
const escapeExample = "/xhalem escape kind:machine grappler:3 hull:2"

// escape answers /xhalem escape: 1d20 + Hull or Strength against the
// grappler's; equal or better frees you.
func (h *handlers) escape(ctx context.Context, c *kit.Call, _ rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	stat := rules.MightStat(kind)
	e := rules.EscapeInput{Kind: kind, Score: c.Need(stat), Bonus: opt(c, "bonus"), Grappler: opt(c, "grappler")}
	e.Mode = mode(c, ex)
	r, err := kit.Rule(c, ex, func() (rules.ContestResult, error) { return rules.Escape(e, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	res := escapeResult{Outcome: kit.Outcome{Total: r.Actor.Total}, Kind: kind, Stat: stat, Score: e.Score, Natural: r.Actor.Natural, Grappler: r.Opponent.Total}
	res.Succeeded(r.Success, r.Margin)
	line := fmt.Sprintf("%s tries to break free: %d vs %d: ", who(c), r.Actor.Total, r.Opponent.Total)
	switch {
	case r.Margin > 0:
		line += fmt.Sprintf("free, by %d", r.Margin)
	case r.Margin == 0:
		line += "free (equal is enough)"
	default:
		line += fmt.Sprintf("still grappled, by %d: no move or further action this turn", -r.Margin)
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, line, modeNote("Roll", e.Mode, nil))
}

type shoveResult struct {
	kit.Outcome
	engagement
	Hit        bool   `json:"hit"`
	Engagement int    `json:"engagement"`          // the engagement total
	Check      *int   `json:"check,omitempty"`     // your Hull or Strength check
	Resist     *int   `json:"resist,omitempty"`    // the target's
	Effect     string `json:"effect"`              // push or knock_down
	PushFeet   int    `json:"push_feet,omitempty"` // on a successful push
}

// shoveExample is a correct /xhalem shove, for its mistakes.
const shoveExample = "/xhalem shove kind:machine evasion:2 resist:3 systems:2 hull:4 effect:knock_down"

// shove answers /xhalem shove: an engagement, then on a hit Hull or
// Strength against the target's, to push it or knock it down.
func (h *handlers) shove(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	s, effect := readShove(c, kind, ex)
	r, err := kit.Rule(c, ex, func() (rules.ShoveResult, error) { return rules.Shove(s, cfg, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	res, line := shoveOutcome(kind, s, effect, r)
	var notes []string
	if !s.Helpless {
		notes = engageNotes(r.Engagement)
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, who(c)+" shoves: "+line, joinNotes(notes))
}

// readShove reads a shove's options, in the order their mistakes are
// told, and the effect it has on success.
func readShove(c *kit.Call, kind rules.Kind, ex string) (rules.ShoveInput, string) {
	s := rules.ShoveInput{Kind: kind, Bonus: opt(c, "bonus"), Evasion: opt(c, "evasion"), Resist: opt(c, "resist"), Helpless: c.Req.Options.Bool("helpless")}
	if !s.Helpless {
		// "You succeed automatically if the target is incapacitated": no
		// roll, so no stat is needed then.
		s.Score = c.Need(rules.EngageStat(kind))
		s.Might = c.Need(rules.MightStat(kind))
	}
	effect := pick(c, "effect", effects.Parse, ex)
	s.Mode, s.TargetMode = modes(c, ex)
	s.Water = pick(c, "underwater", rules.ParseWater, ex)
	s.Size, s.TargetSize = sizes(c, ex)
	return s, effect
}

// effects are what a successful shove does: push (the default) or
// knock_down.
var effects = rules.Words[string]{What: "effect", List: []rules.Word[string]{
	{Names: []string{"push", ""}, Value: "push"},
	{Names: []string{"knock_down", "knock"}, Value: "knock_down"},
}}

// shoveOutcome is the result of shove s with effect, and the line that
// says how it went.
func shoveOutcome(kind rules.Kind, s rules.ShoveInput, effect string, r rules.ShoveResult) (shoveResult, string) {
	res := shoveResult{engagement: engagementOf(kind, rules.EngageStat(kind), s.Score, r.Engagement), Hit: r.Engagement.Hit,
		Engagement: r.Engagement.Engagement.Total, Effect: effect}
	done := "pushes the target 5 feet away"
	if effect == "knock_down" {
		done = "knocks the target down"
	} else if r.Success {
		res.PushFeet = rules.PushFeet
	}
	switch {
	case s.Helpless:
		res.Stat, res.Total = "", 0
		res.Success = &r.Success
		return res, "the target is incapacitated: automatic success, " + done
	case r.Check == nil:
		engaged(&res.Outcome, r.Engagement)
		return res, "engagement " + versus(r.Engagement, "hit", "miss") + ": no shove"
	}
	chk := r.Check
	res.Total = chk.Actor.Total
	res.Succeeded(chk.Success, chk.Margin)
	res.Check, res.Resist = &chk.Actor.Total, &chk.Opponent.Total
	line := fmt.Sprintf("engagement %d vs %d hits; %s %d vs %d: ", r.Engagement.Engagement.Total, r.Engagement.EvasionTo, rules.MightStat(kind), chk.Actor.Total, chk.Opponent.Total)
	switch {
	case chk.Success:
		line += fmt.Sprintf("success by %d, %s", chk.Margin, done)
	case chk.Margin == 0:
		line += "a tie: the target holds"
	default:
		line += fmt.Sprintf("the target holds, by %d", -chk.Margin)
	}
	return res, line
}
