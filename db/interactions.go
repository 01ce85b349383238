package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// ClaimInteraction records that the interaction id is being answered, at
// now, and reports whether it is the first to: false means a process on
// this database (this one or another) has it already, and the request is a
// replay. The primary key decides, so two replicas claiming one ID at once
// get one true between them.
//
// IDs seen before now-keep are deleted on the way, at most once per keep/4
// by this process: an interaction older than the window its signature is
// accepted in cannot come again.
func (d *DB) ClaimInteraction(ctx context.Context, id string, now time.Time, keep time.Duration) (bool, error) {
	first := false
	// One statement, decided by the key, which commits by itself: a claim
	// that waited for another's of the same ID is refused rather than run
	// again.
	err := d.once(ctx, func(q *sql.DB) error {
		res, err := q.ExecContext(ctx, `INSERT INTO interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`,
			id, outboxTime(now))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("claim interaction %s: %w", id, err)
	}
	d.expireMu.Lock()
	due := now.Sub(d.expired) >= keep/4
	if due {
		d.expired = now
	}
	d.expireMu.Unlock()
	if due {
		// Best effort: the claim stands, and old IDs only take room until
		// the next sweep, by this process or another.
		d.once(ctx, func(q *sql.DB) error {
			_, err := q.ExecContext(ctx, `DELETE FROM interactions WHERE seen_at < ?`, outboxTime(now.Add(-keep)))
			return err
		})
	}
	return first, nil
}
