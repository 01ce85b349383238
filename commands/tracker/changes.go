package tracker

import (
	"context"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The changes to a combatant: /init damage, heal, effect, clear and count
// (its controller and the GM; others as the play mode says, see
// PlayStandard), defeat, reveal and remove (the GM). Their answers carry
// the news alone; the tracker message, if there is one, is edited.

func (h *Tracker) initDamage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	amount, _ := req.Options.Int("amount")
	kind := req.Options.String("type")
	return h.onTarget(ctx, req, Harm, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Damage(p, req.User.ID, target, int(amount), kind)
	})
}

func (h *Tracker) initHeal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	amount, _ := req.Options.Int("amount")
	return h.onTarget(ctx, req, Tend, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Heal(p, req.User.ID, target, int(amount))
	})
}

// initEffect puts a condition on the target, timed on its turns or on
// those of its source (who the asker must be able to see too).
func (h *Tracker) initEffect(ctx context.Context, req *kit.Request) (kit.Response, error) {
	call := kit.Read(req)
	name, err := kit.CleanName("condition name", req.Options.String("effect"))
	call.Fail(err)
	rounds, _ := req.Options.Int("rounds")
	if rounds < 0 || rounds > encounter.MaxRounds {
		call.Failf("rounds must be 0 (until removed) to %d, not %d", encounter.MaxRounds, rounds)
	}
	if err := call.Err(); err != nil {
		return kit.Response{}, err
	}
	cd := encounter.Condition{Name: name, Rounds: int(rounds),
		Relative: encounter.Anchor(req.Options.String("relative")), Ends: encounter.Edge(req.Options.String("ends"))}
	source := req.Options.String("source")
	return h.onTarget(ctx, req, Harm, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		// The source is looked at after the target, as AddCondition
		// does: a hidden one reads as no one only where a missing one
		// would be the mistake.
		if _, err := e.Find(target); err == nil {
			if err := CheckVisible(req, e, source); err != nil {
				return encounter.Event{}, err
			}
		}
		return e.AddCondition(req.User.ID, target, cd, source)
	})
}

func (h *Tracker) initClear(ctx context.Context, req *kit.Request) (kit.Response, error) {
	effect := req.Options.String("effect")
	return h.onTarget(ctx, req, Tend, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.RemoveCondition(req.User.ID, target, effect)
	})
}

// initCount counts a use this round (1 unless by: says), which the
// policy resets by itself.
func (h *Tracker) initCount(ctx context.Context, req *kit.Request) (kit.Response, error) {
	by, ok := req.Options.Int("by")
	if !ok {
		by = 1
	}
	counter := req.Options.String("counter")
	return h.onTarget(ctx, req, Tend, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Count(req.User.ID, target, counter, int(by))
	})
}

// onTarget runs op on the combatant of the `target` option, which the
// asker must be able to see, and may touch so under the channel's play
// mode (MayChange).
func (h *Tracker) onTarget(ctx context.Context, req *kit.Request, touch Touch, op func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error)) (kit.Response, error) {
	target := req.Options.String("target")
	// The play mode comes with the fight, in the statement that loads it.
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := CheckVisible(req, e.State, target); err != nil {
			return encounter.Event{}, err
		}
		if err := MayChange(req, PlayModeOf(e), e.State, target, touch); err != nil {
			return encounter.Event{}, err
		}
		return op(e.State, p, target)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}

// initDefeat marks a combatant defeated, or with back: back in the fight.
func (h *Tracker) initDefeat(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, defeated := req.Options.String("name"), !req.Options.Bool("back")
	return h.edit(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.SetDefeated(req.User.ID, name, defeated)
	})
}

func (h *Tracker) initReveal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name := req.Options.String("name")
	return h.edit(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.Reveal(req.User.ID, name)
	})
}

// initRemove takes a combatant out of the fight. When it had the turn,
// the turn moves on and the answer carries the tracker, as a change of
// turn does.
func (h *Tracker) initRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name := req.Options.String("name")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Remove(p, req.User.ID, name)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, moved, moved), nil
}

// healthChoices are /init health's show: choices.
var healthChoices = []kit.Choice{
	{Name: "exact: the numbers", Value: string(encounter.HealthExact)},
	{Name: "word: unhurt, hurt, bloodied (half or less), down", Value: string(encounter.HealthWord)},
	{Name: "none: nothing (defeated still shows)", Value: string(encounter.HealthNone)},
	{Name: "default: as the fight says (one combatant), numbers (the fight)", Value: "default"},
}

// initHealth sets what the players see of the health of the GM's
// combatants, or of the one named (encounter.Health): in the tracker,
// the replies to damage and healing, /init log and the players' page.
func (h *Tracker) initHealth(ctx context.Context, req *kit.Request) (kit.Response, error) {
	show, name := encounter.Health(req.Options.String("show")), req.Options.String("name")
	if show == "default" {
		show = encounter.HealthDefault
	}
	return h.edit(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := CheckVisible(req, e, name); err != nil {
			return encounter.Event{}, err
		}
		return e.SetHealth(req.User.ID, name, show)
	})
}
