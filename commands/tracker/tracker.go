// Package tracker answers /init, the initiative tracker: one fight per channel, kept by
// rules/encounter and stored by EncounterStore, each command one
// transaction. The rule system's encounter.Policy decides the order, the
// turn budget, the end of a round and the damage track.
//
// Who may do what: the GM runs the fight (start, add, begin, prev, skip,
// move, remove, reveal, defeat, end, undo, redo; the router refuses the
// others). Players join with their characters, end their own turn (next,
// delay, the End turn button), and apply damage, healing, conditions and
// counts to the combatants they can see. A hidden combatant does not
// exist for a player: naming it is "no such combatant".
//
// Every /init answer's Result is an InitResult: the encounter.View as the
// asker may see it (the GM's view for a GM), with the system and the
// current combatant's budget. Messages in the channel always show the
// players' view; what only the GM may read (a hidden combatant's numbers)
// goes to the GM alone, in an ephemeral reply.
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

// Tracker answers /init, and lets a rule system act on a running fight.
type Tracker struct{ *kit.Env }

// Mount adds /init to r.
func Mount(env *kit.Env, r *kit.Router) { (&Tracker{env}).registerInit(r) }

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

// initResult is the result of a command that left the encounter e.
func (h *Tracker) InitResult(e *encounter.Encounter, forGM bool) InitResult {
	res := InitResult{View: e.View(forGM), System: e.System}
	if c := e.Current(); c != nil && (forGM || !c.Hidden) {
		if p, err := h.Policies.For(e.System); err == nil {
			res.Budget = p.Budget(e.Clone(), c)
		}
	}
	return res
}

// change runs op on the channel's encounter with its system's policy, in
// one transaction (see EncounterStore.UpdateEncounter), and returns the
// encounter after it, the event, and whether the turn moved (for the
// tracker and its ping).
func (h *Tracker) Change(ctx context.Context, req *kit.Request, op func(e *db.Encounter, p encounter.Policy) (encounter.Event, error)) (db.Encounter, encounter.Event, bool, error) {
	var before turnMark
	enc, ev, err := h.Encounters.UpdateEncounter(ctx, req.ChannelID, func(e *db.Encounter) (encounter.Event, error) {
		p, err := h.Policies.For(e.State.System)
		if err != nil {
			// Started under a policy this process was not given: wiring.
			return encounter.Event{}, fmt.Errorf("encounter %d of system %q: no policy: %s", e.ID, e.State.System, err)
		}
		before = markOf(e.State)
		return op(e, p)
	})
	if err != nil {
		return db.Encounter{}, encounter.Event{}, false, initError(err)
	}
	return enc, ev, markOf(enc.State) != before, nil
}

// turnMark is whose turn it is, in which round.
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

// checkVisible checks that the asker may name the combatant: a player cannot
// see a hidden one. An unknown name is left for the model to report.
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
