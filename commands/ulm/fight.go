package ulm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// /ulm move, fall, injure, epilogue and heal in a running fight. When the
// channel has a ulm encounter (/init start under the ulm rules) and the
// command names one of its combatants (actor:, target: or character:),
// the command acts on the fight through the ulm policy (rules.Policy.Move,
// Fall, Injure, Epilogue, HealWith): the slots are spent, the damage lands
// on its Injury Panel, Vulnerable, the Epilogue and the healing are kept.
// It is one transaction, as every /init change is (handlers.change): the
// journal keeps it for /init undo, redo and log, and the tracker message
// is edited. With no fight, or a name that is not a combatant the asker can
// see, the command works out the rules from its options as it always did.
//
// Who may do what follows /init: the actor of a move and the activator of
// an Epilogue act, so a player names only its own combatants (the GM any);
// a fall, an injury, healing and an Epilogue's Victim are what happens to
// a combatant, which anyone who can see it may apply, as with /init damage
// and /init heal. A hidden combatant does not exist for a player.
//
// /ulm rest does not act on a fight: the fight's rounds are its clock, and
// the policy passes each Full Round for everyone as the round ends.

// ulmFight returns the channel's running ulm fight, or nil when there is
// none (no encounter, one of another system, or no encounter store). It
// does not look when the command names no one.
func (h *handlers) ulmFight(ctx context.Context, req *kit.Request, names ...string) (*encounter.Encounter, error) {
	if h.Encounters == nil || !slices.ContainsFunc(names, func(n string) bool { return strings.TrimSpace(n) != "" }) {
		return nil, nil
	}
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load the encounter of channel %s: %w", req.ChannelID, err)
	}
	if enc.State.Ended || !strings.EqualFold(enc.State.System, rules.SystemName) {
		return nil, nil
	}
	return enc.State, nil
}

// ulmCombatant returns the combatant of e named name, as the asker may see
// it: nil without a fight or a name, for a name not in the fight, and for
// a hidden combatant named by a player.
func ulmCombatant(req *kit.Request, e *encounter.Encounter, name string) *encounter.Combatant {
	if e == nil || strings.TrimSpace(name) == "" {
		return nil
	}
	c, err := e.Find(name)
	if err != nil || (c.Hidden && !req.GM) {
		return nil
	}
	return c
}

// ulmFind finds the combatant named in the fight being changed, as the
// asker may see it, as /init does (checkVisible).
func ulmFind(req *kit.Request, e *encounter.Encounter, name string) (*encounter.Combatant, error) {
	if err := tracker.CheckVisible(req, e, name); err != nil {
		return nil, err
	}
	return e.Find(name)
}

// ulmMayActFor refuses a player acting for a combatant not their own: only
// its player and the GM may.
func ulmMayActFor(req *kit.Request, c *encounter.Combatant, example string) error {
	if req.GM || (c.Owner != "" && c.Owner == req.User.ID) {
		return nil
	}
	return kit.Errorf("%s is not yours: only its player or the GM acts for it (example: %s)", c.Name, example)
}

// ulmFightKeeps refuses options that give what the fight keeps itself: a
// combatant's Hit Points and Injury Panel, its slots and phase. example
// is the command without them.
func ulmFightKeeps(req *kit.Request, name, example string, options ...string) error {
	var given []string
	for _, o := range options {
		if req.Options.Has(o) {
			given = append(given, o+":")
		}
	}
	if len(given) == 0 {
		return nil
	}
	return kit.Errorf("%s is a combatant of this channel's fight, which keeps its state, slots and phase: leave out %s (example: %s), or name someone who is not in the fight to work it out by hand",
		strings.TrimSpace(name), strings.Join(given, ", "), example)
}

// ulmAccount is what a subcommand did to the fight, for the journal and
// the reply.
type ulmAccount struct {
	summary string
	// secret: it names a combatant the players cannot see; public is then
	// what they read instead, if anything.
	secret bool
	public string
}

// ulmInFight is the part of a /ulm `result` that a subcommand acting on
// the fight adds: the encounter as the asker may see it, as /init answers
// with.
type ulmInFight struct {
	Encounter *tracker.InitResult `json:"encounter,omitempty"`
}

// ulmTrack runs op on the channel's fight with the ulm policy in one
// transaction (handlers.change), on a copy kept only if op succeeds, the
// `dice:` values fit and the encounter stays whole. The journal records
// the change under kind.
func (h *handlers) ulmTrack(ctx context.Context, req *kit.Request, u *ulmRun, kind string, op func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error)) (db.Encounter, encounter.Event, error) {
	enc, ev, _, err := h.fight.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		up, ok := p.(rules.Policy)
		if !ok {
			return encounter.Event{}, kit.Errorf("the fight in this channel runs on the %s rules, not ulm's: see /init list", e.State.System)
		}
		x := e.State.Clone()
		acc, err := op(x, up)
		if u.dice.failed != nil {
			return encounter.Event{}, fmt.Errorf("%s: %w", kind, u.dice.failed)
		}
		if err != nil {
			return encounter.Event{}, err
		}
		if err := u.diceUsed(req); err != nil {
			return encounter.Event{}, err
		}
		if err := u.t.Done(); err != nil {
			return encounter.Event{}, err
		}
		if err := x.Validate(); err != nil {
			return encounter.Event{}, fmt.Errorf("%s: encounter broken after the ulm policy ran: %w", kind, err)
		}
		e.State = x
		return encounter.Event{Kind: encounter.Kind(kind), Actor: req.User.ID, Round: x.Round,
			Summary: acc.summary, Secret: acc.secret, Public: acc.public}, nil
	})
	return enc, ev, err
}

// ulmFightReply answers a change to the fight: the change as the players
// may read it (for the GM alone when it is all secret), the dice and the
// roll's ID; the roll is logged, privately when secret; the `result`
// gets the encounter; the tracker message, if there is one, is edited.
func (h *handlers) ulmFightReply(ctx context.Context, req *kit.Request, u *ulmRun, expr string, out *kit.Outcome, fight *ulmInFight, result any, enc db.Encounter, ev encounter.Event) (kit.Response, error) {
	public := ev.Text(false)
	private := req.Options.Bool("private")
	out.Rolls = u.t.Rolls()
	// The roll is logged without the encounter: the GM's view of it names
	// the hidden.
	id, err := h.LogRoll(ctx, req, expr, out.Total, private || ev.Secret, result)
	if err != nil {
		return kit.Response{}, err
	}
	out.ID = id
	text := public
	if public == "" {
		text = ev.Text(true)
	}
	content := kit.EscapeInline(text)
	if b := u.t.Breakdown(); b != "" {
		content += "\n" + b
	}
	content += "\n-# roll " + out.ID
	view := h.fight.InitResult(enc.State, req.GM)
	fight.Encounter = &view
	resp := kit.Response{Content: content, Ephemeral: private || public == "", Result: result}
	if public != "" {
		h.fight.ShowTracker(req, enc, &resp, false)
		if !private {
			resp.Followups = tracker.GMSecrets(req, ev)
		}
	}
	return resp, nil
}
