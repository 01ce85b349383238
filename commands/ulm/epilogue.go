package ulm

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// epilogueResult is the `result` of /ulm epilogue: total is the slots
// spent.
type epilogueResult struct {
	kit.Outcome
	Kind     string      `json:"kind"`
	Target   string      `json:"target"`
	Celerity int         `json:"celerity"`
	Slot     string      `json:"slot,omitempty"`
	State    stateResult `json:"state"`
	acting               // in a running fight: the activator named with actor:
	inFight
}

const (
	epilogueExample      = "/ulm epilogue kind:maim target:Goblin hp:20 damage:25"
	epilogueFightExample = "/ulm epilogue kind:knockout target:<Victim> actor:<your combatant>"
)

// epilogue answers /ulm epilogue, in the fight when target: (or the
// character) is one of its combatants.
func (h *handlers) epilogue(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, cfg, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	kind := kit.Pick(c, "kind", rules.ParseEpilogue, epilogueExample)
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	victim, actor := named(c, "target"), strings.TrimSpace(c.Req.Options.String("actor"))
	fight, err := h.runningFight(ctx, c.Req, victim, actor)
	if err != nil {
		return kit.Response{}, err
	}
	switch {
	case combatant(c.Req, fight, victim) != nil:
		return h.epilogueInFight(ctx, c, cfg, kind, victim, actor)
	case combatant(c.Req, fight, actor) != nil:
		return kit.Response{}, kit.Errorf("%s is not a combatant of this channel's fight, so its Epilogue cannot be kept there with %s's slot: add it with /init add, or leave out actor: to work the Epilogue out by hand (example: %s)", cmp.Or(victim, "the Victim"), actor, epilogueExample)
	}
	return h.epilogueByHand(ctx, c, cfg, kind, actor)
}

// epilogueByHand is /ulm epilogue out of a fight: the Victim's state and
// the activator's slots are the options.
func (h *handlers) epilogueByHand(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Epilogue, actor string) (kit.Response, error) {
	s := state(c, cfg)
	in := epilogueInput(c, kind)
	in.Phase = phase(c)
	// slots: are the activator's, never the Victim's sheet.
	if n, ok := c.Req.Options.Int("slots"); ok {
		in.Slots, in.SlotsKnown = int(n), true
	}
	res, err := kit.Rule(c, epilogueExample, func() (rules.EpilogueResult, error) { return rules.ActivateEpilogue(s, in, cfg) })
	if err != nil {
		return kit.Response{}, err
	}
	target := who(c, "target", "the Victim")
	by := ""
	if actor != "" {
		by = ", " + kit.EscapeMarkdown(cleanName(c, "actor", actor)) + "'s"
	}
	result := newEpilogueResult(res, kind, target, cfg)
	line := fmt.Sprintf("**%s** suffers %s (%s%s): %s\n-# %s", kit.EscapeMarkdown(target), title(string(kind)),
		kit.Plural(res.Celerity, res.Phase.Slot()), by, statusLine(res.State, cfg), rules.EpilogueText[kind])
	return h.reply(ctx, c, "ulm epilogue "+string(kind), &result.Outcome, result, line)
}

// epilogueInput is what both ways of /ulm epilogue read alike.
func epilogueInput(c *kit.Call, kind rules.Epilogue) rules.EpilogueInput {
	return rules.EpilogueInput{Kind: kind, OutOfReach: c.Req.Options.Has("reach") && !c.Req.Options.Bool("reach")}
}

// newEpilogueResult is the `result` of res, the Epilogue kind on target.
func newEpilogueResult(res rules.EpilogueResult, kind rules.Epilogue, target string, cfg rules.Config) *epilogueResult {
	return &epilogueResult{
		Outcome: kit.Outcome{Total: res.Celerity}, Kind: string(kind), Target: target,
		Celerity: res.Celerity, Slot: res.Phase.Slot(), State: newStateResult(res.State, cfg),
	}
}

// epilogueInFight is /ulm epilogue on a combatant: rules.Policy.Epilogue
// applies it, and the activator named with actor: spends its slot.
func (h *handlers) epilogueInFight(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Epilogue, victimName, actorName string) (kit.Response, error) {
	fightKeeps(c, victimName, epilogueFightExample, "hp", "damage", "holy", "spite", "vulnerable", "phase", "slots")
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	in := epilogueInput(c, kind)
	var (
		res rules.EpilogueResult
		act acting
	)
	ch, err := h.track(ctx, c, "ulm epilogue", victimName, tracker.Harm, func(e *encounter.Encounter, p rules.Policy, v *encounter.Combatant) (account, error) {
		before := e.Clone()
		a, err := activator(c.Req, e, actorName)
		if err != nil {
			return account{}, err
		}
		r, line, err := p.Epilogue(e, a, v, in)
		if err != nil {
			return account{}, err
		}
		res, act = r, activated(e, p, a)
		if a == nil || !a.Hidden || v.Hidden {
			return account{summary: line}, nil
		}
		// The players read what befell the Victim, not who did it: the
		// account of the Epilogue with no activator named, from a copy of
		// the fight before it.
		public, err := epilogueUnnamed(before, p, v.ID, in)
		return account{summary: line, secret: true, public: public}, err
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := newEpilogueResult(res, kind, ch.name, cfg)
	result.acting = act
	return h.fightReply(ctx, c, ch, "ulm epilogue "+string(kind), &result.Outcome, &result.inFight, result)
}

// activator is the combatant named to activate an Epilogue, nil for none:
// a player names only its own.
func activator(req *kit.Request, e *encounter.Encounter, name string) (*encounter.Combatant, error) {
	if name == "" {
		return nil, nil
	}
	a, err := find(req, e, name)
	if err != nil {
		return nil, err
	}
	return a, mayActFor(req, a, epilogueFightExample)
}

// activated names the activator a, if any, in the `result`, with the
// slots it has left in its phase once the fight has begun.
func activated(e *encounter.Encounter, p rules.Policy, a *encounter.Combatant) acting {
	if a == nil {
		return acting{}
	}
	act := acting{Actor: a.Name}
	if _, n := p.SlotsLeft(e, a); e.Begun {
		act.SlotsLeft = &n
	}
	return act
}

// epilogueUnnamed is the account of in on the combatant victimID of e
// with no activator named ("Its activator activates Maim on ..."): what
// the players read of an Epilogue a hidden combatant activated.
func epilogueUnnamed(e *encounter.Encounter, p rules.Policy, victimID int, in rules.EpilogueInput) (string, error) {
	return retell(e, victimID, func(x *encounter.Encounter, c *encounter.Combatant) (string, error) {
		_, line, err := p.Epilogue(x, nil, c, in)
		return line, err
	})
}

// retell runs tell on the combatant victimID of a copy of e, the fight
// before a change, and returns its account: the change told again without
// the hidden combatant who had a part in it, for the players.
func retell(e *encounter.Encounter, victimID int, tell func(x *encounter.Encounter, c *encounter.Combatant) (string, error)) (string, error) {
	x := e.Clone()
	for i := range x.Combatants {
		if c := &x.Combatants[i]; c.ID == victimID {
			return tell(x, c)
		}
	}
	return "", fmt.Errorf("retell: combatant %d is not in the fight", victimID)
}
