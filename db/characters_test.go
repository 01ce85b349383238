package db_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// testCharacterNames: a name is one sheet's among a guild's visible
// sheets, and one sheet's among its hidden ones, whatever its case; a
// visible and a hidden sheet may share it (issue 20: else a player naming
// a sheet as the GM's secret NPC is told the name is taken).
func testCharacterNames(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	save := func(c db.Character) (db.Character, error) {
		c.GuildID, c.System = "g", "arc"
		if c.OwnerName == "" {
			c.OwnerName = c.OwnerID
		}
		return d.SaveCharacter(ctx, c)
	}
	shade, err := save(db.Character{OwnerID: "gm", Name: "Shade", Hidden: true, Stats: map[string]int{"som": 7}})
	if err != nil {
		t.Fatal(err)
	}
	bobs, err := save(db.Character{OwnerID: "bob", Name: "shade", Stats: map[string]int{"som": 3}})
	if err != nil {
		t.Fatalf("a visible sheet named as a hidden one: %v, want it made", err)
	}
	if bobs.Hidden || bobs.ID == shade.ID || bobs.Stats["som"] != 3 {
		t.Fatalf("the visible shade saved as %+v", bobs)
	}
	if _, err := save(db.Character{OwnerID: "alice", Name: "SHADE"}); !errors.Is(err, db.ErrExists) {
		t.Errorf("a second visible SHADE: %v, want ErrExists", err)
	}
	if _, err := save(db.Character{OwnerID: "gm", Name: "SHADE", Hidden: true}); !errors.Is(err, db.ErrExists) {
		t.Errorf("a second hidden SHADE: %v, want ErrExists", err)
	}
	named, err := d.CharactersNamed(ctx, "g", "SHADE")
	if err != nil || len(named) != 2 || named[0].ID != bobs.ID || named[1].ID != shade.ID {
		t.Fatalf("CharactersNamed SHADE = %+v, %v; want bob's visible one, then the hidden one", named, err)
	}
	if named, err := d.CharactersNamed(ctx, "g", "Nobody"); err != nil || len(named) != 0 {
		t.Errorf("CharactersNamed Nobody = %+v, %v; want none", named, err)
	}
	if got, err := d.Character(ctx, "g", "Shade"); err != nil || got.ID != bobs.ID {
		t.Errorf("Character Shade = %+v, %v; want the visible one", got, err)
	}
	// Either one changes alone, the other untouched.
	shade.Stats = map[string]int{"som": 8}
	if shade, err = d.SaveCharacter(ctx, shade); err != nil || shade.Stats["som"] != 8 || !shade.Hidden {
		t.Fatalf("update the hidden Shade = %+v, %v", shade, err)
	}
	if got, err := d.Character(ctx, "g", "Shade"); err != nil || got.Stats["som"] != 3 {
		t.Errorf("bob's shade after the hidden one changed = %+v, %v", got, err)
	}
	// Shown or hidden, or renamed, where a sheet as visible (or as hidden)
	// holds the name: refused, both kept as they were.
	reveal := shade
	reveal.Hidden = false
	if _, err := d.SaveCharacter(ctx, reveal); !errors.Is(err, db.ErrExists) {
		t.Errorf("reveal the hidden Shade beside a visible one: %v, want ErrExists", err)
	}
	hide := bobs
	hide.Hidden = true
	if _, err := d.SaveCharacter(ctx, hide); !errors.Is(err, db.ErrExists) {
		t.Errorf("hide bob's shade beside a hidden one: %v, want ErrExists", err)
	}
	vex, err := save(db.Character{OwnerID: "bob", Name: "Vex"})
	if err != nil {
		t.Fatal(err)
	}
	rename := vex
	rename.Name = "SHADE"
	if _, err := d.SaveCharacter(ctx, rename); !errors.Is(err, db.ErrExists) {
		t.Errorf("rename Vex to a visible sheet's name: %v, want ErrExists", err)
	}
	rename = shade
	rename.Name = "Vex"
	if moved, err := d.SaveCharacter(ctx, rename); err != nil || moved.ID != shade.ID || moved.Name != "Vex" || !moved.Hidden {
		t.Errorf("rename the hidden Shade to Vex (a visible name) = %+v, %v; want it renamed", moved, err)
	} else {
		shade = moved
	}
	if named, err := d.CharactersNamed(ctx, "g", "shade"); err != nil || len(named) != 1 || named[0].ID != bobs.ID {
		t.Errorf("CharactersNamed shade after the rename = %+v, %v; want bob's alone", named, err)
	}
	// Now alone with its name among the hidden ones, bob's may be hidden.
	if got, err := d.SaveCharacter(ctx, hide); err != nil || !got.Hidden {
		t.Errorf("hide bob's shade alone = %+v, %v", got, err)
	}
	// Deleting one of two of a name leaves the other.
	if err := d.DeleteCharacter(ctx, "g", shade.ID); err != nil {
		t.Fatal(err)
	}
	if named, err := d.CharactersNamed(ctx, "g", "vex"); err != nil || len(named) != 1 || named[0].ID != vex.ID {
		t.Errorf("CharactersNamed vex after deleting the hidden one = %+v, %v; want bob's Vex", named, err)
	}
	// Another guild's names are its own.
	if _, err := d.SaveCharacter(ctx, db.Character{GuildID: "other", OwnerID: "bob", OwnerName: "bob", Name: "Vex", System: "arc"}); err != nil {
		t.Errorf("Vex in another guild: %v", err)
	}
}

