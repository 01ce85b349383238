package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	d, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, path
}

// A backup taken while another connection keeps writing is a consistent
// snapshot: sound, migrated, and holding every roll committed before it
// began.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	d, path := openTemp(t)
	for i := range 50 {
		if _, err := d.LogRoll(ctx, Roll{Code: fmt.Sprintf("B%04d", i), ChannelID: "c", UserID: "u", UserName: "u", Expr: "1d6", Total: 3}); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var written atomic.Int64
	busy := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(busy)
		for i := 0; ; i++ {
			if i == 20 {
				busy <- struct{}{} // the writer is busy: back up now
			}
			select {
			case <-stop:
				return
			default:
			}
			if _, err := d.LogRoll(ctx, Roll{Code: fmt.Sprintf("W%05d", i), ChannelID: "c", UserID: "u", UserName: "u", Expr: "1d6", Total: 3}); err != nil {
				t.Error(err)
				return
			}
			written.Add(1)
		}
	}()
	<-busy
	dest := filepath.Join(t.TempDir(), "backup.db")
	err := Backup(ctx, path, dest)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("Backup: %v", err)
	}
	rep, err := Check(ctx, dest)
	if err != nil || !rep.OK() {
		t.Fatalf("the backup: %v\n%s", err, rep)
	}
	b, err := Open(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var n int
	if err := b.SQL().QueryRow("SELECT count(*) FROM rolls WHERE code LIKE 'B%'").Scan(&n); err != nil || n != 50 {
		t.Errorf("the backup holds %d of the 50 rolls made before it (%v)", n, err)
	}
	t.Logf("backup taken while %d rolls were written beside it", written.Load())
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".*.tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	// A backup never overwrites.
	if err := Backup(ctx, path, dest); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a backup over an existing file: %v", err)
	}
	if err := Backup(ctx, filepath.Join(t.TempDir(), "missing.db"), filepath.Join(t.TempDir(), "x.db")); err == nil {
		t.Error("a backup of a missing database succeeded")
	}
}

func TestCheck(t *testing.T) {
	ctx := context.Background()
	d, path := openTemp(t)
	latest, err := LatestVersion()
	if err != nil || latest < 1 {
		t.Fatalf("LatestVersion = %d, %v", latest, err)
	}
	rep, err := Check(ctx, path)
	if err != nil || !rep.OK() || rep.Version != latest {
		t.Fatalf("a fresh database: %v\n%s", err, rep)
	}
	t.Logf("Check:\n%s", rep)

	// Made by a newer Tablehand.
	if _, err := d.SQL().Exec(fmt.Sprintf("PRAGMA user_version = %d", latest+1)); err != nil {
		t.Fatal(err)
	}
	if rep, err := Check(ctx, path); err != nil || rep.OK() || !strings.Contains(rep.String(), "newer Tablehand") {
		t.Errorf("a newer schema: %v\n%s", err, rep)
	}
	if _, err := Check(ctx, filepath.Join(t.TempDir(), "missing.db")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}

	// A damaged file: garbage over a table's pages.
	d.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", 1024)), 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if rep, err := Check(ctx, path); err == nil && rep.OK() {
		t.Errorf("a damaged file passed:\n%s", rep)
	} else {
		t.Logf("damaged: %v %v", err, rep.Integrity)
	}
}

// TestOpenRefusesADamagedFile: serve, http and console open the database
// with Open, which runs SQLite's quick check first and refuses a damaged
// file with what to do, instead of starting and failing every command.
func TestOpenRefusesADamagedFile(t *testing.T) {
	ctx := context.Background()
	d, path := openTemp(t)
	for i := range 300 {
		if _, err := d.LogRoll(ctx, Roll{ChannelID: "c", UserID: "u", Code: fmt.Sprintf("R%05d", i), Expr: "1d6", Total: 3}); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", 1024)), 8192); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Open(ctx, path)
	if err == nil || !errors.Is(err, ErrDamaged) || !Damaged(err) ||
		!strings.Contains(err.Error(), "Restore a backup: stop Tablehand, check the backup with `tablehand check --db BACKUP`, copy it over "+path) {
		t.Fatalf("Open of a damaged file: %v", err)
	}
	// Not a database at all.
	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, junk); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open of a file that is no database: %v", err)
	}
}

// Every table of the schema is one migrate-store copies (storeTables) and
// a backup holds: a new table (macros) cannot be left behind by either.
func TestEveryTableMovesAndIsBackedUp(t *testing.T) {
	ctx := context.Background()
	d, path := openTemp(t)
	tables, err := queryAll(ctx, d.SQL(), scanString, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, st := range storeTables {
		known[st.name] = true
	}
	for _, name := range tables {
		if !known[name] {
			t.Errorf("table %s is not in storeTables: migrate-store would leave it behind", name)
		}
	}
	if len(tables) != len(storeTables) {
		t.Errorf("the schema has %d tables, storeTables %d: %v", len(tables), len(storeTables), tables)
	}

	if _, err := d.SetMacro(ctx, Macro{GuildID: "g", OwnerID: "u", OwnerName: "Ann", Name: "atk", Roll: "1d20+5"}, 100); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	if err := Backup(ctx, path, dest); err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if m, err := b.Macros(ctx, "g", "u"); err != nil || len(m) != 1 || m[0].Roll != "1d20+5" {
		t.Errorf("the backup's macros: %+v, %v; want atk", m, err)
	}
}
