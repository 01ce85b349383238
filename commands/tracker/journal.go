package tracker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The journal of a fight: /init undo and redo (the GM), and /init log.
// The store keeps every change with the state before it (see db.MaxUndo).

// InitLogEntry is one entry of /init log. Seq is the entry's place in
// the fight's journal for the GM; for a player, who sees only the entries
// they may read, its place among those, so that no gap betrays a hidden
// change. Number is what the log shows (see numbering).
type InitLogEntry struct {
	Seq     int64  `json:"seq"`
	Kind    string `json:"kind"`
	Actor   string `json:"actor"`
	Status  string `json:"status"`
	Ref     int64  `json:"ref,omitempty"`
	Summary string `json:"summary"`
	Number  string `json:"number"`
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
	all, err := h.Encounters.EncounterLog(ctx, req.ChannelID, -1)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	head := fmt.Sprintf("%s (#%s, %s): ", verb, numbering(all)[ev.Seq], ev.Kind)
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
	call := kit.Read(req)
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
	// The whole journal: the numbers count the entries the players can
	// read from the first.
	entries, err := h.Encounters.EncounterLog(ctx, req.ChannelID, -1)
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
	text, res.Log = logEntries(entries, req.GM, int(n))
	// 25 long entries do not fit one message: as many as it takes.
	resp := kit.Paged(text)
	resp.Result = res
	return resp, nil
}

// logEntries are the last n entries of /init log the asker may read, of
// the fight's whole journal entries, as the message shows them and as
// its result lists them.
func logEntries(entries []db.EncounterEvent, forGM bool, n int) (string, []InitLogEntry) {
	numbers := numbering(entries)
	var readable []db.EncounterEvent
	for _, e := range entries {
		if logSummary(e, forGM) != "" { // else a change to a combatant the players cannot see
			readable = append(readable, e)
		}
	}
	readable = readable[max(len(readable)-n, 0):]
	var b strings.Builder
	b.WriteString("**Encounter log** (oldest first)\n")
	out := make([]InitLogEntry, 0, len(readable))
	for _, e := range readable {
		summary := logSummary(e, forGM)
		what := e.Kind
		if ref, ok := numbers[e.Ref]; e.Ref != 0 && ok {
			what = fmt.Sprintf("%s #%s", e.Kind, ref)
		}
		fmt.Fprintf(&b, "`#%s` <@%s> %s: %s%s\n", numbers[e.Seq], e.ActorID, what, kit.EscapeInline(summary), logMark(e.Status))
		entry := InitLogEntry{Seq: e.Seq, Kind: e.Kind, Actor: e.ActorID, Status: e.Status, Ref: e.Ref, Summary: summary, Number: numbers[e.Seq]}
		if !forGM {
			entry.Seq, _ = strconv.ParseInt(entry.Number, 10, 64)
			entry.Ref, _ = strconv.ParseInt(numbers[e.Ref], 10, 64)
		}
		out = append(out, entry)
	}
	return b.String(), out
}

// numbering is the number each entry of a fight's whole journal (entries,
// oldest first) is shown with, by its seq: the entries the players can
// read count 1, 2, 3, …; one only the GM can read is numbered after the
// last they can, "7+1", "7+2". A player's numbers never skip, and the
// GM's agree with theirs (an undo the channel reads as "#7" is the GM's
// #7 too).
func numbering(entries []db.EncounterEvent) map[int64]string {
	out := make(map[int64]string, len(entries))
	public, secret := 0, 0
	for _, e := range entries {
		if logSummary(e, false) != "" {
			public, secret = public+1, 0
			out[e.Seq] = strconv.Itoa(public)
			continue
		}
		secret++
		out[e.Seq] = fmt.Sprintf("%d+%d", public, secret)
	}
	return out
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
