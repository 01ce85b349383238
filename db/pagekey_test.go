package db_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// grepFiles fails t if any of the files (those missing skipped) holds
// one of tokens, as text.
func grepFiles(t *testing.T, tokens []string, files ...string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range tokens {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a page token", filepath.Base(f))
			}
		}
	}
}

// No page token is in the database file, its WAL or a backup of it: the
// database keeps a token's hash and a nonce, and the token is derived
// again from them with the page secret, which is in a key file beside the
// database (owner only), not in the backup. A link is shown again after a
// restart; under another secret it cannot be, and is replaced.
func TestPageTokensAreNotInTheDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "t.db")
	d, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	links := map[string]db.PageLinks{}
	for _, scope := range []string{db.ScopeCampaign, db.FightScope("table", 1)} {
		for _, renew := range []bool{false, true} {
			l, err := d.PageLinks(ctx, "g", scope, renew)
			if err != nil {
				t.Fatal(err)
			}
			tokens = append(tokens, l.Players, l.GM)
			links[scope] = l
		}
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := db.Backup(ctx, file, backup); err != nil {
		t.Fatal(err)
	}
	// While the database is open (the WAL holds the latest pages) and
	// after it is closed.
	grepFiles(t, tokens, file, file+"-wal", backup)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	grepFiles(t, tokens, file, file+"-wal", backup)
	if fi, err := os.Stat(file + db.PageKeySuffix); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file beside the database: %v, %v; want it, readable by its owner alone", fi, err)
	}
	if _, err := os.Stat(backup + db.PageKeySuffix); err == nil {
		t.Errorf("a key file beside the backup")
	}

	again, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for scope, want := range links {
		if got, err := again.PageLinks(ctx, "g", scope, false); err != nil || got != want {
			t.Errorf("%s after a restart: %+v, %v; want the same links %+v", scope, got, err, want)
		}
	}
	again.Close()

	// The backup alone, under another secret: every link still opens its
	// page (by its hash), but none can be shown again, so asking for them
	// replaces them.
	other, err := db.Open(ctx, backup, db.WithPageSecret(bytes.Repeat([]byte("k"), db.MinPageSecret)))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	old := links[db.ScopeCampaign]
	if p, err := other.PageByToken(ctx, old.GM); err != nil || p.Audience != db.AudienceGM {
		t.Errorf("the GM's link in the restored backup: %+v, %v", p, err)
	}
	renewed, err := other.PageLinks(ctx, "g", db.ScopeCampaign, false)
	if err != nil || !renewed.Renewed || renewed.GM == old.GM || renewed.Players == old.Players {
		t.Errorf("links asked for under another secret: %+v, %v; want new ones, Renewed", renewed, err)
	}
	if _, err := other.PageByToken(ctx, old.GM); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("the replaced GM link: %v, want ErrNotFound", err)
	}
	if _, err := db.Open(ctx, filepath.Join(dir, "short.db"), db.WithPageSecret([]byte("short"))); err == nil || !strings.Contains(err.Error(), "at least") {
		t.Errorf("a short page secret: %v", err)
	}
}

// A database of tokens kept in the clear (before migration 0013): the
// migration leaves none in the file, yet every link still opens its page;
// a fight's link opens the fight running in its channel then, or, with
// none, names its latest, ended one (never the next); and asking for a
// link again replaces it, as it cannot be shown.
func TestPageTokensInTheClearAreMigrated(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "old.db")
	d, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := d.StartEncounter(ctx, "g", "table", "generic", "gm")
	if err != nil {
		t.Fatal(err)
	}
	ended, err := d.StartEncounter(ctx, "g", "hall", "generic", "gm")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.EndEncounter(ctx, "hall", "gm"); err != nil {
		t.Fatal(err)
	}
	old := map[string]string{ // token: scope, as 0009 kept them
		"campaignPlayersToken-0123456789abcdefghijklmnop":  "campaign",
		"fightGMToken-0123456789abcdefghijklmnopqrstuvwxy": "fight:table",
		"endedFightToken-0123456789abcdefghijklmnopqrstuv": "fight:hall",
		"neverFoughtToken-0123456789abcdefghijklmnopqrstu": "fight:nowhere",
	}
	// Back to schema 12: page tokens as 0009 made them, and no table of a
	// later migration.
	if _, err := d.SQL().ExecContext(ctx, `DROP TABLE page_tokens`); err != nil {
		t.Fatal(err)
	}
	undoSince(t, d, 12)
	schema, err := os.ReadFile("migrations/0009_page_tokens.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.SQL().ExecContext(ctx, string(schema)); err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for tok, scope := range old {
		h := sha256.Sum256([]byte(tok))
		if _, err := d.SQL().ExecContext(ctx, `INSERT INTO page_tokens (guild_id, scope, audience, token, token_hash, created_at)
			VALUES ('g', ?, ?, ?, ?, '2026-01-01T00:00:00Z')`, scope, scope[:1], tok, hex.EncodeToString(h[:])); err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok)
	}
	if err := d.SetVersion(ctx, 12); err != nil {
		t.Fatal(err)
	}
	d.Close()
	b, err := os.ReadFile(file)
	if err != nil || !bytes.Contains(b, []byte(tokens[0])) {
		t.Fatalf("the old database does not hold its tokens in the clear (%v): the test proves nothing", err)
	}

	d, err = db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	grepFiles(t, tokens, file, file+"-wal")
	for tok, want := range map[string]string{
		"campaignPlayersToken-0123456789abcdefghijklmnop":  db.ScopeCampaign,
		"fightGMToken-0123456789abcdefghijklmnopqrstuvwxy": db.FightScope("table", enc.ID),
		"endedFightToken-0123456789abcdefghijklmnopqrstuv": db.FightScope("hall", ended.ID),
		"neverFoughtToken-0123456789abcdefghijklmnopqrstu": db.FightScope("nowhere", 0),
	} {
		if p, err := d.PageByToken(ctx, tok); err != nil || p.Scope != want {
			t.Errorf("an old link opens %+v, %v; want scope %s", p, err, want)
		}
	}
	links, err := d.PageLinks(ctx, "g", db.ScopeCampaign, false)
	if err != nil || !links.Renewed {
		t.Errorf("an old campaign link asked for again: %+v, %v; want new links, Renewed", links, err)
	}
	if _, err := d.PageByToken(ctx, "campaignPlayersToken-0123456789abcdefghijklmnop"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("the replaced campaign link: %v, want ErrNotFound", err)
	}
}

// A fight page's scope names its channel and its fight; an old one
// without the fight names none.
func TestFightScope(t *testing.T) {
	for _, c := range []struct {
		scope, channel string
		id             int64
		ok             bool
	}{
		{db.FightScope("123", 7), "123", 7, true},
		{db.FightScope("a:b", 7), "a:b", 7, true},
		{"fight:123", "123", 0, true},
		{"fight:", "", 0, false},
		{db.ScopeCampaign, "", 0, false},
	} {
		ch, id, ok := db.FightOf(c.scope)
		if ch != c.channel || id != c.id || ok != c.ok {
			t.Errorf("FightOf(%q) = %q, %d, %v; want %q, %d, %v", c.scope, ch, id, ok, c.channel, c.id, c.ok)
		}
	}
}
