package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// PlaySetting is how freely players change the combatants of others in a
// channel's fights (/init play). The store keeps Mode as given; the
// commands say what each mode means.
type PlaySetting struct {
	GuildID   string
	ChannelID string
	Mode      string
	SetBy     string
}

// SetPlayMode stores s, replacing the channel's setting.
func (d *DB) SetPlayMode(ctx context.Context, s PlaySetting) error {
	if err := d.setSetting(ctx, "play_settings", "mode", s.GuildID, s.ChannelID, s.Mode, s.SetBy); err != nil {
		return fmt.Errorf("set play mode of channel %s: %w", s.ChannelID, err)
	}
	return nil
}

// PlayMode returns the play setting of channelID, or an error wrapping
// ErrNotFound when the GM has set none.
func (d *DB) PlayMode(ctx context.Context, guildID, channelID string) (PlaySetting, error) {
	s := PlaySetting{GuildID: guildID, ChannelID: channelID}
	err := d.sql.QueryRowContext(ctx, `SELECT mode, set_by FROM play_settings WHERE guild_id = ? AND channel_id = ?`,
		guildID, channelID).Scan(&s.Mode, &s.SetBy)
	if errors.Is(err, sql.ErrNoRows) {
		return PlaySetting{}, fmt.Errorf("play mode of channel %s: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return PlaySetting{}, fmt.Errorf("play mode of channel %s: %w", channelID, err)
	}
	return s, nil
}
