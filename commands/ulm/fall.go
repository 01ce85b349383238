package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmFallResult is the `result` of /ulm fall: total is the damage.
type ulmFallResult struct {
	kit.Outcome
	Target      string   `json:"target"`
	Tiles       int      `json:"tiles"`
	T           int      `json:"t"`
	Rounds      int      `json:"rounds"`
	SlotsNeeded int      `json:"slots_needed"`
	SlotsUsed   int      `json:"slots_used"`
	Formula     int      `json:"formula"`
	Minimum     int      `json:"minimum"`
	Damage      int      `json:"damage"`
	Card        *ulmCard `json:"card"`
	Dies        bool     `json:"dies"`
	State       ulmState `json:"state"`
	// In a running fight: the Action Slots owed to the faller's next
	// Active Phase, and those it has left in this one.
	SlotsOwed int  `json:"slots_owed,omitempty"`
	SlotsLeft *int `json:"slots_left,omitempty"`
	ulmInFight
}

func newUlmFallResult(res rules.FallResult, target string, cfg rules.Config) *ulmFallResult {
	return &ulmFallResult{
		Outcome: kit.Outcome{Total: res.Damage}, Target: target, Tiles: res.Tiles, T: res.T, Rounds: res.Rounds,
		SlotsNeeded: res.SlotsNeeded, SlotsUsed: res.SlotsUsed, Formula: res.Formula, Minimum: res.Minimum,
		Damage: res.Damage, Card: ulmCardResult(res.Injury.Card), Dies: res.Dies, State: newUlmState(res.Injury.State, cfg),
	}
}

const ulmFallExample = "/ulm fall tiles:30 hp:50 dice:6,6,6"

func (h *handlers) ulmFall(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	name := ulmNamed(req, u, "target")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmFallInFight(ctx, req, u, name)
	}
	tiles, _ := req.Options.Int("tiles") // absent is 0, which the rules refuse with an example
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.FallInput{Tiles: int(tiles)}
	in.Slots, in.SlotsKnown = u.sheet.Stat(req, "slots")
	res, err := rules.Fall(s, in, u.dice, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm fall", err, ulmFallExample)
	}
	who, err := u.who(req, "target", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := newUlmFallResult(res, who, u.cfg)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** falls %s: ", kit.EscapeMarkdown(who), ulmPlural(res.Tiles, "Tile"))
	if !res.Damaging {
		fmt.Fprintf(&b, "no damage (falls under %d Tiles deal none)", u.cfg.FallDamageMinTiles)
	} else {
		fmt.Fprintf(&b, "%d damage (3v:6 + %d = %d, minimum %d%% of %d HP = %d)", res.Damage, res.T, res.Formula, res.T, s.HitPoints, res.Minimum)
	}
	fmt.Fprintf(&b, ", %s consumed", ulmPlural(res.SlotsUsed, "Action Slot"))
	if res.SlotsUsed < res.SlotsNeeded {
		fmt.Fprintf(&b, " (of %d: no Action Debt)", res.SlotsNeeded)
	}
	if res.Rounds > 1 {
		fmt.Fprintf(&b, " over %d Full Rounds", res.Rounds)
	}
	if res.Dies {
		b.WriteString("; becomes Vulnerable from the fall and **dies**")
	} else {
		b.WriteString("; " + ulmStatusLine(res.Injury.State, u.cfg))
	}
	return h.ulmReply(ctx, req, u, "ulm fall", &result.Outcome, result, b.String())
}

// ulmFallInFight is /ulm fall of a combatant: rules.Policy.Fall spends or
// owes the Action Slots and puts the damage on its Injury Panel.
func (h *handlers) ulmFallInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, "/ulm fall tiles:12 target:<combatant> dice:1,2,3", "hp", "damage", "holy", "spite", "vulnerable", "slots"); err != nil {
		return kit.Response{}, err
	}
	tiles, _ := req.Options.Int("tiles")
	var (
		res    rules.FallResult
		target string
		owed   int
		left   *int
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm fall", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		before := c.Resources[rules.ResFallSlots]
		var line string
		if res, line, err = p.Fall(e, c, int(tiles), u.dice); err != nil {
			return ulmAccount{}, err
		}
		target, owed = c.Name, c.Resources[rules.ResFallSlots]-before
		if phase, n := p.SlotsLeft(e, c); e.Begun && phase == rules.Active {
			left = &n
		}
		return ulmAccount{summary: line, secret: c.Hidden}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := newUlmFallResult(res, target, u.cfg)
	result.SlotsOwed, result.SlotsLeft = owed, left
	return h.ulmFightReply(ctx, req, u, "ulm fall", &result.Outcome, &result.ulmInFight, result, enc, ev)
}
