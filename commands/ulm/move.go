package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmMoveResult is the `result` of /ulm move: total is the Accuracy Check
// of a Jump or Leap (with success and margin), else the Tiles moved.
type ulmMoveResult struct {
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
	// In a running fight: the combatant who moved and the slots it has
	// left in its phase.
	Actor     string `json:"actor,omitempty"`
	SlotsLeft *int   `json:"slots_left,omitempty"`
	ulmInFight
}

const ulmMoveExample = "/ulm move action:jump accuracy:3 dice:12"

func (h *handlers) ulmMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	name := ulmNamed(req, u, "actor")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmMoveInFight(ctx, req, u, name)
	}
	in := rules.MoveInput{
		Move: rules.Move(req.Options.String("action")), Phase: ulmPhase(req),
		HasMomentum: u.flag(req, "momentum", false), LastSlot: req.Options.Bool("last_slot"),
		Surface: rules.Surface(req.Options.String("surface")), LimbsBusy: req.Options.Bool("limbs_busy"), Gear: req.Options.Bool("gear"),
	}
	if n, ok := req.Options.Int("slots"); ok {
		in.Slots = int(n)
	}
	if in.Move == rules.Jump || in.Move == rules.Leap {
		if in.Accuracy, err = u.sheet.Need(req, "accuracy"); err != nil {
			return kit.Response{}, err
		}
	}
	res, err := rules.Act(in, u.dice)
	if err != nil {
		return kit.Response{}, u.fail("ulm move", err, ulmMoveExample)
	}
	who, err := u.who(req, "actor", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmMoveResult{
		Outcome: kit.Outcome{Total: res.Tiles}, Action: string(res.Move), Phase: string(res.Phase), Celerity: res.Celerity,
		Slot: res.Phase.Slot(), Tiles: res.Tiles, Momentum: res.Momentum, MomentumNext: res.MomentumNext, Notes: append([]string{}, res.Notes...),
	}
	slots := ulmPlural(res.Celerity, res.Phase.Slot())
	tiles := ulmPlural(res.Tiles, "Tile")
	var line string
	if c := res.Check; c != nil {
		result.Total, result.Target = c.Total, c.Target
		result.Succeeded(c.Success, c.Margin)
		line = fmt.Sprintf("**%s** %s: %s, %s for %s", kit.EscapeMarkdown(who), res.Name, ulmCheckText(c.Total, c.Target, c.Success, c.Margin), tiles, slots)
	} else {
		line = fmt.Sprintf("**%s** %s: %s for %s", kit.EscapeMarkdown(who), res.Name, tiles, slots)
	}
	var notes []string
	notes = append(notes, res.Notes...)
	if res.Momentum && !in.HasMomentum {
		notes = append(notes, "gains Momentum")
	}
	if res.MomentumNext {
		notes = append(notes, "begins the next Active Phase with Momentum")
	}
	if len(notes) > 0 {
		line += "; " + strings.Join(notes, "; ")
	}
	return h.ulmReply(ctx, req, u, "ulm move "+string(res.Move), &result.Outcome, result, line)
}

const ulmMoveFightExample = "/ulm move action:rush actor:<your combatant>"

// ulmMoveInFight is /ulm move by a combatant: rules.Policy.Move spends the
// Celerity from the slots of the phase it is in.
func (h *handlers) ulmMoveInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, ulmMoveFightExample, "phase", "momentum", "last_slot"); err != nil {
		return kit.Response{}, err
	}
	in := rules.MoveInput{
		Move:    rules.Move(req.Options.String("action")),
		Surface: rules.Surface(req.Options.String("surface")), LimbsBusy: req.Options.Bool("limbs_busy"), Gear: req.Options.Bool("gear"),
	}
	if n, ok := req.Options.Int("slots"); ok {
		in.Slots = int(n)
	}
	if n, ok := req.Options.Int("accuracy"); ok {
		in.Accuracy, in.AccuracyKnown = int(n), true
	}
	var (
		res   rules.MoveResult
		actor string
		left  int
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm move", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		if err := ulmMayActFor(req, c, ulmMoveFightExample); err != nil {
			return ulmAccount{}, err
		}
		if _, ok := c.Stats[rules.StatAccuracy]; (in.Move == rules.Jump || in.Move == rules.Leap) && !in.AccuracyKnown && !ok {
			return ulmAccount{}, kit.Errorf("%s has no accuracy for the Accuracy Check: give accuracy:<number> (example: /ulm move action:%s actor:%s accuracy:2 dice:12)", c.Name, in.Move, c.Name)
		}
		var line string
		if res, line, err = p.Move(e, c, in, u.dice); err != nil {
			return ulmAccount{}, err
		}
		actor = c.Name
		_, left = p.SlotsLeft(e, c)
		return ulmAccount{summary: line, secret: c.Hidden}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmMoveResult{
		Outcome: kit.Outcome{Total: res.Tiles}, Action: string(res.Move), Phase: string(res.Phase), Celerity: res.Celerity,
		Slot: res.Phase.Slot(), Tiles: res.Tiles, Momentum: res.Momentum, MomentumNext: res.MomentumNext, Notes: append([]string{}, res.Notes...),
		Actor: actor, SlotsLeft: &left,
	}
	if c := res.Check; c != nil {
		result.Total, result.Target = c.Total, c.Target
		result.Succeeded(c.Success, c.Margin)
	}
	return h.ulmFightReply(ctx, req, u, "ulm move "+string(res.Move), &result.Outcome, &result.ulmInFight, result, enc, ev)
}
