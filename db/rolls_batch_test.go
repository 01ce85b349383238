package db

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func openBatchTest(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), filepath.Join(t.TempDir(), "rolls.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Many rolls saved at once are each committed once, with IDs of their own,
// whatever batches they went in.
func TestSaveRollConcurrent(t *testing.T) {
	d := openBatchTest(t)
	const workers, each = 32, 40
	ids := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				saved, err := d.LogRoll(context.Background(), Roll{Code: fmt.Sprintf("W%dI%d", w, i), ChannelID: "c", UserID: "u", Expr: "1d20", Total: i})
				if err != nil {
					t.Error(err)
					return
				}
				ids[w] = append(ids[w], saved.ID)
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for w, list := range ids {
		for i, id := range list {
			if seen[id] {
				t.Fatalf("ID %d given twice", id)
			}
			seen[id] = true
			var code string
			var total int
			if err := d.sql.QueryRow(`SELECT code, total FROM rolls WHERE id = ?`, id).Scan(&code, &total); err != nil {
				t.Fatal(err)
			}
			if code != fmt.Sprintf("W%dI%d", w, i) || total != i {
				t.Errorf("ID %d holds %s %d, want W%dI%d %d", id, code, total, w, i, i)
			}
		}
	}
	var n int
	if err := d.sql.QueryRow(`SELECT count(*) FROM rolls`).Scan(&n); err != nil || n != workers*each {
		t.Errorf("%d rolls stored (%v), want %d", n, err, workers*each)
	}
}

// Rolls that wait while the writer is busy go in one statement; a roll
// that fails there fails alone, and the leader's cancelled context fails
// nobody's roll.
func TestSaveRollBatch(t *testing.T) {
	d := openBatchTest(t)
	if _, err := d.sql.Exec(`CREATE TRIGGER refuse BEFORE INSERT ON rolls WHEN NEW.expr = 'bad'
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`); err != nil {
		t.Fatal(err)
	}
	d.write.Lock() // the writer is busy: every roll below waits
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	type outcome struct {
		id  int64
		err error
	}
	const n = 8
	out := make([]outcome, n)
	var wg sync.WaitGroup
	save := func(i int, ctx context.Context) {
		wg.Go(func() {
			expr := "1d6"
			if i == 3 {
				expr = "bad"
			}
			saved, err := d.LogRoll(ctx, Roll{Code: fmt.Sprint(i), ChannelID: "c", Expr: expr})
			out[i].id, out[i].err = saved.ID, err
		})
	}
	// The first to come leads, and waits for the writer with a context
	// already cancelled.
	save(0, cancelled)
	waitFor(t, func() bool { d.rolls.mu.Lock(); defer d.rolls.mu.Unlock(); return d.rolls.leading })
	for i := 1; i < n; i++ {
		save(i, context.Background())
	}
	waitFor(t, func() bool { d.rolls.mu.Lock(); defer d.rolls.mu.Unlock(); return len(d.rolls.pending) == n })
	d.write.Unlock()
	wg.Wait()
	for i, o := range out {
		if i == 3 {
			if o.err == nil {
				t.Errorf("the refused roll was saved as %d", o.id)
			}
			continue
		}
		if o.err != nil || o.id == 0 {
			t.Errorf("roll %d: id %d, %v", i, o.id, o.err)
		}
	}
	var stored int
	if err := d.sql.QueryRow(`SELECT count(*) FROM rolls`).Scan(&stored); err != nil || stored != n-1 {
		t.Errorf("%d rolls stored (%v), want %d", stored, err, n-1)
	}
	// The queue is idle again: the next roll leads and commits at once.
	if _, err := d.LogRoll(context.Background(), Roll{Code: "after", ChannelID: "c", Expr: "1d6"}); err != nil {
		t.Fatal(err)
	}
}

// Rolls that wait while the writer is busy are saved by one statement,
// and each is answered with its own row, also when their codes are alike
// (drawn at random, two may be) and when the GM channel is read for them.
func TestSaveRollBatchOneStatement(t *testing.T) {
	d := openBatchTest(t)
	if err := d.SetGMChannel(context.Background(), "g", "gm-room", "gm"); err != nil {
		t.Fatal(err)
	}
	d.write.Lock() // the writer is busy: every roll below waits
	const n = 6
	out := make([]SavedRoll, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			code := "SAME"
			if i%2 == 1 {
				code = fmt.Sprint("R", i)
			}
			out[i], errs[i] = d.LogRoll(context.Background(), Roll{Code: code, GuildID: "g", ChannelID: "c", Expr: "1d6", Total: 100 + i})
		})
		// One at a time, so that the batch holds them in this order.
		waitFor(t, func() bool { d.rolls.mu.Lock(); defer d.rolls.mu.Unlock(); return len(d.rolls.pending) == i+1 })
	}
	commits := d.commits.Load()
	d.write.Unlock()
	wg.Wait()
	if got := d.commits.Load() - commits; got != 1 {
		t.Errorf("%d commits for the batch, want 1", got)
	}
	for i, s := range out {
		var total int
		if err := d.sql.QueryRow(`SELECT total FROM rolls WHERE id = ?`, s.ID).Scan(&total); errs[i] != nil || err != nil || total != 100+i || s.GMChannel != "gm-room" {
			t.Errorf("roll %d: %+v, %v; its row holds %d (%v), want %d and gm-room", i, s, errs[i], total, err, 100+i)
		}
	}
}

// Replay claims that wait while the writer is busy are one commit, and of
// one ID twice in the batch, the first is first (saveClaims).
func TestClaimBatchOneStatement(t *testing.T) {
	d := openBatchTest(t)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if first, err := d.ClaimInteraction(context.Background(), "old", now, time.Hour); err != nil || !first {
		t.Fatalf("claim old: %v, %v", first, err)
	}
	d.write.Lock() // the writer is busy: every claim below waits
	ids := []string{"a", "old", "a", "b"}
	first := make([]bool, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() { first[i], errs[i] = d.ClaimInteraction(context.Background(), id, now, time.Hour) })
		// One at a time, so that the batch holds them in this order.
		waitFor(t, func() bool { d.claims.mu.Lock(); defer d.claims.mu.Unlock(); return len(d.claims.pending) == i+1 })
	}
	commits := d.commits.Load()
	d.write.Unlock()
	wg.Wait()
	if got := d.commits.Load() - commits; got != 1 {
		t.Errorf("%d commits for the batch, want 1", got)
	}
	for i, want := range []bool{true, false, false, true} {
		if errs[i] != nil || first[i] != want {
			t.Errorf("claim %d of %s: first %v, %v; want %v", i, ids[i], first[i], errs[i], want)
		}
	}
}

// waitFor polls cond until it holds; the goroutines it waits for only
// need to be scheduled.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}
