package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

var generic = encounter.Generic{}

// stored returns the stored state, seq and journal length of the
// channel's newest encounter, straight from the tables.
func stored(t *testing.T, d *db.DB, channel string) (state string, seq int64, events int) {
	t.Helper()
	var id int64
	err := d.SQL().QueryRow(`SELECT id, state, seq FROM encounters WHERE channel_id = ? ORDER BY id DESC LIMIT 1`, channel).Scan(&id, &state, &seq)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SQL().QueryRow(`SELECT COUNT(*) FROM encounter_events WHERE encounter_id = ?`, id).Scan(&events); err != nil {
		t.Fatal(err)
	}
	return state, seq, events
}

func update(t *testing.T, d *db.DB, channel string, op func(e *encounter.Encounter) (encounter.Event, error)) db.Encounter {
	t.Helper()
	enc, _, err := d.UpdateEncounter(context.Background(), channel, func(e *db.Encounter) (encounter.Event, error) { return op(e.State) })
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func add(name string, hp int) func(e *encounter.Encounter) (encounter.Event, error) {
	return func(e *encounter.Encounter) (encounter.Event, error) {
		return e.Add(generic, nil, "gm", encounter.Combatant{Name: name, NPC: true,
			Stats: map[string]int{"initiative": 10 + hp}, Resources: map[string]int{"hp": hp}})
	}
}

func testEncounterLifecycle(t *testing.T) {
	d, file := open(t, db.WithClock(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)) }))
	ctx := context.Background()
	if _, err := d.Encounter(ctx, "c1"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("no encounter yet: %v, want ErrNotFound", err)
	}
	enc, err := d.StartEncounter(ctx, "g1", "c1", "generic", "gm")
	if err != nil {
		t.Fatal(err)
	}
	if enc.Seq != 1 || !enc.Active || enc.State.System != "generic" || enc.CreatedBy != "gm" || enc.CreatedAt.Location() != time.UTC || enc.CreatedAt.Hour() != 2 {
		t.Errorf("started: %+v", enc)
	}
	if _, err := d.StartEncounter(ctx, "g1", "c1", "generic", "gm"); !errors.Is(err, db.ErrActiveEncounter) {
		t.Errorf("second start: %v, want ErrActiveEncounter", err)
	}
	if _, err := d.StartEncounter(ctx, "g1", "c2", "generic", "gm"); err != nil {
		t.Errorf("a start in another channel: %v", err)
	}
	update(t, d, "c1", add("Ogre", 30))
	update(t, d, "c1", add("Goblin", 7))
	enc = update(t, d, "c1", func(e *encounter.Encounter) (encounter.Event, error) {
		return e.Begin(generic, dice.NewPhysical(nil), "gm")
	})
	if enc.Seq != 4 || deref(enc.State.View(true).Turn) != "Ogre" {
		t.Errorf("after begin: seq %d, turn %s", enc.Seq, deref(enc.State.View(true).Turn))
	}

	// A failing change stores nothing, and its error comes back for
	// errors.As.
	before, seq, n := stored(t, d, "c1")
	_, _, err = d.UpdateEncounter(ctx, "c1", func(e *db.Encounter) (encounter.Event, error) {
		return e.State.Damage(generic, "gm", "Troll", 3, "")
	})
	var ee *encounter.Error
	if !errors.As(err, &ee) || !errors.Is(err, encounter.ErrNotFound) {
		t.Errorf("damage to no one: %v, want an *encounter.Error", err)
	}
	// Even a change that half-happened: fn changes the state, then fails.
	_, _, err = d.UpdateEncounter(ctx, "c1", func(e *db.Encounter) (encounter.Event, error) {
		if _, err := e.State.Damage(generic, "gm", "Ogre", 3, ""); err != nil {
			return encounter.Event{}, err
		}
		return encounter.Event{}, errors.New("the roller broke")
	})
	if err == nil {
		t.Errorf("the failing change succeeded")
	}
	if after, seq2, n2 := stored(t, d, "c1"); after != before || seq2 != seq || n2 != n {
		t.Errorf("a failed change changed the store: seq %d -> %d, %d -> %d events\n%s\n%s", seq, seq2, n, n2, before, after)
	}

	// The state survives closing the database.
	d.Close()
	d2, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	got, err := d2.Encounter(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if s, _, _ := stored(t, d2, "c1"); s != before || got.Seq != 4 || got.ID != enc.ID {
		t.Errorf("reopened: seq %d, state\n%s\nwant\n%s", got.Seq, s, before)
	}

	// The end makes room for a new encounter.
	ended, ev, err := d2.EndEncounter(ctx, "c1", "gm")
	if err != nil || ended.Active || ev.Kind != encounter.KindEnd {
		t.Fatalf("end: %v, active %v, %s", err, ended.Active, ev.Kind)
	}
	if _, err := d2.Encounter(ctx, "c1"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("after the end: %v, want ErrNotFound", err)
	}
	if _, _, err := d2.UpdateEncounter(ctx, "c1", func(e *db.Encounter) (encounter.Event, error) { return e.State.Next(generic, "gm") }); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("a change after the end: %v, want ErrNotFound", err)
	}
	next, err := d2.StartEncounter(ctx, "g1", "c1", "generic", "gm")
	if err != nil || next.ID == enc.ID {
		t.Errorf("a new start after the end: %v (id %d)", err, next.ID)
	}
}

