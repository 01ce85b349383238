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
// It is one transaction, as every /init change is (tracker.Change): the
// journal keeps it for /init undo, redo and log, and the tracker message
// is edited. With no fight, or a name that is not a combatant the asker can
// see, the command works out the rules from its options as it always did.
//
// Who may do what follows /init: the actor of a move and the activator of
// an Epilogue act, so a player names only its own combatants (the GM any);
// a fall, an injury and an Epilogue's Victim are what happens to a
// combatant, which a player who can see it may apply as with /init damage,
// and healing is tended as with /init heal, as the channel's play mode
// says (tracker.MayChange). A hidden combatant does not exist for a player.
//
// /ulm rest does not act on a fight: the fight's rounds are its clock, and
// the policy passes each Full Round for everyone as the round ends.

// runningFight returns the channel's running ulm fight, or nil when there is
// none (no encounter, one of another system, or no encounter store). It
// does not look when the command names no one.
func (h *handlers) runningFight(ctx context.Context, req *kit.Request, names ...string) (*encounter.Encounter, error) {
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

// either is the handler of a subcommand that acts on the channel's fight
// when option (or the character) names one of its combatants, the
// asker may see: inFight answers it then, with that name; byHand
// otherwise, working the rules out from the options. Both are given what
// read reads of the options alike; read runs first, and a mistake in it
// is the answer before the fight is looked at. With own, a command that
// names no one reads the asker's one ulm character (ownSheet).
func either[T any](h *handlers, option string, own bool, read func(*kit.Call) T,
	inFight func(ctx context.Context, c *kit.Call, cfg rules.Config, name string, in T) (kit.Response, error),
	byHand func(ctx context.Context, c *kit.Call, cfg rules.Config, in T) (kit.Response, error)) kit.Handler {
	return func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		c, cfg, err := pipeline.Open(ctx, h.Env, req)
		if err != nil {
			return kit.Response{}, err
		}
		if own {
			if err := h.ownSheet(ctx, c, option); err != nil {
				return kit.Response{}, err
			}
		}
		in := read(c)
		if err := c.Err(); err != nil {
			return kit.Response{}, err
		}
		name := named(c, option)
		fight, err := h.runningFight(ctx, req, name)
		if err != nil {
			return kit.Response{}, err
		}
		if who := combatant(req, fight, name); who != nil {
			if vis := c.Visibility(); vis.Secret() && !who.Hidden {
				// The change shows on the fight's tracker, which the
				// whole table reads: its total would not stay secret.
				return kit.Response{}, kit.Errorf("%s is in this channel's fight, whose tracker everyone reads, so this roll's result cannot stay secret with visibility:%s: roll it without visibility: (example: /%s %s:%s)",
					strings.TrimSpace(who.Name), vis, req.Typed(), option, who.Name)
			}
			return inFight(ctx, c, cfg, name, in)
		}
		return byHand(ctx, c, cfg, in)
	}
}

// combatant returns the combatant of e named name, as the asker may see
// it: nil without a fight or a name, for a name not in the fight, and for
// a hidden combatant named by a player.
func combatant(req *kit.Request, e *encounter.Encounter, name string) *encounter.Combatant {
	if e == nil || strings.TrimSpace(name) == "" {
		return nil
	}
	c, err := e.Find(name)
	if err != nil || (c.Hidden && !req.GM) {
		return nil
	}
	return c
}

// find finds the combatant named in the fight being changed, as the
// asker may see it, as /init does (tracker.CheckVisible).
func find(req *kit.Request, e *encounter.Encounter, name string) (*encounter.Combatant, error) {
	if err := tracker.CheckVisible(req, e, name); err != nil {
		return nil, err
	}
	return e.Find(name)
}

// mayActFor refuses a player acting for a combatant not their own: only
// its player and the GM may.
func mayActFor(req *kit.Request, c *encounter.Combatant, example string) error {
	if req.GM || tracker.Controls(req, c) {
		return nil
	}
	return kit.Errorf("%s is not yours: only its player or the GM acts for it (example: %s)", c.Name, example)
}

// fightKeeps refuses options that give what the fight keeps itself: a
// combatant's Hit Points and Injury Panel, its slots and phase. example
// is the command without them. The refusal is the call's mistake.
func fightKeeps(c *kit.Call, name, example string, options ...string) {
	var given []string
	for _, o := range options {
		if c.Req.Options.Has(o) {
			given = append(given, o+":")
		}
	}
	if len(given) > 0 {
		c.Failf("%s is a combatant of this channel's fight, which keeps its state, slots and phase: leave out %s (example: %s), or name someone who is not in the fight to work it out by hand",
			strings.TrimSpace(name), strings.Join(given, ", "), example)
	}
}

// account is what a subcommand did to the fight, for the journal and
// the reply.
type account struct {
	summary string
	// secret: it names a combatant the players cannot see; public is then
	// what they read instead, if anything. A change to a hidden combatant
	// is secret whatever its account says.
	secret bool
	public string
}

