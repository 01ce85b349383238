package db

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
	// LogRoll it matters only with no Visibility.
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

// SavedRoll is a roll the log has committed: its ID, and the GM channel
// of its guild when it was committed ("" for none), which a secret roll
// is shown in.
type SavedRoll struct {
	ID        int64
	GMChannel string
}

// LogRoll appends r to the roll log and returns its ID once it is
// committed, with the guild's GM channel, read in the statement that saves
// the roll: a secret roll costs no round trip more than another.
//
// The rolls saved while the writer is busy are committed together, in one
// statement (groupCommit): each roll is answered only after its own
// commit, so nothing acknowledged is lost.
func (d *DB) LogRoll(ctx context.Context, r Roll) (SavedRoll, error) {
	w := &rollWait{r: r, now: d.stamp()}
	d.rolls.do(ctx, d, w, d.saveRolls)
	return w.result()
}

// rollWait is one roll waiting to be committed, and then its outcome.
type rollWait struct {
	r   Roll
	now string
	id  int64
	gm  string // the guild's GM channel
	err error
}

func (w *rollWait) fail(err error) { w.id, w.err = 0, err }

func (w *rollWait) result() (SavedRoll, error) {
	if w.err != nil {
		return SavedRoll{}, fmt.Errorf("save roll in channel %s: %w", w.r.ChannelID, w.err)
	}
	return SavedRoll{ID: w.id, GMChannel: w.gm}, nil
}

// saveRolls commits batch, with d.write held, in one statement
// (saveRollsOnce). If that fails, each roll is tried alone, so that one
// bad roll fails alone.
func (d *DB) saveRolls(ctx context.Context, batch []*rollWait) {
	err := d.onceLocked(func(q *sql.DB) error { return d.saveRollsOnce(ctx, q, batch) })
	if err == nil {
		return
	}
	if len(batch) == 1 {
		batch[0].fail(err)
		return
	}
	for _, w := range batch {
		w.err = d.onceLocked(func(q *sql.DB) error { return d.saveRollsOnce(ctx, q, []*rollWait{w}) })
	}
}

// The statement that saves rolls, in parts: a row of VALUES is rollRow's,
// and each row saved returns its ID and its guild's GM channel.
const (
	rollInsert = `INSERT INTO rolls
	(code, guild_id, channel_id, user_id, user_name, expr, total, private, visibility, detail, created_at)
	VALUES `
	rollValues    = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	rollReturning = `
	RETURNING id, COALESCE((SELECT g.channel_id FROM gm_channels g WHERE g.guild_id = rolls.guild_id), '')`
)

// insertRollSQL saves one roll and reads its guild's GM channel.
const insertRollSQL = rollInsert + rollValues + rollReturning

// rollRow is the values of w's row of the roll log, in the order of
// insertRollSQL's columns.
func rollRow(w *rollWait) []any {
	r := w.r
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
	return []any{r.Code, r.GuildID, r.ChannelID, r.UserID, r.UserName, r.Expr, r.Total, private, vis, string(detail), w.now}
}

// saveRollsOnce saves batch in one statement through q, which commits by
// itself (once): one round trip to PostgreSQL, where BEGIN, an INSERT a
// roll and COMMIT cost more, and one call into SQLite where they cost
// three and more. A statement is atomic: every roll of the batch is
// saved, or none. The IDs are numbered in the order of VALUES, so the
// IDs returned, sorted, are the batch's in order. A roll alone uses the
// statement prepared at Open.
func (d *DB) saveRollsOnce(ctx context.Context, conn *sql.DB, batch []*rollWait) error {
	if len(batch) == 1 {
		w := batch[0]
		return d.insertRoll.QueryRowContext(ctx, rollRow(w)...).Scan(&w.id, &w.gm)
	}
	args := make([]any, 0, len(batch)*11)
	for _, w := range batch {
		args = append(args, rollRow(w)...)
	}
	type saved struct {
		id int64
		gm string
	}
	rows, err := queryAll(ctx, conn, func(row interface{ Scan(...any) error }) (saved, error) {
		var s saved
		err := row.Scan(&s.id, &s.gm)
		return s, err
	}, rollInsert+valuesRows(len(batch), rollValues)+rollReturning, args...)
	if err != nil {
		return err
	}
	if len(rows) != len(batch) {
		// Not to be: the statement saved every row or none. Not an error
		// to return, which would save each roll again.
		for _, w := range batch {
			w.fail(fmt.Errorf("roll log: %d rolls saved, %d rows returned", len(batch), len(rows)))
		}
		return nil
	}
	// The IDs follow VALUES: sorted, the i-th is the batch's i-th roll.
	slices.SortFunc(rows, func(a, b saved) int { return cmp.Compare(a.id, b.id) })
	for i, w := range batch {
		w.id, w.gm = rows[i].id, rows[i].gm
	}
	return nil
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
	out, err := queryAll(ctx, d.sql, scanRoll, `SELECT `+rollCols+` FROM rolls
		WHERE channel_id = ? AND (? = '' OR user_id = ?) AND (private = 0 OR user_id = ? OR visibility IN (?, ?))
		ORDER BY id DESC LIMIT ?`, channelID, userID, userID, viewer.ID, gmSees[0], gmSees[1], limit)
	if err != nil {
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
	out, err := queryAll(ctx, d.sql, scanString, `SELECT expr FROM rolls WHERE user_id = ?
		GROUP BY expr ORDER BY MAX(id) DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("recent expressions of %s: %w", userID, err)
	}
	return out, nil
}
