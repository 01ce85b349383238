package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/db/dbtest"
)

// A `tablehand http` on SQLite killed with SIGKILL and started again
// refuses an interaction it answered before the kill: the replay memory
// is the database's on SQLite as on PostgreSQL.
func TestHTTPReplayAfterRestartSQLite(t *testing.T) {
	file := dbtest.SQLite(t)
	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	roll := slash(t, fake, "g", "table", "alice", false, "roll", fakediscord.StringOpt("expression", "1d6"), fakediscord.StringOpt("dice", "4"))
	client := &http.Client{Timeout: 30 * time.Second}
	p, url := startHTTP(t, s, file)
	if status, a, err := s.send(client, url, roll); status != http.StatusOK || err != nil || !strings.Contains(a.Data.Content, "1d6 (4)") {
		t.Fatalf("first: status %d, %q, %v", status, a.Data.Content, err)
	}
	p.kill(t)
	_, url = startHTTP(t, s, file)
	if status, a, err := s.send(client, url, roll); status != http.StatusConflict {
		t.Errorf("sent again after a restart: status %d, %q, %v; want 409", status, a.Data.Content, err)
	}
}