func testEncounterUndoRedo(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.StartEncounter(ctx, "", "c", "generic", "gm"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToUndo) {
		t.Errorf("undo with nothing done: %v", err)
	}
	if _, _, err := d.RedoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToRedo) {
		t.Errorf("redo with nothing undone: %v", err)
	}
	states := []string{}
	snap := func() {
		s, _, _ := stored(t, d, "c")
		states = append(states, s)
	}
	snap() // 0: empty
	update(t, d, "c", add("Ogre", 30))
	snap() // 1
	update(t, d, "c", add("Goblin", 7))
	snap() // 2
	update(t, d, "c", func(e *encounter.Encounter) (encounter.Event, error) { return e.Begin(generic, nil, "gm") })
	snap() // 3
	update(t, d, "c", func(e *encounter.Encounter) (encounter.Event, error) { return e.Damage(generic, "u1", "Goblin", 3, "") })
	snap() // 4

	check := func(what string, want int) {
		t.Helper()
		if got, _, _ := stored(t, d, "c"); got != states[want] {
			t.Errorf("%s: state\n%s\nwant state %d\n%s", what, got, want, states[want])
		}
		enc, err := d.Encounter(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		restored, err := encounter.Restore([]byte(states[want]))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := mustJSON(t, enc.State), mustJSON(t, restored); a != b {
			t.Errorf("%s: loaded %s, want %s", what, a, b)
		}
	}
	enc, undone, err := d.UndoEncounter(ctx, "c", "gm")
	if err != nil || undone.Kind != "damage" || undone.Status != db.StatusUndone || undone.Event.Summary != "Goblin took 3 damage (hp 7 -> 4)" {
		t.Fatalf("undo: %v %+v", err, undone)
	}
	if enc.Seq != 6 {
		t.Errorf("undo: seq %d, want 6 (start, 4 changes, undo)", enc.Seq)
	}
	check("undo damage", 3)
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	check("undo begin", 2)
	if _, redone, err := d.RedoEncounter(ctx, "c", "gm"); err != nil || redone.Kind != "begin" {
		t.Fatalf("redo: %v %+v", err, redone)
	}
	check("redo begin", 3)
	if _, redone, err := d.RedoEncounter(ctx, "c", "gm"); err != nil || redone.Kind != "damage" {
		t.Fatalf("redo: %v %+v", err, redone)
	}
	check("redo damage", 4)
	if _, _, err := d.RedoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToRedo) {
		t.Errorf("redo past the newest: %v", err)
	}

	// A new change after an undo drops what was undone.
	for range 2 {
		if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
	}
	check("undo twice", 2)
	update(t, d, "c", add("Bat", 2))
	if _, _, err := d.RedoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToRedo) {
		t.Errorf("redo after a new change: %v", err)
	}
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	check("undo the new change", 2)
	for range 2 {
		if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
	}
	check("undo back to the start", 0)
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToUndo) {
		t.Errorf("undo before the start: %v", err)
	}

	log, err := d.EncounterLog(ctx, "c", 100)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, e := range log {
		statuses = append(statuses, fmt.Sprintf("%d:%s:%s:%d", e.Seq, e.Kind, e.Status, e.Ref))
	}
	want := []string{"1:start:start:0", "2:add:undone:0", "3:add:undone:0", "4:begin:dropped:0", "5:damage:dropped:0",
		"6:undo:undo:5", "7:undo:undo:4", "8:redo:redo:4", "9:redo:redo:5", "10:undo:undo:5", "11:undo:undo:4",
		"12:add:undone:0", "13:undo:undo:12", "14:undo:undo:3", "15:undo:undo:2"}
	if !slices.Equal(statuses, want) {
		t.Errorf("log:\n%q\nwant\n%q", statuses, want)
	}
	if last, err := d.EncounterLog(ctx, "c", 2); err != nil || len(last) != 2 || last[0].Seq != 14 || last[1].Seq != 15 {
		t.Errorf("the last 2 entries: %+v, %v", last, err)
	}
	if all, err := d.EncounterLog(ctx, "c", -1); err != nil || len(all) != len(log) {
		t.Errorf("a negative limit: %d entries, %v; want all %d", len(all), err, len(log))
	}
}

