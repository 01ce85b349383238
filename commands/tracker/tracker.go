// Package tracker answers /init, the initiative tracker: one fight per
// channel, kept by rules/encounter and stored by kit.EncounterStore, each
// command one transaction. The rule system's encounter.Policy decides the
// order, the turn budget, the end of a round and the damage track.
//
// Who may do what: the GM runs the fight (start, add, begin, prev, skip,
// move, remove, reveal, defeat, end, undo, redo, play; the router refuses
// the others). Players join, with their characters or under their names,
// end their own turn (next, delay, the End turn button), and change the
// combatants they control; others' as the channel's play mode says (see
// PlayStandard and MayChange). A hidden combatant does not exist for a
// player: naming it is "no such combatant".
//
// Every /init answer's Result is an InitResult: the encounter.View as the
// asker may see it (the GM's view for a GM), with the system and the
// current combatant's budget. Messages in the channel always show the
// players' view; what only the GM may read (a hidden combatant's numbers)
// goes to the GM alone, in an ephemeral reply.
//
// # Acting on a running fight from a rule system
//
// A rule system whose own commands change the channel's fight (ulm's
// move, fall, injure, epilogue and heal do) keeps a Tracker on its kit.Env
// (&tracker.Tracker{Env: env}) and goes through it, so that its changes
// are journalled, undone, logged and shown exactly as /init's own:
//
//   - [Tracker.Change] applies a change: in one transaction it loads the
//     channel's encounter, finds the policy of its system, runs the
//     system's op on them and stores the state op leaves with the event
//     op returns, which /init log lists and /init undo takes back. Its
//     errors are ready to return to the user.
//   - [CheckVisible], inside op, refuses a player who names a hidden
//     combatant, with /init's own "no such combatant".
//   - [Tracker.InitResult] is the encounter as the asker may see it, for
//     the system's own Result.
//   - [Tracker.ShowTracker] brings the players' tracker message up to date
//     with the system's reply, and [GMSecrets] tells the GM alone what the
//     change did that the players may not read.
//   - [Tracker.SuggestCombatants] autocompletes an option that names a
//     combatant.
//
// A system's handler then reads, in outline:
//
//	enc, ev, _, err := h.fight.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
//		if err := tracker.CheckVisible(req, e.State, name); err != nil {
//			return encounter.Event{}, err
//		}
//		// ... change e.State by the rules, with p ...
//		return encounter.Event{Kind: "fall", Actor: req.User.ID, Round: e.State.Round, Summary: summary}, nil
//	})
//	if err != nil {
//		return kit.Response{}, err
//	}
//	resp := kit.Response{Content: kit.EscapeInline(ev.Text(false)), Result: h.fight.InitResult(enc.State, req.GM)}
//	h.fight.ShowTracker(req, enc, &resp, false)
//	resp.Followups = tracker.GMSecrets(req, ev)
//	return resp, nil
//
// (An event that is all secret has no text for the players: ev.Text(false)
// is "", and the system answers the GM alone with ev.Text(true) instead.)
package tracker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// Tracker answers /init, and lets a rule system act on a running fight
// (see the package comment). It shares the kit.Env of the commands: the
// encounter store and every fighting system's encounter.Policy.
type Tracker struct{ *kit.Env }

// Mount adds /init, its autocompletes and the tracker's buttons to r,
// and the fight's web page.
func Mount(env *kit.Env, r *kit.Router) {
	(&Tracker{env}).registerInit(r)
	if env.Encounters != nil {
		r.AddPage(fightPage{env.Encounters, env.Policies})
	}
}

// InitResult is the console's `result` of every /init command: the
// encounter as the asker may see it (encounter.View: round, turn, order,
// combatants), its system, and what the combatant whose turn it is may
// still do, where the system counts it.
type InitResult struct {
	encounter.View
	System string `json:"system"`
	Budget string `json:"budget,omitempty"`
	// Log is /init log's entries, oldest first.
	Log []InitLogEntry `json:"log,omitempty"`
}

// InitResult is the Result of a command that left the encounter e, as
// the asker may see it: the GM's view when forGM (req.GM), else the
// players' (no hidden combatant). Every /init command answers with it; a
// system that changes the fight puts it in its own Result.
func (h *Tracker) InitResult(e *encounter.Encounter, forGM bool) InitResult {
	res := InitResult{View: h.view(e, forGM), System: e.System}
	_, res.Budget = h.budget(e, forGM)
	return res
}

// view is e as the GM (forGM) or the players see it, the health words
// measured on the damage track of its system's policy.
func (h *Tracker) view(e *encounter.Encounter, forGM bool) encounter.View {
	return ViewOf(h.Policies, e, forGM)
}

// ViewOf is e as the GM (forGM) or the players see it, the health words
// (encounter.HealthWordOf) measured on the damage track of the policy
// ps has for its system.
func ViewOf(ps encounter.Policies, e *encounter.Encounter, forGM bool) encounter.View {
	track := encounter.TrackHP
	if p, err := ps.For(e.System); err == nil {
		track = encounter.HealthTrack(p)
	}
	return e.ViewTracked(forGM, track)
}

// budget is what c, the combatant whose turn it is, may still do, as the
// policy of e's system counts it ("" when it keeps no count). c is nil,
// and budget "", when no one has the turn or the asker may not see whose
// it is.
func (h *Tracker) budget(e *encounter.Encounter, forGM bool) (c *encounter.Combatant, budget string) {
	c = e.Current()
	if c == nil {
		return nil, ""
	}
	p, err := h.Policies.For(e.System)
	if err != nil {
		return c, ""
	}
	if c.Hidden && !forGM {
		// The players' turn, as its own start will count it.
		return e.PlayersBudget(p)
	}
	return c, p.Budget(e.Clone(), c)
}

