package db_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// testRollVisibility: who finds a roll of each visibility in the log. A
// gm or blind roll is the GMs' and (gm, blind) its roller's; a self roll
// its roller's alone, GMs included; a public one everyone's.
func testRollVisibility(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	for _, r := range []db.Roll{
		{Code: "PUBLIC", UserID: "alice", Visibility: "public"},
		{Code: "SELFRL", UserID: "alice", Visibility: "self"},
		{Code: "GMROLL", UserID: "alice", Visibility: "gm"},
		{Code: "BLINDR", UserID: "alice", Visibility: "blind"},
		{Code: "OLDPRV", UserID: "alice", Private: true}, // as private:true logged it
	} {
		r.ChannelID, r.UserName, r.Expr = "table", r.UserID, "1d20"
		if _, err := d.LogRoll(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	codes := func(v db.Viewer) map[string]string {
		rolls, err := d.RecentRolls(ctx, "table", "", v, 10)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, r := range rolls {
			out[r.Code] = r.Visibility
			if r.Private != (r.Visibility != "public") {
				t.Errorf("roll %s: private=%v with visibility %q", r.Code, r.Private, r.Visibility)
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		v    db.Viewer
		want map[string]string
	}{
		{"the roller", db.Viewer{ID: "alice"}, map[string]string{"PUBLIC": "public", "SELFRL": "self", "GMROLL": "gm", "BLINDR": "blind", "OLDPRV": "self"}},
		{"another player", db.Viewer{ID: "bob"}, map[string]string{"PUBLIC": "public"}},
		{"a GM", db.Viewer{ID: "gm", GM: true}, map[string]string{"PUBLIC": "public", "GMROLL": "gm", "BLINDR": "blind"}},
	} {
		got := codes(c.v)
		if len(got) != len(c.want) {
			t.Errorf("%s sees %v, want %v", c.name, got, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s sees %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
	r, found, err := d.RollByCode(ctx, "table", "BLINDR")
	if err != nil || !found || r.Visibility != "blind" || !r.Private {
		t.Errorf("RollByCode(BLINDR) = %+v, %v, %v; want the blind roll", r, found, err)
	}
}

func testGMChannel(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.GMChannel(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("GMChannel of a guild with none: err = %v, want ErrNotFound", err)
	}
	for _, ch := range []string{"gm-only", "secrets"} {
		if err := d.SetGMChannel(ctx, "g", ch, "gm"); err != nil {
			t.Fatal(err)
		}
		if got, err := d.GMChannel(ctx, "g"); err != nil || got != ch {
			t.Fatalf("GMChannel = %q, %v; want %q", got, err, ch)
		}
	}
	if _, err := d.GMChannel(ctx, "other"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("another guild's GM channel: err = %v, want ErrNotFound", err)
	}
}

// Rolls saved at once, in whatever batches they go, are each saved once
// with an ID of their own, and each reads its own guild's GM channel as
// it was when the roll was saved (LogRoll).
func testRollsTogether(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if err := d.SetGMChannel(ctx, "g1", "gm-one", "gm"); err != nil {
		t.Fatal(err)
	}
	const workers, each = 16, 25
	saved := make([][]db.SavedRoll, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				guild := fmt.Sprintf("g%d", w%3) // g0 has no GM channel
				s, err := d.LogRoll(ctx, db.Roll{Code: fmt.Sprintf("W%dI%d", w, i), GuildID: guild, ChannelID: "c", UserID: "u", Expr: "1d20", Total: i})
				if err != nil {
					t.Error(err)
					return
				}
				saved[w] = append(saved[w], s)
			}
		})
	}
	wg.Wait()
	byID := map[int64]db.Roll{}
	rolls, err := d.RecentRolls(ctx, "c", "", db.Viewer{GM: true}, workers*each+1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rolls {
		byID[r.ID] = r
	}
	if len(rolls) != workers*each {
		t.Errorf("%d rolls stored, want %d", len(rolls), workers*each)
	}
	for w, list := range saved {
		for i, s := range list {
			r, ok := byID[s.ID]
			if !ok || r.Code != fmt.Sprintf("W%dI%d", w, i) || r.Total != i {
				t.Errorf("ID %d holds %+v, want W%dI%d %d", s.ID, r, w, i, i)
			}
			want := map[int]string{0: "", 1: "gm-one", 2: ""}[w%3]
			if s.GMChannel != want {
				t.Errorf("roll W%dI%d of guild g%d read GM channel %q, want %q", w, i, w%3, s.GMChannel, want)
			}
		}
	}
	if err := d.SetGMChannel(ctx, "g1", "gm-two", "gm"); err != nil {
		t.Fatal(err)
	}
	if s, err := d.LogRoll(ctx, db.Roll{Code: "after", GuildID: "g1", ChannelID: "c", Expr: "1d6"}); err != nil || s.GMChannel != "gm-two" {
		t.Errorf("after the GM channel moved: %+v, %v; want gm-two", s, err)
	}
}

// A channel's dice rule wins over its guild's; a guild's holds in its
// other channels.
func testDiceRule(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if _, err := d.DiceRule(ctx, "g", "table"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("DiceRule with none set: err = %v, want ErrNotFound", err)
	}
	for _, s := range []db.DiceSetting{
		{GuildID: "g", Players: "any", SetBy: "gm"},
		{GuildID: "g", Players: "rolled", SetBy: "gm"}, // replaces the guild's
		{GuildID: "g", ChannelID: "table", Players: "any", SetBy: "gm2"},
	} {
		if err := d.SetDiceRule(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for ch, want := range map[string]struct {
		s     db.DiceSetting
		scope string
	}{
		"table": {db.DiceSetting{GuildID: "g", ChannelID: "table", Players: "any", SetBy: "gm2"}, "channel"},
		"hall":  {db.DiceSetting{GuildID: "g", Players: "rolled", SetBy: "gm"}, "guild"},
	} {
		if got, err := d.DiceRule(ctx, "g", ch); err != nil || got != want.s || got.Scope() != want.scope {
			t.Errorf("DiceRule(%s) = %+v (scope %s), %v; want %+v (%s)", ch, got, got.Scope(), err, want.s, want.scope)
		}
	}
	if _, err := d.DiceRule(ctx, "other", "table"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("another guild's dice rule: err = %v, want ErrNotFound", err)
	}
}
