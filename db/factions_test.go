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
	"github.com/tablehand/tablehand/db/dbtest"
)

// The faction game's tables, as the store sees them: JSON documents it
// keeps and does not read, but for the names of a campaign's factions.
// The game's own tests of its store, with the rules run in these
// transactions, are in commands/faction (store_test.go).

// state is a campaign's state with the factions named, as the store reads
// it, and the round r.
func state(r int, factions ...string) []byte {
	var fs []string
	for _, f := range factions {
		fs = append(fs, fmt.Sprintf(`{"name":%q}`, f))
	}
	return []byte(fmt.Sprintf(`{"round":%d,"factions":[%s]}`, r, strings.Join(fs, ",")))
}

// world makes guild's campaign of Red and Blue at round 1.
func world(t testing.TB, d *db.DB, guild string) db.FactionCampaign {
	t.Helper()
	fc, err := d.CreateCampaign(context.Background(), guild, "table", "gm", state(1, "Red", "Blue"))
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

// order is an order's body.
type order struct {
	Action string            `json:"action"`
	Params map[string]string `json:"params,omitempty"`
}

func queue(t testing.TB, d *db.DB, guild, fac string, o order) db.FactionOrder {
	t.Helper()
	body, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.QueueOrder(context.Background(), guild, db.FactionOrder{Faction: fac, Body: body, CreatedBy: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func testCampaignDocuments(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.Campaign(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("no campaign yet: %v", err)
	}
	fc := world(t, d, "g")
	if _, err := d.CreateCampaign(ctx, "g", "x", "gm", state(1)); !errors.Is(err, db.ErrCampaignExists) {
		t.Errorf("a second campaign: %v", err)
	}
	if got, err := d.Campaign(ctx, "g"); err != nil || string(got.State) != string(state(1, "Red", "Blue")) || got.Version != 1 || got.ChannelID != "table" {
		t.Fatalf("stored campaign: %+v %v", got, err)
	}
	// A failing change saves nothing; a change saves the state it leaves.
	boom := errors.New("boom")
	if _, err := d.UpdateCampaign(ctx, "g", func(fc *db.FactionCampaign) error {
		fc.State = state(99)
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("UpdateCampaign error: %v", err)
	}
	if s, err := d.CampaignStamp(ctx, "g"); err != nil || s != (db.CampaignStamp{ID: fc.ID, Version: 1}) {
		t.Errorf("stamp after a failed change %+v %v", s, err)
	}
	// Orders are filed under the stored name of their faction, any case.
	o1 := queue(t, d, "g", "red", order{Action: "invest"})
	o2 := queue(t, d, "g", "Red", order{Action: "produce"})
	queue(t, d, "g", "Blue", order{Action: "invest"})
	if o1.Faction != "Red" || o1.Seq != 1 || o2.Seq != 2 || o1.Mode != db.OrderQueued || string(o1.Body) != `{"action":"invest"}` {
		t.Errorf("queued: %+v %+v", o1, o2)
	}
	if _, err := d.QueueOrder(ctx, "g", db.FactionOrder{Faction: "Green", Body: []byte(`{}`)}); !errors.Is(err, db.ErrUnknownFaction) {
		t.Errorf("an order for no faction: %v", err)
	}
	if _, err := d.QueueOrder(ctx, "no-such-guild", db.FactionOrder{Faction: "Red", Body: []byte(`{}`)}); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("an order in a guild without a campaign: %v", err)
	}
	// UpdateOrder stores the body and question fn leaves.
	if _, _, err := d.UpdateOrder(ctx, "g", o1.ID, func(o *db.FactionOrder, _ *db.FactionCampaign) (db.OrderChange, error) {
		o.Body, o.Question = []byte(`{"action":"invest","params":{"stat":"POP"}}`), []byte(`{"ask":"gm"}`)
		return db.OrderChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if o, err := d.FactionOrder(ctx, "g", o1.ID); err != nil || !strings.Contains(string(o.Body), "POP") || string(o.Question) != `{"ask":"gm"}` {
		t.Errorf("updated order: %+v %v", o, err)
	}
	// A save whose state no longer names Red drops Red's orders.
	if _, err := d.UpdateCampaign(ctx, "g", func(fc *db.FactionCampaign) error {
		fc.State = state(1, "Blue")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	all, err := d.FactionOrders(ctx, "g", "", "")
	if err != nil || len(all) != 1 || all[0].Faction != "Blue" {
		t.Errorf("after Red left: %+v %v", all, err)
	}
	if s, err := d.CampaignStamp(ctx, "g"); err != nil || s != (db.CampaignStamp{ID: fc.ID, Version: 2}) {
		t.Errorf("stamp after a save %+v %v", s, err)
	}
}

// "A round is one transaction": PlayCampaign fails after each step in
// turn, and nothing changes; then it stores what the game's closure
// leaves: the state, the rounds, the held order with its question, and
// the firing, once.
func testPlayCampaignAllOrNothing(t *testing.T) {
	clock := time.Date(2025, 3, 7, 17, 0, 0, 0, time.UTC)
	d, _ := open(t, db.WithClock(func() time.Time { return clock }))
	ctx := context.Background()
	world(t, d, "g")
	done := queue(t, d, "g", "Red", order{Action: "invest"})
	held := queue(t, d, "g", "Red", order{Action: "produce"})
	s, err := d.SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 2, CreatedBy: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	firing := &db.Firing{ScheduleID: s.ID, At: time.Date(2025, 3, 7, 18, 0, 0, 0, time.UTC)}
	play := func(fc *db.FactionCampaign, queued []db.FactionOrder) (db.Played, error) {
		if len(queued) != 2 || queued[0].ID != done.ID {
			return db.Played{}, fmt.Errorf("queued %+v", queued)
		}
		fc.State = state(3, "Red", "Blue")
		return db.Played{
			Rounds: []db.FactionRound{{Round: 1, Report: []byte(`{"round":1}`), Sheets: []byte(`[]`)}, {Round: 2, Report: []byte(`{"round":2}`), Sheets: []byte(`[]`)}},
			Held:   map[int64][]byte{held.ID: []byte(`{"ask":"gm"}`)},
		}, nil
	}
	before := snapshot(t, d, "g")
	boom := errors.New("the power went out")
	for _, ph := range db.RoundPhases {
		_, err := d.PlayCampaign(ctx, "g", db.PlayOptions{ActorID: "schedule", Firing: firing, Hook: func(p db.RoundPhase) error {
			if p == ph {
				return boom
			}
			return nil
		}}, play)
		if !errors.Is(err, boom) {
			t.Fatalf("fail after %s: err = %v", ph, err)
		}
		if after := snapshot(t, d, "g"); after != before {
			t.Fatalf("failing after %s changed the store:\nbefore %s\nafter  %s", ph, before, after)
		}
	}
	if _, err := d.PlayCampaign(ctx, "g", db.PlayOptions{}, func(*db.FactionCampaign, []db.FactionOrder) (db.Played, error) {
		return db.Played{}, boom
	}); !errors.Is(err, boom) || snapshot(t, d, "g") != before {
		t.Fatalf("a failing game changed the store: %v", err)
	}
	res, err := d.PlayCampaign(ctx, "g", db.PlayOptions{ActorID: "schedule", Firing: firing}, play)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) != 2 || res.Rounds[1].ScheduleID != s.ID || !res.Rounds[1].ScheduledAt.Equal(firing.At) || res.Rounds[0].PlayedBy != "schedule" ||
		len(res.Held) != 1 || res.Held[0].ID != held.ID || string(res.Held[0].Question) != `{"ask":"gm"}` || res.Campaign.Version != 2 {
		t.Fatalf("played: %+v", res)
	}
	if orders, err := d.FactionOrders(ctx, "g", "", ""); err != nil || len(orders) != 1 || orders[0].ID != held.ID || string(orders[0].Question) != `{"ask":"gm"}` {
		t.Errorf("the queue after the round: %+v, %v", orders, err)
	}
	hist, err := d.RoundHistory(ctx, "g", 10)
	if err != nil || len(hist) != 2 || string(hist[1].Report) != `{"round":2}` {
		t.Fatalf("history: %+v %v", hist, err)
	}
	if r, err := d.PlayedRound(ctx, "g", 2); err != nil || r.Round != 2 {
		t.Errorf("round 2: %+v %v", r, err)
	}
	rec, err := d.FiringStatus(ctx, *firing)
	if err != nil || rec.Status != db.FiringApplied || rec.FirstRound != 1 || rec.LastRound != 2 {
		t.Errorf("firing: %+v %v", rec, err)
	}
	// The same firing again: refused, nothing changes.
	before = snapshot(t, d, "g")
	if _, err := d.PlayCampaign(ctx, "g", db.PlayOptions{Firing: firing}, play); !errors.Is(err, db.ErrFiringDone) {
		t.Errorf("a firing played twice: %v", err)
	}
	if after := snapshot(t, d, "g"); after != before {
		t.Error("a refused firing changed the store")
	}
}

// Two processes on one database play the same firing at once: one plays
// it, the other is told the firing is done.
func testFiringAppliedOnceAcrossProcesses(t *testing.T) {
	file := source(t)
	ctx := context.Background()
	var procs []*db.DB
	for range 2 {
		d, err := db.Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		procs = append(procs, d)
	}
	world(t, procs[0], "g")
	s, err := procs[0].SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "0 18 * * *", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, CreatedBy: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	firing := &db.Firing{ScheduleID: s.ID, At: time.Now().Add(time.Hour)}
	var wg sync.WaitGroup
	errs := make([]error, len(procs))
	for i, d := range procs {
		wg.Go(func() {
			_, errs[i] = d.PlayCampaign(ctx, "g", db.PlayOptions{Firing: firing}, func(fc *db.FactionCampaign, _ []db.FactionOrder) (db.Played, error) {
				var c struct {
					Round    int              `json:"round"`
					Factions []map[string]any `json:"factions"`
				}
				if err := json.Unmarshal(fc.State, &c); err != nil {
					return db.Played{}, err
				}
				fc.State = state(c.Round+1, "Red", "Blue")
				return db.Played{Rounds: []db.FactionRound{{Round: c.Round, Report: []byte(`{}`), Sheets: []byte(`[]`)}}}, nil
			})
		})
	}
	wg.Wait()
	applied := 0
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case !errors.Is(err, db.ErrFiringDone):
			t.Errorf("unexpected error: %v", err)
		}
	}
	fc, err := procs[1].Campaign(ctx, "g")
	if applied != 1 || err != nil || string(fc.State) != string(state(2, "Red", "Blue")) {
		t.Errorf("applied %d times; campaign %s (%v)", applied, fc.State, err)
	}
}

// EnsureCampaign starts the campaign and changes it in one transaction: a
// change that fails leaves no campaign behind.
func testEnsureCampaign(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	nc := db.NewCampaign{ChannelID: "table", ActorID: "gm", State: func() ([]byte, error) { return state(1), nil }}
	boom := errors.New("boom")
	if _, _, err := d.EnsureCampaign(ctx, "g", nc, func(*db.FactionCampaign) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing change: %v", err)
	}
	if _, err := d.Campaign(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("a failed change left a campaign: %v", err)
	}
	set := func(names ...string) func(fc *db.FactionCampaign) error {
		return func(fc *db.FactionCampaign) error {
			fc.State = state(1, names...)
			return nil
		}
	}
	fc, created, err := d.EnsureCampaign(ctx, "g", nc, set("Red"))
	if err != nil || !created || fc.ChannelID != "table" || string(fc.State) != string(state(1, "Red")) {
		t.Fatalf("first: created %v, %+v, %v", created, fc, err)
	}
	nc.ChannelID = "elsewhere"
	fc, created, err = d.EnsureCampaign(ctx, "g", nc, set("Red", "Blue"))
	if err != nil || created || fc.ChannelID != "table" || string(fc.State) != string(state(1, "Red", "Blue")) {
		t.Fatalf("second: created %v, %+v, %v", created, fc, err)
	}
}

// snapshot is everything a round may change, as stored.
func snapshot(t *testing.T, d *db.DB, guild string) string {
	return dbtest.CampaignSnapshot(t, d, guild)
}

// An order's number is its faction's own (issue 20: what a player sees
// counts only what they may see): Blue's first order is #1 however many
// Red queued, and a number is never given twice within a faction, not
// after its order was removed nor after the faction's queue was cleared.
func testOrderNumbers(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	world(t, d, "g")
	world(t, d, "h")
	invest := order{Action: "invest"}
	var red []db.FactionOrder
	for range 3 {
		red = append(red, queue(t, d, "g", "Red", invest))
	}
	blue := queue(t, d, "g", "blue", invest)
	other := queue(t, d, "h", "Red", invest)
	if got := []int64{red[0].Number, red[1].Number, red[2].Number, blue.Number, other.Number}; !slices.Equal(got, []int64{1, 2, 3, 1, 1}) {
		t.Errorf("numbers %v; want Red's 1, 2, 3, Blue's 1 and the other campaign's Red 1", got)
	}
	if n, err := d.DeleteOrders(ctx, "g", "Red", red[2].ID); n != 1 || err != nil {
		t.Fatalf("delete Red's #3: %d %v", n, err)
	}
	if o := queue(t, d, "g", "RED", invest); o.Number != 4 || o.Faction != "Red" {
		t.Errorf("Red's order after its #3 went: %s #%d; want Red #4", o.Faction, o.Number)
	}
	if _, err := d.DeleteOrders(ctx, "g", "Red"); err != nil {
		t.Fatal(err)
	}
	if o := queue(t, d, "g", "Red", invest); o.Number != 5 {
		t.Errorf("Red's order after its queue was cleared: #%d; want #5", o.Number)
	}
	all, err := d.FactionOrders(ctx, "g", "", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range all {
		got = append(got, fmt.Sprintf("%s#%d", o.Faction, o.Number))
	}
	if want := []string{"Blue#1", "Red#5"}; !slices.Equal(got, want) {
		t.Errorf("orders %v; want %v", got, want)
	}
}

// TestOrderNumbersMigrated: the orders queued before migration 0016 are
// numbered within their factions in the order they were queued, and the
// next order of each faction takes the number after its last.
func TestOrderNumbersMigrated(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "old.db")
	d, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	world(t, d, "g")
	invest := order{Action: "invest"}
	for _, f := range []string{"Red", "Blue", "Red", "Blue", "Red"} {
		queue(t, d, "g", f, invest)
	}
	// Back to schema 15: one campaign-wide ID, no number (and no table of
	// a later migration).
	undoSince(t, d, 15)
	if err := d.SetVersion(ctx, 15); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if d, err = db.Open(ctx, file); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	queue(t, d, "g", "Blue", invest)
	all, err := d.FactionOrders(ctx, "g", "", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range all {
		got = append(got, fmt.Sprintf("%s#%d(id %d)", o.Faction, o.Number, o.ID))
	}
	want := []string{"Blue#1(id 2)", "Blue#2(id 4)", "Blue#3(id 6)", "Red#1(id 1)", "Red#2(id 3)", "Red#3(id 5)"}
	if !slices.Equal(got, want) {
		t.Errorf("orders after the migration %v; want %v", got, want)
	}
}
