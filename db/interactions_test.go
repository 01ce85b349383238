package db_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
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

// Claims made at once, in whatever batches they go, some of one ID
// (a replay sent while the first is being claimed): each ID is claimed
// first exactly once.
func testClaimsTogether(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	const workers, ids = 24, 40
	var firsts [ids]atomic.Int32
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range ids {
				id := fmt.Sprintf("15000000000000%05d", (i*7+w)%ids) // every worker claims every ID, in its own order
				first, err := d.ClaimInteraction(ctx, id, now, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				if first {
					firsts[(i*7+w)%ids].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i := range ids {
		if n := firsts[i].Load(); n != 1 {
			t.Errorf("ID %d claimed first %d times, want once", i, n)
		}
	}
}

// Claims and rolls made at once, an interaction's claim then its roll,
// in whatever batches each goes: each interaction is claimed first once,
// and each roll is saved once with its own ID.
func testClaimsAndRollsTogether(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	const workers, each = 16, 30
	var firsts atomic.Int32
	ids := make(chan int64, workers*each)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				// An interaction claims, then rolls; two workers send each.
				first, err := d.ClaimInteraction(ctx, fmt.Sprintf("16000000000%03d%05d", w/2, i), now, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				if !first {
					continue
				}
				firsts.Add(1)
				saved, err := d.LogRoll(ctx, db.Roll{Code: fmt.Sprintf("W%dI%d", w, i), ChannelID: "c", UserID: "u", Expr: "1d20", Total: i})
				if err != nil {
					t.Error(err)
					return
				}
				ids <- saved.ID
			}
		})
	}
	wg.Wait()
	close(ids)
	if n := firsts.Load(); n != workers/2*each {
		t.Errorf("%d claims first, want %d: each interaction once", n, workers/2*each)
	}
	seen := map[int64]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("roll ID %d given twice", id)
		}
		seen[id] = true
	}
	rolls, err := d.RecentRolls(ctx, "c", "", db.Viewer{GM: true}, workers*each)
	if err != nil || len(rolls) != len(seen) || len(seen) != workers/2*each {
		t.Errorf("%d rolls stored (%v), %d answered, want %d", len(rolls), err, len(seen), workers/2*each)
	}
}
