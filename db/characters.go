package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Character is a character sheet: the stats rules commands read.
type Character struct {
	ID        int64
	GuildID   string
	OwnerID   string
	OwnerName string
	Name      string
	System    string
	Stats     map[string]int
	// Hidden is set for a sheet only the GMs and its owner may read: an
	// NPC the GM keeps secret. The store keeps it; the commands hold
	// readers to it (kit.CanRead).
	Hidden    bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ErrNotFound is returned when a named thing does not exist.
var ErrNotFound = errors.New("not found")

const characterCols = `id, guild_id, owner_id, owner_name, name, system, stats, hidden, created_at, updated_at`

func scanCharacter(row interface{ Scan(...any) error }) (Character, error) {
	var c Character
	var stats, created, updated string
	if err := row.Scan(&c.ID, &c.GuildID, &c.OwnerID, &c.OwnerName, &c.Name, &c.System, &stats, &c.Hidden, &created, &updated); err != nil {
		return Character{}, err
	}
	if err := c.parse(stats, created, updated); err != nil {
		return Character{}, err
	}
	return c, nil
}

// parse sets c's stats and times from their stored text.
func (c *Character) parse(stats, created, updated string) error {
	if err := json.Unmarshal([]byte(stats), &c.Stats); err != nil {
		return fmt.Errorf("character %d: bad stats %q: %w", c.ID, stats, err)
	}
	var err error
	if c.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return fmt.Errorf("character %d: bad time: %w", c.ID, err)
	}
	if c.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return fmt.Errorf("character %d: bad time: %w", c.ID, err)
	}
	return nil
}

// Character returns the character named name (any case) in guildID, or an
// error wrapping ErrNotFound. Where a visible and a hidden sheet share the
// name, it is the visible one: CharactersNamed returns both.
func (d *DB) Character(ctx context.Context, guildID, name string) (Character, error) {
	cs, err := d.CharactersNamed(ctx, guildID, name)
	if err != nil {
		return Character{}, err
	}
	if len(cs) == 0 {
		return Character{}, fmt.Errorf("character %q: %w", name, ErrNotFound)
	}
	return cs[0], nil
}

// CharactersNamed returns the characters named name (any case) in
// guildID: none, one, or a visible and a hidden one, the visible first.
// A name is one sheet's among the visible sheets, and one sheet's among
// the hidden ones, so that a hidden sheet (a GM's secret) holds no name
// against the players; who reads which is the commands' to say.
func (d *DB) CharactersNamed(ctx context.Context, guildID, name string) ([]Character, error) {
	out, err := queryAll(ctx, d.sql, scanCharacter, `SELECT `+characterCols+` FROM characters
		WHERE guild_id = ? AND name = ? COLLATE NOCASE ORDER BY hidden`, guildID, name)
	if err != nil {
		return nil, fmt.Errorf("load characters %q: %w", name, err)
	}
	return out, nil
}

// Errors of SaveCharacter.
var (
	// ErrExists: the character's name is taken in its guild by another
	// sheet as visible (or as hidden) as it.
	ErrExists = errors.New("already exists")
	// ErrConflict: the sheet changed since it was read.
	ErrConflict = errors.New("changed meanwhile")
)

// SaveCharacter stores c and returns the stored sheet. A new sheet (ID 0)
// is inserted; a name another sheet of the guild holds, whatever its case,
// is ErrExists when that sheet is as visible (or as hidden) as c: a visible
// and a hidden sheet may share a name. A known sheet (ID and UpdatedAt as
// read) is updated only if nobody changed it since, else ErrConflict: two
// players saving at once cannot take over each other's character; renamed,
// hidden or shown where another sheet holds the name so, it is ErrExists.
func (d *DB) SaveCharacter(ctx context.Context, c Character) (Character, error) {
	stats, err := json.Marshal(c.Stats)
	if err != nil {
		return Character{}, fmt.Errorf("encode stats of %q: %w", c.Name, err)
	}
	if c.Stats == nil {
		stats = []byte("{}")
	}
	var out Character
	err = d.tx(ctx, func(tx *sql.Tx) error {
		now := d.stamp()
		if c.ID == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO characters (guild_id, owner_id, owner_name, name, system, stats, hidden, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
				c.GuildID, c.OwnerID, c.OwnerName, c.Name, c.System, string(stats), c.Hidden, now, now)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return ErrExists
			}
		} else {
			res, err := tx.ExecContext(ctx, `UPDATE characters SET owner_id = ?, owner_name = ?, name = ?, system = ?, stats = ?, hidden = ?, updated_at = ?
				WHERE id = ? AND updated_at = ?`,
				c.OwnerID, c.OwnerName, c.Name, c.System, string(stats), c.Hidden, now, c.ID, c.UpdatedAt.UTC().Format(time.RFC3339Nano))
			if isUniqueViolation(err) {
				return ErrExists // the name index of sheets as visible (or hidden) as c
			}
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return ErrConflict
			}
		}
		var err error
		out, err = scanCharacter(tx.QueryRowContext(ctx, `SELECT `+characterCols+` FROM characters
			WHERE guild_id = ? AND name = ? COLLATE NOCASE AND hidden = ?`, c.GuildID, c.Name, c.Hidden))
		return err
	})
	if err != nil {
		return Character{}, fmt.Errorf("save character %q: %w", c.Name, err)
	}
	return out, nil
}

// Characters lists guildID's characters by name; ownerID and system, when
// not empty, filter; prefix matches the start of names (any case).
func (d *DB) Characters(ctx context.Context, guildID, ownerID, system, prefix string, limit int) ([]Character, error) {
	out, err := queryAll(ctx, d.sql, scanCharacter, `SELECT `+characterCols+` FROM characters
		WHERE guild_id = ? AND (? = '' OR owner_id = ?) AND (? = '' OR system = ?)
		AND name LIKE ? ESCAPE '\' ORDER BY name COLLATE NOCASE LIMIT ?`,
		guildID, ownerID, ownerID, system, system, likePrefix(prefix), limit)
	if err != nil {
		return nil, fmt.Errorf("list characters: %w", err)
	}
	return out, nil
}

// DeleteCharacter removes the character id of guildID; an error wraps
// ErrNotFound when there is none. By id, not name: a visible and a hidden
// sheet may share a name.
func (d *DB) DeleteCharacter(ctx context.Context, guildID string, id int64) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM characters WHERE guild_id = ? AND id = ?`, guildID, id)
		if err != nil {
			return fmt.Errorf("delete character %d: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("delete character %d: %w", id, err)
		}
		if n == 0 {
			return fmt.Errorf("delete character %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// likePrefix makes a LIKE pattern matching strings that start with p.
func likePrefix(p string) string {
	var b []byte
	for i := 0; i < len(p); i++ {
		if c := p[i]; c == '%' || c == '_' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, p[i])
	}
	return string(b) + "%"
}
