package db_test

import (
	"context"
	"errors"
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
		if _, err := d.SaveRoll(ctx, r); err != nil {
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
	for ch, want := range map[string]db.DiceSetting{
		"table": {GuildID: "g", ChannelID: "table", Players: "any", SetBy: "gm2"},
		"hall":  {GuildID: "g", Players: "rolled", SetBy: "gm"},
	} {
		if got, err := d.DiceRule(ctx, "g", ch); err != nil || got != want || got.Scope() != want.Scope() {
			t.Errorf("DiceRule(%s) = %+v, %v; want %+v", ch, got, err, want)
		}
	}
	if _, err := d.DiceRule(ctx, "other", "table"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("another guild's dice rule: err = %v, want ErrNotFound", err)
	}
}
