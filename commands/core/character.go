package core

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// characterCreate is characterSet for a character that must be new: a
// name already taken is a mistake, not an update.
func (h *handlers) characterCreate(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.saveCharacter(ctx, req, true)
}

func (h *handlers) characterSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.saveCharacter(ctx, req, false)
}

func (h *handlers) saveCharacter(ctx context.Context, req *kit.Request, mustBeNew bool) (kit.Response, error) {
	c, exists, err := h.sheetToSave(ctx, req, mustBeNew)
	if err != nil {
		return kit.Response{}, err
	}
	if err := applyStats(&c, req.Options.String("stats")); err != nil {
		return kit.Response{}, err
	}
	saved, err := h.Characters.SaveCharacter(ctx, c)
	switch {
	case errors.Is(err, db.ErrExists) && exists:
		// Renamed, hidden or shown where another sheet, as visible (or as
		// hidden) as this one and which the asker reads, took the name
		// meanwhile.
		return kit.Response{}, kit.Errorf("another character is named %s here: give this one another name (example: /character set name:%q rename:%q)",
			c.Name, strings.TrimSpace(req.Options.String("name")), c.Name+" 2")
	case errors.Is(err, db.ErrExists):
		return kit.Response{}, kit.Errorf("someone has just created a character named %s here: see /character show name:%q", c.Name, c.Name)
	case errors.Is(err, db.ErrConflict):
		return kit.Response{}, kit.Errorf("%s changed while you were changing it: run the command again", c.Name)
	case err != nil:
		return kit.Response{}, err
	}
	verb := "Updated"
	if !exists {
		verb = "Created"
	}
	return kit.Response{
		Content:   fmt.Sprintf("%s **%s** (%s%s): %s", verb, kit.EscapeMarkdown(saved.Name), saved.System, hiddenMark(saved), kit.FormatStats(saved.Stats)),
		Result:    characterResult(saved),
		Ephemeral: saved.Hidden, // a hidden sheet's stats are not for the channel
	}, nil
}

// sheetToSave is the sheet /character create or set changes: the one of
// that name, which the asker must own or be the GM of, or a new one
// (which create insists on); with its system, owner, visibility and name
// as the options set them.
func (h *handlers) sheetToSave(ctx context.Context, req *kit.Request, mustBeNew bool) (c db.Character, exists bool, err error) {
	name, err := kit.CleanName("character name", req.Options.String("name"))
	if err != nil {
		return c, false, err
	}
	c, exists, err = h.sheetNamed(ctx, req, name, mustBeNew)
	switch {
	case err != nil:
		return c, exists, err
	case exists && mustBeNew:
		return c, true, kit.Errorf("there is already a character named %s here: change it with /character set name:%q stats:\"...\"", c.Name, c.Name)
	case !exists:
		c = db.Character{GuildID: req.GuildID, Name: name, OwnerID: req.User.ID, OwnerName: req.User.Name, Stats: map[string]int{}}
	case c.OwnerID != req.User.ID && !req.GM:
		return c, true, kit.Errorf("%s belongs to %s: only they or the GM can change it", c.Name, c.OwnerName)
	}
	if sys := req.Options.String("system"); sys != "" {
		c.System = sys
	}
	if c.System == "" {
		return c, exists, kit.Errorf("a new character needs its rule system (example: /character set name:%s system:%s stats:\"ks=4 us=3\")", name, h.ExampleSystem())
	}
	if req.Options.Has("hidden") {
		hide := req.Options.Bool("hidden")
		if hide && !c.Hidden && !req.GM {
			// A player's hidden sheets would share their names with the
			// GM's secret ones, and a refusal of one would tell of them.
			return c, exists, kit.Errorf("only the GM can hide a sheet: leave hidden: out (example: /character set name:%q stats:\"ks=4\")", c.Name)
		}
		c.Hidden = hide
	}
	if owner := req.Options.String("owner"); owner != "" && owner != c.OwnerID {
		if !req.GM {
			return c, exists, kit.Errorf("only the GM can give a character to someone else")
		}
		c.OwnerID, c.OwnerName = owner, owner
	}
	return c, exists, renameSheet(req, &c, exists)
}

// sheetNamed is the sheet of the name that /character create or set
// means, if there is one: of the sheets the asker reads (a player never
// meets the GM's hidden ones, whose names are theirs to use too). Create
// means the one as hidden as the new sheet would be. Set means the one
// sheet of the name; of a visible and a hidden one (the GM reads both),
// the hidden one with hidden:true, and nothing unasked: the visible one
// is changed once the hidden one is renamed, and the hidden one cannot be
// shown (hidden:false) while the visible one holds its name.
func (h *handlers) sheetNamed(ctx context.Context, req *kit.Request, name string, mustBeNew bool) (db.Character, bool, error) {
	rows, err := h.Characters.CharactersNamed(ctx, req.GuildID, name)
	if err != nil {
		return db.Character{}, false, err
	}
	rows = kit.Readable(req, rows)
	if mustBeNew {
		hide := req.Options.Has("hidden") && req.Options.Bool("hidden")
		for _, c := range rows {
			if c.Hidden == hide {
				return c, true, nil
			}
		}
		return db.Character{}, false, nil
	}
	switch len(rows) {
	case 0:
		return db.Character{}, false, nil
	case 1:
		return rows[0], true, nil
	}
	shown, secret := kit.SplitSheets(rows)
	rename := fmt.Sprintf("/character set name:%q hidden:true rename:%q", name, name+" 2")
	switch {
	case !req.Options.Has("hidden"):
		return db.Character{}, true, kit.Errorf("two characters are named %s here, %s's and a hidden one: say hidden:true to change the hidden one (example: /character set name:%q hidden:true stats:\"hp=5\"); to change %s's, rename the hidden one first (example: %s)",
			name, shown.OwnerName, name, shown.OwnerName, rename)
	case !req.Options.Bool("hidden"):
		return db.Character{}, true, kit.Errorf("the hidden %s cannot be shown while %s's %s has its name: rename the hidden one first (example: %s), then show it with hidden:false",
			secret.Name, shown.OwnerName, shown.Name, rename)
	}
	return secret, true, nil
}

