package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// A player's macros are their own, the server's serve every player, a
// player's own of a name comes first; a set again replaces; the count is
// bounded per owner; and RollSources reads the macros of a name and the
// sheets in one statement.
func testMacros(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	set := func(m db.Macro, max int) (bool, error) {
		t.Helper()
		return d.SetMacro(ctx, m, max)
	}
	if r, err := set(db.Macro{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "atk", Roll: "1d20+5"}, 3); r || err != nil {
		t.Fatalf("a new macro: replaced %v, %v", r, err)
	}
	if r, err := set(db.Macro{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "atk", Roll: "1d20+som"}, 3); !r || err != nil {
		t.Fatalf("the same name again: replaced %v, %v; want replaced", r, err)
	}
	for _, m := range []db.Macro{
		{GuildID: "g", OwnerID: "", OwnerName: "GM", Name: "atk", Roll: "1d20"},
		{GuildID: "g", OwnerID: "", OwnerName: "GM", Name: "init", Roll: "1d20+dex"},
		{GuildID: "g", OwnerID: "bob", OwnerName: "Bob", Name: "dmg", Roll: "2d6"},
		{GuildID: "other", OwnerID: "alice", OwnerName: "Alice", Name: "zap", Roll: "1d4"},
	} {
		if _, err := set(m, 3); err != nil {
			t.Fatal(err)
		}
	}
	// Alice's limit of 2: a third is refused, a change of one she has is not.
	if _, err := set(db.Macro{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "heal", Roll: "2d4"}, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := set(db.Macro{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "more", Roll: "1d6"}, 2); !errors.Is(err, db.ErrLimit) {
		t.Fatalf("a third macro over a limit of 2: %v, want ErrLimit", err)
	}
	if _, err := set(db.Macro{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "heal", Roll: "2d4+2"}, 2); err != nil {
		t.Fatalf("a change at the limit: %v", err)
	}
	list, err := d.Macros(ctx, "g", "alice")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range list {
		got = append(got, m.OwnerID+":"+m.Name+"="+m.Roll)
	}
	want := []string{"alice:atk=1d20+som", ":atk=1d20", "alice:heal=2d4+2", ":init=1d20+dex"}
	if len(got) != len(want) {
		t.Fatalf("alice's macros = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("alice's macros = %q, want %q", got, want)
		}
	}
	if list[0].CreatedAt.IsZero() || list[0].UpdatedAt.Before(list[0].CreatedAt) {
		t.Errorf("times of %+v", list[0])
	}

	if _, err := d.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "alice", OwnerName: "Alice", Name: "Mira", System: "arc", Stats: map[string]int{"som": 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "bob", OwnerName: "Bob", Name: "Brom", System: "arc", Stats: map[string]int{"som": 2}, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	src, err := d.RollSources(ctx, "g", "alice", "atk", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Macros) != 2 || src.Macros[0].OwnerID != "alice" || src.Macros[0].Roll != "1d20+som" || !src.Macros[1].Server() || src.Macros[1].CreatedAt.IsZero() {
		t.Errorf("the macros named atk for alice: %+v; want hers, then the server's", src.Macros)
	}
	if len(src.Characters) != 1 || src.Characters[0].Name != "Mira" || src.Characters[0].Stats["som"] != 3 {
		t.Errorf("alice's sheets: %+v; want Mira", src.Characters)
	}
	// character: names a sheet, anyone's (the commands decide who may read it).
	src, err = d.RollSources(ctx, "g", "alice", "dmg", "BROM")
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Macros) != 0 || len(src.Characters) != 1 || src.Characters[0].Name != "Brom" || !src.Characters[0].Hidden {
		t.Errorf("dmg (bob's) and Brom for alice: %+v", src)
	}
	if src, err = d.RollSources(ctx, "g", "carol", "nothing", ""); err != nil || len(src.Macros)+len(src.Characters) != 0 {
		t.Errorf("carol, who has nothing: %+v, %v", src, err)
	}

	if err := d.DeleteMacro(ctx, "g", "alice", "atk"); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteMacro(ctx, "g", "alice", "atk"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("deleting it again: %v, want ErrNotFound", err)
	}
	if src, err := d.RollSources(ctx, "g", "alice", "atk", ""); err != nil || len(src.Macros) != 1 || !src.Macros[0].Server() {
		t.Errorf("atk after alice deleted hers: %+v, %v; want the server's", src.Macros, err)
	}
}
