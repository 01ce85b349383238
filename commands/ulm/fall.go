package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// fallResult is the `result` of /ulm fall: total is the damage.
type fallResult struct {
	kit.Outcome
	Target      string      `json:"target"`
	Tiles       int         `json:"tiles"`
	T           int         `json:"t"`
	Rounds      int         `json:"rounds"`
	SlotsNeeded int         `json:"slots_needed"`
	SlotsUsed   int         `json:"slots_used"`
	Formula     int         `json:"formula"`
	Minimum     int         `json:"minimum"`
	Damage      int         `json:"damage"`
	Card        *cardResult `json:"card"`
	Dies        bool        `json:"dies"`
	State       stateResult `json:"state"`
	// In a running fight: the Action Slots owed to the faller's next
	// Active Phase, and those it has left in this one.
	SlotsOwed int  `json:"slots_owed,omitempty"`
	SlotsLeft *int `json:"slots_left,omitempty"`
	inFight
}

// newFallResult is the `result` of res, the fall of target.
func newFallResult(res rules.FallResult, target string, cfg rules.Config) *fallResult {
	return &fallResult{
		Outcome: kit.Outcome{Total: res.Damage}, Target: target, Tiles: res.Tiles, T: res.T, Rounds: res.Rounds,
		SlotsNeeded: res.SlotsNeeded, SlotsUsed: res.SlotsUsed, Formula: res.Formula, Minimum: res.Minimum,
		Damage: res.Damage, Card: newCardResult(res.Injury.Card), Dies: res.Dies, State: newStateResult(res.Injury.State, cfg),
	}
}

const (
	fallExample      = "/ulm fall tiles:30 hp:50 dice:6,6,6"
	fallFightExample = "/ulm fall tiles:12 target:<combatant> dice:1,2,3"
)

// fallTiles is the tiles: option of /ulm fall; absent is 0, which the
// rules refuse with an example.
func fallTiles(c *kit.Call) int {
	n, _ := c.Req.Options.Int("tiles")
	return int(n)
}

// fallByHand is /ulm fall out of a fight: the faller's state and slots
// are the options (or the sheet's).
func (h *handlers) fallByHand(ctx context.Context, c *kit.Call, cfg rules.Config, tiles int) (kit.Response, error) {
	s := state(c, cfg)
	in := rules.FallInput{Tiles: tiles}
	in.Slots, in.SlotsKnown = c.Stat("slots")
	res, err := kit.Rule(c, fallExample, func() (rules.FallResult, error) { return rules.Fall(s, in, c.Tray, cfg) })
	if err != nil {
		return kit.Response{}, err
	}
	target := who(c, "target", userName(c.Req.User))
	result := newFallResult(res, target, cfg)
	return h.reply(ctx, c, "ulm fall", &result.Outcome, result, fallLine(target, s, res, cfg))
}

// fallLine is the outcome of a fall out of a fight, in words.
func fallLine(target string, s rules.State, res rules.FallResult, cfg rules.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** falls %s: ", kit.EscapeMarkdown(target), kit.Plural(res.Tiles, "Tile"))
	if !res.Damaging {
		fmt.Fprintf(&b, "no damage (falls under %d Tiles deal none)", cfg.FallDamageMinTiles)
	} else {
		fmt.Fprintf(&b, "%d damage (3v:6 + %d = %d, minimum %d%% of %d HP = %d)", res.Damage, res.T, res.Formula, res.T, s.HitPoints, res.Minimum)
	}
	fmt.Fprintf(&b, ", %s consumed", kit.Plural(res.SlotsUsed, "Action Slot"))
	if res.SlotsUsed < res.SlotsNeeded {
		fmt.Fprintf(&b, " (of %d: no Action Debt)", res.SlotsNeeded)
	}
	if res.Rounds > 1 {
		fmt.Fprintf(&b, " over %d Full Rounds", res.Rounds)
	}
	if res.Dies {
		b.WriteString("; becomes Vulnerable from the fall and **dies**")
	} else {
		b.WriteString("; " + statusLine(res.Injury.State, cfg))
	}
	return b.String()
}

// fallInFight is /ulm fall of a combatant: rules.Policy.Fall spends or
// owes the Action Slots and puts the damage on its Injury Panel.
func (h *handlers) fallInFight(ctx context.Context, c *kit.Call, cfg rules.Config, name string, tiles int) (kit.Response, error) {
	fightKeeps(c, name, fallFightExample, "hp", "damage", "holy", "spite", "vulnerable", "slots")
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	var (
		res  rules.FallResult
		owed int
		left *int
	)
	ch, err := h.track(ctx, c, "ulm fall", name, tracker.Harm, func(e *encounter.Encounter, p rules.Policy, who *encounter.Combatant) (account, error) {
		before := who.Resources[rules.ResFallSlots]
		r, line, err := p.Fall(e, who, tiles, c.Tray)
		if err != nil {
			return account{}, err
		}
		res, owed = r, who.Resources[rules.ResFallSlots]-before
		if ph, n := p.SlotsLeft(e, who); e.Begun && ph == rules.Active {
			left = &n
		}
		return account{summary: line}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := newFallResult(res, ch.name, cfg)
	result.SlotsOwed, result.SlotsLeft = owed, left
	return h.fightReply(ctx, c, ch, "ulm fall", &result.Outcome, &result.inFight, result)
}
