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
	w := &claimWait{id: id, seen: outboxTime(now)}
	d.claims.do(ctx, d, w, d.saveClaims)
	if w.err != nil {
		return false, fmt.Errorf("claim interaction %s: %w", id, w.err)
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
	return w.first, nil
}

// claimWait is one claim waiting to be committed, and then its outcome.
type claimWait struct {
	id, seen string
	first    bool
	err      error
}

func (w *claimWait) fail(err error) { w.first, w.err = false, err }

// saveClaims commits batch, with the writer held, in one statement
// decided by the key, which commits by itself: the IDs it returns are
// those no process had claimed. A claim that waited for another's of the
// same ID is refused rather than run again; of one ID twice in a batch,
// the first is first.
func (d *DB) saveClaims(ctx context.Context, batch []*claimWait) {
	q := `INSERT INTO interactions (id, seen_at) VALUES ` + valuesRows(len(batch), "(?, ?)") + ` ON CONFLICT (id) DO NOTHING RETURNING id`
	args := make([]any, 0, 2*len(batch))
	for _, w := range batch {
		args = append(args, w.id, w.seen)
	}
	var claimed []string
	err := d.onceLocked(func(conn *sql.DB) error {
		var err error
		claimed, err = queryAll(ctx, conn, scanString, q, args...)
		return err
	})
	fresh := map[string]bool{}
	for _, id := range claimed {
		fresh[id] = true
	}
	for _, w := range batch {
		w.err = err
		w.first = err == nil && fresh[w.id]
		delete(fresh, w.id) // the same ID again in the batch is a replay
	}
}
