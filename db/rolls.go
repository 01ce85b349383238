package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
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
	// Private is set for every roll other players may not see: Visibility
	// says who may. Read back, it is Visibility other than "public"; to
	// SaveRoll it matters only with no Visibility.
	Private bool
	// Visibility is "public", "self" (the roller alone), "gm" (the roller
	// and the GMs) or "blind" (the GMs alone); "" is saved as "public",
	// or "self" when Private.
	Visibility string
	// Detail is the roll's dice and outcome as JSON, as the command that
	// rolled it chose to record them.
	Detail    json.RawMessage
	CreatedAt time.Time
}

// SaveRoll appends r to the roll log and returns its ID once it is
// committed.
//
// The rolls saved while the writer is busy are committed together, in one
// transaction (group commit): on a busy bot the roll log is most of the
// writes, and a commit costs far more than a row. The first roll to find
// no commit under way leads: it takes the writer's lock, then every roll
// waiting by then, and commits them; the rolls that came meanwhile wait
// for the next leader, the first of them, which it wakes. Each roll is
// answered only after its own commit, so nothing acknowledged is lost.
func (d *DB) SaveRoll(ctx context.Context, r Roll) (int64, error) {
	w := &rollWait{r: r, now: d.stamp(), wake: make(chan bool, 1)}
	q := &d.rolls
	q.mu.Lock()
	q.pending = append(q.pending, w)
	lead := !q.leading
	q.leading = true
	q.mu.Unlock()
	if lead || <-w.wake {
		d.commitBatch(ctx, w)
	}
	return w.result()
}

// commitBatch is the leader's work: with the writer's lock, commit every
// roll waiting, answer them, and hand the lead to the first roll that came
// meanwhile. Even a panic answers the batch and hands the lead on, so
// that the roll log never stops.
func (d *DB) commitBatch(ctx context.Context, leader *rollWait) {
	q := &d.rolls
	var batch []*rollWait
	defer func() {
		p := recover()
		for _, o := range batch {
			if p != nil {
				o.id, o.err = 0, fmt.Errorf("panic: %v", p)
			}
			if o != leader {
				o.wake <- false
			}
		}
		q.mu.Lock()
		if len(q.pending) > 0 {
			q.pending[0].wake <- true // the next batch's leader
		} else {
			q.leading = false
		}
		q.mu.Unlock()
		if p != nil {
			panic(p)
		}
	}()
	// The batch is everyone's: one caller's cancelled context must not
	// fail the others' rolls. It has a deadline of its own, so that a
	// stalled writer fails the rolls rather than hold them for ever.
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RollBatchTimeout)
	defer cancel()
	err := d.write.LockContext(bctx)
	q.mu.Lock()
	batch = q.pending
	q.pending = nil
	q.mu.Unlock()
	if err != nil {
		for _, w := range batch {
			w.err = fmt.Errorf("wait for the writer: %w", err)
		}
		return
	}
	defer d.write.Unlock()
	d.saveRolls(bctx, batch)
}

// RollBatchTimeout bounds one commit of the roll log, waiting for the
// writer included.
const RollBatchTimeout = 30 * time.Second

// rollQueue holds the rolls waiting for the next commit of the roll log.
type rollQueue struct {
	mu      sync.Mutex
	pending []*rollWait
	leading bool // a SaveRoll is committing, or about to
}

// rollWait is one roll waiting to be committed, and then its outcome.
type rollWait struct {
	r   Roll
	now string
	id  int64
	err error
	// wake says the roll is committed (false), or that its SaveRoll leads
	// the next batch (true).
	wake chan bool
}

func (w *rollWait) result() (int64, error) {
	if w.err != nil {
		return 0, fmt.Errorf("save roll in channel %s: %w", w.r.ChannelID, w.err)
	}
	return w.id, nil
}

