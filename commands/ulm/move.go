package ulm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// moveResult is the `result` of /ulm move: total is the Accuracy Check
// of a Jump or Leap (with success and margin), else the Tiles moved.
type moveResult struct {
	kit.Outcome
	Action       string   `json:"action"`
	Phase        string   `json:"phase"`
	Celerity     int      `json:"celerity"`
	Slot         string   `json:"slot"`
	Tiles        int      `json:"tiles"`
	Target       int      `json:"target,omitempty"`
	Momentum     bool     `json:"momentum"`
	MomentumNext bool     `json:"momentum_next_phase"`
	Notes        []string `json:"notes"`
	acting                // in a running fight: the combatant who moved
	inFight
}

const (
	moveExample      = "/ulm move action:jump accuracy:3 dice:12"
	moveFightExample = "/ulm move action:rush actor:<your combatant>"
)

// moveByHand is /ulm move out of a fight: the phase, Momentum and
// Accuracy are the options (or the sheet's).
func (h *handlers) moveByHand(ctx context.Context, c *kit.Call, _ rules.Config, in rules.MoveInput) (kit.Response, error) {
	in.Phase, in.HasMomentum, in.LastSlot = phase(c), c.Flag("momentum"), c.Req.Options.Bool("last_slot")
	if in.Move == rules.Jump || in.Move == rules.Leap {
		in.Accuracy = c.Need("accuracy")
	}
	res, err := kit.Rule(c, moveExample, func() (rules.MoveResult, error) { return rules.Act(in, c.Tray) })
	if err != nil {
		return kit.Response{}, err
	}
	actor := who(c, "actor", userName(c.Req.User))
	result := newMoveResult(res)
	return h.reply(ctx, c, "ulm move "+string(res.Move), &result.Outcome, result, moveLine(actor, in, res))
}

// moveInput is what both ways of /ulm move read alike: the Movement
// Action, the surface climbed, and the slots spent on Momentum.
func moveInput(c *kit.Call) rules.MoveInput {
	o := c.Req.Options
	in := rules.MoveInput{
		Move:    rules.Move(o.String("action")),
		Surface: rules.Surface(o.String("surface")), LimbsBusy: o.Bool("limbs_busy"), Gear: o.Bool("gear"),
	}
	if n, ok := o.Int("slots"); ok {
		in.Slots = int(n)
	}
	return in
}

// newMoveResult is the `result` of res.
func newMoveResult(res rules.MoveResult) *moveResult {
	result := &moveResult{
		Outcome: kit.Outcome{Total: res.Tiles}, Action: string(res.Move), Phase: string(res.Phase), Celerity: res.Celerity,
		Slot: res.Phase.Slot(), Tiles: res.Tiles, Momentum: res.Momentum, MomentumNext: res.MomentumNext, Notes: append([]string{}, res.Notes...),
	}
	if c := res.Check; c != nil {
		result.Total, result.Target = c.Total, c.Target
		result.Succeeded(c.Success, c.Margin)
	}
	return result
}

// moveLine is the outcome of a move out of a fight, in words.
func moveLine(actor string, in rules.MoveInput, res rules.MoveResult) string {
	slots := kit.Plural(res.Celerity, res.Phase.Slot())
	tiles := kit.Plural(res.Tiles, "Tile")
	var line string
	if c := res.Check; c != nil {
		line = fmt.Sprintf("**%s** %s: %s, %s for %s", kit.EscapeMarkdown(actor), res.Name, checkText(c.Total, c.Target, c.Success, c.Margin), tiles, slots)
	} else {
		line = fmt.Sprintf("**%s** %s: %s for %s", kit.EscapeMarkdown(actor), res.Name, tiles, slots)
	}
	n := append(slices.Clone(res.Notes), notes(
		note{res.Momentum && !in.HasMomentum, "gains Momentum"},
		note{res.MomentumNext, "begins the next Active Phase with Momentum"},
	)...)
	if len(n) > 0 {
		line += "; " + strings.Join(n, "; ")
	}
	return line
}

// checkText is the one line a player reads: "16 vs 9: success by 7".
func checkText(total, target int, ok bool, margin int) string {
	if ok {
		return fmt.Sprintf("%d vs %d: success by %d", total, target, margin)
	}
	return fmt.Sprintf("%d vs %d: failure by %d", total, target, -margin)
}

// moveInFight is /ulm move by a combatant: rules.Policy.Move spends the
// Celerity from the slots of the phase it is in.
func (h *handlers) moveInFight(ctx context.Context, c *kit.Call, _ rules.Config, name string, in rules.MoveInput) (kit.Response, error) {
	fightKeeps(c, name, moveFightExample, "phase", "momentum", "last_slot")
	if n, ok := c.Req.Options.Int("accuracy"); ok {
		in.Accuracy, in.AccuracyKnown = int(n), true
	}
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	var (
		res  rules.MoveResult
		left int
	)
	ch, err := h.track(ctx, c, "ulm move", name, tracker.Harm, func(e *encounter.Encounter, p rules.Policy, who *encounter.Combatant) (account, error) {
		if err := mayActFor(c.Req, who, moveFightExample); err != nil {
			return account{}, err
		}
		if _, ok := who.Stats[rules.StatAccuracy]; (in.Move == rules.Jump || in.Move == rules.Leap) && !in.AccuracyKnown && !ok {
			return account{}, kit.Errorf("%s has no accuracy for the Accuracy Check: give accuracy:<number> (example: /ulm move action:%s actor:%s accuracy:2 dice:12)", who.Name, in.Move, who.Name)
		}
		r, line, err := p.Move(e, who, in, c.Tray)
		if err != nil {
			return account{}, err
		}
		res = r
		_, left = p.SlotsLeft(e, who)
		return account{summary: line}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := newMoveResult(res)
	result.Actor, result.SlotsLeft = ch.name, &left
	return h.fightReply(ctx, c, ch, "ulm move "+string(res.Move), &result.Outcome, &result.inFight, result)
}
