package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Roll is one entry of the roll log.
type Roll struct {
	ID int64
	// Code is the short ID a reply shows ("roll K7Q2XM"), drawn at random so
	// it tells nothing about how busy the bot is.
	Code      string
	GuildID   string
	ChannelID string
	UserID    string
	UserName  string
	Expr      string
	Total     int
	Private   bool
	// Detail is the roll's dice and outcome as JSON, as the command that
	// rolled it chose to record them.
	Detail    json.RawMessage
	CreatedAt time.Time
}

// SaveRoll appends r to the roll log and returns its ID.
func (d *DB) SaveRoll(ctx context.Context, r Roll) (int64, error) {
	var id int64
	err := d.tx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = d.saveRoll(ctx, tx, r, d.stamp())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("save roll in channel %s: %w", r.ChannelID, err)
	}
	return id, nil
}

const insertRollSQL = `INSERT INTO rolls
	(code, guild_id, channel_id, user_id, user_name, expr, total, private, detail, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func (d *DB) saveRoll(ctx context.Context, tx *sql.Tx, r Roll, now string) (int64, error) {
	detail := r.Detail
	if len(detail) == 0 {
		detail = json.RawMessage("{}")
	}
	// Tx.StmtContext reuses the statement already prepared on the
	// transaction's connection.
	res, err := tx.StmtContext(ctx, d.insertRoll).ExecContext(ctx,
		r.Code, r.GuildID, r.ChannelID, r.UserID, r.UserName, r.Expr, r.Total, r.Private, string(detail), now)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// RecentRolls returns up to limit of the newest rolls in channel, newest
// first; userID, when not empty, keeps only that user's rolls. Private rolls
// are included only when they are the viewer's own.
func (d *DB) RecentRolls(ctx context.Context, channelID, userID, viewerID string, limit int) ([]Roll, error) {
	rows, err := d.sql.QueryContext(ctx, `SELECT id, code, guild_id, channel_id, user_id, user_name, expr, total, private, detail, created_at
		FROM rolls
		WHERE channel_id = ? AND (? = '' OR user_id = ?) AND (private = 0 OR user_id = ?)
		ORDER BY id DESC LIMIT ?`, channelID, userID, userID, viewerID, limit)
	if err != nil {
		return nil, fmt.Errorf("list rolls in channel %s: %w", channelID, err)
	}
	defer rows.Close()
	var out []Roll
	for rows.Next() {
		var r Roll
		var detail, created string
		if err := rows.Scan(&r.ID, &r.Code, &r.GuildID, &r.ChannelID, &r.UserID, &r.UserName, &r.Expr, &r.Total, &r.Private, &detail, &created); err != nil {
			return nil, fmt.Errorf("list rolls in channel %s: %w", channelID, err)
		}
		r.Detail = json.RawMessage(detail)
		if r.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, fmt.Errorf("roll %d: bad time %q: %w", r.ID, created, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list rolls in channel %s: %w", channelID, err)
	}
	return out, nil
}

// RollByCode returns the newest roll in channelID with the short ID code.
// found is false when there is none.
func (d *DB) RollByCode(ctx context.Context, channelID, code string) (r Roll, found bool, err error) {
	var detail, created string
	err = d.sql.QueryRowContext(ctx, `SELECT id, code, guild_id, channel_id, user_id, user_name, expr, total, private, detail, created_at
		FROM rolls WHERE channel_id = ? AND code = ? ORDER BY id DESC LIMIT 1`, channelID, code).
		Scan(&r.ID, &r.Code, &r.GuildID, &r.ChannelID, &r.UserID, &r.UserName, &r.Expr, &r.Total, &r.Private, &detail, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Roll{}, false, nil
	}
	if err != nil {
		return Roll{}, false, fmt.Errorf("find roll %s in channel %s: %w", code, channelID, err)
	}
	r.Detail = json.RawMessage(detail)
	if r.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return Roll{}, false, fmt.Errorf("roll %d: bad time %q: %w", r.ID, created, err)
	}
	return r, true, nil
}

// RecentExprs returns up to limit distinct expressions userID rolled most
// recently, anywhere, newest first, for autocomplete.
func (d *DB) RecentExprs(ctx context.Context, userID string, limit int) ([]string, error) {
	rows, err := d.sql.QueryContext(ctx, `SELECT expr FROM rolls WHERE user_id = ?
		GROUP BY expr ORDER BY MAX(id) DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("recent expressions of %s: %w", userID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, fmt.Errorf("recent expressions of %s: %w", userID, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("recent expressions of %s: %w", userID, err)
	}
	return out, nil
}
