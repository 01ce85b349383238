package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
)

// TestScriptsPostgres runs every console script of testdata/script again
// with its database on PostgreSQL (a schema of its own per script): the
// console contract is the same on both stores, byte for byte. The scripts
// are copied with `--db $WORK/t.db` made `--db $DB`, which names the
// schema, so a script added later runs on both without knowing it.
func TestScriptsPostgres(t *testing.T) {
	base := dbtest.Server(t)
	scripts, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	dir := t.TempDir()
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(b), "--db $WORK/t.db", "--db $DB")
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(s)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testscript.Run(t, testscript.Params{Dir: dir, Cmds: scriptCmds, Condition: func(cond string) (bool, error) {
		if cond == "readonly" {
			return false, nil // the store is a server, not a file to make read-only
		}
		return scriptCondition(cond)
	}, Setup: func(env *testscript.Env) error {
		u, drop, err := dbtest.NewSchema(base)
		if err != nil {
			return err
		}
		env.Defer(func() {
			if err := drop(); err != nil {
				env.T().Log(err)
			}
		})
		env.Setenv("DB", u)
		return nil
	}})
}

// runWith runs tablehand with args, input and the environment env, and
// returns its standard output and error.
func runWith(t *testing.T, env map[string]string, input string, args ...string) (string, error) {
	t.Helper()
	var out, errs bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(input), &out, &errs, func(k string) string { return env[k] })
	return out.String(), err
}

// TABLEHAND_DATABASE_URL, and database_url in the config file, select
// PostgreSQL: what one console run saves, the next one finds there, and
// no SQLite file is made; `check` reads the schema version there.
func TestDatabaseURLSelectsPostgres(t *testing.T) {
	u := dbtest.Postgres(t)
	dir := t.TempDir()
	t.Chdir(dir)
	env := map[string]string{"TABLEHAND_DATABASE_URL": u}
	if _, err := runWith(t, env, "/character set name:Mira system:arc\n", "console", "--json"); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "pg.toml")
	if err := os.WriteFile(conf, []byte("database_url = \""+u+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runWith(t, nil, "/character list\n", "console", "--config", conf)
	if err != nil || !strings.Contains(out, "Mira") {
		t.Errorf("/character list with database_url: %v\n%s; want Mira, saved through TABLEHAND_DATABASE_URL", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "tablehand.db")); err == nil {
		t.Error("a SQLite file was made although database_url selects PostgreSQL")
	}
	out, err = runWith(t, env, "", "check")
	if err != nil || !strings.Contains(out, "postgres://") || strings.Contains(out, "search_path") {
		t.Errorf("check: %v\n%s; want the redacted URL and a fit database", err, out)
	}
	// --db on the command line still selects a SQLite file.
	file := filepath.Join(dir, "x.db")
	out, err = runWith(t, env, "/character list\n", "console", "--db", file)
	if err != nil || strings.Contains(out, "Mira") {
		t.Errorf("/character list with --db: %v\n%s; want the empty SQLite file", err, out)
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("--db made no SQLite file: %v", err)
	}
	// For PostgreSQL, backup points to pg_dump.
	if _, err := runWith(t, env, "", "backup", filepath.Join(dir, "b.db")); err == nil || !strings.Contains(err.Error(), "pg_dump") {
		t.Errorf("backup of PostgreSQL: %v; want a pointer to pg_dump", err)
	}
}

// Bad database settings give one clear line each, never the password.
func TestDatabaseURLErrors(t *testing.T) {
	newer := dbtest.Postgres(t)
	if _, err := runWith(t, map[string]string{"TABLEHAND_DATABASE_URL": newer}, "", "console"); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(context.Background(), newer)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetVersion(context.Background(), 999); err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, c := range []struct{ name, url, want string }{
		{"malformed", "postgres://tablehand:s3cret@db.example.org:notaport/x", "malformed database URL"},
		{"refused", "postgres://tablehand:s3cret@127.0.0.1:1/x?connect_timeout=5", "cannot reach the database server"},
		{"not postgres", "mysql://tablehand:s3cret@127.0.0.1/x", "must start with postgres://"},
		{"newer schema", newer, "newer than this Tablehand knows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runWith(t, map[string]string{"TABLEHAND_DATABASE_URL": c.url}, "/roll 1d6\n", "console")
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v; want one line with %q and no password", err, c.want)
			}
		})
	}
	_, err = runWith(t, map[string]string{"TABLEHAND_DATABASE_URL": newer, "TABLEHAND_DB": "x.db"}, "", "console")
	if err == nil || !strings.Contains(err.Error(), "one store at a time") {
		t.Errorf("both TABLEHAND_DB and TABLEHAND_DATABASE_URL: %v; want an error", err)
	}
}

// fakeAuthServer is a PostgreSQL server that asks for a password and
// refuses it, as a server with password authentication refuses a wrong
// one (the test server trusts everyone, so it cannot).
func fakeAuthServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				be := pgproto3.NewBackend(c, c)
				if _, err := be.ReceiveStartupMessage(); err != nil {
					return
				}
				be.Send(&pgproto3.AuthenticationCleartextPassword{})
				if err := be.Flush(); err != nil {
					return
				}
				be.SetAuthType(pgproto3.AuthTypeCleartextPassword)
				if _, err := be.Receive(); err != nil {
					return
				}
				be.Send(&pgproto3.ErrorResponse{Severity: "FATAL", Code: "28P01", Message: `password authentication failed for user "tablehand"`})
				be.Flush()
			}()
		}
	}()
	return ln.Addr().String()
}

// A wrong password gives one line that says so, without the password.
func TestDatabaseURLWrongPassword(t *testing.T) {
	addr := fakeAuthServer(t)
	_, err := runWith(t, map[string]string{"TABLEHAND_DATABASE_URL": "postgres://tablehand:s3cret@" + addr + "/x?sslmode=disable"}, "/roll 1d6\n", "console")
	if err == nil || !strings.Contains(err.Error(), "refused the login: password authentication failed") ||
		strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v; want one line saying the login was refused, no password", err)
	}
}
