package xhalem

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

type speedResult struct {
	kit.Outcome
	Kind rules.Kind `json:"kind"`
	rules.SpeedResult
}

// speedExample is a correct /xhalem speed, for its mistakes.
const speedExample = "/xhalem speed kind:machine engine:2 reactor:3 size:gargantuan dash:true"

// speed answers /xhalem speed: how far a machine (in hexes) or a creature
// (in feet) moves this turn, its steps and reach in combat, and a
// machine's speed in space. It rolls no dice, but `dice:` is checked
// as every /xhalem subcommand checks it.
func (h *handlers) speed(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Kind, ex string) (kit.Response, error) {
	if kind == "" {
		kind = rules.Machine
	}
	s := readSpeed(c, kind, ex)
	r, err := kit.Rule(c, ex, func() (rules.SpeedResult, error) { return rules.Speed(s, cfg) })
	if err != nil {
		return kit.Response{}, err
	}
	res := speedResult{Outcome: kit.Outcome{Total: r.Total}, Kind: kind, SpeedResult: r}
	return kit.Answer(ctx, c, c.Req.Typed(), &res, &res.Outcome, speedLine(c, s, r, cfg.DifficultCost), strings.Join(speedNotes(s, r), "\n"))
}

// readSpeed reads a move's options, in the order their mistakes are told.
func readSpeed(c *kit.Call, kind rules.Kind, ex string) rules.SpeedInput {
	o := c.Req.Options
	s := rules.SpeedInput{Kind: kind, Bonus: opt(c, "bonus"), Mount: opt(c, "mount"), Dash: o.Bool("dash"), Difficult: o.Bool("difficult"),
		Moved: opt(c, "moved"), Rounds: opt(c, "rounds"), Base: c.Or("speed", 0)}
	s.Size = pick(c, "size", rules.ParseSize, ex)
	s.Drag = pick(c, "drag", rules.ParseSize, ex+" drag:small")
	if kind != rules.Machine {
		if o.Has("engine") || o.Has("reactor") {
			c.Failf("only machines have a space speed from Engine and Reactor (example: %s)", ex)
		}
		return s
	}
	// Space speed needs both scores; with neither, it is left out.
	engine, hasEngine := c.Stat("engine")
	reactor, hasReactor := c.Stat("reactor")
	switch {
	case hasEngine && !hasReactor:
		c.Need("reactor")
	case hasReactor && !hasEngine:
		c.Need("engine")
	}
	s.Space, s.Engine, s.Reactor = hasEngine && hasReactor, engine, reactor
	return s
}

// speedLine says how far the actor moves this turn and what changed it,
// with cost the campaign's for a step through difficult terrain.
func speedLine(c *kit.Call, s rules.SpeedInput, r rules.SpeedResult, cost int) string {
	line := fmt.Sprintf("%s moves %d %s", who(c), r.Total, r.Unit)
	if s.Kind == rules.Machine {
		line += fmt.Sprintf(" (%d feet)", r.Feet)
	}
	line += " this turn"
	var how []string
	if s.Mount > 0 {
		how = append(how, fmt.Sprintf("the mount's speed %d", s.Mount))
	}
	if r.Dragging {
		how = append(how, "halved dragging a grappled combatant")
	}
	if s.Dash {
		dash := "dash"
		if s.Kind == rules.Machine {
			dash = "thrust"
		}
		how = append(how, fmt.Sprintf("doubled by a %s from %d", dash, r.Max))
	}
	if r.Difficult {
		one := map[string]string{"hexes": "hex", "feet": "foot"}[r.Unit]
		how = append(how, fmt.Sprintf("difficult terrain: each %s costs %d", one, cost))
	}
	if len(how) > 0 {
		line += " (" + strings.Join(how, ", ") + ")"
	}
	if s.Moved > 0 {
		line += fmt.Sprintf("; %d left after %d", r.Remaining, s.Moved)
	}
	return line
}

// speedNotes say the steps and reach in combat, the speed in space, and
// the distance over s.Rounds rounds.
func speedNotes(s rules.SpeedInput, r rules.SpeedResult) []string {
	notes := []string{fmt.Sprintf("Steps of %d in combat · reach %d", r.Interval, r.Reach)}
	if r.SpaceKm != nil {
		notes = append(notes, fmt.Sprintf("In space: %s a round (%s a second), in steps of 1,000 km", km(*r.SpaceKm), km(*r.PerSecondKm)))
	}
	if s.Rounds > 0 {
		n := fmt.Sprintf("In %d rounds (%d seconds): %d %s", s.Rounds, r.Seconds, r.Distance, r.Unit)
		if r.SpaceDistance != nil {
			n += ", " + km(*r.SpaceDistance) + " in space"
		}
		notes = append(notes, n)
	}
	return notes
}
