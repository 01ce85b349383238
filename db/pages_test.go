package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// A guild's page links: made once and shown again, at least 128 random
// bits each, distinct per guild and audience; renewing them makes the old
// ones open nothing, exactly as a token never made.
func testPageLinks(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	first, err := d.PageLinks(ctx, "g1", db.ScopeCampaign, false)
	if err != nil {
		t.Fatal(err)
	}
	again, err := d.PageLinks(ctx, "g1", db.ScopeCampaign, false)
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Errorf("asked again: %+v, want the same links %+v", again, first)
	}
	other, err := d.PageLinks(ctx, "g2", db.ScopeCampaign, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tok := range []string{first.Players, first.GM, other.Players, other.GM} {
		// base64url: 6 bits a character.
		if len(tok)*6 < 128 {
			t.Errorf("token of %d characters: fewer than 128 bits", len(tok))
		}
		if seen[tok] {
			t.Errorf("a token given twice")
		}
		seen[tok] = true
	}
	for tok, want := range map[string]db.Page{
		first.Players: {GuildID: "g1", Scope: db.ScopeCampaign, Audience: db.AudiencePlayers},
		first.GM:      {GuildID: "g1", Scope: db.ScopeCampaign, Audience: db.AudienceGM},
		other.GM:      {GuildID: "g2", Scope: db.ScopeCampaign, Audience: db.AudienceGM},
	} {
		if got, err := d.PageByToken(ctx, tok); err != nil || got != want {
			t.Errorf("PageByToken: %+v, %v; want %+v", got, err, want)
		}
	}
	renewed, err := d.PageLinks(ctx, "g1", db.ScopeCampaign, true)
	if err != nil {
		t.Fatal(err)
	}
	if renewed.Players == first.Players || renewed.GM == first.GM {
		t.Errorf("renewed links %+v kept an old token", renewed)
	}
	for _, tok := range []string{first.Players, first.GM, "never-made", ""} {
		if _, err := d.PageByToken(ctx, tok); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("a revoked or unknown token: %v, want ErrNotFound", err)
		}
	}
	if got, err := d.PageByToken(ctx, renewed.GM); err != nil || got.Audience != db.AudienceGM {
		t.Errorf("the renewed GM link: %+v, %v", got, err)
	}
	if got, err := d.PageByToken(ctx, other.Players); err != nil || got.GuildID != "g2" {
		t.Errorf("another guild's link after g1 renewed: %+v, %v", got, err)
	}
}
