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
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ErrNotFound is returned when a named thing does not exist.
var ErrNotFound = errors.New("not found")

const characterCols = `id, guild_id, owner_id, owner_name, name, system, stats, created_at, updated_at`

func scanCharacter(row interface{ Scan(...any) error }) (Character, error) {
	var c Character
	var stats, created, updated string
	if err := row.Scan(&c.ID, &c.GuildID, &c.OwnerID, &c.OwnerName, &c.Name, &c.System, &stats, &created, &updated); err != nil {
		return Character{}, err
	}
	if err := json.Unmarshal([]byte(stats), &c.Stats); err != nil {
		return Character{}, fmt.Errorf("character %d: bad stats %q: %w", c.ID, stats, err)
	}
	var err error
	if c.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return Character{}, fmt.Errorf("character %d: bad time: %w", c.ID, err)
	}
	if c.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return Character{}, fmt.Errorf("character %d: bad time: %w", c.ID, err)
	}
	return c, nil
}

// Character returns the character named name (any case) in guildID, or an
// error wrapping ErrNotFound.
func (d *DB) Character(ctx context.Context, guildID, name string) (Character, error) {
	c, err := scanCharacter(d.sql.QueryRowContext(ctx, `SELECT `+characterCols+` FROM characters
		WHERE guild_id = ? AND name = ? COLLATE NOCASE`, guildID, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Character{}, fmt.Errorf("character %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Character{}, fmt.Errorf("load character %q: %w", name, err)
	}
	return c, nil
}

// SaveCharacter creates c, or replaces the sheet of the character with its
// name in its guild, keeping its creation time. It returns the stored sheet.
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
		_, err := tx.ExecContext(ctx, `INSERT INTO characters (guild_id, owner_id, owner_name, name, system, stats, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (guild_id, name) DO UPDATE SET
				owner_id = excluded.owner_id, owner_name = excluded.owner_name, name = excluded.name,
				system = excluded.system, stats = excluded.stats, updated_at = excluded.updated_at`,
			c.GuildID, c.OwnerID, c.OwnerName, c.Name, c.System, string(stats), now, now)
		if err != nil {
			return err
		}
		out, err = scanCharacter(tx.QueryRowContext(ctx, `SELECT `+characterCols+` FROM characters
			WHERE guild_id = ? AND name = ? COLLATE NOCASE`, c.GuildID, c.Name))
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
	rows, err := d.sql.QueryContext(ctx, `SELECT `+characterCols+` FROM characters
		WHERE guild_id = ? AND (? = '' OR owner_id = ?) AND (? = '' OR system = ?)
		AND name LIKE ? ESCAPE '\' ORDER BY name COLLATE NOCASE LIMIT ?`,
		guildID, ownerID, ownerID, system, system, likePrefix(prefix), limit)
	if err != nil {
		return nil, fmt.Errorf("list characters: %w", err)
	}
	defer rows.Close()
	var out []Character
	for rows.Next() {
		c, err := scanCharacter(rows)
		if err != nil {
			return nil, fmt.Errorf("list characters: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list characters: %w", err)
	}
	return out, nil
}

// DeleteCharacter removes the named character; an error wraps ErrNotFound
// when there is none.
func (d *DB) DeleteCharacter(ctx context.Context, guildID, name string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM characters WHERE guild_id = ? AND name = ? COLLATE NOCASE`, guildID, name)
		if err != nil {
			return fmt.Errorf("delete character %q: %w", name, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return fmt.Errorf("delete character %q: %w", name, ErrNotFound)
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