// Undoing the end of a fight runs it again, unless another has started in
// the channel since.
func testEncounterUndoEnd(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.StartEncounter(ctx, "", "c", "generic", "gm"); err != nil {
		t.Fatal(err)
	}
	update(t, d, "c", add("Ogre", 30))
	if _, _, err := d.EndEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	enc, undone, err := d.UndoEncounter(ctx, "c", "gm")
	if err != nil || !enc.Active || enc.State.Ended || undone.Kind != "end" {
		t.Fatalf("undo end: %v, %+v", err, enc)
	}
	if _, err := d.Encounter(ctx, "c"); err != nil {
		t.Errorf("after undoing the end: %v", err)
	}
	if _, _, err := d.EndEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.StartEncounter(ctx, "", "c", "generic", "gm"); err != nil {
		t.Fatal(err)
	}
	update(t, d, "c", add("Bat", 2))
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	// Now the new encounter has nothing left to undo: undo does not reach
	// back into the old one.
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToUndo) {
		t.Errorf("undo into the previous encounter: %v", err)
	}
}

// Concurrent changes to one encounter run one after the other: none is
// lost.
func testEncounterConcurrentUpdates(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.StartEncounter(ctx, "", "c", "generic", "gm"); err != nil {
		t.Fatal(err)
	}
	update(t, d, "c", add("Ogre", 1000))
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, _, err := d.UpdateEncounter(ctx, "c", func(e *db.Encounter) (encounter.Event, error) {
				return e.State.Damage(generic, fmt.Sprint("u", i), "Ogre", 1, "")
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	enc, err := d.Encounter(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if hp := enc.State.Combatants[0].Resources["hp"]; hp != 1000-n || enc.Seq != 2+n {
		t.Errorf("hp %d, seq %d; want %d, %d", hp, enc.Seq, 1000-n, 2+n)
	}
}

func testSystemSettings(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.ChannelSystem(ctx, "g", "c1"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("nothing set: %v", err)
	}
	if err := d.SetSystem(ctx, db.SystemSetting{GuildID: "g", System: "burst", SetBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	if err := d.SetSystem(ctx, db.SystemSetting{GuildID: "g", ChannelID: "c1", System: "arc", SetBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	if err := d.SetSystem(ctx, db.SystemSetting{GuildID: "g", ChannelID: "c1", System: "ulm", SetBy: "gm2"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ guild, channel, system, scope string }{
		{"g", "c1", "ulm", "channel"},
		{"g", "c2", "burst", "guild"},
		{"other", "c1", "", ""},
	} {
		s, err := d.ChannelSystem(ctx, tt.guild, tt.channel)
		if tt.system == "" {
			if !errors.Is(err, db.ErrNotFound) {
				t.Errorf("%s/%s: %+v, %v; want ErrNotFound", tt.guild, tt.channel, s, err)
			}
			continue
		}
		if err != nil || s.System != tt.system || s.Scope() != tt.scope {
			t.Errorf("%s/%s: %+v (%s), %v; want %s (%s)", tt.guild, tt.channel, s, s.Scope(), err, tt.system, tt.scope)
		}
	}
}

func testSetTrackerMessage(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	enc, err := d.StartEncounter(ctx, "", "c", "generic", "gm")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetTrackerMessage(ctx, enc.ID, "m1"); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Encounter(ctx, "c"); err != nil || got.TrackerMessage != "m1" {
		t.Errorf("tracker %q, %v", got.TrackerMessage, err)
	}
	if err := d.SetTrackerMessage(ctx, enc.ID+1, "m1"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("no such encounter: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// keptStates returns how many snapshots the journal of the channel's
// newest encounter keeps.
func keptStates(t testing.TB, d *db.DB, channel string) int {
	t.Helper()
	var n int
	err := d.SQL().QueryRow(`SELECT COUNT(*) FROM encounter_states
		WHERE encounter_id = (SELECT MAX(id) FROM encounters WHERE channel_id = ?)`, channel).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// journalStates returns the snapshots the journal of encounter id keeps,
// by seq.
func journalStates(t *testing.T, d *db.DB, id int64) map[int64]string {
	t.Helper()
	rows, err := d.SQL().Query(`SELECT seq, state FROM encounter_states WHERE encounter_id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var seq int64
		var state string
		if err := rows.Scan(&seq, &state); err != nil {
			t.Fatal(err)
		}
		out[seq] = state
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// fight starts an encounter in channel and makes n changes (an Ogre
// joins, then takes 1 damage at a time from six players in turn). It
// returns the stored states: states[i] is the state after change i, which
// is journal entry i+1.
func fight(t *testing.T, d *db.DB, channel string, n int) []string {
	t.Helper()
	if _, err := d.StartEncounter(context.Background(), "", channel, "generic", "gm"); err != nil {
		t.Fatal(err)
	}
	s, _, _ := stored(t, d, channel)
	states := []string{s}
	for i := 1; i <= n; i++ {
		op := add("Ogre", 1_000_000)
		if i > 1 {
			op = func(e *encounter.Encounter) (encounter.Event, error) {
				return e.Damage(generic, fmt.Sprint("u", i%6), "Ogre", 1, "")
			}
		}
		update(t, d, channel, op)
		s, _, _ := stored(t, d, channel)
		states = append(states, s)
		// The bound holds after every change, not only at the end.
		if k := keptStates(t, d, channel); k < min(i+1, db.MaxUndo+1) || k > db.MaxUndo+db.PruneEvery {
			t.Fatalf("after change %d the journal keeps %d states, want %d to %d", i, k, min(i+1, db.MaxUndo+1), db.MaxUndo+db.PruneEvery)
		}
	}
	return states
}

// A long fight keeps the states of the undo window only, and the whole
// log; undo goes back exactly MaxUndo changes, across a restart, and then
// refuses with ErrUndoLimit.
func testEncounterJournalBounded(t *testing.T) {
	d, file := open(t)
	ctx := context.Background()
	const changes = 500
	states := fight(t, d, "c", changes)
	enc, err := d.Encounter(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	// The window is the state after each of the MaxUndo newest changes
	// and the one before the oldest of them. 500 changes is a pruning
	// point (116 + 24*16), so no state beyond it is left.
	kept := journalStates(t, d, enc.ID)
	if len(kept) != db.MaxUndo+1 {
		t.Errorf("the journal keeps %d states, want %d", len(kept), db.MaxUndo+1)
	}
	for seq, s := range kept {
		if seq < changes-db.MaxUndo+1 || seq > changes+1 {
			t.Errorf("entry %d keeps its state: outside the window %d-%d", seq, changes-db.MaxUndo+1, changes+1)
		} else if s != states[seq-1] {
			t.Errorf("entry %d keeps a state other than the one stored with it:\n%s\nwant\n%s", seq, s, states[seq-1])
		}
	}
	if _, seq, events := stored(t, d, "c"); seq != changes+1 || events != changes+1 {
		t.Errorf("seq %d, %d entries; want %d of each: no entry is deleted", seq, events, changes+1)
	}

	// Pruning touched neither the current state nor the kept ones: a
	// restart finds the same, and undo restores exactly what was stored.
	d.Close()
	d, err = db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	enc, err = d.Encounter(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	restored, err := encounter.Restore([]byte(states[changes]))
	if err != nil {
		t.Fatal(err)
	}
	if s, _, _ := stored(t, d, "c"); s != states[changes] || mustJSON(t, enc.State) != mustJSON(t, restored) {
		t.Errorf("reopened: state\n%s\nwant\n%s", s, states[changes])
	}
	for k := 1; k <= db.MaxUndo; k++ {
		_, undone, err := d.UndoEncounter(ctx, "c", "gm")
		if err != nil {
			t.Fatalf("undo %d: %v", k, err)
		}
		if want := int64(changes - k + 2); undone.Seq != want {
			t.Errorf("undo %d undid entry %d, want %d", k, undone.Seq, want)
		}
		if s, _, _ := stored(t, d, "c"); s != states[changes-k] {
			t.Fatalf("undo %d: state\n%s\nwant\n%s", k, s, states[changes-k])
		}
	}
	before, seq, events := stored(t, d, "c")
	_, _, err = d.UndoEncounter(ctx, "c", "gm")
	if !errors.Is(err, db.ErrUndoLimit) || !strings.Contains(err.Error(), "only the last 100 changes can be undone") {
		t.Errorf("undo %d: %v, want ErrUndoLimit", db.MaxUndo+1, err)
	}
	if after, seq2, events2 := stored(t, d, "c"); after != before || seq2 != seq || events2 != events {
		t.Errorf("a refused undo changed the store")
	}
	// Redo goes all the way back up; undo and redo keep no state of their
	// own.
	for k := db.MaxUndo - 1; k >= 0; k-- {
		if _, _, err := d.RedoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
		if s, _, _ := stored(t, d, "c"); s != states[changes-k] {
			t.Fatalf("redo to change %d: state\n%s\nwant\n%s", changes-k, s, states[changes-k])
		}
	}
	if _, _, err := d.RedoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrNothingToRedo) {
		t.Errorf("redo past the newest: %v", err)
	}
	if n := keptStates(t, d, "c"); n != db.MaxUndo+1 {
		t.Errorf("after undo and redo the journal keeps %d states, want %d", n, db.MaxUndo+1)
	}

	// The log still lists every entry with who did what.
	log, err := d.EncounterLog(ctx, "c", 10_000)
	if err != nil {
		t.Fatal(err)
	}
	if want := changes + 1 + 2*db.MaxUndo; len(log) != want {
		t.Fatalf("the log lists %d entries, want %d", len(log), want)
	}
	for i, e := range log {
		if e.Seq != int64(i+1) || e.ActorID == "" || (e.Kind != "start" && e.Event.Summary == "") {
			t.Errorf("log entry %d: %+v", i, e)
		}
	}
	if e := log[1]; e.Kind != "add" || e.ActorID != "gm" || !strings.Contains(e.Event.Summary, "Ogre") {
		t.Errorf("the oldest change, whose state is long gone: %+v", e)
	}
	if e := log[2]; e.Kind != "damage" || e.ActorID != "u2" || e.Event.Summary != "Ogre took 1 damage (hp 1000000 -> 999999)" {
		t.Errorf("the second change: %+v", e)
	}
}

// The undo limit is the window, not the timing of the pruning: between
// prunings undo stops at MaxUndo even though older states are still
// stored, and a new change after undos does not let undo reach further
// back than it did.
func testEncounterUndoWindow(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	const changes = 120 // pruned at 116, then 4 more: 105 states kept
	states := fight(t, d, "c", changes)
	if n := keptStates(t, d, "c"); n != db.MaxUndo+1+4 {
		t.Fatalf("the journal keeps %d states, want %d", n, db.MaxUndo+1+4)
	}
	for range db.MaxUndo {
		if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
	}
	if s, _, _ := stored(t, d, "c"); s != states[changes-db.MaxUndo] {
		t.Fatalf("after %d undos: state\n%s\nwant\n%s", db.MaxUndo, s, states[changes-db.MaxUndo])
	}
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrUndoLimit) {
		t.Errorf("undo %d, with the state before still stored: %v, want ErrUndoLimit", db.MaxUndo+1, err)
	}

	// A new change drops the 100 undone: it can be undone, and then undo
	// stops where it stopped before.
	update(t, d, "c", func(e *encounter.Encounter) (encounter.Event, error) { return e.Heal(generic, "gm", "Ogre", 5) })
	if n := keptStates(t, d, "c"); n != 2 {
		t.Errorf("after the new change the journal keeps %d states, want 2 (before and after it)", n)
	}
	if _, undone, err := d.UndoEncounter(ctx, "c", "gm"); err != nil || undone.Kind != "heal" {
		t.Fatalf("undo the new change: %v, %+v", err, undone)
	}
	if s, _, _ := stored(t, d, "c"); s != states[changes-db.MaxUndo] {
		t.Errorf("undo the new change: state\n%s\nwant\n%s", s, states[changes-db.MaxUndo])
	}
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); !errors.Is(err, db.ErrUndoLimit) {
		t.Errorf("undo below the old window: %v, want ErrUndoLimit", err)
	}
}

// Undo and redo entries move the seq but keep no state, so however
// changes and undos interleave, the bound holds: the pruning counts the
// states, not the seq (pruning at seq%16 == 0 would never run here).
func testEncounterJournalInterleaved(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	fight(t, d, "c", 3) // entries 1-4
	for i := range 300 {
		// Two changes, an undo and a redo: four entries, two states. The
		// changes are entries 4k+1 and 4k+2, never a multiple of 16.
		for range 2 {
			update(t, d, "c", func(e *encounter.Encounter) (encounter.Event, error) {
				return e.Damage(generic, "gm", "Ogre", 1, "")
			})
		}
		if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := d.RedoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
		if n := keptStates(t, d, "c"); n > db.MaxUndo+db.PruneEvery {
			t.Fatalf("round %d: the journal keeps %d states, want at most %d", i, n, db.MaxUndo+db.PruneEvery)
		}
	}
	stray := func() int {
		t.Helper()
		var n int
		if err := d.SQL().QueryRow(`SELECT COUNT(*) FROM encounter_states s JOIN encounter_events e USING (encounter_id, seq)
			WHERE e.status NOT IN (?, ?, ?)`, db.StatusStart, db.StatusDone, db.StatusUndone).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := stray(); n != 0 {
		t.Errorf("%d undo, redo or dropped entries keep a snapshot", n)
	}
	// An undo and a new change: the dropped change keeps none.
	if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	update(t, d, "c", func(e *encounter.Encounter) (encounter.Event, error) { return e.Heal(generic, "gm", "Ogre", 1) })
	if n := stray(); n != 0 {
		t.Errorf("%d dropped entries keep a snapshot", n)
	}
}

// An ended encounter keeps its states while its end can be undone; when
// the next fight starts in its channel it keeps its final state and its
// log only.
func testEncounterJournalEnded(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	fight(t, d, "c", 150)
	fight(t, d, "other", 3)
	if _, _, err := d.EndEncounter(ctx, "other", "gm"); err != nil {
		t.Fatal(err)
	}
	ended, _, err := d.EndEncounter(ctx, "c", "gm")
	if err != nil {
		t.Fatal(err)
	}
	if n := keptStates(t, d, "c"); n < db.MaxUndo+1 {
		t.Errorf("the ended encounter keeps %d states: its end could not be undone", n)
	}
	if enc, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil || !enc.Active {
		t.Fatalf("undo the end: %v", err)
	}
	if _, _, err := d.EndEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	final, seq, events := stored(t, d, "c")

	next, err := d.StartEncounter(ctx, "", "c", "generic", "gm")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(journalStates(t, d, ended.ID)); n != 0 {
		t.Errorf("the ended encounter keeps %d states after the next one started", n)
	}
	var state string
	var seq2 int64
	var events2 int
	if err := d.SQL().QueryRow(`SELECT state, seq, (SELECT COUNT(*) FROM encounter_events WHERE encounter_id = id)
		FROM encounters WHERE id = ?`, ended.ID).Scan(&state, &seq2, &events2); err != nil {
		t.Fatal(err)
	}
	if state != final || seq2 != seq || events2 != events {
		t.Errorf("the ended encounter lost its final state or its log: seq %d -> %d, %d -> %d entries", seq, seq2, events, events2)
	}
	if n := keptStates(t, d, "c"); n != 1 || next.ID == ended.ID {
		t.Errorf("the new encounter keeps %d states, want 1", n)
	}
	// An ended fight in another channel can still be undone.
	if n := keptStates(t, d, "other"); n != 5 {
		t.Errorf("the ended encounter of another channel keeps %d states, want 5", n)
	}
	if _, _, err := d.UndoEncounter(ctx, "other", "gm"); err != nil {
		t.Errorf("undo the end in another channel: %v", err)
	}
}

// A database from before the bounded journal, where every entry of
// encounter_events keeps its state, moves to encounter_states what undo
// and redo can still read, and undo goes on as before; the next change
// trims a long fight's snapshots to the window.
func TestEncounterJournalMigration(t *testing.T) {
	d, file := open(t)
	ctx := context.Background()
	// What each entry's state was, as schema 4 stored it.
	old := map[string]map[int64]string{} // by channel, then seq
	record := func(channel string, states []string) {
		old[channel] = map[int64]string{}
		for i, s := range states {
			old[channel][int64(i+1)] = s
		}
	}
	record("ended", fight(t, d, "ended", 3))
	if _, _, err := d.EndEncounter(ctx, "ended", "gm"); err != nil {
		t.Fatal(err)
	}
	record("ended", fight(t, d, "ended", 2)) // the ended one is now out of reach
	states := fight(t, d, "c", 150)
	for range 5 {
		if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
	}
	record("c", states)
	last, _, _ := stored(t, d, "c")
	// Schema 4 let undo go back without limit: 120 changes undone.
	record("far", fight(t, d, "far", 130))

	// Back to schema 4: a state in every entry (the undo and redo ones
	// included: the current state), no encounter_states (nor the tables of
	// the migrations after 5): the later migrations undone first.
	undoSince(t, d, 11)
	for _, q := range []string{
		`ALTER TABLE encounter_events ADD COLUMN state TEXT NOT NULL DEFAULT ''`,
		`UPDATE encounter_events SET state = (SELECT state FROM encounters WHERE id = encounter_id)`,
		`DROP TABLE encounter_states`,
		`DROP TABLE play_settings`, // schema 6's
		`DROP TABLE interactions`,
		`DROP TABLE gm_channels`, // schema 8's
		`ALTER TABLE rolls DROP COLUMN visibility`,
		`DROP TABLE page_tokens`,                    // schema 9's
		`ALTER TABLE characters DROP COLUMN hidden`, // schema 11's
	} {
		if _, err := d.SQL().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.SQL().Exec(`PRAGMA user_version = 4`); err != nil {
		t.Fatal(err)
	}
	for channel, byseq := range old {
		for seq, s := range byseq {
			if _, err := d.SQL().Exec(`UPDATE encounter_events SET state = ?
				WHERE seq = ? AND encounter_id = (SELECT MAX(id) FROM encounters WHERE channel_id = ?)`, s, seq, channel); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := d.SQL().Exec(`UPDATE encounter_events SET status = 'undone'
		WHERE seq > 11 AND encounter_id = (SELECT MAX(id) FROM encounters WHERE channel_id = 'far')`); err != nil {
		t.Fatal(err)
	}
	_, seq, events := stored(t, d, "c")
	d.Close()

	d, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if v, err := d.Version(ctx); err != nil || v < 5 {
		t.Fatalf("version %d, %v", v, err)
	}
	var cols int
	if err := d.SQL().QueryRow(`SELECT COUNT(*) FROM pragma_table_info('encounter_events') WHERE name = 'state'`).Scan(&cols); err != nil || cols != 0 {
		t.Errorf("encounter_events still has a state column (%v)", err)
	}
	if s, seq2, events2 := stored(t, d, "c"); s != last || seq2 != seq || events2 != events {
		t.Errorf("the migration changed the encounter: seq %d -> %d, %d -> %d entries", seq, seq2, events, events2)
	}
	var unreachable int
	if err := d.SQL().QueryRow(`SELECT COUNT(*) FROM encounter_states
		WHERE encounter_id = (SELECT MIN(id) FROM encounters WHERE channel_id = 'ended')`).Scan(&unreachable); err != nil || unreachable != 0 {
		t.Errorf("the ended encounter out of reach keeps %d snapshots (%v)", unreachable, err)
	}
	if n := keptStates(t, d, "ended"); n != 3 {
		t.Errorf("the active encounter of channel ended keeps %d snapshots, want 3 (start and 2 changes)", n)
	}
	// 1 start + 150 changes: the states of the 5 undone stay, for redo,
	// not those of the undo entries.
	if n := keptStates(t, d, "c"); n != 151 {
		t.Errorf("before its next change the long fight keeps %d snapshots, want 151", n)
	}
	if _, _, err := d.RedoEncounter(ctx, "c", "gm"); err != nil {
		t.Fatal(err)
	}
	if s, _, _ := stored(t, d, "c"); s != states[146] {
		t.Errorf("redo after the migration: state\n%s\nwant\n%s", s, states[146])
	}
	for k := 1; k <= 3; k++ {
		if _, _, err := d.UndoEncounter(ctx, "c", "gm"); err != nil {
			t.Fatal(err)
		}
		if s, _, _ := stored(t, d, "c"); s != states[146-k] {
			t.Errorf("undo %d after the migration: state\n%s\nwant\n%s", k, s, states[146-k])
		}
	}
	// The window, less the 7 undone changes the new one drops, and the new
	// one.
	update(t, d, "c", func(e *encounter.Encounter) (encounter.Event, error) { return e.Damage(generic, "gm", "Ogre", 1, "") })
	if n := keptStates(t, d, "c"); n != db.MaxUndo+1-7+1 {
		t.Errorf("after its next change the long fight keeps %d snapshots, want %d", n, db.MaxUndo+1-7+1)
	}

	// The 120 changes undone were the window, and more: a new change
	// drops them, and can be undone no further back than that window.
	update(t, d, "far", func(e *encounter.Encounter) (encounter.Event, error) { return e.Heal(generic, "gm", "Ogre", 1) })
	if n := keptStates(t, d, "far"); n != 1 {
		t.Errorf("after the 120 undone were dropped the journal keeps %d snapshots, want 1", n)
	}
	if _, _, err := d.UndoEncounter(ctx, "far", "gm"); !errors.Is(err, db.ErrUndoLimit) {
		t.Errorf("undo below the window of 120 undone: %v, want ErrUndoLimit", err)
	}
}

// BenchmarkUpdateEncounter makes changes to a fight whose journal already
// holds journal entries: pruning keeps both the time of a change and the
// storage it adds flat, however long the fight has been. live-B/op is the
// growth of the database's used pages per change (the log row; a state
// snapshot is snapshot-B).
func BenchmarkUpdateEncounter(b *testing.B) {
	for _, journal := range []int{100, 1_000, 10_000} {
		b.Run(fmt.Sprint("journal=", journal), func(b *testing.B) {
			ctx := context.Background()
			d, err := db.Open(ctx, filepath.Join(b.TempDir(), "b.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			if _, err := d.StartEncounter(ctx, "", "c", "generic", "gm"); err != nil {
				b.Fatal(err)
			}
			// Six combatants, as in a long fight.
			for i := range 6 {
				if _, _, err := d.UpdateEncounter(ctx, "c", func(e *db.Encounter) (encounter.Event, error) {
					return e.State.Add(generic, nil, "gm", encounter.Combatant{Name: fmt.Sprint("Ogre", i), NPC: true,
						Stats: map[string]int{"initiative": i}, Resources: map[string]int{"hp": 1_000_000_000}})
				}); err != nil {
					b.Fatal(err)
				}
			}
			i := 0
			damage := func(e *db.Encounter) (encounter.Event, error) {
				i++
				return e.State.Damage(generic, fmt.Sprint("u", i%6), fmt.Sprint("Ogre", i%6), 1, "")
			}
			for range journal {
				if _, _, err := d.UpdateEncounter(ctx, "c", damage); err != nil {
					b.Fatal(err)
				}
			}
			live := func() int64 {
				var pages, free, size int64
				for q, v := range map[string]*int64{"PRAGMA page_count": &pages, "PRAGMA freelist_count": &free, "PRAGMA page_size": &size} {
					if err := d.SQL().QueryRow(q).Scan(v); err != nil {
						b.Fatal(err)
					}
				}
				return (pages - free) * size
			}
			start := live()
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := d.UpdateEncounter(ctx, "c", damage); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(live()-start)/float64(b.N), "live-B/op")
			b.ReportMetric(float64(keptStates(b, d, "c")), "states")
			s, err := d.Encounter(ctx, "c")
			if err != nil {
				b.Fatal(err)
			}
			snap, err := s.State.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(snap)), "snapshot-B")
		})
	}
}