// Change is how a command changes the fight of req's channel, /init's and
// a rule system's alike. In one transaction (see
// kit.EncounterStore.UpdateEncounter) it loads the encounter, finds the
// policy of its system, and runs op with them: op changes e.State through
// rules/encounter or the system's rules and returns the event that tells
// what it did (Kind, Actor, Round, Summary; Secret and Public when it
// names a combatant the players cannot see), which the journal keeps for
// /init log, undo and redo. When op fails, nothing is stored.
//
// Change returns the encounter as stored after op, the event, and whether
// the turn moved (another combatant's turn, round, or the end: the reply
// then pings the player whose turn began). Its error is ready for the
// user: op's *kit.UserError or *encounter.Error, an error in the dice
// language, and a channel without a fight ("there is no encounter in this
// channel") are the user's mistake; anything else stays an error of ours.
func (h *Tracker) Change(ctx context.Context, req *kit.Request, op func(e *db.Encounter, p encounter.Policy) (encounter.Event, error)) (db.Encounter, encounter.Event, bool, error) {
	var before turnMark
	enc, ev, err := h.Encounters.UpdateEncounter(ctx, req.ChannelID, func(e *db.Encounter) (encounter.Event, error) {
		p, err := h.Policies.For(e.State.System)
		if err != nil {
			// Started under a policy this process was not given: wiring.
			return encounter.Event{}, fmt.Errorf("encounter %d of system %q: no policy: %s", e.ID, e.State.System, err)
		}
		before = markOf(e.State)
		ev, err := op(e, p)
		if err == nil && markOf(e.State) != before {
			// Who moved the turn, and when: a typed /init next from
			// someone else soon after asks first (initNext).
			e.State.Moved = encounter.Moved{By: req.User.ID, At: h.Clock().UnixMilli()}
		}
		return ev, err
	})
	if err != nil {
		return db.Encounter{}, encounter.Event{}, false, initError(err)
	}
	return enc, ev, markOf(enc.State) != before, nil
}

// stateOp is a change to the fight's state under its system's policy.
type stateOp = func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error)

// turn runs op, a change of turn, and answers with the tracker (see
// reply).
func (h *Tracker) turn(ctx context.Context, req *kit.Request, op stateOp) (kit.Response, error) {
	return h.apply(ctx, req, true, op)
}

// edit runs op, a change to a combatant or the end of the fight, and
// answers with the news alone (the tracker message is edited).
func (h *Tracker) edit(ctx context.Context, req *kit.Request, op stateOp) (kit.Response, error) {
	return h.apply(ctx, req, false, op)
}

// apply runs op on the channel's fight with Change and answers it (see
// reply).
func (h *Tracker) apply(ctx context.Context, req *kit.Request, tracker bool, op stateOp) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return op(e.State, p)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, tracker, moved), nil
}

// turnMark is whose turn it is, in which round, and whether the fight is
// over: Change compares it before and after op.
type turnMark struct {
	round, id int
	ended     bool
}

func markOf(e *encounter.Encounter) turnMark {
	m := turnMark{round: e.Round, ended: e.Ended}
	if c := e.Current(); c != nil {
		m.id = c.ID
	}
	return m
}

// initError turns the errors of the store and the model into what the user
// reads: an *encounter.Error or a missing encounter is the user's mistake.
func initError(err error) error {
	if err == nil {
		return nil
	}
	if ue, ok := kit.AsUserError(err); ok {
		return ue // a mistake found inside the store's transaction, without its wrapping
	}
	var ee *encounter.Error
	if errors.As(err, &ee) {
		return &kit.UserError{Msg: ee.Msg, Err: err}
	}
	var se *dice.SyntaxError
	var de *dice.Error
	if errors.As(err, &se) || errors.As(err, &de) {
		return kit.DiceError(err)
	}
	switch {
	case errors.Is(err, db.ErrNotFound):
		return &kit.UserError{Msg: "there is no encounter in this channel: start one with /init start", Err: err}
	case errors.Is(err, db.ErrNothingToUndo):
		return &kit.UserError{Msg: "there is nothing to undo in this fight", Err: err}
	case errors.Is(err, db.ErrUndoLimit):
		return &kit.UserError{Msg: fmt.Sprintf("only the last %d changes can be undone: older states are not kept", db.MaxUndo), Err: err}
	case errors.Is(err, db.ErrNothingToRedo):
		return &kit.UserError{Msg: "there is nothing to redo: only the changes undone last, with nothing changed since, can be redone", Err: err}
	case errors.Is(err, db.ErrActiveEncounter):
		return &kit.UserError{Msg: "another encounter is running in this channel: end it with /init end first", Err: err}
	}
	return err
}

// noSuchCombatant is the model's answer for a combatant no one can see.
func noSuchCombatant(name string) error {
	return &kit.UserError{Msg: fmt.Sprintf("there is no combatant named %s: see /init list", strings.TrimSpace(name))}
}

// CheckVisible checks that the asker of req may name each combatant of
// names in e: a player cannot see a hidden one, and naming it is the
// user's mistake "there is no combatant named ...", as for a name not in
// the fight. An unknown name, and an empty one, pass: the model reports
// the first when it looks the name up. Call it inside Change's op, on
// e.State, before acting on a combatant a player named.
func CheckVisible(req *kit.Request, e *encounter.Encounter, names ...string) error {
	if req.GM {
		return nil
	}
	for _, name := range names {
		if strings.TrimSpace(name) == "" {
			continue
		}
		if c, err := e.Find(name); err == nil && c.Hidden {
			return noSuchCombatant(name)
		}
	}
	return nil
}
