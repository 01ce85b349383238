package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
)

// open opens a fresh store for t: of the kind the conformance suite
// (TestStore) runs t on, else SQLite; and returns it with its source, to
// open it again.
func open(t *testing.T, opts ...db.Option) (*db.DB, string) {
	t.Helper()
	file := source(t)
	d, err := db.Open(context.Background(), file, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, file
}

// undoMigrations holds, by version, what takes a SQLite database from that
// schema back to the one before, for the tests that make an older
// database (undoSince): a new migration adds its undo here.
var undoMigrations = map[int][]string{
	12: {`DROP TABLE macros`},
	14: {`DROP TABLE outbox`},
	15: {`DROP TABLE display_names`},
	16: {`DROP TABLE faction_order_numbers`, `DROP INDEX faction_orders_number`, `ALTER TABLE faction_orders DROP COLUMN number`},
	17: {`DROP TABLE dice_settings`},
	18: {`CREATE TABLE characters_old (
		id INTEGER PRIMARY KEY, guild_id TEXT NOT NULL DEFAULT '', owner_id TEXT NOT NULL, owner_name TEXT NOT NULL,
		name TEXT NOT NULL, system TEXT NOT NULL, stats TEXT NOT NULL DEFAULT '{}', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
		hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
		UNIQUE (guild_id, name COLLATE NOCASE))`,
		`INSERT INTO characters_old SELECT id, guild_id, owner_id, owner_name, name, system, stats, created_at, updated_at, hidden FROM characters`,
		`DROP TABLE characters`,
		`ALTER TABLE characters_old RENAME TO characters`,
		`CREATE INDEX characters_owner ON characters (guild_id, owner_id)`},
}

// undoSince runs the undo of each migration after version that
// undoMigrations holds, the newest first.
func undoSince(t *testing.T, d *db.DB, version int) {
	t.Helper()
	var versions []int
	for v := range undoMigrations {
		if v > version {
			versions = append(versions, v)
		}
	}
	slices.Sort(versions)
	slices.Reverse(versions)
	for _, v := range versions {
		for _, q := range undoMigrations[v] {
			if _, err := d.SQL().Exec(q); err != nil {
				t.Fatalf("undo migration %d: %v", v, err)
			}
		}
	}
}

func TestOpenSettings(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	// Pin several connections so the settings are seen on more than one:
	// foreign keys are per connection.
	for i := 0; i < 3; i++ {
		conn, err := d.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var mode string
		var fk, busy int
		if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || fk != 1 || busy != 5000 {
			t.Errorf("connection %d: journal_mode=%s foreign_keys=%d busy_timeout=%d, want wal 1 5000", i, mode, fk, busy)
		}
	}
}

func testMigrationsRecordedAndIdempotent(t *testing.T) {
	d, file := open(t)
	ctx := context.Background()
	v, err := d.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v < 1 {
		t.Fatalf("user_version = %d after migrating, want >= 1", v)
	}
	d.Close()
	// Opening again applies nothing twice (a second CREATE TABLE would fail).
	d2, err := db.Open(ctx, file)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer d2.Close()
	v2, err := d2.Version(ctx)
	if err != nil || v2 != v {
		t.Fatalf("version after reopen = %d, %v; want %d", v2, err, v)
	}
}

func testRefusesNewerSchema(t *testing.T) {
	d, file := open(t)
	if err := d.SetVersion(context.Background(), 9999); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := db.Open(context.Background(), file); err == nil {
		t.Fatal("opening a database from a newer Tablehand succeeded, want an error")
	}
}

func testRollLog(t *testing.T) {
	clock := time.Date(2026, 11, 21, 20, 0, 0, 0, time.FixedZone("X", 3600))
	d, _ := open(t, db.WithClock(func() time.Time { return clock }))
	ctx := context.Background()
	save := func(user, channel string, private bool, total int) int64 {
		saved, err := d.LogRoll(ctx, db.Roll{Code: "C" + user, ChannelID: channel, UserID: user, UserName: user, Expr: "1d20", Total: total, Private: private,
			Detail: json.RawMessage(fmt.Sprintf(`{"total":%d}`, total))})
		if err != nil {
			t.Fatal(err)
		}
		return saved.ID
	}
	a := save("alice", "table", false, 3)
	b := save("bob", "table", true, 4)
	save("alice", "other", false, 5)
	c := save("alice", "table", true, 6)
	if !(a < b && b < c) {
		t.Fatalf("ids not increasing: %d %d %d", a, b, c)
	}

	got, err := d.RecentRolls(ctx, "table", "", db.Viewer{ID: "alice"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	// Alice sees her own private roll but not Bob's; newest first; other channels excluded.
	if len(got) != 2 || got[0].ID != c || got[1].ID != a {
		t.Fatalf("alice's view = %+v, want rolls %d and %d", got, c, a)
	}
	if got[0].Code != "Calice" {
		t.Errorf("code = %q, want Calice", got[0].Code)
	}
	if !got[0].Private || got[0].CreatedAt.Location() != time.UTC || !got[0].CreatedAt.Equal(clock) {
		t.Errorf("roll %d: private=%v created=%v, want private and %v in UTC", c, got[0].Private, got[0].CreatedAt, clock)
	}
	got, err = d.RecentRolls(ctx, "table", "bob", db.Viewer{ID: "bob"}, 10)
	if err != nil || len(got) != 1 || got[0].ID != b {
		t.Fatalf("bob's own rolls = %+v, %v; want roll %d", got, err, b)
	}
	got, err = d.RecentRolls(ctx, "table", "", db.Viewer{ID: "carol"}, 1)
	if err != nil || len(got) != 1 || got[0].ID != a {
		t.Fatalf("carol's newest = %+v, %v; want roll %d only", got, err, a)
	}
}

func testRollByCodeAndRecentExprs(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	for i, r := range []db.Roll{
		{Code: "AAAAAA", ChannelID: "table", UserID: "alice", Expr: "1d20 + 5"},
		{Code: "BBBBBB", ChannelID: "table", UserID: "alice", Expr: "4d6kh3"},
		{Code: "CCCCCC", ChannelID: "other", UserID: "alice", Expr: "1d20 + 5"},
		{Code: "DDDDDD", ChannelID: "table", UserID: "bob", Expr: "2d6"},
	} {
		r.UserName = r.UserID
		r.Total = i
		if _, err := d.LogRoll(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	r, found, err := d.RollByCode(ctx, "table", "BBBBBB")
	if err != nil || !found || r.Expr != "4d6kh3" || r.Total != 1 {
		t.Errorf("RollByCode(table, BBBBBB) = %+v, %v, %v", r, found, err)
	}
	if _, found, err := d.RollByCode(ctx, "table", "CCCCCC"); err != nil || found {
		t.Errorf("a roll of another channel was found by code: %v, %v", found, err)
	}
	exprs, err := d.RecentExprs(ctx, "alice", 10)
	if err != nil || len(exprs) != 2 || exprs[0] != "1d20 + 5" || exprs[1] != "4d6kh3" {
		t.Errorf("RecentExprs(alice) = %q, %v; want [1d20 + 5, 4d6kh3]", exprs, err)
	}
}

func testCharacters(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	c, err := d.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "Red_Goblin", System: "arc", Stats: map[string]int{"ks": 4, "us": 3}})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == 0 || c.Stats["ks"] != 4 {
		t.Fatalf("saved %+v", c)
	}
	if c.Hidden {
		t.Fatalf("a sheet saved without Hidden is hidden: %+v", c)
	}
	// Same name, other case: an update of the same sheet, not a second one.
	// Same name, other case: a second new sheet is refused.
	if _, err := d.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "bob", OwnerName: "Bob", Name: "red_goblin", System: "arc"}); !errors.Is(err, db.ErrExists) {
		t.Fatalf("a second Red_Goblin: %v, want ErrExists", err)
	}
	// An update of the sheet as read.
	upd := c
	upd.Stats = map[string]int{"ks": 5}
	c2, err := d.SaveCharacter(ctx, upd)
	if err != nil || c2.ID != c.ID || c2.Stats["ks"] != 5 || c2.Stats["us"] != 0 || !c2.CreatedAt.Equal(c.CreatedAt) {
		t.Fatalf("update = %+v, %v; want the same ID with new stats", c2, err)
	}
	// Hidden (an NPC the GM keeps secret) is kept, and can be undone.
	hide := c2
	hide.Hidden = true
	hidden, err := d.SaveCharacter(ctx, hide)
	if err != nil || !hidden.Hidden {
		t.Fatalf("hide = %+v, %v; want Hidden", hidden, err)
	}
	if got, err := d.Character(ctx, "g", "red_goblin"); err != nil || !got.Hidden {
		t.Fatalf("a hidden sheet read back = %+v, %v; want Hidden", got, err)
	}
	if list, err := d.Characters(ctx, "g", "alice", "", "", 5); err != nil || len(list) != 1 || !list[0].Hidden {
		t.Fatalf("a hidden sheet listed = %+v, %v; want Hidden", list, err)
	}
	hidden.Hidden = false
	if shown, err := d.SaveCharacter(ctx, hidden); err != nil || shown.Hidden {
		t.Fatalf("show again = %+v, %v; want not Hidden", shown, err)
	}
	// A change based on the sheet as it was before that update is stale:
	// it would undo the update (or hand the character to someone else).
	stale := c
	stale.OwnerID = "bob"
	if _, err := d.SaveCharacter(ctx, stale); !errors.Is(err, db.ErrConflict) {
		t.Fatalf("a stale update: %v, want ErrConflict", err)
	}
	rex, err := d.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "bob", OwnerName: "Bob", Name: "Rex", System: "burst"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.SaveCharacter(ctx, db.Character{GuildID: "other", OwnerID: "bob", Name: "Rogue", System: "arc"}); err != nil {
		t.Fatal(err)
	}
	got, err := d.Character(ctx, "g", "RED_GOBLIN")
	if err != nil || got.ID != c.ID {
		t.Errorf("lookup any case = %+v, %v", got, err)
	}
	if _, err := d.Character(ctx, "other", "Red_Goblin"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("another guild's character: %v, want ErrNotFound", err)
	}
	list, err := d.Characters(ctx, "g", "", "", "r", 25)
	if err != nil || len(list) != 2 || list[0].Name != "Red_Goblin" || list[1].Name != "Rex" {
		t.Errorf("prefix r = %+v, %v", list, err)
	}
	// '_' is literal in the prefix, not LIKE's one-character wildcard.
	if list, err := d.Characters(ctx, "g", "", "", "red_", 25); err != nil || len(list) != 1 {
		t.Errorf("prefix red_ = %d, %v", len(list), err)
	}
	if list, err := d.Characters(ctx, "g", "", "", "re%", 25); err != nil || len(list) != 0 {
		t.Errorf("prefix re%% = %d, %v; %% is literal", len(list), err)
	}
	if list, err := d.Characters(ctx, "g", "bob", "burst", "", 25); err != nil || len(list) != 1 || list[0].Name != "Rex" {
		t.Errorf("bob's burst characters = %+v, %v", list, err)
	}
	if err := d.DeleteCharacter(ctx, "other", rex.ID); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("delete from another guild: %v, want ErrNotFound", err)
	}
	if err := d.DeleteCharacter(ctx, "g", rex.ID); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteCharacter(ctx, "g", rex.ID); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("second delete: %v, want ErrNotFound", err)
	}
}

