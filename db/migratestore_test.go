package db_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
)

// A SQLite database with a bit of everything (rolls, a character, a fight
// with its journal, a campaign with orders and a schedule) moves into an
// empty store of the suite's kind: every table's rows and checksum agree,
// the stored things read back the same, new IDs follow the copied ones,
// and a second copy into the now full store is refused.
func testMigrateStore(t *testing.T) {
	ctx := context.Background()
	from, err := db.Open(ctx, dbtest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	for i := range 5 {
		if _, err := from.LogRoll(ctx, db.Roll{Code: "R" + string(rune('A'+i)), ChannelID: "table", UserID: "u1", UserName: "Ann", Expr: "1d20", Total: i + 1, Detail: json.RawMessage(`{"d":[1]}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := from.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "u1", OwnerName: "Ann", Name: "Mira", System: "arc", Stats: map[string]int{"control": 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := from.StartEncounter(ctx, "g", "table", "generic", "gm"); err != nil {
		t.Fatal(err)
	}
	update(t, from, "table", add("Goblin", 7))
	update(t, from, "table", add("Orc", 9))
	if _, _, err := from.UndoEncounter(ctx, "table", "gm"); err != nil {
		t.Fatal(err)
	}
	world(t, from, "g")
	queue(t, from, "g", "Red", order{Action: "invest", Params: map[string]string{"stat": "INF"}})
	// Order 2 is removed: the copy must not give its number again.
	removed := queue(t, from, "g", "Red", order{Action: "invest", Params: map[string]string{"stat": "TEC"}})
	if n, err := from.DeleteOrders(ctx, "g", "Red", removed.ID); n != 1 || err != nil {
		t.Fatalf("delete order %d: %d %v", removed.ID, n, err)
	}
	if _, err := from.SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "0 18 * * *", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, CreatedBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	if err := from.SetPlayMode(ctx, db.PlaySetting{GuildID: "g", ChannelID: "table", Mode: "strict", SetBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	if err := from.SetGMChannel(ctx, "g", "gm-only", "gm"); err != nil {
		t.Fatal(err)
	}
	if _, err := from.SetMacro(ctx, db.Macro{GuildID: "g", OwnerID: "u1", OwnerName: "Ann", Name: "atk", Roll: "1d20+control"}, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := from.LogRoll(ctx, db.Roll{Code: "BLINDR", ChannelID: "table", UserID: "u1", UserName: "Ann", Expr: "1d20", Total: 20, Visibility: "blind"}); err != nil {
		t.Fatal(err)
	}

	if err := from.SetDiceRule(ctx, db.DiceSetting{GuildID: "g", Players: "rolled", SetBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	links, err := from.PageLinks(ctx, "g", db.ScopeCampaign, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := from.SaveDisplayNames(ctx, "g", []db.DisplayName{{UserID: "u1", Name: "Ann"}, {UserID: "gm", Name: "The GM"}}); err != nil {
		t.Fatal(err)
	}

	to, _ := open(t)
	copies, err := db.MigrateStore(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, c := range copies {
		if !c.OK() || c.FromSum == "" {
			t.Errorf("%+v", c)
		}
		rows += c.To
	}
	// 6 rolls (one blind), 1 character, 1 encounter with 4 journal entries (start, two
	// adds, the undo) and 3 snapshots, 1 campaign, 1 order and Red's last
	// order number, 1 schedule, 1 play setting, 1 GM channel, 2 page
	// tokens, 1 macro, 2 display names, 1 dice rule.
	if len(copies) != 20 || rows != 27 {
		t.Errorf("%d tables, %d rows copied; want all 20 tables and the 27 rows made above", len(copies), rows)
	}
	if p, err := to.PageByToken(ctx, links.GM); err != nil || p.GuildID != "g" || p.Audience != db.AudienceGM {
		t.Errorf("the GM's page link after the move: %+v, %v", p, err)
	}
	same := func(what string, get func(d *db.DB) any) {
		t.Helper()
		a, _ := json.Marshal(get(from))
		b, _ := json.Marshal(get(to))
		if string(a) != string(b) {
			t.Errorf("%s differs after the copy:\n%s\n%s", what, a, b)
		}
	}
	same("the roll log", func(d *db.DB) any {
		r, err := d.RecentRolls(ctx, "table", "", db.Viewer{ID: "u1"}, 10)
		return []any{r, err}
	})
	same("the character", func(d *db.DB) any { c, err := d.Character(ctx, "g", "mira"); return []any{c, err} })
	same("the encounter", func(d *db.DB) any { e, err := d.Encounter(ctx, "table"); return []any{e, err} })
	same("the journal", func(d *db.DB) any { l, err := d.EncounterLog(ctx, "table", 10); return []any{l, err} })
	same("the campaign", func(d *db.DB) any { c, err := d.Campaign(ctx, "g"); return []any{c, err} })
	same("the orders", func(d *db.DB) any { o, err := d.FactionOrders(ctx, "g", "", ""); return []any{o, err} })
	same("the GM channel", func(d *db.DB) any { c, err := d.GMChannel(ctx, "g"); return []any{c, err} })
	same("the GM's roll log", func(d *db.DB) any {
		r, err := d.RecentRolls(ctx, "table", "", db.Viewer{ID: "gm", GM: true}, 10)
		return []any{r, err}
	})
	same("the schedule", func(d *db.DB) any { s, err := d.Schedule(ctx, "g"); return []any{s, err} })
	same("the macros", func(d *db.DB) any { m, err := d.Macros(ctx, "g", "u1"); return []any{m, err} })
	same("the dice rule", func(d *db.DB) any { s, err := d.DiceRule(ctx, "g", "table"); return []any{s, err} })
	same("the display names", func(d *db.DB) any { n, err := d.DisplayNames(ctx, "g", []string{"u1", "gm"}); return []any{n, err} })
	// Redo reads a copied snapshot; new rows take IDs after the copied ones.
	if _, _, err := to.RedoEncounter(ctx, "table", "gm"); err != nil {
		t.Errorf("redo after the copy: %v", err)
	}
	saved, err := to.LogRoll(ctx, db.Roll{Code: "NEW", ChannelID: "table", UserID: "u1", UserName: "Ann", Expr: "1d6", Total: 1})
	if err != nil || saved.ID != 7 {
		t.Errorf("a new roll after the copy: id %d, %v; want 7", saved.ID, err)
	}
	if o := queue(t, to, "g", "Blue", order{Action: "invest", Params: map[string]string{"stat": "TEC"}}); o.ID != removed.ID+1 {
		t.Errorf("a new order after the copy: id %d; want %d, after every ID the source gave", o.ID, removed.ID+1)
	}
	if o := queue(t, to, "g", "Red", order{Action: "invest", Params: map[string]string{"stat": "WEA"}}); o.Number != removed.Number+1 {
		t.Errorf("Red's new order after the copy: number %d; want %d, after every number Red was given", o.Number, removed.Number+1)
	}
	if _, err := db.MigrateStore(ctx, from, to); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a copy into a full store: %v; want it refused", err)
	}
}

// Order IDs survive two copies: a store that was itself copied into (its
// next ID set past the removed ones, none given since) hands on every ID
// its source gave, so that a removed order's number is not given again
// two moves later.
func testMigrateStoreTwice(t *testing.T) {
	ctx := context.Background()
	from, err := db.Open(ctx, dbtest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	world(t, from, "g")
	queue(t, from, "g", "Red", order{Action: "invest", Params: map[string]string{"stat": "INF"}})
	removed := queue(t, from, "g", "Red", order{Action: "invest", Params: map[string]string{"stat": "TEC"}})
	if n, err := from.DeleteOrders(ctx, "g", "Red", removed.ID); n != 1 || err != nil {
		t.Fatalf("delete order %d: %d %v", removed.ID, n, err)
	}
	mid, _ := open(t)
	if _, err := db.MigrateStore(ctx, from, mid); err != nil {
		t.Fatal(err)
	}
	last, _ := open(t)
	if _, err := db.MigrateStore(ctx, mid, last); err != nil {
		t.Fatal(err)
	}
	if o := queue(t, last, "g", "Blue", order{Action: "invest", Params: map[string]string{"stat": "TEC"}}); o.ID != removed.ID+1 {
		t.Errorf("a new order after two copies: id %d; want %d, after every ID the first store gave", o.ID, removed.ID+1)
	}
}
