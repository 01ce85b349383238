package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// OutboxMessage is a message to post to a channel, kept in the outbox
// until a process has posted it. Body is the message as the game encoded
// it: the store keeps it and never reads it.
type OutboxMessage struct {
	ID        int64
	ChannelID string
	Body      []byte
	// Attempts counts the times a process took it to post, this one
	// included (ClaimOutbox): above 1, an earlier attempt may have been
	// posted and its process stopped before it was marked.
	Attempts  int
	CreatedAt time.Time
}

// outboxStamp is the time format of the outbox and the replay memory:
// fixed width, so that times compare as text on both stores (RFC 3339
// with trimmed nanoseconds puts 12:00:00.5Z before 12:00:00Z).
const outboxStamp = "2006-01-02T15:04:05.000000000Z"

func outboxTime(t time.Time) string { return t.UTC().Format(outboxStamp) }

// addOutbox writes msgs to the outbox in tx: they are posted if, and
// only if, tx commits.
func addOutbox(ctx context.Context, tx *sql.Tx, msgs []OutboxMessage, now time.Time) error {
	for _, m := range msgs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (channel_id, body, created_at) VALUES (?, ?, ?)`,
			m.ChannelID, string(m.Body), outboxTime(now)); err != nil {
			return fmt.Errorf("add to the outbox: %w", err)
		}
	}
	return nil
}

// ClaimOutbox takes, for this process to post, up to limit messages not
// yet posted that no process has taken within lease before now (one that
// did and stopped gives them up when lease has passed), oldest first.
// Each claim counts in Attempts. Two processes claiming at once get
// different messages.
func (d *DB) ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]OutboxMessage, error) {
	var out []OutboxMessage
	q := `SELECT id, channel_id, body, attempts, created_at FROM outbox
		WHERE posted_at IS NULL AND (claimed_at IS NULL OR claimed_at < ?) ORDER BY id LIMIT ?`
	if d.postgres {
		q += ` FOR UPDATE SKIP LOCKED`
	}
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		var err error
		if out, err = queryAll(ctx, tx, scanOutbox, q, outboxTime(now.Add(-lease)), limit); err != nil {
			return err
		}
		for i := range out {
			out[i].Attempts++
			if _, err := tx.ExecContext(ctx, `UPDATE outbox SET claimed_at = ?, attempts = ? WHERE id = ?`,
				outboxTime(now), out[i].Attempts, out[i].ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim the outbox: %w", err)
	}
	return out, nil
}

// scanOutbox reads a row of id, channel_id, body, attempts, created_at.
func scanOutbox(row interface{ Scan(...any) error }) (OutboxMessage, error) {
	var m OutboxMessage
	var body, created string
	if err := row.Scan(&m.ID, &m.ChannelID, &body, &m.Attempts, &created); err != nil {
		return OutboxMessage{}, err
	}
	m.Body = []byte(body)
	var err error
	m.CreatedAt, err = time.Parse(outboxStamp, created)
	return m, err
}

// OutboxKeep is how long a posted message stays in the outbox.
const OutboxKeep = 7 * 24 * time.Hour

// MarkPosted records that the message id was posted: it is never taken
// again.
func (d *DB) MarkPosted(ctx context.Context, id int64, now time.Time) error {
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET posted_at = ? WHERE id = ?`, outboxTime(now), id); err != nil {
			return err
		}
		// What was posted a week ago is of no use to anyone.
		_, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE posted_at < ?`, outboxTime(now.Add(-OutboxKeep)))
		return err
	})
	if err != nil {
		return fmt.Errorf("mark outbox message %d posted: %w", id, err)
	}
	return nil
}
