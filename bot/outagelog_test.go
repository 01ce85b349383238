package bot

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands/kit"
)

// Each outage of the store is logged when it starts and when it ends,
// once each, however many commands it refuses; a read that succeeds
// during a read-only outage ends nothing (issue 25, item 5).
func TestOutageLoggedOnceEachWay(t *testing.T) {
	b := newStorageBot(t)
	roll := func() (kit.Response, error) { return b.do(t, "roll", kit.Options{"expression": "2d20 + 3"}) }
	starts := func() int { return len(b.logs.lines("level=ERROR", "the database cannot be written")) }
	ends := func() int { return len(b.logs.lines("the database can be written again")) }

	resp, err := roll()
	wantOK(t, "before", resp, err)
	for outage := 1; outage <= 2; outage++ {
		b.exec(t, "PRAGMA query_only = ON")
		for range 3 {
			resp, err = roll()
			b.wantUnavailable(t, "/roll", "its database file is read-only", resp, err)
		}
		resp, err = b.do(t, "history", kit.Options{})
		wantOK(t, "/history while read-only", resp, err)
		if n := ends(); n != outage-1 {
			t.Fatalf("outage %d: %d ends logged while it lasts; want %d:\n%s", outage, n, outage-1, b.logs.String())
		}
		b.exec(t, "PRAGMA query_only = OFF")
		for range 2 {
			resp, err = roll()
			wantOK(t, "after", resp, err)
		}
		if n := starts(); n != outage {
			t.Errorf("after outage %d: %d starts logged; want %d:\n%s", outage, n, outage, b.logs.String())
		}
		if n := ends(); n != outage {
			t.Errorf("after outage %d: %d ends logged; want %d:\n%s", outage, n, outage, b.logs.String())
		}
	}
	// What the user typed stays out of the log (README, Logs).
	if l := b.logs.lines("2d20 + 3"); len(l) > 0 {
		t.Errorf("the log holds the expression typed:\n%s", strings.Join(l, "\n"))
	}
	if l := b.logs.lines("the database can be written again"); len(l) > 0 && !strings.Contains(l[0], "refused=3") {
		t.Errorf("the end does not count the refused commands: %s", l[0])
	}
}

// flakyReplays is a replay memory that fails while down is set.
type flakyReplays struct{ down atomic.Bool }

func (f *flakyReplays) ClaimInteraction(ctx context.Context, id string, now time.Time, keep time.Duration) (bool, error) {
	if f.down.Load() {
		return false, errors.New("dial tcp 127.0.0.1:5432: connect: connection refused\nHINT: is the server running?")
	}
	return true, nil
}

// The replay memory's outage is one warning when it starts and one line
// when it ends, however many requests it spans; each on one line.
func TestReplayOutageLoggedOnce(t *testing.T) {
	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{}) // only to build fixtures
	defer fake.Close()
	logs := &logSink{t: t}
	replays := &flakyReplays{}
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: testRouter(t), Replays: replays,
		Log: slog.New(slog.NewTextHandler(logs, nil)), Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	roll := func() {
		t.Helper()
		in := fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d20"))
		if resp := s.post(t, srv.URL, interactionJSON(t, in), testNow); resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	for outage := 1; outage <= 2; outage++ {
		replays.down.Store(true)
		for range 5 {
			roll()
		}
		replays.down.Store(false)
		roll()
		roll()
		if n := len(logs.lines("level=WARN", "replay memory unavailable")); n != outage {
			t.Errorf("after outage %d: %d warnings; want %d:\n%s", outage, n, outage, logs.String())
		}
		if n := len(logs.lines("replay memory available again")); n != outage {
			t.Errorf("after outage %d: %d ends; want %d:\n%s", outage, n, outage, logs.String())
		}
	}
	// The text handler would escape a line break as \n; the error is
	// logged with its lines joined.
	if l := logs.lines("replay memory unavailable", "connection refused HINT: is the server running?"); len(l) != 2 {
		t.Errorf("%d warnings give the error on one line; want 2:\n%s", len(l), logs.String())
	}
}
