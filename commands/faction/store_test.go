package faction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// The faction game's store, through the game's own types, on every store
// (SQLite and PostgreSQL): the tables and transactions are db's, tested
// there as JSON documents (db/factions_test.go); here the rules run in
// them.
var storeTests = []dbtest.Case{
	{Name: "FactionCampaignStore", Test: testFactionCampaignStore},
	{Name: "OrderIDsNeverReused", Test: testOrderIDsNeverReused},
	{Name: "PlayRoundsAllOrNothing", Test: testPlayRoundsAllOrNothing},
	{Name: "PlayRoundsHoldsQuestions", Test: testPlayRoundsHoldsQuestions},
	{Name: "FiringAppliedOnceAcrossProcesses", Test: testFiringAppliedOnceAcrossProcesses},
	{Name: "EnsureCampaign", Test: testEnsureCampaign},
}

func TestStore(t *testing.T) {
	var _ Store = (*db.DB)(nil) // the store is the game's store
	dbtest.Run(t, storeTests)
}

// source is a fresh store of the kind the suite runs t on.
func source(t *testing.T) string { return dbtest.FreshSource(t) }

// tdb is the store with the game's methods under the store's names.
type tdb struct {
	*db.DB
	cs campaigns
}

func open(t *testing.T, opts ...db.Option) (tdb, string) {
	t.Helper()
	src := source(t)
	d, err := db.Open(context.Background(), src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return tdb{d, campaigns{d}}, src
}

func (d tdb) CreateCampaign(ctx context.Context, guildID, channelID, actorID string, cfg rules.Config) (Campaign, error) {
	state, err := newCampaign(cfg)
	if err != nil {
		return Campaign{}, err
	}
	row, err := d.DB.CreateCampaign(ctx, guildID, channelID, actorID, state)
	if err != nil {
		return Campaign{}, err
	}
	return campaignOf(row)
}

func (d tdb) Campaign(ctx context.Context, guildID string) (Campaign, error) {
	return d.cs.campaign(ctx, guildID)
}

func (d tdb) UpdateCampaign(ctx context.Context, guildID string, fn func(fc *Campaign) error) (Campaign, error) {
	return d.cs.update(ctx, guildID, fn)
}

// newCampaignOpts is how EnsureCampaign starts a campaign.
type newCampaignOpts struct {
	ChannelID, ActorID string
	Config             rules.Config
}

func (d tdb) EnsureCampaign(ctx context.Context, guildID string, nc newCampaignOpts, fn func(fc *Campaign) error) (Campaign, bool, error) {
	return d.cs.ensure(ctx, guildID, nc.ChannelID, nc.ActorID, nc.Config, fn)
}

func (d tdb) QueueOrder(ctx context.Context, guildID string, o Order) (Order, error) {
	return d.cs.queue(ctx, guildID, o)
}

func (d tdb) FactionOrders(ctx context.Context, guildID, factionName, mode string) ([]Order, error) {
	return d.cs.orders(ctx, guildID, factionName, mode)
}

func (d tdb) FactionOrder(ctx context.Context, guildID string, id int64) (Order, error) {
	return d.cs.order(ctx, guildID, id)
}

func (d tdb) UpdateOrder(ctx context.Context, guildID string, id int64, fn func(o *Order, fc *Campaign) (db.OrderChange, error)) (Order, Campaign, error) {
	return d.cs.updateOrder(ctx, guildID, id, fn)
}

func (d tdb) RoundHistory(ctx context.Context, guildID string, limit int) ([]Round, error) {
	return d.cs.history(ctx, guildID, limit)
}

func (d tdb) PlayedRound(ctx context.Context, guildID string, round int) (Round, error) {
	return d.cs.playedRound(ctx, guildID, round)
}

func (d tdb) RoundPlan(ctx context.Context, guildID string) (Campaign, map[string][]rules.Order, []Order, error) {
	return d.cs.plan(ctx, guildID)
}

// playOpts is one request to play rounds.
type playOpts struct {
	Rounds  int
	Roller  dice.Roller
	ActorID string
	Firing  *db.Firing
	Pending bool
	Hook    func(db.RoundPhase) error
}

func (d tdb) PlayRounds(ctx context.Context, guildID string, p playOpts) (PlayResult, error) {
	return d.cs.playRounds(ctx, guildID, Play{Rounds: p.Rounds, Roller: p.Roller,
		Store: db.PlayOptions{ActorID: p.ActorID, Firing: p.Firing, Pending: p.Pending, Hook: p.Hook}})
}

// world makes guild's campaign: Red (player u1) holds Mars with a
// Fabricator; Blue (an NPC that invests) holds Luna with a Militia.
func world(t testing.TB, d tdb, guild string) Campaign {
	t.Helper()
	ctx := context.Background()
	if _, err := d.CreateCampaign(ctx, guild, "table", "gm", rules.DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	fc, err := d.UpdateCampaign(ctx, guild, func(fc *Campaign) error {
		c := fc.Campaign
		if _, err := c.AddFaction("Red", "u1"); err != nil {
			return err
		}
		blue, err := c.AddFaction("Blue", "")
		if err != nil {
			return err
		}
		blue.Policy = rules.PolicyInvest
		for _, h := range [][2]string{{"Mars", "Red"}, {"Luna", "Blue"}} {
			if _, err := c.AddHabitat(h[0], h[1], "inner"); err != nil {
				return err
			}
		}
		if _, err := c.AddAsset("Red", "Fabricator", "Mars"); err != nil {
			return err
		}
		_, err = c.AddAsset("Blue", "Militia", "Luna")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

func queue(t testing.TB, d tdb, guild, fac string, o rules.Order) Order {
	t.Helper()
	out, err := d.QueueOrder(context.Background(), guild, Order{Faction: fac, Order: o, CreatedBy: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// An order's ID is given once: the newest order removed, the next takes
// the number after it, not its number again (an answer button or an old
// message holding that number must never come to act on another order),
// on both stores, campaign after campaign.
func testOrderIDsNeverReused(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	world(t, d, "g")
	world(t, d, "h")
	invest := rules.Order{Action: "invest", Params: map[string]string{"stat": "INF"}}
	var ids []int64
	for _, g := range []string{"g", "h", "g"} {
		ids = append(ids, queue(t, d, g, "Red", invest).ID)
	}
	if n, err := d.DeleteOrders(ctx, "g", "Red", ids[2]); n != 1 || err != nil {
		t.Fatalf("delete the newest order: %d %v", n, err)
	}
	ids = append(ids, queue(t, d, "g", "Red", invest).ID)
	if want := []int64{1, 2, 3, 4}; fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("order IDs %v, want %v: each given once, in order", ids, want)
	}
}

func testFactionCampaignStore(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.Campaign(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("no campaign yet: %v", err)
	}
	fc := world(t, d, "g")
	if _, err := d.CreateCampaign(ctx, "g", "x", "gm", rules.DefaultConfig()); !errors.Is(err, db.ErrCampaignExists) {
		t.Errorf("a second campaign: %v", err)
	}
	if fc.Version != 2 || len(fc.Campaign.Factions) != 2 || fc.Campaign.Faction("red").Owner != "u1" {
		t.Fatalf("stored campaign: version %d, %+v", fc.Version, fc.Campaign.Factions)
	}
	got, err := d.Campaign(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(fc.Campaign)
	b, _ := json.Marshal(got.Campaign)
	if string(a) != string(b) {
		t.Errorf("the campaign does not come back as it was saved")
	}
	// A failing change saves nothing.
	boom := errors.New("boom")
	if _, err := d.UpdateCampaign(ctx, "g", func(fc *Campaign) error {
		fc.Campaign.Round = 99
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("UpdateCampaign error: %v", err)
	}
	if got, _ := d.Campaign(ctx, "g"); got.Campaign.Round != 1 || got.Version != 2 {
		t.Errorf("a failed change was saved: round %d version %d", got.Campaign.Round, got.Version)
	}
	// The stamp names the stored state: a save makes a new one.
	if s, err := d.CampaignStamp(ctx, "g"); err != nil || s != (db.CampaignStamp{ID: fc.ID, Version: 2}) {
		t.Errorf("stamp %+v %v, want ID %d version 2", s, err, fc.ID)
	}
	if _, err := d.UpdateCampaign(ctx, "g", func(*Campaign) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if s, err := d.CampaignStamp(ctx, "g"); err != nil || s != (db.CampaignStamp{ID: fc.ID, Version: 3}) {
		t.Errorf("stamp after a save %+v %v, want ID %d version 3", s, err, fc.ID)
	}

	// Orders queue in order per rules.
	o1 := queue(t, d, "g", "red", rules.Order{Action: "invest", Params: map[string]string{"stat": "INF"}})
	o2 := queue(t, d, "g", "Red", rules.Order{Action: "produce", Asset: 1})
	queue(t, d, "g", "Blue", rules.Order{Action: "invest", Params: map[string]string{"stat": "TEC"}})
	if o1.Faction != "Red" || o1.Seq != 1 || o2.Seq != 2 || o1.Mode != db.OrderQueued {
		t.Errorf("queued: %+v %+v", o1, o2)
	}
	if _, err := d.QueueOrder(ctx, "g", Order{Faction: "Green", Order: rules.Order{Action: "invest"}}); !errors.Is(err, rules.ErrUnknownFaction) {
		t.Errorf("an order for no faction: %v", err)
	}
	if _, err := d.QueueOrder(ctx, "no-such-guild", Order{Faction: "Red", Order: rules.Order{Action: "invest"}}); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("an order in a guild without a campaign: %v", err)
	}
	red, err := d.FactionOrders(ctx, "g", "RED", "")
	if err != nil || len(red) != 2 || red[0].ID != o1.ID || red[1].Order.Asset != 1 {
		t.Fatalf("Red's orders: %+v %v", red, err)
	}
	// UpdateOrder stores a change, or removes.
	if _, _, err := d.UpdateOrder(ctx, "g", o1.ID, func(o *Order, _ *Campaign) (db.OrderChange, error) {
		o.Order = o.Order.With("stat", "POP")
		return db.OrderChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if o, err := d.FactionOrder(ctx, "g", o1.ID); err != nil || o.Order.Param("stat") != "POP" {
		t.Errorf("updated order: %+v %v", o, err)
	}
	if n, err := d.DeleteOrders(ctx, "g", "Red", o2.ID); n != 1 || err != nil {
		t.Errorf("delete one order: %d %v", n, err)
	}
	// Removing a faction drops its orders with the save.
	if _, err := d.UpdateCampaign(ctx, "g", func(fc *Campaign) error {
		c := fc.Campaign
		c.Factions = c.Factions[1:]
		c.TurnOrder = []string{"Blue"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	all, err := d.FactionOrders(ctx, "g", "", "")
	if err != nil || len(all) != 1 || all[0].Faction != "Blue" {
		t.Errorf("after Red left: %+v %v", all, err)
	}
	if err := d.DeleteCampaign(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.FactionOrders(ctx, "g", "", ""); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("orders of a deleted campaign: %v", err)
	}
	if _, err := d.CampaignStamp(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("stamp of a deleted campaign: %v", err)
	}
}

// snapshot is everything a round may change, as stored.
func snapshot(t *testing.T, d tdb, guild string) string { return dbtest.CampaignSnapshot(t, d, guild) }

// "A round is one transaction: a crash in the middle leaves the campaign
// exactly as before the round": fail after each step in turn.
func testPlayRoundsAllOrNothing(t *testing.T) {
	clock := time.Date(2025, 3, 7, 17, 0, 0, 0, time.UTC)
	d, _ := open(t, db.WithClock(func() time.Time { return clock }))
	ctx := context.Background()
	world(t, d, "g")
	queue(t, d, "g", "Red", rules.Order{Action: "invest", Params: map[string]string{"stat": "INF"}})
	queue(t, d, "g", "Red", rules.Order{Action: "produce", Asset: 1})
	s, err := d.SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 2, CreatedBy: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	firing := &db.Firing{ScheduleID: s.ID, At: time.Date(2025, 3, 7, 18, 0, 0, 0, time.UTC)}
	before := snapshot(t, d, "g")
	boom := errors.New("the power went out")
	for _, ph := range db.RoundPhases {
		_, err := d.PlayRounds(ctx, "g", playOpts{Rounds: 2, Roller: dice.NewPhysical([]int{2, 3, 2}), ActorID: "schedule", Firing: firing,
			Hook: func(p db.RoundPhase) error {
				if p == ph {
					return boom
				}
				return nil
			}})
		if !errors.Is(err, boom) {
			t.Fatalf("fail after %s: err = %v", ph, err)
		}
		if after := snapshot(t, d, "g"); after != before {
			t.Fatalf("failing after %s changed the store:\nbefore %s\nafter  %s", ph, before, after)
		}
	}
	// Round 1: Red carries out its two orders; Blue's policy invests.
	// Round 2: nothing queued: Red (a player with no policy) holds.
	res, err := d.PlayRounds(ctx, "g", playOpts{Rounds: 2, Roller: dice.NewRandom(rand.New(rand.NewPCG(1, 2))), ActorID: "schedule", Firing: firing})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) != 2 || res.Rounds[0].Round != 1 || res.Rounds[1].Round != 2 || res.Campaign.Campaign.Round != 3 {
		t.Fatalf("played: %+v", res.Rounds)
	}
	red, _ := res.Rounds[0].Report.Faction("Red")
	if len(red.Outcomes) != 2 || red.Outcomes[0].Action != "invest" || red.Outcomes[1].Action != "produce" {
		t.Errorf("Red's round 1: %+v", red.Outcomes)
	}
	if red2, _ := res.Rounds[1].Report.Faction("Red"); len(red2.Outcomes) != 0 || red2.Policy != rules.PolicyHold {
		t.Errorf("Red's round 2 should hold: %+v", red2)
	}
	if orders, err := d.FactionOrders(ctx, "g", "", ""); err != nil || len(orders) != 0 {
		t.Errorf("carried-out orders stay queued: %+v, %v", orders, err)
	}
	hist, err := d.RoundHistory(ctx, "g", 10)
	if err != nil || len(hist) != 2 || hist[0].Round != 1 || hist[1].ScheduleID != s.ID || !hist[1].ScheduledAt.Equal(firing.At) || len(hist[0].Sheets) != 2 {
		t.Fatalf("history: %+v %v", hist, err)
	}
	if r, err := d.PlayedRound(ctx, "g", 2); err != nil || r.Round != 2 {
		t.Errorf("round 2: %+v %v", r, err)
	}
	rec, err := d.FiringStatus(ctx, *firing)
	if err != nil || rec.Status != db.FiringApplied || rec.FirstRound != 1 || rec.LastRound != 2 {
		t.Errorf("firing: %+v %v", rec, err)
	}
	if s, _ := d.ScheduleByID(ctx, s.ID); !s.LastFiring.Equal(firing.At) {
		t.Errorf("last firing %v, want %v", s.LastFiring, firing.At)
	}
	// The same firing again: refused, nothing changes.
	before = snapshot(t, d, "g")
	if _, err := d.PlayRounds(ctx, "g", playOpts{Rounds: 1, Roller: dice.NewPhysical(nil), Firing: firing}); !errors.Is(err, db.ErrFiringDone) {
		t.Errorf("a firing played twice: %v", err)
	}
	if after := snapshot(t, d, "g"); after != before {
		t.Error("a refused firing changed the store")
	}
}

// An order that needs the GM's answer stays queued with its Question; the
// others go.
func testPlayRoundsHoldsQuestions(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	world(t, d, "g")
	held := queue(t, d, "g", "Red", rules.Order{Action: "produce-asset", Params: map[string]string{"chart": "Militia"}})
	queue(t, d, "g", "Red", rules.Order{Action: "no-such-action"})
	res, err := d.PlayRounds(ctx, "g", playOpts{Rounds: 1, Roller: dice.NewPhysical([]int{9}), ActorID: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Held) != 1 || res.Held[0].ID != held.ID || res.Held[0].Question == nil || res.Held[0].Question.Param != "gm_produce" {
		t.Fatalf("held: %+v", res.Held)
	}
	orders, _ := d.FactionOrders(ctx, "g", "Red", "")
	if len(orders) != 1 || orders[0].Question == nil || orders[0].Question.Ask != "gm" {
		t.Fatalf("queue after the round: %+v", orders)
	}
	// Answered, it is carried out next round.
	if _, _, err := d.UpdateOrder(ctx, "g", held.ID, func(o *Order, _ *Campaign) (db.OrderChange, error) {
		o.Order, o.Question = o.Order.With("gm_produce", "approve"), nil
		return db.OrderChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	res, err = d.PlayRounds(ctx, "g", playOpts{Rounds: 1, Roller: dice.NewPhysical([]int{9}), ActorID: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	if red, _ := res.Rounds[0].Report.Faction("Red"); len(red.Outcomes) != 1 || red.Outcomes[0].Action != "produce-asset" || len(res.Held) != 0 {
		t.Errorf("answered order: %+v held %+v", red.Outcomes, res.Held)
	}
	plan, orders2, queued, err := d.RoundPlan(ctx, "g")
	if err != nil || plan.Campaign.Round != 3 || len(orders2) != 0 || len(queued) != 0 {
		t.Errorf("plan: round %d %v %v %v", plan.Campaign.Round, orders2, queued, err)
	}
}

// Two processes on one database fire the same schedule at once: one plays
// the rounds, the other is told the firing is done, and the campaign moves
// one round.
func testFiringAppliedOnceAcrossProcesses(t *testing.T) {
	file := source(t)
	ctx := context.Background()
	var procs []tdb
	for range 2 {
		d, err := db.Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		procs = append(procs, tdb{d, campaigns{d}})
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
			_, errs[i] = d.PlayRounds(ctx, "g", playOpts{Rounds: 1, Roller: dice.NewRandom(rand.New(rand.NewPCG(uint64(i), 0))), Firing: firing})
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
	if applied != 1 || err != nil || fc.Campaign.Round != 2 {
		t.Errorf("applied %d times; campaign at round %d (%v)", applied, fc.Campaign.Round, err)
	}
}

// The benchmark of the "Done when": one round of 100 factions with
// 20 assets each, through the store: load, resolve, save (and the orders,
// the report and the sheets).
func BenchmarkPlayRound100x20(b *testing.B) {
	sd, err := db.Open(context.Background(), filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer sd.Close()
	d := tdb{sd, campaigns{sd}}
	ctx := context.Background()
	if _, err := d.CreateCampaign(ctx, "g", "table", "gm", rules.DefaultConfig()); err != nil {
		b.Fatal(err)
	}
	charts := []string{"Fabricator", "Work Crew", "Militia", "Propaganda Corps", "Research Team", "University", "Media Network", "Barracks", "Freighter", "Envoy"}
	policies := []rules.Policy{rules.PolicyProduce, rules.PolicyInvest, rules.PolicyRepair, rules.PolicyHold}
	if _, err := d.UpdateCampaign(ctx, "g", func(fc *Campaign) error {
		c := fc.Campaign
		for i := range 100 {
			name := fmt.Sprintf("Faction %03d", i)
			f, err := c.AddFaction(name, "")
			if err != nil {
				return err
			}
			f.Policy = policies[i%len(policies)]
			home := fmt.Sprintf("Habitat %03d", i)
			if _, err := c.AddHabitat(home, name, fmt.Sprintf("region %d", i%5)); err != nil {
				return err
			}
			for j := range 20 {
				a, err := c.AddAsset(name, charts[j%len(charts)], home)
				if err != nil {
					return err
				}
				if j%7 == 0 {
					a.Health = max(a.Level-1, 1)
				}
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	roller := dice.NewRandom(rand.New(rand.NewPCG(1, 1)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.PlayRounds(ctx, "g", playOpts{Rounds: 1, Roller: roller, ActorID: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

// EnsureCampaign starts the campaign and changes it in one transaction: a
// change that fails leaves no campaign behind; the next one starts it, and
// the one after finds it.
func testEnsureCampaign(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	nc := newCampaignOpts{ChannelID: "table", ActorID: "gm", Config: rules.DefaultConfig()}
	add := func(name string) func(fc *Campaign) error {
		return func(fc *Campaign) error {
			_, err := fc.Campaign.AddFaction(name, "")
			return err
		}
	}
	if _, _, err := d.EnsureCampaign(ctx, "g", nc, func(*Campaign) error { return rules.ErrBadParam }); !errors.Is(err, rules.ErrBadParam) {
		t.Fatalf("a failing change: %v", err)
	}
	if _, err := d.Campaign(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("a failed change left a campaign: %v", err)
	}
	fc, created, err := d.EnsureCampaign(ctx, "g", nc, add("Red"))
	if err != nil || !created || fc.ChannelID != "table" || fc.Campaign.Faction("Red") == nil {
		t.Fatalf("first: created %v, %+v, %v", created, fc, err)
	}
	fc, created, err = d.EnsureCampaign(ctx, "g", newCampaignOpts{ChannelID: "elsewhere", Config: rules.DefaultConfig()}, add("Blue"))
	if err != nil || created || fc.ChannelID != "table" || len(fc.Campaign.Factions) != 2 {
		t.Fatalf("second: created %v, %+v, %v", created, fc, err)
	}
}
