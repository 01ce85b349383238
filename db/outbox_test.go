package db_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
)

// The report of a round goes to the outbox in the round's transaction: a
// round that fails leaves no message, one that commits leaves its
// messages, with the history up to it. Two processes claim different
// messages; a claim holds for its lease; a message marked posted is
// never claimed again.
func testOutbox(t *testing.T) {
	now := time.Date(2025, 3, 7, 18, 0, 0, 0, time.UTC)
	d, source := open(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	world(t, d, "g")
	play := func(fc *db.FactionCampaign, queued []db.FactionOrder) (db.Played, error) {
		fc.State = state(3, "Red", "Blue")
		return db.Played{Rounds: []db.FactionRound{{Round: 1, Report: []byte(`{"round":1}`), Sheets: []byte(`[]`)}}}, nil
	}
	boom := errors.New("the report could not be built")
	if _, err := d.PlayCampaign(ctx, "g", db.PlayOptions{ActorID: "gm", Outbox: func(db.PlayResult, []db.FactionRound) ([]db.OutboxMessage, error) {
		return nil, boom
	}}, play); !errors.Is(err, boom) {
		t.Fatalf("a failing report: %v", err)
	}
	if got, err := d.ClaimOutbox(ctx, now, time.Minute, 10); err != nil || len(got) != 0 {
		t.Fatalf("after a failed round the outbox holds %d (%v), want none", len(got), err)
	}
	_, err := d.PlayCampaign(ctx, "g", db.PlayOptions{ActorID: "gm", Outbox: func(res db.PlayResult, hist []db.FactionRound) ([]db.OutboxMessage, error) {
		if len(res.Rounds) != 1 || len(hist) != 1 || hist[0].Round != 1 {
			return nil, fmt.Errorf("rounds %+v, history %+v", res.Rounds, hist)
		}
		return []db.OutboxMessage{{ChannelID: "table", Body: []byte(`one`)}, {ChannelID: "table", Body: []byte(`two`)}}, nil
	}}, play)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.Open(ctx, source, db.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	a, err := d.ClaimOutbox(ctx, now, time.Minute, 1)
	if err != nil || len(a) != 1 || string(a[0].Body) != "one" || a[0].Attempts != 1 || a[0].ChannelID != "table" {
		t.Fatalf("first claim %+v, %v", a, err)
	}
	b, err := other.ClaimOutbox(ctx, now, time.Minute, 10)
	if err != nil || len(b) != 1 || string(b[0].Body) != "two" {
		t.Fatalf("the other process's claim %+v, %v; want the second message alone", b, err)
	}
	if err := other.MarkPosted(ctx, b[0].ID, now); err != nil {
		t.Fatal(err)
	}
	later := now.Add(2 * time.Minute)
	c, err := other.ClaimOutbox(ctx, later, time.Minute, 10)
	if err != nil || len(c) != 1 || c[0].ID != a[0].ID || c[0].Attempts != 2 {
		t.Fatalf("after the lease: %+v, %v; want the first message, attempt 2", c, err)
	}
	if err := other.MarkPosted(ctx, c[0].ID, later); err != nil {
		t.Fatal(err)
	}
	if got, err := d.ClaimOutbox(ctx, later.Add(time.Hour), time.Minute, 10); err != nil || len(got) != 0 {
		t.Fatalf("after both were posted: %+v, %v; want none", got, err)
	}
}
