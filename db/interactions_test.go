package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
)

// Two processes on one database claim the same interactions at once: each
// is claimed by exactly one, a later claim is a replay, and an ID older
// than the window is forgotten.
func testClaimInteraction(t *testing.T) {
	one, source := open(t)
	ctx := context.Background()
	other, err := db.Open(ctx, source)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	procs := []*db.DB{one, other}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	const keep = 20 * time.Minute
	const ids = 20
	wins := make([][]bool, len(procs))
	var wg sync.WaitGroup
	for p, d := range procs {
		wins[p] = make([]bool, ids)
		wg.Go(func() {
			for i := range ids {
				ok, err := d.ClaimInteraction(ctx, fmt.Sprint("i", i), now, keep)
				if err != nil {
					t.Error(err)
				}
				wins[p][i] = ok
			}
		})
	}
	wg.Wait()
	for i := range ids {
		if wins[0][i] == wins[1][i] {
			t.Errorf("interaction i%d: claimed by process 1 %v, by process 2 %v; want exactly one", i, wins[0][i], wins[1][i])
		}
	}
	if ok, err := other.ClaimInteraction(ctx, "i0", now.Add(time.Minute), keep); ok || err != nil {
		t.Errorf("a replay a minute later: first %v, %v; want refused", ok, err)
	}
	later := now.Add(keep + time.Minute)
	if ok, err := one.ClaimInteraction(ctx, "new", later, keep); !ok || err != nil {
		t.Errorf("a new interaction: first %v, %v", ok, err)
	}
	if ok, err := one.ClaimInteraction(ctx, "i0", later, keep); !ok || err != nil {
		t.Errorf("an ID older than the window: first %v, %v; want it forgotten", ok, err)
	}
}