// renameSheet gives c the name of the rename: option, if there is one.
func renameSheet(req *kit.Request, c *db.Character, exists bool) error {
	if !req.Options.Has("rename") {
		return nil
	}
	if !exists {
		return kit.Errorf("there is no character %q here to rename: see /character list", c.Name)
	}
	name, err := kit.CleanName("new name", req.Options.String("rename"))
	if err != nil {
		return err
	}
	if c.Hidden && !req.GM {
		// Its new name could be one of the GM's secret ones.
		return kit.Errorf("only the GM can rename a hidden sheet")
	}
	c.Name = name
	return nil
}

// applyStats changes c's stats as text says ("ks=4 us=3, luck=-").
func applyStats(c *db.Character, text string) error {
	changes, err := kit.ParseStats(text)
	if err != nil {
		return err
	}
	c.Stats = maps.Clone(c.Stats)
	if c.Stats == nil {
		c.Stats = map[string]int{}
	}
	for k, v := range changes {
		if v == nil {
			delete(c.Stats, k)
		} else {
			c.Stats[k] = *v
		}
	}
	if len(c.Stats) > kit.MaxStats {
		return kit.Errorf("a sheet holds at most %d stats; this one would have %d", kit.MaxStats, len(c.Stats))
	}
	return nil
}

func (h *handlers) characterShow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, err := h.namedSheet(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{
		Embeds: []kit.Embed{{
			Title:       c.Name,
			Description: fmt.Sprintf("%s character of %s%s", c.System, kit.EscapeMarkdown(c.OwnerName), hiddenMark(c)),
			Fields:      []kit.Field{{Name: "Stats", Value: kit.FormatStats(c.Stats)}},
		}},
		Ephemeral: true,
		Result:    characterResult(c),
	}, nil
}

func (h *handlers) characterList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	list, err := h.Characters.Characters(ctx, req.GuildID, req.Options.String("owner"), req.Options.String("system"), "", 100)
	if err != nil {
		return kit.Response{}, err
	}
	list = kit.Readable(req, list)
	if len(list) == 0 {
		return kit.Response{Content: "No characters yet: create one with /character set name:\"Red Goblin\" system:arc stats:\"ks=4 us=3\"", Ephemeral: true, Result: []CharacterResult{}}, nil
	}
	var b strings.Builder
	out := make([]CharacterResult, 0, len(list))
	for _, c := range list {
		fmt.Fprintf(&b, "**%s** (%s, %s%s): %s\n", kit.EscapeMarkdown(c.Name), c.System, kit.EscapeMarkdown(c.OwnerName), hiddenMark(c), kit.FormatStats(c.Stats))
		out = append(out, characterResult(c))
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Result: out}, nil
}

func (h *handlers) characterDelete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, err := h.namedSheet(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	if c.OwnerID != req.User.ID && !req.GM {
		return kit.Response{}, kit.Errorf("%s belongs to %s: only they or the GM can delete it", c.Name, c.OwnerName)
	}
	if err := h.Characters.DeleteCharacter(ctx, req.GuildID, c.ID); err != nil {
		return kit.Response{}, err
	}
	// A hidden sheet's name is not for the channel.
	return kit.Response{Content: fmt.Sprintf("Deleted **%s**.", kit.EscapeMarkdown(c.Name)), Result: characterResult(c), Ephemeral: c.Hidden}, nil
}

// namedSheet is the sheet /character show or delete names: of a visible
// and a hidden one of the name, which the GM reads both of, the one
// hidden: says, and the mistake of saying neither.
func (h *handlers) namedSheet(ctx context.Context, req *kit.Request) (db.Character, error) {
	var hidden *bool
	if req.Options.Has("hidden") {
		b := req.Options.Bool("hidden")
		hidden = &b
	}
	name := req.Options.String("name")
	c, err := h.LoadCharacterWhich(ctx, req, name, hidden)
	if two := (*kit.TwoSheets)(nil); errors.As(err, &two) {
		name = strings.TrimSpace(name)
		return db.Character{}, kit.Errorf("two characters are named %s here, %s's and a hidden one: say which with hidden: (example: /%s name:%q hidden:true for the hidden one)",
			name, two.Shown.OwnerName, strings.ReplaceAll(req.Path, "/", " "), name)
	}
	return c, err
}

// CharacterResult is the console's `result` for a character.
type CharacterResult struct {
	Name   string         `json:"name"`
	System string         `json:"system"`
	Owner  string         `json:"owner"`
	Stats  map[string]int `json:"stats"`
	Hidden bool           `json:"hidden,omitempty"`
}

func characterResult(c db.Character) CharacterResult {
	stats := c.Stats
	if stats == nil {
		stats = map[string]int{}
	}
	return CharacterResult{Name: c.Name, System: c.System, Owner: c.OwnerID, Stats: stats, Hidden: c.Hidden}
}

// hiddenMark marks a hidden sheet where its system is named.
func hiddenMark(c db.Character) string {
	if c.Hidden {
		return ", hidden"
	}
	return ""
}
