package tracker

import (
	"context"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

func (h *Tracker) initRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Remove(p, req.User.ID, req.Options.String("name"))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, moved, moved), nil
}

func (h *Tracker) initDamage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	amount, _ := req.Options.Int("amount")
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Damage(p, req.User.ID, target, int(amount), req.Options.String("type"))
	})
}

func (h *Tracker) initHeal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	amount, _ := req.Options.Int("amount")
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Heal(p, req.User.ID, target, int(amount))
	})
}

func (h *Tracker) initEffect(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, err := kit.CleanName("condition name", req.Options.String("effect"))
	if err != nil {
		return kit.Response{}, err
	}
	rounds, _ := req.Options.Int("rounds")
	if rounds < 0 || rounds > encounter.MaxRounds {
		return kit.Response{}, kit.Errorf("rounds must be 0 (until removed) to %d, not %d", encounter.MaxRounds, rounds)
	}
	cd := encounter.Condition{Name: name, Rounds: int(rounds),
		Relative: encounter.Anchor(req.Options.String("relative")), Ends: encounter.Edge(req.Options.String("ends"))}
	source := req.Options.String("source")
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		if err := CheckVisible(req, e, source); err != nil {
			return encounter.Event{}, err
		}
		return e.AddCondition(req.User.ID, target, cd, source)
	})
}

func (h *Tracker) initClear(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.RemoveCondition(req.User.ID, target, req.Options.String("effect"))
	})
}

func (h *Tracker) initCount(ctx context.Context, req *kit.Request) (kit.Response, error) {
	by, ok := req.Options.Int("by")
	if !ok {
		by = 1
	}
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Count(req.User.ID, target, req.Options.String("counter"), int(by))
	})
}

func (h *Tracker) initDefeat(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.SetDefeated(req.User.ID, req.Options.String("name"), !req.Options.Bool("back"))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}

func (h *Tracker) initReveal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Reveal(req.User.ID, req.Options.String("name"))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}

// onTarget runs op on the combatant of the `target` option, which the
// asker must be able to see.
func (h *Tracker) onTarget(ctx context.Context, req *kit.Request, op func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error)) (kit.Response, error) {
	target := req.Options.String("target")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := CheckVisible(req, e.State, target); err != nil {
			return encounter.Event{}, err
		}
		return op(e.State, p, target)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}
