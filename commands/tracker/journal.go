package tracker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The journal of a fight: /init undo and redo (the GM), and /init log.
// The store keeps every change with the state before it (see db.MaxUndo).

// InitLogEntry is one entry of /init log.
type InitLogEntry struct {
	Seq     int64  `json:"seq"`
	Kind    string `json:"kind"`
	Actor   string `json:"actor"`
	Status  string `json:"status"`
	Ref     int64  `json:"ref,omitempty"`
	Summary string `json:"summary"`
}

func (h *Tracker) initUndo(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.journalStep(ctx, req, h.Encounters.UndoEncounter, "↩️ Undone")
}

func (h *Tracker) initRedo(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.journalStep(ctx, req, h.Encounters.RedoEncounter, "↪️ Redone")
}

// journalStep takes the channel's fight a step back or forth through its
// journal (the store's UndoEncounter or RedoEncounter), and answers with
// the change, as verb, and the tracker as it now stands.
func (h *Tracker) journalStep(ctx context.Context, req *kit.Request, step func(ctx context.Context, channelID, actorID string) (db.Encounter, db.EncounterEvent, error), verb string) (kit.Response, error) {
	enc, ev, err := step(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	head := fmt.Sprintf("%s (#%d, %s): ", verb, ev.Seq, ev.Kind)
	public := ev.Event.Summary
	if ev.Event.Secret {
		public = ev.Event.Public
	}
	if public != "" {
		public = head + public
	}
	return h.answer(req, enc, public, head+ev.Event.Summary, true, enc.State.Begun), nil
}

// initLog lists the last changes to the fight, who made them and which
// were undone, as the asker may read them.
func (h *Tracker) initLog(ctx context.Context, req *kit.Request) (kit.Response, error) {
	call := reading(req)
	n := int64(defaultInitLog)
	if v, ok := req.Options.Int("count"); ok {
		if v < 1 || v > maxInitLog {
			call.Failf("count must be 1 to %d, not %d (example: /init log count:5)", maxInitLog, v)
		}
		n = v
	}
	if err := call.Err(); err != nil {
		return kit.Response{}, err
	}
	entries, err := h.Encounters.EncounterLog(ctx, req.ChannelID, int(n))
	if err != nil {
		return kit.Response{}, initError(err)
	}
	res := InitResult{View: encounter.View{Order: []string{}, Combatants: []encounter.CombatantView{}}}
	if enc, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil {
		res = h.InitResult(enc.State, req.GM)
	} else if !errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, err
	}
	var text string
	text, res.Log = logEntries(entries, req.GM)
	return kit.Response{Content: text, Ephemeral: true, Result: res}, nil
}

// logEntries are the entries of /init log the asker may read, as the
// message shows them and as its result lists them.
func logEntries(entries []db.EncounterEvent, forGM bool) (string, []InitLogEntry) {
	var b strings.Builder
	b.WriteString("**Encounter log** (oldest first)\n")
	out := make([]InitLogEntry, 0, len(entries))
	for _, e := range entries {
		summary := logSummary(e, forGM)
		if summary == "" {
			continue // a change to a combatant the players cannot see
		}
		what := e.Kind
		if e.Ref != 0 {
			what = fmt.Sprintf("%s #%d", e.Kind, e.Ref)
		}
		fmt.Fprintf(&b, "`#%d` <@%s> %s: %s%s\n", e.Seq, e.ActorID, what, kit.EscapeInline(summary), logMark(e.Status))
		out = append(out, InitLogEntry{Seq: e.Seq, Kind: e.Kind, Actor: e.ActorID, Status: e.Status, Ref: e.Ref, Summary: summary})
	}
	return b.String(), out
}

// logMark marks an entry that was undone.
func logMark(status string) string {
	switch status {
	case db.StatusUndone:
		return " *(undone)*"
	case db.StatusDropped:
		return " *(undone, replaced)*"
	}
	return ""
}

// logSummary is an entry's headline as the asker may read it: "" for
// a player when all of it is secret.
func logSummary(e db.EncounterEvent, forGM bool) string {
	if e.Status == db.StatusStart {
		return "the encounter starts"
	}
	s := e.Event.Summary
	if e.Event.Secret && !forGM {
		s = e.Event.Public
	}
	return s
}
