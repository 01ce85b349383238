package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

func TestEncounterLifecycle(t *testing.T) {
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

func TestEncounterUndoRedo(t *testing.T) {
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
}

// Undoing the end of a fight runs it again, unless another has started in
// the channel since.
func TestEncounterUndoEnd(t *testing.T) {
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
func TestEncounterConcurrentUpdates(t *testing.T) {
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

func TestSystemSettings(t *testing.T) {
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

func TestSetTrackerMessage(t *testing.T) {
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
