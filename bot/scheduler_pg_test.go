package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
)

// failingRoller rolls until its die number failAt, which fails, as a
// process that dies in the middle of a round.
type failingRoller struct {
	r      dice.Roller
	n      *int
	failAt int
}

func (f failingRoller) Roll(sides int) (int, error) {
	if *f.n++; *f.n == f.failAt {
		return 0, errors.New("the process died here")
	}
	return f.r.Roll(sides)
}

// A scheduler that fails at any die of a scheduled round (each die in
// turn) leaves the campaign exactly as it was, with no firing recorded;
// another scheduler, on a connection pool of its own, then plays that
// firing, once, and the next one too. (Real processes, one of them
// killed with SIGKILL after each step of the round's transaction, and
// two reaching one firing at once: TestSchedulerProcessesOnPostgres in
// cmd/tablehand.)
func TestSchedulerFailureMidRoundPostgres(t *testing.T) {
	steps := 0
	for failAt := 1; ; failAt++ {
		w := newSchedWorldOn(t, dbtest.Postgres(t), db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Missed: db.MissedSkip})
		rolled := 0
		store := w.open()
		dying := NewScheduler(SchedulerOptions{Store: store, Now: w.clock})
		dying.SetJob(roundsJob(store, func() dice.Roller {
			return failingRoller{r: dice.NewRandom(rand.New(rand.NewPCG(1, 2))), n: &rolled, failAt: failAt}
		}))
		dying.poster = w.poster
		other := w.scheduler(w.open())
		before := campaignJSON(t, w.store)
		w.now = at("2025-01-06T18:00:00Z")
		_, err := dying.Run(context.Background(), w.id, w.now)
		if err == nil {
			// failAt is past the round's last die: the round was played.
			if w.round() != 2 {
				t.Fatalf("a round with no failure left round %d", w.round())
			}
			break
		}
		steps++
		if after := campaignJSON(t, w.store); after != before {
			t.Errorf("failing at die %d changed the campaign", failAt)
		}
		if rec, err := w.store.FiringStatus(context.Background(), db.Firing{ScheduleID: w.id, At: w.now}); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("failing at die %d recorded the firing: %+v, %v", failAt, rec, err)
		}
		w.now = at("2025-01-06T18:01:00Z")
		if res, err := other.Run(context.Background(), w.id, w.now); err != nil || len(res.Applied) != 1 || w.round() != 2 {
			t.Errorf("after a failure at die %d the other process: %+v, %v; round %d, want it played once", failAt, res, err, w.round())
		}
		w.now = at("2025-01-07T18:00:00Z")
		if res, err := other.Run(context.Background(), w.id, w.now); err != nil || len(res.Applied) != 1 || w.round() != 3 {
			t.Errorf("the next firing: %+v, %v; round %d, want 3", res, err, w.round())
		}
	}
	t.Logf("the round failed at each of its %d dice in turn", steps)
	if steps < 2 {
		t.Errorf("the round failed at %d steps; want a round of several dice", steps)
	}
}

func campaignJSON(t *testing.T, d *db.DB) string {
	t.Helper()
	fc, err := factioncmd.LoadCampaign(context.Background(), d, "g")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(fc.Campaign)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d|%s", fc.Version, b)
}