// saveRolls commits batch in one transaction, with d.write held. If that
// fails, each roll is tried in a transaction of its own, so that one bad
// roll fails alone.
func (d *DB) saveRolls(ctx context.Context, batch []*rollWait) {
	err := d.txLocked(ctx, func(tx *sql.Tx) error {
		for _, w := range batch {
			var err error
			if w.id, err = d.saveRoll(ctx, tx, w.r, w.now); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		return
	}
	if len(batch) == 1 {
		batch[0].id, batch[0].err = 0, err
		return
	}
	for _, w := range batch {
		w.err = d.txLocked(ctx, func(tx *sql.Tx) error {
			var err error
			w.id, err = d.saveRoll(ctx, tx, w.r, w.now)
			return err
		})
	}
}

const insertRollSQL = `INSERT INTO rolls
	(code, guild_id, channel_id, user_id, user_name, expr, total, private, visibility, detail, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`

func (d *DB) saveRoll(ctx context.Context, tx *sql.Tx, r Roll, now string) (int64, error) {
	detail := r.Detail
	if len(detail) == 0 {
		detail = json.RawMessage("{}")
	}
	vis := r.Visibility
	switch {
	case vis == "" && r.Private:
		vis = "self"
	case vis == "":
		vis = "public"
	}
	private := vis != "public"
	// Tx.StmtContext reuses the statement already prepared on the
	// transaction's connection.
	var id int64
	err := tx.StmtContext(ctx, d.insertRoll).QueryRowContext(ctx,
		r.Code, r.GuildID, r.ChannelID, r.UserID, r.UserName, r.Expr, r.Total, private, vis, string(detail), now).Scan(&id)
	return id, err
}

// Viewer is who asks for the roll log: a user, and whether they are a GM
// where they ask.
type Viewer struct {
	ID string
	GM bool
}

// RecentRolls returns up to limit of the newest rolls in channel, newest
// first; userID, when not empty, keeps only that user's rolls. A roll
// other players may not see is included when it is the viewer's own, or
// when the viewer is a GM and it is a gm or blind roll (a self roll is
// its roller's alone).
func (d *DB) RecentRolls(ctx context.Context, channelID, userID string, viewer Viewer, limit int) ([]Roll, error) {
	gmSees := [2]string{"-", "-"}
	if viewer.GM {
		gmSees = [2]string{"gm", "blind"}
	}
	rows, err := d.sql.QueryContext(ctx, `SELECT `+rollCols+` FROM rolls
		WHERE channel_id = ? AND (? = '' OR user_id = ?) AND (private = 0 OR user_id = ? OR visibility IN (?, ?))
		ORDER BY id DESC LIMIT ?`, channelID, userID, userID, viewer.ID, gmSees[0], gmSees[1], limit)
	if err != nil {
		return nil, fmt.Errorf("list rolls in channel %s: %w", channelID, err)
	}
	defer rows.Close()
	var out []Roll
	for rows.Next() {
		r, err := scanRoll(rows)
		if err != nil {
			return nil, fmt.Errorf("list rolls in channel %s: %w", channelID, err)
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
	r, err = scanRoll(d.sql.QueryRowContext(ctx, `SELECT `+rollCols+`
		FROM rolls WHERE channel_id = ? AND code = ? ORDER BY id DESC LIMIT 1`, channelID, code))
	if errors.Is(err, sql.ErrNoRows) {
		return Roll{}, false, nil
	}
	if err != nil {
		return Roll{}, false, fmt.Errorf("find roll %s in channel %s: %w", code, channelID, err)
	}
	return r, true, nil
}

const rollCols = `id, code, guild_id, channel_id, user_id, user_name, expr, total, private, visibility, detail, created_at`

func scanRoll(row interface{ Scan(...any) error }) (Roll, error) {
	var r Roll
	var detail, created string
	if err := row.Scan(&r.ID, &r.Code, &r.GuildID, &r.ChannelID, &r.UserID, &r.UserName, &r.Expr, &r.Total, &r.Private, &r.Visibility, &detail, &created); err != nil {
		return Roll{}, err
	}
	r.Detail = json.RawMessage(detail)
	var err error
	if r.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return Roll{}, fmt.Errorf("roll %d: bad time %q: %w", r.ID, created, err)
	}
	return r, nil
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
