package db

import (
	"context"
	"database/sql"
	"fmt"
)

// DisplayName is the name a person shows on one server, as Discord last
// gave it: their nick there, else their global name, else their username.
type DisplayName struct {
	UserID string
	Name   string
}

// namesChunk is how many user IDs one statement of DisplayNames asks for:
// well below SQLite's oldest limit of 999 parameters.
const namesChunk = 500

// SaveDisplayNames records the names of guildID's people, replacing what
// was kept for each, in one transaction. Names of no guild (a DM) and
// empty names or IDs are not kept. Each upsert locks the one row it
// changes, so two processes writing the same name wait for each other
// (READ COMMITTED, lockedTx) rather than fail and run again.
func (d *DB) SaveDisplayNames(ctx context.Context, guildID string, names []DisplayName) error {
	if guildID == "" {
		return nil
	}
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		now := d.stamp()
		for _, n := range names {
			if n.UserID == "" || n.Name == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO display_names (guild_id, user_id, name, updated_at)
				VALUES (?, ?, ?, ?)
				ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at`,
				guildID, n.UserID, n.Name, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save %d display names of guild %s: %w", len(names), guildID, err)
	}
	return nil
}

// DisplayNames returns the kept names of those of userIDs that guildID
// has one for, by user ID; the others are missing from the map.
func (d *DB) DisplayNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error) {
	out := make(map[string]string, len(userIDs))
	for start := 0; start < len(userIDs); start += namesChunk {
		ids := userIDs[start:min(start+namesChunk, len(userIDs))]
		args := make([]any, 0, len(ids)+1)
		args = append(args, guildID)
		for _, id := range ids {
			args = append(args, id)
		}
		if err := d.names(ctx, out, `SELECT user_id, name FROM display_names WHERE guild_id = ? AND user_id IN (`+placeholders(len(ids))+`)`, args...); err != nil {
			return nil, fmt.Errorf("display names of guild %s: %w", guildID, err)
		}
	}
	return out, nil
}

// names adds the (user ID, name) rows of query to out.
func (d *DB) names(ctx context.Context, out map[string]string, query string, args ...any) error {
	rows, err := d.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return err
		}
		out[id] = name
	}
	return rows.Err()
}