// TestCharacterNamesMigrated: a database from before migration 0018 (one
// name per guild) keeps its sheets, their ids and stats, and takes a
// hidden sheet's name for a visible one after it.
func TestCharacterNamesMigrated(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "old.db")
	d, err := db.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	var saved []db.Character
	for _, c := range []db.Character{
		{GuildID: "g", OwnerID: "gm", OwnerName: "GM", Name: "Shade", System: "arc", Hidden: true, Stats: map[string]int{"som": 7}},
		{GuildID: "g", OwnerID: "bob", OwnerName: "Bob", Name: "Vex", System: "burst", Stats: map[string]int{"hp": 5}},
	} {
		s, err := d.SaveCharacter(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		saved = append(saved, s)
	}
	undoSince(t, d, 17)
	if err := d.SetVersion(ctx, 17); err != nil {
		t.Fatal(err)
	}
	// Schema 17 holds one name per guild, hidden or not.
	if _, err := d.SQL().ExecContext(ctx, `INSERT INTO characters (guild_id, owner_id, owner_name, name, system, created_at, updated_at)
		VALUES ('g', 'bob', 'Bob', 'shade', 'arc', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`); err == nil {
		t.Fatal("the undone schema took a second shade: the undo of 18 does not restore it")
	}
	d.Close()
	if d, err = db.Open(ctx, file); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, want := range saved {
		named, err := d.CharactersNamed(ctx, "g", want.Name)
		if err != nil || len(named) != 1 {
			t.Fatalf("%s after the migration: %+v, %v", want.Name, named, err)
		}
		got := named[0]
		if got.ID != want.ID || got.Hidden != want.Hidden || got.OwnerID != want.OwnerID || !got.UpdatedAt.Equal(want.UpdatedAt) || len(got.Stats) != len(want.Stats) {
			t.Errorf("%s after the migration = %+v; want %+v", want.Name, got, want)
		}
	}
	if _, err := d.SaveCharacter(ctx, db.Character{GuildID: "g", OwnerID: "bob", OwnerName: "Bob", Name: "shade", System: "arc"}); err != nil {
		t.Errorf("bob's shade beside the hidden Shade after the migration: %v", err)
	}
	var indexes int
	if err := d.SQL().QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'characters'
		AND name IN ('characters_owner', 'characters_name', 'characters_hidden_name')`).Scan(&indexes); err != nil || indexes != 3 {
		t.Errorf("indexes of characters after the migration: %d, %v; want 3", indexes, err)
	}
}
