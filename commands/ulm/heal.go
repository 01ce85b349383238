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

// healResult is the `result` of /ulm heal: total is the damage healed.
type healResult struct {
	kit.Outcome
	Target          string      `json:"target"`
	Amount          int         `json:"amount"`
	Healed          int         `json:"healed"`
	Resisted        int         `json:"resisted"`
	VulnerableEnded bool        `json:"vulnerable_ended"`
	MaimReversed    bool        `json:"maim_reversed"`
	State           stateResult `json:"state"`
	inFight
}

const (
	healExample      = "/ulm heal amount:2d6 hp:20 damage:12 dice:3,4"
	healFightExample = "/ulm heal amount:2d6 target:<combatant> dice:3,4"
)

// healing is what both ways of /ulm heal read alike: the healing given,
// of which there must be some.
func healing(c *kit.Call) rules.Healing {
	in := rules.Healing{Special: c.Req.Options.Bool("special"), Barrier: c.Req.Options.Bool("barrier")}
	if !c.Req.Options.Has("amount") && !in.Special && !in.Barrier {
		c.Failf("/ulm heal needs amount:, special:true or barrier:true (example: %s)", healExample)
	}
	return in
}

// healByHand is /ulm heal out of a fight: the Victim's state is the
// options (or the sheet's).
func (h *handlers) healByHand(ctx context.Context, c *kit.Call, cfg rules.Config, in rules.Healing) (kit.Response, error) {
	s := state(c, cfg)
	in.Amount = amount(c, "amount")
	res, err := kit.Rule(c, healExample, func() (rules.HealResult, error) { return rules.Heal(s, in) })
	if err != nil {
		return kit.Response{}, err
	}
	target := who(c, "target", userName(c.Req.User))
	result := newHealResult(res, in, target, cfg)
	return h.reply(ctx, c, "ulm heal", &result.Outcome, result, healLine(target, c.Req.Options.Has("amount"), in, res, cfg))
}

// newHealResult is the `result` of res, the healing in of target.
func newHealResult(res rules.HealResult, in rules.Healing, target string, cfg rules.Config) *healResult {
	return &healResult{
		Outcome: kit.Outcome{Total: res.Healed}, Target: target, Amount: in.Amount, Healed: res.Healed, Resisted: res.Resisted,
		VulnerableEnded: res.VulnerableEnded, MaimReversed: res.MaimReversed, State: newStateResult(res.State, cfg),
	}
}

// healLine is the outcome of healing out of a fight, in words; amounted
// says whether amount: was given.
func healLine(target string, amounted bool, in rules.Healing, res rules.HealResult, cfg rules.Config) string {
	did := notes(
		note{amounted, fmt.Sprintf("heals %d of %d", res.Healed, in.Amount)},
		note{in.Barrier, "gains a Barrier"},
		note{in.Special, "receives specialized healing"},
	)
	line := fmt.Sprintf("**%s** %s: %s", kit.EscapeMarkdown(target), strings.Join(did, " and "), statusLine(res.State, cfg))
	if n := notes(
		note{res.Resisted > 0, fmt.Sprintf("%d Holy/Spite damage resists normal healing", res.Resisted)},
		note{res.VulnerableEnded, "no longer Vulnerable"},
		note{res.MaimReversed, "the Maim is reversed"},
		note{res.MaimTooLate, "too late to reverse the Maim (10 hours)"},
		note{res.State.Shock > 0, "healing does not end Shock"},
	); len(n) > 0 {
		line += "; " + strings.Join(n, "; ")
	}
	return line
}

// healInFight is /ulm heal of a combatant: rules.Policy.HealWith, with
// specialized healing and Barriers that /init heal does not give.
func (h *handlers) healInFight(ctx context.Context, c *kit.Call, cfg rules.Config, name string, in rules.Healing) (kit.Response, error) {
	fightKeeps(c, name, healFightExample, "hp", "damage", "holy", "spite", "vulnerable", "maimed")
	in.Amount = amount(c, "amount")
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	var res rules.HealResult
	ch, err := h.track(ctx, c, "ulm heal", name, tracker.Tend, func(e *encounter.Encounter, p rules.Policy, who *encounter.Combatant) (account, error) {
		r, line, err := p.HealWith(e, who, in)
		res = r
		return account{summary: line}, err
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := newHealResult(res, in, ch.name, cfg)
	return h.fightReply(ctx, c, ch, "ulm heal", &result.Outcome, &result.inFight, result)
}