// Checkpoints run in the background, not in a commit; Close folds the WAL
// back into the database file, so a closed database is one file's worth.
func TestCloseCheckpointsWAL(t *testing.T) {
	d, file := open(t)
	ctx := context.Background()
	var autockpt int
	if err := d.SQL().QueryRow("PRAGMA wal_autocheckpoint").Scan(&autockpt); err != nil || autockpt != 0 {
		t.Errorf("wal_autocheckpoint = %d, %v; want 0 (checkpoints are the background's)", autockpt, err)
	}
	for i := 0; i < 200; i++ {
		if _, err := d.LogRoll(ctx, db.Roll{Code: "X", ChannelID: "c", UserID: "u", UserName: "u", Expr: "1d6", Total: i}); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(file + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("no WAL content before Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file + "-wal"); err == nil && fi.Size() != 0 {
		t.Errorf("WAL still holds %d bytes after Close", fi.Size())
	}
	d2, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if rolls, err := d2.RecentRolls(ctx, "c", "", db.Viewer{ID: "u"}, 500); err != nil || len(rolls) != 200 {
		t.Errorf("after reopening: %d rolls, %v; want 200", len(rolls), err)
	}
}

// TestUndoMigrationsKeepUp: the newest SQLite migration has its undo in
// undoMigrations, so that the tests that rebuild an older schema
// (undoSince) see the schema they mean.
func TestUndoMigrationsKeepUp(t *testing.T) {
	entries, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	newest := 0
	for _, e := range entries {
		n, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err == nil {
			newest = max(newest, n)
		}
	}
	if _, ok := undoMigrations[newest]; !ok || newest == 0 {
		t.Errorf("migration %d has no undo in undoMigrations: add it there", newest)
	}
}
