package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Macro is a saved roll (/macro): a player's own, or the server's (OwnerID
// ""), set by a GM for every player of the guild. A player's own macro of
// a name wins over the server's.
type Macro struct {
	GuildID string
	// OwnerID is the player's user ID, "" for the server's macro.
	OwnerID string
	// OwnerName is who set it: the player, or the GM for the server's.
	OwnerName string
	// Name is in lower case: the commands fold it.
	Name string
	// Roll is the dice expression, as typed.
	Roll      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Server reports whether m is the server's macro, not a player's own.
func (m Macro) Server() bool { return m.OwnerID == "" }

// ErrLimit is returned when a new thing would be one too many: SetMacro
// beyond the count it is given.
var ErrLimit = errors.New("limit reached")

const macroCols = `guild_id, owner_id, owner_name, name, roll, created_at, updated_at`

func scanMacro(row interface{ Scan(...any) error }) (Macro, error) {
	var m Macro
	var created, updated string
	if err := row.Scan(&m.GuildID, &m.OwnerID, &m.OwnerName, &m.Name, &m.Roll, &created, &updated); err != nil {
		return Macro{}, err
	}
	return m, m.parseTimes(created, updated)
}

func (m *Macro) parseTimes(created, updated string) error {
	var err error
	if m.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return fmt.Errorf("macro %q: bad time: %w", m.Name, err)
	}
	if m.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return fmt.Errorf("macro %q: bad time: %w", m.Name, err)
	}
	return nil
}

// SetMacro saves m, replacing its owner's macro of the same name, and
// reports whether it replaced one. A new macro when its owner (the server,
// for OwnerID "") already has max is ErrLimit, and nothing changes.
func (d *DB) SetMacro(ctx context.Context, m Macro, max int) (replaced bool, err error) {
	err = d.tx(ctx, func(tx *sql.Tx) error {
		var n, same int
		if err := tx.QueryRowContext(ctx, `SELECT count(*), count(CASE WHEN name = ? THEN 1 END) FROM macros
			WHERE guild_id = ? AND owner_id = ?`, m.Name, m.GuildID, m.OwnerID).Scan(&n, &same); err != nil {
			return err
		}
		replaced = same > 0
		if !replaced && n >= max {
			return ErrLimit
		}
		now := d.stamp()
		_, err := tx.ExecContext(ctx, `INSERT INTO macros (`+macroCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (guild_id, owner_id, name) DO UPDATE SET owner_name = excluded.owner_name, roll = excluded.roll, updated_at = excluded.updated_at`,
			m.GuildID, m.OwnerID, m.OwnerName, m.Name, m.Roll, now, now)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("save macro %q: %w", m.Name, err)
	}
	return replaced, nil
}

// Macros lists the macros ownerID may roll in guildID: their own and the
// server's, by name, a player's own before the server's of the same name.
func (d *DB) Macros(ctx context.Context, guildID, ownerID string) ([]Macro, error) {
	out, err := queryAll(ctx, d.sql, scanMacro, `SELECT `+macroCols+` FROM macros
		WHERE guild_id = ? AND owner_id IN (?, '')`, guildID, ownerID)
	if err != nil {
		return nil, fmt.Errorf("list macros: %w", err)
	}
	// Sorted here, by bytes: the stores' collations order text apart.
	slices.SortFunc(out, compareMacros)
	return out, nil
}

// compareMacros orders macros by name, a player's own before the
// server's of the same name.
func compareMacros(a, b Macro) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(b.OwnerID, a.OwnerID)
}

// DeleteMacro removes ownerID's macro name ("" the server's); an error
// wraps ErrNotFound when there is none.
func (d *DB) DeleteMacro(ctx context.Context, guildID, ownerID, name string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM macros WHERE guild_id = ? AND owner_id = ? AND name = ?`, guildID, ownerID, name)
		if err != nil {
			return fmt.Errorf("delete macro %q: %w", name, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("delete macro %q: %w", name, err)
		}
		if n == 0 {
			return fmt.Errorf("delete macro %q: %w", name, ErrNotFound)
		}
		return nil
	})
}

// RollSources is what a roll that begins with a word needs (/roll atk+2):
// the macros of that name the roller may roll, their own first; and the
// sheets its names may read: the character it names (character:), or
// the roller's own in the guild (at most two: one is read, two are
// ambiguous).
type RollSources struct {
	Macros     []Macro
	Characters []Character
}

// rollSourcesSQL reads RollSources in one statement: the macros, the
// character named (when character is not ""), the roller's own (when it
// is ""). A roll pays one round trip for them, as for the sheet alone.
const rollSourcesSQL = `SELECT 0, 0, guild_id, owner_id, owner_name, name, roll, '{}', 0, created_at, updated_at
	FROM macros WHERE guild_id = ? AND owner_id IN (?, '') AND name = ?
UNION ALL
SELECT 1, id, guild_id, owner_id, owner_name, name, system, stats, hidden, created_at, updated_at
	FROM characters WHERE guild_id = ? AND ? <> '' AND name = ? COLLATE NOCASE
UNION ALL
SELECT * FROM (SELECT 1, id, guild_id, owner_id, owner_name, name, system, stats, hidden, created_at, updated_at
	FROM characters WHERE guild_id = ? AND ? = '' AND owner_id = ? ORDER BY name COLLATE NOCASE LIMIT 2) AS mine`

// RollSources returns, in one read, the macros named name that userID may
// roll in guildID and the sheets a roll reads stats from: the character
// named character, else userID's own (see RollSources).
func (d *DB) RollSources(ctx context.Context, guildID, userID, name, character string) (RollSources, error) {
	rows, err := d.sql.QueryContext(ctx, rollSourcesSQL,
		guildID, userID, name,
		guildID, character, character,
		guildID, character, userID)
	if err != nil {
		return RollSources{}, fmt.Errorf("read macro %q and sheets: %w", name, err)
	}
	defer rows.Close()
	var out RollSources
	for rows.Next() {
		var kind int
		var c Character
		var stats, created, updated string
		if err := rows.Scan(&kind, &c.ID, &c.GuildID, &c.OwnerID, &c.OwnerName, &c.Name, &c.System, &stats, &c.Hidden, &created, &updated); err != nil {
			return RollSources{}, fmt.Errorf("read macro %q and sheets: %w", name, err)
		}
		if kind == 0 {
			m := Macro{GuildID: c.GuildID, OwnerID: c.OwnerID, OwnerName: c.OwnerName, Name: c.Name, Roll: c.System}
			if err := m.parseTimes(created, updated); err != nil {
				return RollSources{}, err
			}
			out.Macros = append(out.Macros, m)
			continue
		}
		if err := c.parse(stats, created, updated); err != nil {
			return RollSources{}, err
		}
		out.Characters = append(out.Characters, c)
	}
	if err := rows.Err(); err != nil {
		return RollSources{}, fmt.Errorf("read macro %q and sheets: %w", name, err)
	}
	// The player's own first; the server's ("") sorts last.
	slices.SortFunc(out.Macros, compareMacros)
	return out, nil
}
