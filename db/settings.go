package db

import (
	"context"
	"database/sql"
)

// The settings tables (system_settings, play_settings, dice_settings)
// keep one value a channel, or a guild's under channel_id "", with who
// set it and when.

// settingScope is where a setting of channelID applies: "channel", or
// "guild" for "".
func settingScope(channelID string) string {
	if channelID == "" {
		return "guild"
	}
	return "channel"
}

// setSetting stores value in column of table, one of the settings
// tables, for the channel (or guild), replacing what was there. table and
// column are the store's own names, never the user's.
func (d *DB) setSetting(ctx context.Context, table, column, guildID, channelID, value, setBy string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (guild_id, channel_id, `+column+`, set_by, updated_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (guild_id, channel_id) DO UPDATE SET
				`+column+` = excluded.`+column+`, set_by = excluded.set_by, updated_at = excluded.updated_at`,
			guildID, channelID, value, setBy, d.stamp())
		return err
	})
}
