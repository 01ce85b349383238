package ulm

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmEpilogueResult is the `result` of /ulm epilogue: total is the slots
// spent.
type ulmEpilogueResult struct {
	kit.Outcome
	Kind     string   `json:"kind"`
	Target   string   `json:"target"`
	Celerity int      `json:"celerity"`
	Slot     string   `json:"slot,omitempty"`
	State    ulmState `json:"state"`
	// In a running fight: the activator named with actor:, and the slots
	// it has left in its phase.
	Actor     string `json:"actor,omitempty"`
	SlotsLeft *int   `json:"slots_left,omitempty"`
	ulmInFight
}

const ulmEpilogueExample = "/ulm epilogue kind:maim target:Goblin hp:20 damage:25"

func (h *handlers) ulmEpilogue(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	kind, err := rules.ParseEpilogue(req.Options.String("kind"))
	if err != nil {
		return kit.Response{}, u.fail("ulm epilogue", err, ulmEpilogueExample)
	}
	victim, actor := ulmNamed(req, u, "target"), strings.TrimSpace(req.Options.String("actor"))
	fight, err := h.ulmFight(ctx, req, victim, actor)
	if err != nil {
		return kit.Response{}, err
	}
	switch {
	case ulmCombatant(req, fight, victim) != nil:
		return h.ulmEpilogueInFight(ctx, req, u, kind, victim, actor)
	case ulmCombatant(req, fight, actor) != nil:
		return kit.Response{}, kit.Errorf("%s is not a combatant of this channel's fight, so its Epilogue cannot be kept there with %s's slot: add it with /init add, or leave out actor: to work the Epilogue out by hand (example: %s)", cmp.Or(victim, "the Victim"), actor, ulmEpilogueExample)
	}
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.EpilogueInput{Kind: kind, Phase: ulmPhase(req), OutOfReach: req.Options.Has("reach") && !req.Options.Bool("reach")}
	// slots: are the activator's, never the Victim's sheet.
	if n, ok := req.Options.Int("slots"); ok {
		in.Slots, in.SlotsKnown = int(n), true
	}
	res, err := rules.ActivateEpilogue(s, in, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm epilogue", err, ulmEpilogueExample)
	}
	target, err := u.who(req, "target", "the Victim")
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmEpilogueResult{
		Outcome: kit.Outcome{Total: res.Celerity}, Kind: string(kind), Target: target,
		Celerity: res.Celerity, Slot: res.Phase.Slot(), State: newUlmState(res.State, u.cfg),
	}
	by := ""
	if actor != "" {
		name, err := kit.CleanName("actor name", actor)
		if err != nil {
			return kit.Response{}, err
		}
		by = ", " + kit.EscapeMarkdown(name) + "'s"
	}
	line := fmt.Sprintf("**%s** suffers %s (%s%s): %s\n-# %s", kit.EscapeMarkdown(target), ulmTitle(string(kind)),
		ulmPlural(res.Celerity, res.Phase.Slot()), by, ulmStatusLine(res.State, u.cfg), rules.EpilogueText[kind])
	return h.ulmReply(ctx, req, u, "ulm epilogue "+string(kind), &result.Outcome, result, line)
}

const ulmEpilogueFightExample = "/ulm epilogue kind:knockout target:<Victim> actor:<your combatant>"

// ulmEpilogueInFight is /ulm epilogue on a combatant: rules.Policy.Epilogue
// applies it, and the activator named with actor: spends its slot.
func (h *handlers) ulmEpilogueInFight(ctx context.Context, req *kit.Request, u *ulmRun, kind rules.Epilogue, victimName, actorName string) (kit.Response, error) {
	if err := ulmFightKeeps(req, victimName, ulmEpilogueFightExample, "hp", "damage", "holy", "spite", "vulnerable", "phase", "slots"); err != nil {
		return kit.Response{}, err
	}
	in := rules.EpilogueInput{Kind: kind, OutOfReach: req.Options.Has("reach") && !req.Options.Bool("reach")}
	var (
		res           rules.EpilogueResult
		victim, actor string
		left          *int
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm epilogue", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		before := e.Clone()
		v, err := ulmFind(req, e, victimName)
		if err != nil {
			return ulmAccount{}, err
		}
		var a *encounter.Combatant
		if actorName != "" {
			if a, err = ulmFind(req, e, actorName); err != nil {
				return ulmAccount{}, err
			}
			if err := ulmMayActFor(req, a, ulmEpilogueFightExample); err != nil {
				return ulmAccount{}, err
			}
		}
		var line string
		if res, line, err = p.Epilogue(e, a, v, in); err != nil {
			return ulmAccount{}, err
		}
		acc := ulmAccount{summary: line, secret: v.Hidden}
		victim = v.Name
		if a != nil {
			actor = a.Name
			if _, n := p.SlotsLeft(e, a); e.Begun {
				left = &n
			}
			if a.Hidden && !v.Hidden {
				// The players read what befell the Victim, not who did it:
				// the account of the Epilogue with no activator named,
				// from a copy of the fight before it.
				acc.secret = true
				if acc.public, err = ulmEpilogueUnnamed(before, p, v.ID, in); err != nil {
					return ulmAccount{}, err
				}
			}
		}
		return acc, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmEpilogueResult{
		Outcome: kit.Outcome{Total: res.Celerity}, Kind: string(kind), Target: victim,
		Celerity: res.Celerity, Slot: res.Phase.Slot(), State: newUlmState(res.State, u.cfg),
		Actor: actor, SlotsLeft: left,
	}
	return h.ulmFightReply(ctx, req, u, "ulm epilogue "+string(kind), &result.Outcome, &result.ulmInFight, result, enc, ev)
}

// ulmEpilogueUnnamed is the account of in on the combatant victimID of e
// with no activator named ("Its activator activates Maim on ..."): what
// the players read of an Epilogue a hidden combatant activated.
func ulmEpilogueUnnamed(e *encounter.Encounter, p rules.Policy, victimID int, in rules.EpilogueInput) (string, error) {
	return ulmRetell(e, victimID, func(x *encounter.Encounter, c *encounter.Combatant) (string, error) {
		_, line, err := p.Epilogue(x, nil, c, in)
		return line, err
	})
}

// ulmRetell runs tell on the combatant victimID of a copy of e, the fight
// before a change, and returns its account: the change told again without
// the hidden combatant who had a part in it, for the players.
func ulmRetell(e *encounter.Encounter, victimID int, tell func(x *encounter.Encounter, c *encounter.Combatant) (string, error)) (string, error) {
	x := e.Clone()
	for i := range x.Combatants {
		if c := &x.Combatants[i]; c.ID == victimID {
			return tell(x, c)
		}
	}
	return "", fmt.Errorf("retell: combatant %d is not in the fight", victimID)
}
