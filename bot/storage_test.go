package bot

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// storageBot is the router over a real database, wrapped as Serve wraps
// it, with one database connection so that a per-connection PRAGMA holds
// for every statement.
type storageBot struct {
	store *db.DB
	path  string
	h     Answerer
	logs  *logSink
	m     *Metrics
}

func newStorageBot(t *testing.T) *storageBot {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	store, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	store.SQL().SetMaxOpenConns(1)
	logs := &logSink{t: t}
	log := slog.New(slog.NewTextHandler(logs, nil))
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Log, deps.Database = log, path
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(1, 2))) }
	router := commands.New(deps)
	m := NewMetrics()
	return &storageBot{store: store, path: path, h: Logged(router, log, m), logs: logs, m: m}
}

func (b *storageBot) do(t *testing.T, path string, opts kit.Options) (kit.Response, error) {
	t.Helper()
	req := &kit.Request{Kind: kit.KindCommand, Path: path, Options: opts,
		User: kit.User{ID: "u1", Name: "Ann"}, GuildID: "g1", ChannelID: "c1"}
	return b.h.Handle(context.Background(), req)
}

func (b *storageBot) exec(t *testing.T, query string) {
	t.Helper()
	if _, err := b.store.SQL().Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func (b *storageBot) rolls(t *testing.T) int {
	t.Helper()
	var n int
	if err := b.store.SQL().QueryRow("SELECT count(*) FROM rolls").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// wantUnavailable checks that a command failed for want of storage: the
// user is told it was not saved, what is wrong (why: "read-only", "the
// disk is full") and that only the operator can fix it.
func (b *storageBot) wantUnavailable(t *testing.T, what, why string, resp kit.Response, err error) {
	t.Helper()
	if !db.Unavailable(err) {
		t.Errorf("%s: error %v; want a storage failure", what, err)
	}
	if !strings.Contains(resp.Content, "cannot save anything right now: "+why) || !strings.Contains(resp.Content, "Only the bot's operator can fix it") || !resp.Ephemeral {
		t.Errorf("%s: the user saw %q (ephemeral %v)", what, resp.Content, resp.Ephemeral)
	}
}

func wantOK(t *testing.T, what string, resp kit.Response, err error) {
	t.Helper()
	if err != nil || strings.HasPrefix(resp.Content, "⚠️") {
		t.Errorf("%s: %q, %v", what, resp.Content, err)
	}
}

// The database turns read-only under a running bot (a file system
// remounted read-only after disk errors, a mistaken chmod): commands that
// write fail with a message saying so, reads go on, nothing is half
// written, and once it is writable again the bot carries on.
//
// The tests run as root here, and root writes through chmod 0444, so
// read-only is made with PRAGMA query_only, which fails a write with the
// same SQLITE_READONLY a read-only file gives.
func TestReadOnlyDatabase(t *testing.T) {
	b := newStorageBot(t)
	resp, err := b.do(t, "roll", kit.Options{"expression": "1d20+5"})
	wantOK(t, "before", resp, err)

	b.exec(t, "PRAGMA query_only = ON")
	resp, err = b.do(t, "roll", kit.Options{"expression": "2d6"})
	b.wantUnavailable(t, "/roll", "its database file is read-only", resp, err)
	resp, err = b.do(t, "character/set", kit.Options{"name": "Vel", "system": "arc", "stats": "ks=4"})
	b.wantUnavailable(t, "/character set", "its database file is read-only", resp, err)
	resp, err = b.do(t, "history", kit.Options{})
	wantOK(t, "/history (a read) while read-only", resp, err)
	if !strings.Contains(resp.Content+fmt.Sprint(resp.Embeds), "1d20") {
		t.Errorf("/history while read-only does not show the earlier roll: %+v", resp)
	}
	if n := b.rolls(t); n != 1 {
		t.Errorf("%d rolls stored; want the 1 from before", n)
	}
	// The operator reads it once, with the file, what is wrong and what to
	// do, not once per command.
	b.logs.waitLog(t, "level=ERROR", `msg="the database cannot be written`, "database="+b.path, "reason=read-only", "fix=", "writable")
	if n := len(b.logs.lines("the database cannot be written")); n != 1 {
		t.Errorf("the read-only database was logged %d times; want once:\n%s", n, b.logs.String())
	}
	b.logs.waitLog(t, "level=WARN", "msg=command", "command=roll", "outcome=unavailable")

	b.exec(t, "PRAGMA query_only = OFF")
	resp, err = b.do(t, "roll", kit.Options{"expression": "3d6"})
	wantOK(t, "after", resp, err)
	resp, err = b.do(t, "character/set", kit.Options{"name": "Vel", "system": "arc", "stats": "ks=4"})
	wantOK(t, "/character set after", resp, err)
	checkSound(t, b.path)
	if v := metricValue(t, b.m, `tablehand_commands_total{command="roll",kind="command",outcome="unavailable"}`); v != 1 {
		t.Errorf("unavailable /roll counted %v times, want 1", v)
	}
}

// The disk fills up under a running bot. PRAGMA max_page_count caps the
// file where it stands, which fails the next write that needs a page with
// SQLITE_FULL, as a full disk does. Then space returns.
func TestDiskFull(t *testing.T) {
	b := newStorageBot(t)
	var pages int
	if err := b.store.SQL().QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	b.exec(t, fmt.Sprintf("PRAGMA max_page_count = %d", pages))
	saved := 0
	var resp kit.Response
	var err error
	for range 2000 {
		resp, err = b.do(t, "roll", kit.Options{"expression": "4d6kh3"})
		if err != nil {
			break
		}
		saved++
	}
	b.wantUnavailable(t, "/roll on a full disk", "the disk its database is on is full", resp, err)
	t.Logf("the disk was full after %d rolls: %v", saved, err)
	if n := b.rolls(t); n != saved {
		t.Errorf("%d rolls stored; %d were answered", n, saved)
	}

	b.exec(t, "PRAGMA max_page_count = 1073741823")
	resp, err = b.do(t, "roll", kit.Options{"expression": "4d6kh3"})
	wantOK(t, "after space returned", resp, err)
	if n := b.rolls(t); n != saved+1 {
		t.Errorf("%d rolls stored after space returned; want %d", n, saved+1)
	}
	checkSound(t, b.path)
}

func checkSound(t *testing.T, path string) {
	t.Helper()
	rep, err := db.Check(context.Background(), path)
	if err != nil || !rep.OK() {
		t.Errorf("the database afterwards: %v\n%s", err, rep)
	}
}
