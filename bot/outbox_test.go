package bot

import (
	"errors"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
)

var errKilled = errors.New("killed by the test")

// A process that plays a scheduled round and stops right after its
// commit, before it posts the report, leaves the report in the outbox:
// another process on the database posts it once, when the first one's
// lease has passed, and never again. One that stops after it posted, but
// before it marked the post, has it posted once more, and the log says so.
func TestOutboxKillAfterCommit(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			for _, step := range []string{OutboxClaimed, OutboxPosted} {
				t.Run(step, func(t *testing.T) {
					testOutboxKill(t, dbtest.Source(t, kind), step)
				})
			}
		})
	}
}

func testOutboxKill(t *testing.T, source, step string) {
	w := newSchedWorldOn(t, source, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Missed: db.MissedSkip})
	// The first process dies at step, with the round committed.
	w.sched.o.OutboxHook = func(s string, id int64) error {
		if s == step {
			return errKilled
		}
		return nil
	}
	res := w.run("2025-01-06T18:00:00Z")
	if len(res.Applied) != 1 || w.round() != 2 {
		t.Fatalf("the first process played %+v, round %d; want the firing played", res, w.round())
	}
	first := w.poster.take()
	wantFirst := 0
	if step == OutboxPosted {
		wantFirst = 1
	}
	if len(first) != wantFirst {
		t.Fatalf("the first process, stopped when %s, posted %d messages, want %d", step, len(first), wantFirst)
	}

	// The other process, with its own store, poster and log.
	logs := &lockedLog{}
	other := w.open()
	poster := &schedPoster{}
	s := NewScheduler(SchedulerOptions{Store: other, Now: w.clock, Log: slog.New(slog.NewTextHandler(logs, nil))})
	s.SetJob(roundsJob(other, func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(3, 4))) }))
	s.poster = poster
	ctx := t.Context()
	if err := s.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	// Within the lease, the report is still the first process's.
	w.now = w.now.Add(OutboxLease / 2)
	s.RunDue(ctx)
	if got := poster.take(); len(got) != 0 {
		t.Fatalf("posted %d within the first process's lease, want 0", len(got))
	}
	// After it, the other process posts it, once.
	w.now = w.now.Add(OutboxLease)
	s.RunDue(ctx)
	got := poster.take()
	if len(got) != 1 || got[0].channel != "reports" || !strings.Contains(got[0].msg.Content, "firing for") {
		t.Fatalf("after the lease, the other process posted %d messages (%+v), want the report once", len(got), got)
	}
	if step == OutboxPosted && got[0].msg.Content != first[0].msg.Content {
		t.Errorf("posted again %q, the first post was %q", got[0].msg.Content, first[0].msg.Content)
	}
	again := strings.Count(logs.String(), "posting a scheduled report again")
	if again != 1 {
		t.Errorf("the log says %d times that a report is posted again, want once:\n%s", again, logs.String())
	}
	// And never again, by either process.
	w.now = w.now.Add(3 * OutboxLease)
	s.RunDue(ctx)
	w.sched.o.OutboxHook = nil
	w.sched.RunDue(ctx)
	if n := len(poster.take()) + len(w.poster.take()); n != 0 {
		t.Errorf("%d more posts later, want none", n)
	}
	if w.round() != 2 {
		t.Errorf("round %d, want 2: the firing played once", w.round())
	}
}
