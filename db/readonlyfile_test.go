package db

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chattr sets (+i) or clears (-i) the immutable attribute of file: the
// one way to make a file unwritable to root, whom chmod does not stop.
func chattr(t *testing.T, flag, file string) {
	t.Helper()
	if out, err := exec.Command("chattr", flag, file).CombinedOutput(); err != nil {
		t.Skipf("chattr %s: %v %s (needs root and a file system with the attribute, such as ext4)", flag, err, out)
	}
}

// A SQLite file that is read-only when it is opened (SQLite then opens it
// read-only, silently) and is made writable again, is written again without a restart (issue 25, item 5). The file
// itself is made read-only, with chattr +i: the tests run as root.
func TestReadOnlyFileWritableAgain(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "t.db")
	d, err := Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	save := func(d *DB) error {
		_, err := d.LogRoll(ctx, Roll{Code: "c", GuildID: "1", ChannelID: "2", UserID: "3", UserName: "a", Expr: "1d20", Total: 7})
		return err
	}
	if err := save(d); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	chattr(t, "+i", file)
	t.Cleanup(func() { exec.Command("chattr", "-i", file).Run() })
	d, err = Open(ctx, file)
	if err != nil {
		t.Fatalf("open a read-only file: %v", err)
	}
	defer d.Close()
	for range 3 {
		if err := save(d); !Unavailable(err) || UnavailableReason(err) != "read-only" {
			t.Fatalf("a write to the read-only file: %v; want read-only", err)
		}
	}
	chattr(t, "-i", file)
	if err := save(d); err != nil {
		t.Fatalf("a write once the file is writable again: %v", err)
	}

	for range 3 {
		if err := save(d); err != nil {
			t.Fatalf("writes after: %v", err)
		}
	}
}

// Opening a database in a directory that cannot be written says so, and
// what to fix, instead of SQLite's "unable to open database file" (issue
// 25, item 5).
func TestOpenInUnwritableDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	existing := filepath.Join(dir, "t.db")
	d, err := Open(ctx, existing)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	chattr(t, "+i", dir)
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	for _, file := range []string{filepath.Join(dir, "new.db"), existing} {
		d, err := Open(ctx, file)
		if err == nil {
			d.Close()
			t.Fatalf("%s opened in an unwritable directory", file)
		}
		for _, want := range []string{"directory " + dir + " cannot be written", "make the directory writable"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("open %s: %v\nwant it to say %q", file, err, want)
			}
		}
	}
}
