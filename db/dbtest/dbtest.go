// Package dbtest gives tests a store of each kind: a SQLite file in a
// temporary directory, or a PostgreSQL schema of their own on the server
// that TABLEHAND_TEST_POSTGRES names.
package dbtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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

// Stores are the kinds of store the conformance suite runs on.
var Stores = []string{"sqlite", "postgres"}

// Source returns a fresh store of kind ("sqlite" or "postgres") for t.
func Source(t testing.TB, kind string) string {
	if kind == "postgres" {
		return Postgres(t)
	}
	return SQLite(t)
}
