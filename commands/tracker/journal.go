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
	enc, undone, err := h.Encounters.UndoEncounter(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	return h.journalReply(req, enc, "↩️ Undone", undone), nil
}

func (h *Tracker) initRedo(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, redone, err := h.Encounters.RedoEncounter(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	return h.journalReply(req, enc, "↪️ Redone", redone), nil
}

// journalReply answers an undo or a redo of ev with the tracker as it
// now stands.
func (h *Tracker) journalReply(req *kit.Request, enc db.Encounter, verb string, ev db.EncounterEvent) kit.Response {
	resp := kit.Response{Result: h.InitResult(enc.State, req.GM)}
	public := ev.Event.Summary
	if ev.Event.Secret {
		public = ev.Event.Public
	}
	if public == "" {
		resp.Content = kit.EscapeInline(fmt.Sprintf("%s (#%d, %s): %s", verb, ev.Seq, ev.Kind, ev.Event.Summary))
		resp.Embeds = []kit.Embed{h.trackerEmbed(enc.State, true)}
		resp.Ephemeral = true
		return resp
	}
	resp.Content = kit.EscapeInline(fmt.Sprintf("%s (#%d, %s): %s", verb, ev.Seq, ev.Kind, public))
	h.ShowTracker(req, enc, &resp, enc.State.Begun)
	return resp
}

func (h *Tracker) initLog(ctx context.Context, req *kit.Request) (kit.Response, error) {
	n := int64(defaultInitLog)
	if v, ok := req.Options.Int("count"); ok {
		if v < 1 || v > maxInitLog {
			return kit.Response{}, kit.Errorf("count must be 1 to %d, not %d (example: /init log count:5)", maxInitLog, v)
		}
		n = v
	}
	entries, err := h.Encounters.EncounterLog(ctx, req.ChannelID, int(n))
	if err != nil {
		return kit.Response{}, initError(err)
	}
	var state *encounter.Encounter
	if enc, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil {
		state = enc.State
	} else if !errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, err
	}
	var b strings.Builder
	b.WriteString("**Encounter log** (oldest first)\n")
	out := make([]InitLogEntry, 0, len(entries))
	for _, e := range entries {
		summary := logSummary(e, req.GM)
		if summary == "" {
			continue // a change to a combatant the players cannot see
		}
		mark := ""
		switch e.Status {
		case db.StatusUndone:
			mark = " *(undone)*"
		case db.StatusDropped:
			mark = " *(undone, replaced)*"
		}
		what := e.Kind
		if e.Ref != 0 {
			what = fmt.Sprintf("%s #%d", e.Kind, e.Ref)
		}
		fmt.Fprintf(&b, "`#%d` <@%s> %s: %s%s\n", e.Seq, e.ActorID, what, kit.EscapeInline(summary), mark)
		out = append(out, InitLogEntry{Seq: e.Seq, Kind: e.Kind, Actor: e.ActorID, Status: e.Status, Ref: e.Ref, Summary: summary})
	}
	res := InitResult{View: encounter.View{Order: []string{}, Combatants: []encounter.CombatantView{}}, Log: out}
	if state != nil {
		res = h.InitResult(state, req.GM)
		res.Log = out
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Result: res}, nil
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
