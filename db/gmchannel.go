package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetGMChannel makes channelID the channel of guildID where Tablehand
// posts the gm and blind rolls for the GMs, replacing the one before.
func (d *DB) SetGMChannel(ctx context.Context, guildID, channelID, setBy string) error {
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO gm_channels (guild_id, channel_id, set_by, updated_at)
			VALUES (?, ?, ?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET
				channel_id = excluded.channel_id, set_by = excluded.set_by, updated_at = excluded.updated_at`,
			guildID, channelID, setBy, d.stamp())
		return err
	})
	if err != nil {
		return fmt.Errorf("set the GM channel of guild %s: %w", guildID, err)
	}
	return nil
}

// GMChannel returns the GM channel of guildID, or an error wrapping
// ErrNotFound when none is set.
func (d *DB) GMChannel(ctx context.Context, guildID string) (string, error) {
	var ch string
	err := d.sql.QueryRowContext(ctx, `SELECT channel_id FROM gm_channels WHERE guild_id = ?`, guildID).Scan(&ch)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("GM channel of guild %s: %w", guildID, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("GM channel of guild %s: %w", guildID, err)
	}
	return ch, nil
}
