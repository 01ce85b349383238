package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmHealResult is the `result` of /ulm heal: total is the damage healed.
type ulmHealResult struct {
	kit.Outcome
	Target          string   `json:"target"`
	Amount          int      `json:"amount"`
	Healed          int      `json:"healed"`
	Resisted        int      `json:"resisted"`
	VulnerableEnded bool     `json:"vulnerable_ended"`
	MaimReversed    bool     `json:"maim_reversed"`
	State           ulmState `json:"state"`
	ulmInFight
}

const ulmHealExample = "/ulm heal amount:2d6 hp:20 damage:12 dice:3,4"

func (h *handlers) ulmHeal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.Healing{Special: req.Options.Bool("special"), Barrier: req.Options.Bool("barrier")}
	if !req.Options.Has("amount") && !in.Special && !in.Barrier {
		return kit.Response{}, kit.Errorf("/ulm heal needs amount:, special:true or barrier:true (example: %s)", ulmHealExample)
	}
	name := ulmNamed(req, u, "target")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmHealInFight(ctx, req, u, name, in)
	}
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	if in.Amount, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Heal(s, in)
	if err != nil {
		return kit.Response{}, u.fail("ulm heal", err, ulmHealExample)
	}
	target, err := u.who(req, "target", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmHealResult{
		Outcome: kit.Outcome{Total: res.Healed}, Target: target, Amount: in.Amount, Healed: res.Healed, Resisted: res.Resisted,
		VulnerableEnded: res.VulnerableEnded, MaimReversed: res.MaimReversed, State: newUlmState(res.State, u.cfg),
	}
	var b strings.Builder
	var did []string
	if req.Options.Has("amount") {
		did = append(did, fmt.Sprintf("heals %d of %d", res.Healed, in.Amount))
	}
	if in.Barrier {
		did = append(did, "gains a Barrier")
	}
	if in.Special {
		did = append(did, "receives specialized healing")
	}
	fmt.Fprintf(&b, "**%s** %s", kit.EscapeMarkdown(target), strings.Join(did, " and "))
	fmt.Fprintf(&b, ": %s", ulmStatusLine(res.State, u.cfg))
	var notes []string
	if res.Resisted > 0 {
		notes = append(notes, fmt.Sprintf("%d Holy/Spite damage resists normal healing", res.Resisted))
	}
	if res.VulnerableEnded {
		notes = append(notes, "no longer Vulnerable")
	}
	if res.MaimReversed {
		notes = append(notes, "the Maim is reversed")
	}
	if res.MaimTooLate {
		notes = append(notes, "too late to reverse the Maim (10 hours)")
	}
	if res.State.Shock > 0 {
		notes = append(notes, "healing does not end Shock")
	}
	if len(notes) > 0 {
		b.WriteString("; " + strings.Join(notes, "; "))
	}
	return h.ulmReply(ctx, req, u, "ulm heal", &result.Outcome, result, b.String())
}

// ulmHealInFight is /ulm heal of a combatant: rules.Policy.HealWith, with
// specialized healing and Barriers that /init heal does not give.
func (h *handlers) ulmHealInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string, in rules.Healing) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, "/ulm heal amount:2d6 target:<combatant> dice:3,4", "hp", "damage", "holy", "spite", "vulnerable", "maimed"); err != nil {
		return kit.Response{}, err
	}
	var err error
	if in.Amount, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	var (
		res    rules.HealResult
		target string
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm heal", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		var line string
		if res, line, err = p.HealWith(e, c, in); err != nil {
			return ulmAccount{}, err
		}
		target = c.Name
		return ulmAccount{summary: line, secret: c.Hidden}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmHealResult{
		Outcome: kit.Outcome{Total: res.Healed}, Target: target, Amount: in.Amount, Healed: res.Healed, Resisted: res.Resisted,
		VulnerableEnded: res.VulnerableEnded, MaimReversed: res.MaimReversed, State: newUlmState(res.State, u.cfg),
	}
	return h.ulmFightReply(ctx, req, u, "ulm heal", &result.Outcome, &result.ulmInFight, result, enc, ev)
}
