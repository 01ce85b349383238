package main

import (
	"strings"
	"testing"

	"github.com/tablehand/tablehand/bot"
	"github.com/tablehand/tablehand/db"
)

// The operator's log names the store in use: on PostgreSQL its URL
// without the password, not the SQLite default.
func TestWiredDatabaseNamesTheStore(t *testing.T) {
	cfg, err := bot.LoadConfig("", func(n string) string {
		if n == "TABLEHAND_DATABASE_URL" {
			return "postgres://tablehand:hunter2@db.example.org:5432/tablehand"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	deps := wire(cfg, (*db.DB)(nil), nil, &testHooks{})
	if got := deps.Database; strings.Contains(got, "hunter2") || !strings.Contains(got, "db.example.org") || strings.Contains(got, db.DefaultPath) {
		t.Errorf("the log names the database %q; want the PostgreSQL server, without its password", got)
	}
}
