package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tablehand/tablehand/db/dbtest"
)

// scriptRuns are the console runs of the scripts in testdata/script: each
// script's input.txt with its first console command's flags, the database
// left out. Scripts that give a config file are left out.
func scriptRuns(t *testing.T) (runs []struct {
	args  []string
	input string
}) {
	t.Helper()
	scripts, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	execLine := regexp.MustCompile(`(?m)^exec tablehand console (.*)$`)
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		m := execLine.FindStringSubmatch(string(a.Comment))
		if m == nil || strings.Contains(m[1], "--config") {
			continue
		}
		var input string
		for _, f := range a.Files {
			if f.Name == "input.txt" {
				input = string(f.Data)
			}
		}
		if input == "" {
			continue
		}
		var args []string
		for _, f := range strings.Fields(m[1]) {
			if f != "--json" && f != "--db" && f != "$WORK/t.db" {
				args = append(args, f)
			}
		}
		runs = append(runs, struct {
			args  []string
			input string
		}{args, input})
	}
	return runs
}

// A SQLite database made by the console scripts moves into PostgreSQL with
// migrate-store, and the console then shows the same fight, factions and
// roll history on it as on the SQLite file.
func TestMigrateStoreRoundTrip(t *testing.T) {
	pg := dbtest.Postgres(t)
	file := filepath.Join(t.TempDir(), "t.db")
	runs := scriptRuns(t)
	if len(runs) < 10 {
		t.Fatalf("%d scripts to run, want the console scripts", len(runs))
	}
	for _, r := range runs {
		if _, err := runWith(t, nil, r.input, append([]string{"console", "--db", file}, r.args...)...); err != nil {
			t.Fatalf("console %v: %v", r.args, err)
		}
	}
	// A fight still running, so that /init list has one to show.
	fight := "/init start\n/init add name:Gob init:1 hp:5\n/init add name:Brom init:3 hp:10\n/init begin dice:14,9\n/init next\n/init damage target:Gob amount:2\n"
	if _, err := runWith(t, nil, fight, "console", "--db", file, "--channel", "arena", "--user", "gm", "--seed", "3"); err != nil {
		t.Fatal(err)
	}
	show := "#arena /init list\n/faction show faction:Red\n/faction list\n/history count:25\n#arena /history count:25\n/character list\n"
	before, err := runWith(t, nil, show, "console", "--db", file, "--user", "gm", "--gm", "gm")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Gob", "Brom", "Round 1", "**Red**", "Recent rolls", "Mira"} {
		if !strings.Contains(before, want) {
			t.Fatalf("the SQLite database shows no %q; the scripts made nothing to compare:\n%s", want, before)
		}
	}

	out, err := runWith(t, nil, "", "migrate-store", "--from", file, "--to", pg)
	if err != nil || !strings.Contains(out, "checksums equal") {
		t.Fatalf("migrate-store: %v\n%s", err, out)
	}
	after, err := runWith(t, nil, show, "console", "--db", pg, "--user", "gm", "--gm", "gm")
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("after migrate-store the console shows\n%s\nwant, as on the SQLite file,\n%s", after, before)
	}
	// The target is full now: a second copy is refused.
	if _, err := runWith(t, nil, "", "migrate-store", "--from", file, "--to", pg); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a second migrate-store: %v; want it refused", err)
	}
	if _, err := runWith(t, nil, "", "migrate-store", "--from", file); err == nil || !strings.Contains(err.Error(), "e.g. tablehand migrate-store") {
		t.Errorf("migrate-store without --to: %v; want an example", err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("the source is gone: %v", err)
	}
}
