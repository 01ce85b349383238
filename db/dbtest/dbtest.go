// Package dbtest gives tests a store of each kind: a SQLite file in a
// temporary directory, a SQLite database in memory, or a PostgreSQL schema
// of their own on the server that TABLEHAND_TEST_POSTGRES names.
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tablehand/tablehand/db"
)

// EnvPostgres names the variable holding the URL of the PostgreSQL server
// the tests use. .ci/run sets it.
const EnvPostgres = "TABLEHAND_TEST_POSTGRES"

// LocalPostgres is the server tried when EnvPostgres is unset.
const LocalPostgres = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// HowTo is what a skipped PostgreSQL test says.
const HowTo = EnvPostgres + " is unset and no PostgreSQL answers at 127.0.0.1:5432: " +
	"to run the PostgreSQL tests, start one (docker run --rm -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_DB=test postgres:17, " +
	"or apt-get install postgresql) and set " + EnvPostgres + "=" + LocalPostgres

var (
	serverOnce sync.Once
	serverURL  string
	serverErr  error
)

// server returns the URL of the test server, or "" when there is none to
// use: EnvPostgres when set (a server that does not answer then fails the
// test: CI must not skip them silently), else LocalPostgres if it answers.
func server(t testing.TB) string {
	serverOnce.Do(func() {
		u := os.Getenv(EnvPostgres)
		set := u != ""
		if !set {
			u = LocalPostgres
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, u)
		if err != nil {
			if set {
				serverErr = fmt.Errorf("%s=%s: %w", EnvPostgres, u, err)
			}
			return
		}
		c.Close(ctx)
		serverURL = u
	})
	if serverErr != nil {
		t.Fatal(serverErr)
	}
	return serverURL
}

// Available reports whether the PostgreSQL tests can run.
func Available(t testing.TB) bool { return server(t) != "" }

// Postgres returns the URL of a fresh, empty schema of its own on the test
// server, dropped when the test ends, or skips the test with HowTo.
func Postgres(t testing.TB) string {
	t.Helper()
	base := server(t)
	if base == "" {
		t.Skip(HowTo)
	}
	u, drop, err := NewSchema(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Error(err)
		}
	})
	return u
}

// dropped counts the schemas this process dropped; every vacuumEvery,
// the drop vacuums the catalogs (vacuumCatalogs).
var dropped atomic.Int64

const vacuumEvery = 25

// vacuumCatalogs cleans the catalog rows that making and dropping a
// schema of some twenty tables leaves dead. A server with autovacuum off
// (as CI's is) otherwise keeps them all: two million in pg_attribute
// were seen, which every new connection's catalog lookups wade through.
const vacuumCatalogs = `VACUUM pg_catalog.pg_attribute, pg_catalog.pg_class, pg_catalog.pg_depend,
	pg_catalog.pg_type, pg_catalog.pg_constraint, pg_catalog.pg_index, pg_catalog.pg_attrdef`

// NewSchema makes a fresh schema on the server at base and returns the URL
// that works in it (search_path) and the function that drops it.
func NewSchema(base string) (string, func() error, error) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, base)
	if err != nil {
		return "", nil, err
	}
	defer c.Close(ctx)
	schema := "tablehand_test_" + strings.ToLower(rand.Text()[:12])
	if _, err := c.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", nil, fmt.Errorf("create schema %s: %w", schema, err)
	}
	drop := func() error {
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			return fmt.Errorf("drop schema %s: %w", schema, err)
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			return fmt.Errorf("drop schema %s: %w", schema, err)
		}
		if dropped.Add(1)%vacuumEvery == 0 {
			// Best effort: a server that cannot vacuum still runs the tests.
			c.Exec(ctx, vacuumCatalogs)
		}
		return nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}

// Server returns the URL of the test server, skipping t with HowTo when
// there is none.
func Server(t testing.TB) string {
	t.Helper()
	base := server(t)
	if base == "" {
		t.Skip(HowTo)
	}
	return base
}

// SQLite returns the path of a new SQLite file in a temporary directory.
func SQLite(t testing.TB) string {
	return filepath.Join(t.TempDir(), "t.db")
}

// Memory returns the source of a new SQLite database in memory
// (db.MemoryPrefix), which lives until t ends: closed and opened again, a
// store finds it as it left it, as it would a file.
func Memory(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	src := db.MemoryPrefix + "tablehand_test_" + strings.ToLower(rand.Text()[:12])
	// The database lives while a connection to it is open: this one,
	// held until t ends (after the test's own stores, closed first).
	keep, err := db.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := keep.SQL().Conn(ctx)
	if err != nil {
		keep.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		keep.Close()
	})
	return src
}

// Stores are the kinds of store the conformance suite runs on.
var Stores = []string{"sqlite", "memory", "postgres"}

// Source returns a fresh store of kind ("sqlite", "memory" or "postgres")
// for t.
func Source(t testing.TB, kind string) string {
	switch kind {
	case "postgres":
		return Postgres(t)
	case "memory":
		return Memory(t)
	}
	return SQLite(t)
}

// Case is one test of a suite that runs on every kind of store.
type Case struct {
	Name string
	Test func(*testing.T)
}

// kinds maps the name prefix of each store's subtest that Run starts
// ("TestStore/postgres/") to its kind.
var kinds sync.Map

// Run runs every case on every kind of store, as <t>/<kind>/<case>; the
// PostgreSQL cases skip with HowTo when no server answers. A case gets a
// fresh store of its kind from FreshSource.
func Run(t *testing.T, cases []Case) {
	for _, kind := range Stores {
		t.Run(kind, func(t *testing.T) {
			if kind == "postgres" && !Available(t) {
				t.Skip(HowTo)
			}
			kinds.Store(t.Name()+"/", kind)
			for _, c := range cases {
				t.Run(c.Name, c.Test)
			}
		})
	}
}

// FreshSource returns a fresh store for t: of the kind Run runs t on,
// else SQLite.
func FreshSource(t *testing.T) string {
	kind := "sqlite"
	kinds.Range(func(prefix, k any) bool {
		if strings.HasPrefix(t.Name(), prefix.(string)) {
			kind = k.(string)
			return false
		}
		return true
	})
	return Source(t, kind)
}

// CampaignSnapshot is everything a faction round may change of the
// guild's campaign, as stored, read through d's SQL: two snapshots are
// equal when nothing changed.
func CampaignSnapshot(t testing.TB, d interface{ SQL() *sql.DB }, guild string) string {
	t.Helper()
	// Each query's rows, joined in Go: the same on every store.
	var out []string
	for _, q := range []string{
		`SELECT state || '|' || version FROM faction_campaigns WHERE guild_id = '` + guild + `'`,
		`SELECT id || ':' || body || ':' || question FROM faction_orders ORDER BY id`,
		`SELECT count(*) || ':' || coalesce(max(round), 0) FROM faction_rounds`,
		`SELECT count(*) || '' FROM faction_firings`,
		`SELECT last_firing FROM faction_schedules ORDER BY id`,
	} {
		rows, err := d.SQL().Query(q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		out = append(out, strings.Join(got, ";"))
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