// inFight is the part of a /ulm `result` that a subcommand acting on
// the fight adds: the encounter as the asker may see it, as /init answers
// with.
type inFight struct {
	Encounter *tracker.InitResult `json:"encounter,omitempty"`
}

// acting is the part of a /ulm `result` that names the combatant who
// acted in the fight, and the slots it has left in its phase.
type acting struct {
	Actor     string `json:"actor,omitempty"`
	SlotsLeft *int   `json:"slots_left,omitempty"`
}

// change is a change to the fight, as track made it: the encounter after
// it, its event, and the name of the combatant it befell.
type change struct {
	enc  db.Encounter
	ev   encounter.Event
	name string
}

// act is what a subcommand does to its combatant who in the fight e.
type act func(e *encounter.Encounter, p rules.Policy, who *encounter.Combatant) (account, error)

// track runs op on the combatant named name in the channel's fight with
// the ulm policy, in one transaction (tracker.Change), on a copy kept
// only if op succeeds, the `dice:` values fit and the encounter stays
// whole, and the asker may touch the combatant so under the channel's
// play mode (tracker.MayChange). The journal records the change under
// kind.
func (h *handlers) track(ctx context.Context, c *kit.Call, kind, name string, touch tracker.Touch, op act) (change, error) {
	var who string
	// The play mode comes with the fight, in the statement that loads it.
	enc, ev, _, err := h.fight.Change(ctx, c.Req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		up, ok := p.(rules.Policy)
		if !ok {
			return encounter.Event{}, kit.Errorf("the fight in this channel runs on the %s rules, not ulm's: see /init list", e.State.System)
		}
		x := e.State.Clone()
		acc, name, err := run(c, x, up, name, tracker.PlayModeOf(e), touch, op)
		if f := c.Tray.Failed(); f != nil {
			return encounter.Event{}, fmt.Errorf("%s: %w", kind, f)
		}
		if err != nil {
			return encounter.Event{}, err
		}
		if err := diceUsed(c); err != nil {
			return encounter.Event{}, err
		}
		if err := c.Tray.Done(); err != nil {
			return encounter.Event{}, err
		}
		if err := x.Validate(); err != nil {
			return encounter.Event{}, fmt.Errorf("%s: encounter broken after the ulm policy ran: %w", kind, err)
		}
		e.State, who = x, name
		return encounter.Event{Kind: encounter.Kind(kind), Actor: c.Req.User.ID, Round: x.Round,
			Summary: acc.summary, Secret: acc.secret, Public: acc.public}, nil
	})
	return change{enc: enc, ev: ev, name: who}, err
}

// run finds the combatant named name in e, as the asker may see it and
// touch it under mode, and does op to it; it returns what op did and the
// combatant's name.
func run(c *kit.Call, e *encounter.Encounter, p rules.Policy, name, mode string, touch tracker.Touch, op act) (account, string, error) {
	who, err := find(c.Req, e, name)
	if err != nil {
		return account{}, "", err
	}
	if err := tracker.MayChange(c.Req, mode, e, name, touch); err != nil {
		return account{}, "", err
	}
	acc, err := op(e, p, who)
	acc.secret = acc.secret || who.Hidden
	return acc, who.Name, err
}

// fightReply answers a change to the fight: the change as the players
// may read it (for the GM alone when it is all secret), the dice and the
// roll's ID; the roll is logged, privately when secret; the `result`
// gets the encounter; the tracker message, if there is one, is edited.
func (h *handlers) fightReply(ctx context.Context, c *kit.Call, ch change, expr string, out *kit.Outcome, fight *inFight, result any) (kit.Response, error) {
	// The rolls' dice keep /roll's markup: only the rest is escaped.
	public := ch.ev.Format(false, kit.EscapeInline)
	vis := c.Visibility()
	private := vis == kit.Self
	logged := vis
	if ch.ev.Secret && vis == kit.Public {
		logged = kit.Self
	}
	out.Rolls = c.Tray.Rolls()
	// The roll is logged without the encounter: the GM's view of it names
	// the hidden.
	id, err := c.Log(ctx, expr, out.Total, logged, result)
	if err != nil {
		return kit.Response{}, err
	}
	out.ID = id
	text := public
	if public == "" {
		text = ch.ev.Format(true, kit.EscapeInline)
	}
	view := h.fight.InitResult(ch.enc.State, c.Req.GM)
	fight.Encounter = &view
	resp := c.Reply(out.ID, result, text)
	resp.Ephemeral = resp.Ephemeral || public == ""
	if public != "" {
		h.fight.ShowTracker(c.Req, ch.enc, &resp, false)
		if !private {
			resp.Followups = append(resp.Followups, tracker.GMSecrets(c.Req, ch.ev)...)
		}
	}
	return resp, nil
}
