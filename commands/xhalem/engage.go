package xhalem

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// /xhalem engage, and the engagement roll that grapples and shoves make
// too: 1d20 + a stat against the target's evasion roll.

// engagement is the part of a result that an engagement roll fills.
type engagement struct {
	Kind       rules.Kind `json:"kind"`
	Stat       string     `json:"stat,omitempty"`
	Score      int        `json:"score"`
	Natural    int        `json:"natural,omitempty"`
	Mode       rules.Mode `json:"mode"`
	TargetMode rules.Mode `json:"target_mode"`
	Evasion    *int       `json:"evasion,omitempty"` // the total the engagement had to beat
	Automatic  string     `json:"automatic,omitempty"`
}

// engagementOf is the engagement part of a result: the roll of kind with
// its stat and score, and how it went.
func engagementOf(kind rules.Kind, stat string, score int, e rules.EngageResult) engagement {
	out := engagement{Kind: kind, Stat: stat, Score: score, Natural: e.Engagement.Natural, Mode: e.Mode, TargetMode: e.TargetMode, Automatic: e.Automatic}
	if e.Compared {
		v := e.EvasionTo
		out.Evasion = &v
	}
	return out
}

// engaged fills an Outcome from an engagement: success is the hit, margin
// only when the totals were compared.
func engaged(o *kit.Outcome, e rules.EngageResult) {
	o.Total = e.Engagement.Total
	if e.Compared {
		o.Succeeded(e.Hit, e.Margin)
		return
	}
	hit := e.Hit
	o.Success = &hit
}

// engageNotes say how the engagement was rolled and, when the target
// rolled, how its evasion was.
func engageNotes(r rules.EngageResult) []string {
	notes := []string{modeNote("Engagement", r.Mode, r.Sources)}
	if r.Evasion != nil {
		notes = append(notes, modeNote("evasion", r.TargetMode, r.TargetWhy))
	}
	return notes
}

type engageResult struct {
	kit.Outcome
	engagement
	Flanking   bool `json:"flanking"`
	HalfDamage bool `json:"half_damage"`
	GivesAway  bool `json:"gives_away_position"`
}

// engageExample is a correct /xhalem engage, for its mistakes.
const engageExample = "/xhalem engage kind:machine evasion:2 systems:3 target:cloaked"

// engage answers /xhalem engage: an attack, 1d20 + Systems or Agility
// against the target's evasion roll, in the modes its situation grants.
func (h *handlers) engage(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	e := readEngage(c, kind, ex)
	r, err := kit.Rule(c, ex, func() (rules.EngageResult, error) { return rules.Engage(e, cfg, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	res := engageResult{engagement: engagementOf(kind, rules.EngageStat(kind), e.Score, r), Flanking: r.Flanking, HalfDamage: r.HalfDamage, GivesAway: r.GivesAway}
	engaged(&res.Outcome, r)
	line := fmt.Sprintf("%s engages: %s", who(c), versus(r, "hit", "miss"))
	if r.HalfDamage {
		line += "; out of range: halve the damage (/xhalem damage out_of_range:true)"
	}
	notes := engageNotes(r)
	if r.GivesAway {
		notes = append(notes, "you give away your position")
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, line, joinNotes(notes))
}

// readEngage reads an engagement's options, in the order their mistakes
// are told: the stat, the modes, the target's state and the flanking.
func readEngage(c *kit.Call, kind rules.Kind, ex string) rules.EngageInput {
	o := c.Req.Options
	e := rules.EngageInput{Kind: kind, Score: c.Need(rules.EngageStat(kind)), Bonus: opt(c, "bonus"), Evasion: opt(c, "evasion"), Assisted: o.Bool("assisted")}
	e.Mode, e.TargetMode = modes(c, ex)
	e.Target = pick(c, "target", rules.ParseTarget, ex)
	e.Stealth = pick(c, "stealth", rules.ParseStealth, ex)
	e.Range = pick(c, "range", rules.ParseRange, ex)
	e.Opportunity = pick(c, "opportunity", rules.ParseOpportunity, ex)
	e.Water = pick(c, "underwater", rules.ParseWater, ex)
	flank := ex + " position:front allies:back"
	if o.Has("position") {
		e.Position = pick(c, "position", rules.ParsePosition, flank)
	}
	e.Allies = pick(c, "allies", rules.ParsePositions, flank)
	return e
}
