package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// DiceSetting says whether players may type in dice (`dice:`) in a
// channel, or in a whole guild when ChannelID is "" (/system dice). The
// store keeps Players as given; the commands say what each value means.
type DiceSetting struct {
	GuildID   string
	ChannelID string
	Players   string
	SetBy     string
}

// Scope is "channel" or "guild": where the setting applies.
func (s DiceSetting) Scope() string { return settingScope(s.ChannelID) }

// SetDiceRule stores s, replacing the setting of its channel (or guild).
func (d *DB) SetDiceRule(ctx context.Context, s DiceSetting) error {
	if err := d.setSetting(ctx, "dice_settings", "players", s.GuildID, s.ChannelID, s.Players, s.SetBy); err != nil {
		return fmt.Errorf("set the dice rule of %s %s: %w", s.Scope(), s.ChannelID+s.GuildID, err)
	}
	return nil
}

// DiceRule returns the dice setting in force in channelID: its own, else
// its guild's, else an error wrapping ErrNotFound.
func (d *DB) DiceRule(ctx context.Context, guildID, channelID string) (DiceSetting, error) {
	s := DiceSetting{GuildID: guildID}
	err := d.sql.QueryRowContext(ctx, `SELECT channel_id, players, set_by FROM dice_settings
		WHERE guild_id = ? AND channel_id IN (?, '') ORDER BY channel_id = '' LIMIT 1`, guildID, channelID).
		Scan(&s.ChannelID, &s.Players, &s.SetBy)
	if errors.Is(err, sql.ErrNoRows) {
		return DiceSetting{}, fmt.Errorf("dice rule of channel %s: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return DiceSetting{}, fmt.Errorf("dice rule of channel %s: %w", channelID, err)
	}
	return s, nil
}
