package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"

	"github.com/tablehand/tablehand/rules/encounter"
)

// Encounter is the fight in a channel, as stored: the encounter itself
// and its place in the journal.
type Encounter struct {
	ID        int64
	GuildID   string
	ChannelID string
	// State is the encounter. UpdateEncounter's function changes it with
	// its operations.
	State *encounter.Encounter
	// Seq is the seq of the newest entry of the encounter's journal: it
	// moves on with every command that changes the encounter, undo and
	// redo included.
	Seq int64
	// Active is false once the fight has ended: a channel has at most one
	// active encounter.
	Active bool
	// TrackerMessage is the ID of the Discord message showing the tracker,
	// once the edge has recorded it with SetTrackerMessage.
	TrackerMessage string
	CreatedBy      string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// PlayMode is the channel's play mode (SetPlayMode), "" for none. Only
	// UpdateEncounter reads it, in the statement that loads the encounter,
	// for the change that depends on it: no round trip of its own.
	PlayMode string
}

// Statuses of a journal entry.
const (
	// StatusStart opens the journal: the empty encounter.
	StatusStart = "start"
	// StatusDone is a change in effect.
	StatusDone = "done"
	// StatusUndone is a change undone, which RedoEncounter can restore.
	StatusUndone = "undone"
	// StatusDropped is a change undone and then replaced by a new change:
	// it can no longer be redone, but stays in the log.
	StatusDropped = "dropped"
	// StatusUndo and StatusRedo record those commands; Ref is the change
	// they undid or redid.
	StatusUndo = "undo"
	StatusRedo = "redo"
)

// EncounterEvent is one entry of an encounter's journal.
type EncounterEvent struct {
	EncounterID int64
	Seq         int64
	// Kind is the operation (an encounter.Kind), or "start", "undo" or
	// "redo".
	Kind   string
	Status string
	// Ref is, for an undo or a redo, the seq of the change it undid or
	// redid.
	Ref     int64
	ActorID string
	// Event is what the change did. An undo or a redo carries the event of
	// the change it undid or redid.
	Event     encounter.Event
	CreatedAt time.Time
}

// The journal is bounded. Its log (encounter_events: kind, actor,
// summary, event) is kept whole, so /init log tells who did what from the
// start; the snapshots undo and redo restore (encounter_states) are kept
// only while they can be used, and deleted after, in the transaction of
// the change that puts them out of reach. The encounter's own row keeps
// the current state.
//
// Only start, done and undone entries (the undo/redo stack) have a
// snapshot: undo restores the one of the done entry (or start) before the
// change it undoes, redo the one of the change it redoes. Undo and redo
// entries have none, and a change undone and then dropped loses its
// snapshot to the change that drops it.
//
// Undo reaches back MaxUndo changes. It restores snapshots from the window
// only: the encounter's newest MaxUndo+1, undone ones included, that is
// the states after the MaxUndo newest changes and the state before the
// oldest of them. An undo that would go below it fails with
// ErrUndoLimit. Undo and redo move within the window without sliding it; a
// new change slides it up by one. A new change after undos drops the
// changes undone, and the window is not refilled from below, where
// snapshots may be gone already: that change first trims the journal to
// the window exactly, so undo stops where it stopped before.
//
// The snapshots below the window are deleted in batches, by the change
// that takes their number to PruneEvery: an encounter keeps between
// MaxUndo+1 and MaxUndo+PruneEvery of them, and a change pays for one
// snapshot row, a look-up that walks MaxUndo+PruneEvery index entries
// and, one time in PruneEvery, a DELETE of PruneEvery rows, however long
// the fight. SQLite reuses the
// pages deleted rows free, so a long fight grows the file by a log row per
// command, not a snapshot.
//
// An ended encounter keeps its snapshots while its end can be undone, that
// is until the next encounter starts in its channel (undo reaches only a
// channel's latest encounter): StartEncounter deletes them, leaving the
// final state and the log.
const (
	// MaxUndo is how many of an encounter's newest changes can be undone.
	MaxUndo = 100
	// PruneEvery is how many snapshots below the undo window an encounter
	// gathers before they are deleted together.
	PruneEvery = 16
	// keptStates is the window: the states after the MaxUndo newest
	// changes and the state before the oldest of them.
	keptStates = MaxUndo + 1
)

// Mistakes an encounter command can make, for errors.Is. A missing
// encounter wraps ErrNotFound.
var (
	ErrActiveEncounter = errors.New("an encounter is already running in this channel")
	ErrNothingToUndo   = errors.New("nothing to undo")
	ErrNothingToRedo   = errors.New("nothing to redo")
	// ErrUndoLimit is an undo past the window: the state it would restore
	// is no longer kept.
	ErrUndoLimit = fmt.Errorf("only the last %d changes can be undone", MaxUndo)
)

const encounterCols = `id, guild_id, channel_id, state, seq, active, tracker_message, created_by, created_at, updated_at`

// scanEncounter reads a row of encounterCols, then into extra the
// columns that follow them.
func scanEncounter(row interface{ Scan(...any) error }, extra ...any) (Encounter, error) {
	var e Encounter
	var state, created, updated string
	dest := append([]any{&e.ID, &e.GuildID, &e.ChannelID, &state, &e.Seq, &e.Active, &e.TrackerMessage, &e.CreatedBy, &created, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return Encounter{}, err
	}
	var err error
	if e.State, err = encounter.Restore([]byte(state)); err != nil {
		return Encounter{}, fmt.Errorf("encounter %d: %w", e.ID, err)
	}
	if e.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return Encounter{}, fmt.Errorf("encounter %d: bad time: %w", e.ID, err)
	}
	if e.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return Encounter{}, fmt.Errorf("encounter %d: bad time: %w", e.ID, err)
	}
	return e, nil
}

// activeEncounter loads the active encounter of channelID, or an error
// wrapping ErrNotFound.
func activeEncounter(ctx context.Context, q querier, channelID string) (Encounter, error) {
	return loadEncounter(ctx, q, channelID, "AND active = 1")
}

// latestEncounter loads the newest encounter of channelID, active or not.
func latestEncounter(ctx context.Context, q querier, channelID string) (Encounter, error) {
	return loadEncounter(ctx, q, channelID, "ORDER BY id DESC LIMIT 1")
}

// loadEncounter loads the encounter of channelID that rest (the query
// after its WHERE channel_id = ?) picks, or an error wrapping ErrNotFound.
func loadEncounter(ctx context.Context, q querier, channelID, rest string) (Encounter, error) {
	e, err := scanEncounter(q.QueryRowContext(ctx, `SELECT `+encounterCols+` FROM encounters
		WHERE channel_id = ? `+rest, channelID))
	return foundEncounter(e, err, channelID)
}

// foundEncounter is the outcome of a load of the encounter of channelID:
// no row is ErrNotFound.
func foundEncounter(e Encounter, err error, channelID string) (Encounter, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return Encounter{}, fmt.Errorf("encounter in channel %s: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return Encounter{}, fmt.Errorf("load encounter in channel %s: %w", channelID, err)
	}
	return e, nil
}

// querier is what *sql.DB and *sql.Tx share for reading.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAll runs query through q and reads every row it returns with
// scan, in order.
func queryAll[T any](ctx context.Context, q querier, scan func(row interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		x, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// scanString reads a row of one text column (for queryAll).
func scanString(row interface{ Scan(...any) error }) (string, error) {
	var s string
	err := row.Scan(&s)
	return s, err
}

// StartEncounter opens a new encounter of system in channelID, not begun
// and with no one in it. It fails with ErrActiveEncounter when the channel
// has one running. The channel's ended encounters can no longer be undone
// from then on: their snapshots are deleted.
func (d *DB) StartEncounter(ctx context.Context, guildID, channelID, system, actorID string) (Encounter, error) {
	var out Encounter
	err := d.tx(ctx, func(tx *sql.Tx) error {
		// The channel's encounters, locked as the changes of its fight lock
		// them: the snapshots deleted below are what their undo reads.
		if err := d.lockChannel(ctx, tx, channelID); err != nil {
			return err
		}
		var running int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM encounters WHERE channel_id = ? AND active = 1`, channelID).Scan(&running); err != nil {
			return err
		}
		if running > 0 {
			return ErrActiveEncounter
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM encounter_states
			WHERE encounter_id IN (SELECT id FROM encounters WHERE channel_id = ? AND active = 0)`, channelID); err != nil {
			return fmt.Errorf("delete the snapshots of ended encounters: %w", err)
		}
		state, err := encounter.New(system).Snapshot()
		if err != nil {
			return err
		}
		now := d.stamp()
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO encounters
			(guild_id, channel_id, system, state, seq, active, created_by, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, 1, ?, ?, ?) RETURNING id`, guildID, channelID, system, string(state), actorID, now, now).Scan(&id); err != nil {
			return err
		}
		ev := encounter.Event{Kind: "start", Actor: actorID}
		if err := insertEncounterEvent(ctx, tx, id, 1, "start", StatusStart, 0, ev, now); err != nil {
			return err
		}
		if err := insertSnapshot(ctx, tx, id, 1, state); err != nil {
			return err
		}
		out, err = scanEncounter(tx.QueryRowContext(ctx, `SELECT `+encounterCols+` FROM encounters WHERE id = ?`, id))
		return err
	})
	if err != nil {
		return Encounter{}, fmt.Errorf("start encounter in channel %s: %w", channelID, err)
	}
	return out, nil
}

// Encounter returns the active encounter of channelID, or an error
// wrapping ErrNotFound.
func (d *DB) Encounter(ctx context.Context, channelID string) (Encounter, error) {
	return activeEncounter(ctx, d.sql, channelID)
}

// UpdateEncounter changes the active encounter of channelID in one
// transaction: it loads it, runs fn on it, and stores the state fn leaves
// with the event fn returns as a new journal entry. When fn fails nothing
// is stored and its error comes back as it is (wrapped with %w), so
// errors.As finds an *encounter.Error in it. BEGIN IMMEDIATE (SQLite) or
// the row lock of the load (PostgreSQL) comes before the load, so
// concurrent commands on one channel run one after the other and none
// loses another's change. A change drops
// whatever had been undone: it can no longer be redone. It slides the undo
// window (see MaxUndo) and prunes the journal when its time has come.
func (d *DB) UpdateEncounter(ctx context.Context, channelID string, fn func(e *Encounter) (encounter.Event, error)) (Encounter, encounter.Event, error) {
	var out Encounter
	var ev encounter.Event
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		// One statement loads the active encounter and locks its row: the
		// change is about it alone (what undo, redo and a new fight change
		// besides, they lock every encounter of the channel, this one too).
		// A change that waited for the lock reads the row as the one before
		// it left it, or finds the fight ended. The same statement says
		// whether the journal holds undone changes, which this one drops
		// (undo and redo lock the row too): most changes have none, and
		// skip the statement that would drop them, a round trip on
		// PostgreSQL; and it reads the channel's play mode.
		var undone bool
		var mode string
		e, err := scanEncounter(tx.QueryRowContext(ctx, `SELECT `+encounterCols+`,
			EXISTS (SELECT 1 FROM encounter_events WHERE encounter_id = encounters.id AND status = ?),
			COALESCE((SELECT p.mode FROM play_settings p WHERE p.guild_id = encounters.guild_id AND p.channel_id = encounters.channel_id), '')
			FROM encounters WHERE channel_id = ? AND active = 1`+d.forUpdate(), StatusUndone, channelID), &undone, &mode)
		e.PlayMode = mode
		if e, err = foundEncounter(e, err, channelID); err != nil {
			return err
		}
		if ev, err = fn(&e); err != nil {
			return err
		}
		if ev.Kind == "" {
			return fmt.Errorf("update encounter %d: the change returned no event", e.ID)
		}
		state, err := e.State.Snapshot()
		if err != nil {
			return err
		}
		if err := e.State.Validate(); err != nil {
			return fmt.Errorf("update encounter %d: %w", e.ID, err)
		}
		at, now := d.clock()
		if undone {
			if _, err := tx.ExecContext(ctx, `UPDATE encounter_events SET status = ? WHERE encounter_id = ? AND status = ?`,
				StatusDropped, e.ID, StatusUndone); err != nil {
				return err
			}
			if err := dropUndone(ctx, tx, e.ID); err != nil {
				return fmt.Errorf("prune the journal of encounter %d: %w", e.ID, err)
			}
		}
		seq := e.Seq + 1
		if err := d.appendChange(ctx, tx, e.ID, seq, ev, state, !e.State.Ended, now); err != nil {
			return err
		}
		e.Seq, e.Active, e.UpdatedAt = seq, !e.State.Ended, at
		out = e
		return nil
	})
	if err != nil {
		return Encounter{}, encounter.Event{}, fmt.Errorf("update encounter in channel %s: %w", channelID, err)
	}
	return out, ev, nil
}

// EndEncounter ends the active encounter of channelID: the End operation,
// stored as UpdateEncounter stores any change (so it can be undone).
func (d *DB) EndEncounter(ctx context.Context, channelID, actorID string) (Encounter, encounter.Event, error) {
	return d.UpdateEncounter(ctx, channelID, func(e *Encounter) (encounter.Event, error) {
		// The store knows no system's policy: a fight ended here settles
		// no one as down (see encounter.Downer); /init end does.
		return e.State.End(encounter.Generic{}, actorID)
	})
}

// UndoEncounter undoes the newest change in effect of channelID's
// encounter, restoring exactly the state before it, and returns the
// encounter and the change undone. With no active encounter it undoes the
// end of the channel's latest one, which runs again, unless another has
// started since (ErrActiveEncounter). Nothing done: ErrNothingToUndo. Past
// the MaxUndo newest changes: ErrUndoLimit.
func (d *DB) UndoEncounter(ctx context.Context, channelID, actorID string) (Encounter, EncounterEvent, error) {
	var out Encounter
	var undone EncounterEvent
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockChannel(ctx, tx, channelID); err != nil {
			return err
		}
		e, err := activeEncounter(ctx, tx, channelID)
		if errors.Is(err, ErrNotFound) {
			e, err = latestEncounter(ctx, tx, channelID)
			if err == nil && !e.State.Ended {
				err = fmt.Errorf("encounter %d: inactive but not ended", e.ID)
			}
		}
		if err != nil {
			return err
		}
		undone, err = scanEncounterEvent(tx.QueryRowContext(ctx, `SELECT `+eventCols+` FROM encounter_events
			WHERE encounter_id = ? AND status = ? ORDER BY seq DESC LIMIT 1`, e.ID, StatusDone))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNothingToUndo
		}
		if err != nil {
			return err
		}
		var beforeSeq int64
		if err := tx.QueryRowContext(ctx, `SELECT seq FROM encounter_events
			WHERE encounter_id = ? AND status IN (?, ?) AND seq < ? ORDER BY seq DESC LIMIT 1`,
			e.ID, StatusDone, StatusStart, undone.Seq).Scan(&beforeSeq); err != nil {
			return fmt.Errorf("the state before change %d: %w", undone.Seq, err)
		}
		before, err := snapshot(ctx, tx, e.ID, beforeSeq)
		if err != nil {
			return fmt.Errorf("the state before change %d: %w", undone.Seq, err)
		}
		// Perhaps still stored, until the next pruning: the limit is the
		// window, not the pruning's timing.
		var newer int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM encounter_states WHERE encounter_id = ? AND seq >= ?`,
			e.ID, beforeSeq).Scan(&newer); err != nil {
			return fmt.Errorf("the undo window of encounter %d: %w", e.ID, err)
		}
		if newer > keptStates {
			return fmt.Errorf("the state before change %d is below the undo window: %w", undone.Seq, ErrUndoLimit)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE encounter_events SET status = ? WHERE encounter_id = ? AND seq = ?`,
			StatusUndone, e.ID, undone.Seq); err != nil {
			return err
		}
		undone.Status = StatusUndone
		out, err = d.moveJournal(ctx, tx, e, StatusUndo, undone, actorID, before)
		return err
	})
	if err != nil {
		return Encounter{}, EncounterEvent{}, fmt.Errorf("undo in channel %s: %w", channelID, err)
	}
	return out, undone, nil
}

// RedoEncounter redoes the change of channelID's active encounter undone
// last (with nothing changed since), restoring exactly the state after it,
// and returns the encounter and the change redone. Nothing undone:
// ErrNothingToRedo.
func (d *DB) RedoEncounter(ctx context.Context, channelID, actorID string) (Encounter, EncounterEvent, error) {
	var out Encounter
	var redone EncounterEvent
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockChannel(ctx, tx, channelID); err != nil {
			return err
		}
		e, err := activeEncounter(ctx, tx, channelID)
		if err != nil {
			return err
		}
		redone, err = scanEncounterEvent(tx.QueryRowContext(ctx, `SELECT `+eventCols+` FROM encounter_events
			WHERE encounter_id = ? AND status = ? ORDER BY seq ASC LIMIT 1`, e.ID, StatusUndone))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNothingToRedo
		}
		if err != nil {
			return err
		}
		// An undone change is in the window (only a new change slides it,
		// and a new change drops what was undone): its snapshot is kept.
		after, err := snapshot(ctx, tx, e.ID, redone.Seq)
		if err != nil {
			return fmt.Errorf("the state after change %d: %w", redone.Seq, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE encounter_events SET status = ? WHERE encounter_id = ? AND seq = ?`,
			StatusDone, e.ID, redone.Seq); err != nil {
			return err
		}
		redone.Status = StatusDone
		out, err = d.moveJournal(ctx, tx, e, StatusRedo, redone, actorID, after)
		return err
	})
	if err != nil {
		return Encounter{}, EncounterEvent{}, fmt.Errorf("redo in channel %s: %w", channelID, err)
	}
	return out, redone, nil
}

// moveJournal makes state the encounter's current state after an undo or
// a redo of ref, recording the command in the journal. It stores no
// snapshot: nothing would read it back.
func (d *DB) moveJournal(ctx context.Context, tx *sql.Tx, e Encounter, status string, ref EncounterEvent, actorID, state string) (Encounter, error) {
	restored, err := encounter.Restore([]byte(state))
	if err != nil {
		return Encounter{}, fmt.Errorf("encounter %d: %w", e.ID, err)
	}
	at, now := d.clock()
	seq := e.Seq + 1
	ev := ref.Event
	ev.Actor = actorID
	if err := insertEncounterEvent(ctx, tx, e.ID, seq, status, status, ref.Seq, ev, now); err != nil {
		return Encounter{}, err
	}
	active := !restored.Ended
	if err := saveEncounterState(ctx, tx, e.ID, []byte(state), seq, active, now); err != nil {
		if isUniqueViolation(err) {
			return Encounter{}, ErrActiveEncounter
		}
		return Encounter{}, err
	}
	e.State, e.Seq, e.Active, e.UpdatedAt = restored, seq, active, at
	return e, nil
}

// appendChange stores change seq of encounter id: its journal entry (ev,
// done), the state after it as its snapshot and as the encounter's, and
// prunes the snapshots below the undo window when their time has come
// (pruneJournal).
//
// On PostgreSQL the three writes and the look-up of the prune are one
// statement (a WITH of INSERTs and the UPDATE, which every engine of its
// dialect accepts): a round trip costs more there than the statements do,
// and a change of a fight is most of a busy bot's commands. The look-up
// runs on the statement's snapshot, which does not hold the snapshot the
// statement inserts: it looks one entry less deep.
func (d *DB) appendChange(ctx context.Context, tx *sql.Tx, id, seq int64, ev encounter.Event, state []byte, active bool, now string) error {
	if !d.postgres {
		if err := insertEncounterEvent(ctx, tx, id, seq, string(ev.Kind), StatusDone, 0, ev, now); err != nil {
			return err
		}
		if err := insertSnapshot(ctx, tx, id, seq, state); err != nil {
			return err
		}
		if err := pruneJournal(ctx, tx, id, keptStates, PruneEvery-1); err != nil {
			return fmt.Errorf("prune the journal of encounter %d: %w", id, err)
		}
		return saveEncounterState(ctx, tx, id, state, seq, active, now)
	}
	js, public, err := eventRow(ev)
	if err != nil {
		return err
	}
	var deep int64
	err = tx.QueryRowContext(ctx, `WITH
		event AS (INSERT INTO encounter_events (encounter_id, seq, kind, status, ref, actor_id, summary, public, event, created_at)
			VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8, ?9)),
		snapshot AS (INSERT INTO encounter_states (encounter_id, seq, state) VALUES (?1, ?2, ?10)),
		encounter AS (UPDATE encounters SET state = ?10, seq = ?2, active = ?11, updated_at = ?9 WHERE id = ?1)
		SELECT seq FROM encounter_states WHERE encounter_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?12`,
		id, seq, string(ev.Kind), StatusDone, ev.Actor, ev.Summary, public, js, now, string(state), active,
		keptStates+PruneEvery-2).Scan(&deep)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // no more than keptStates+PruneEvery-1 with the new one
	}
	if err != nil {
		return err
	}
	if err := pruneJournal(ctx, tx, id, keptStates, 0); err != nil {
		return fmt.Errorf("prune the journal of encounter %d: %w", id, err)
	}
	return nil
}

// pruneJournal deletes the snapshots of encounter id but the newest keep,
// once more than keep+slack have gathered. Both statements walk the
// primary key of encounter_states, which holds no more than
// keptStates+PruneEvery entries of the encounter, from the newest: their
// cost does not grow with the fight.
func pruneJournal(ctx context.Context, tx *sql.Tx, id int64, keep, slack int) error {
	if keep <= 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM encounter_states WHERE encounter_id = ?`, id)
		return err
	}
	var seq int64
	err := tx.QueryRowContext(ctx, `SELECT seq FROM encounter_states WHERE encounter_id = ?
		ORDER BY seq DESC LIMIT 1 OFFSET ?`, id, keep+slack).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // no more than keep+slack
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM encounter_states WHERE encounter_id = ?1 AND seq < (
		SELECT seq FROM encounter_states WHERE encounter_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`, id, keep-1)
	return err
}

// dropUndone deletes the snapshots of the changes of encounter id that a
// new change has just dropped, and trims the rest to the window as it was
// with them in it, so that the window does not reach below where it
// stood. The dropped changes had the newest snapshots: nothing above the
// newest done change (or start) has one but an undone change.
func dropUndone(ctx context.Context, tx *sql.Tx, id int64) error {
	res, err := tx.ExecContext(ctx, `DELETE FROM encounter_states WHERE encounter_id = ?1 AND seq > COALESCE(
		(SELECT seq FROM encounter_events WHERE encounter_id = ?1 AND status = ?2 ORDER BY seq DESC LIMIT 1), 1)`, id, StatusDone)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	return pruneJournal(ctx, tx, id, keptStates-int(n), 0)
}

// insertSnapshot stores state as the state after journal entry seq of
// encounter id.
func insertSnapshot(ctx context.Context, tx *sql.Tx, id, seq int64, state []byte) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO encounter_states (encounter_id, seq, state) VALUES (?, ?, ?)`,
		id, seq, string(state))
	return err
}

// snapshot returns the state after journal entry seq of encounter id, or
// an error wrapping ErrUndoLimit when it is no longer kept.
func snapshot(ctx context.Context, tx *sql.Tx, id, seq int64) (string, error) {
	var state string
	err := tx.QueryRowContext(ctx, `SELECT state FROM encounter_states WHERE encounter_id = ? AND seq = ?`, id, seq).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("no longer kept: %w", ErrUndoLimit)
	}
	return state, err
}

func saveEncounterState(ctx context.Context, tx *sql.Tx, id int64, state []byte, seq int64, active bool, now string) error {
	_, err := tx.ExecContext(ctx, `UPDATE encounters SET state = ?, seq = ?, active = ?, updated_at = ? WHERE id = ?`,
		string(state), seq, active, now, id)
	return err
}

func insertEncounterEvent(ctx context.Context, tx *sql.Tx, id, seq int64, kind, status string, ref int64, ev encounter.Event, now string) error {
	js, public, err := eventRow(ev)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO encounter_events
		(encounter_id, seq, kind, status, ref, actor_id, summary, public, event, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, seq, kind, status, ref, ev.Actor, ev.Summary, public, js, now)
	return err
}

// eventRow is what a journal entry stores of ev besides its summary: ev
// as JSON, and what everyone may read of it (the summary, or a secret
// change's public text).
func eventRow(ev encounter.Event) (js, public string, err error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return "", "", fmt.Errorf("encode event: %w", err)
	}
	public = ev.Summary
	if ev.Secret {
		public = ev.Public
	}
	return string(b), public, nil
}

const eventCols = `encounter_id, seq, kind, status, ref, actor_id, event, created_at`

func scanEncounterEvent(row interface{ Scan(...any) error }) (EncounterEvent, error) {
	var e EncounterEvent
	var event, created string
	if err := row.Scan(&e.EncounterID, &e.Seq, &e.Kind, &e.Status, &e.Ref, &e.ActorID, &event, &created); err != nil {
		return EncounterEvent{}, err
	}
	if err := json.Unmarshal([]byte(event), &e.Event); err != nil {
		return EncounterEvent{}, fmt.Errorf("event %d of encounter %d: %w", e.Seq, e.EncounterID, err)
	}
	var err error
	if e.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return EncounterEvent{}, fmt.Errorf("event %d of encounter %d: bad time: %w", e.Seq, e.EncounterID, err)
	}
	return e, nil
}

// EncounterLog returns the newest limit entries of the journal of
// channelID's active encounter, or of its latest one when none is active,
// oldest first; a negative limit returns them all.
func (d *DB) EncounterLog(ctx context.Context, channelID string, limit int) ([]EncounterEvent, error) {
	if limit < 0 {
		limit = math.MaxInt32 // SQLite takes LIMIT -1 for all, PostgreSQL does not
	}
	e, err := activeEncounter(ctx, d.sql, channelID)
	if errors.Is(err, ErrNotFound) {
		e, err = latestEncounter(ctx, d.sql, channelID)
	}
	if err != nil {
		return nil, err
	}
	rows, err := d.sql.QueryContext(ctx, `SELECT `+eventCols+` FROM (SELECT `+eventCols+` FROM encounter_events
		WHERE encounter_id = ? ORDER BY seq DESC LIMIT ?) AS newest ORDER BY seq`, e.ID, limit)
	if err != nil {
		return nil, fmt.Errorf("log of encounter %d: %w", e.ID, err)
	}
	defer rows.Close()
	var out []EncounterEvent
	for rows.Next() {
		ev, err := scanEncounterEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("log of encounter %d: %w", e.ID, err)
		}
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("log of encounter %d: %w", e.ID, err)
	}
	return out, nil
}

// SetTrackerMessage records the Discord message that shows encounter id's
// tracker, for the edge to edit as the fight goes on.
func (d *DB) SetTrackerMessage(ctx context.Context, id int64, messageID string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE encounters SET tracker_message = ? WHERE id = ?`, messageID, id)
		if err != nil {
			return fmt.Errorf("set tracker of encounter %d: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("set tracker of encounter %d: %w", id, err)
		}
		if n == 0 {
			return fmt.Errorf("set tracker of encounter %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// SystemSetting is the rule system chosen for a channel, or for a whole
// guild when ChannelID is "".
type SystemSetting struct {
	GuildID   string
	ChannelID string
	System    string
	SetBy     string
	UpdatedAt time.Time
}

// Scope is "channel" or "guild": where the setting applies.
func (s SystemSetting) Scope() string { return settingScope(s.ChannelID) }

// SetSystem stores s, replacing the setting of its channel (or guild).
func (d *DB) SetSystem(ctx context.Context, s SystemSetting) error {
	if err := d.setSetting(ctx, "system_settings", "system", s.GuildID, s.ChannelID, s.System, s.SetBy); err != nil {
		return fmt.Errorf("set system of %s %s: %w", s.Scope(), s.ChannelID+s.GuildID, err)
	}
	return nil
}

// ChannelSystem returns the rule system in force in channelID: the
// channel's own setting, else its guild's, else an error wrapping
// ErrNotFound.
func (d *DB) ChannelSystem(ctx context.Context, guildID, channelID string) (SystemSetting, error) {
	var s SystemSetting
	var updated string
	err := d.sql.QueryRowContext(ctx, `SELECT guild_id, channel_id, system, set_by, updated_at FROM system_settings
		WHERE guild_id = ? AND channel_id IN (?, '') ORDER BY channel_id = '' LIMIT 1`, guildID, channelID).
		Scan(&s.GuildID, &s.ChannelID, &s.System, &s.SetBy, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return SystemSetting{}, fmt.Errorf("system of channel %s: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return SystemSetting{}, fmt.Errorf("system of channel %s: %w", channelID, err)
	}
	if s.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return SystemSetting{}, fmt.Errorf("system of channel %s: bad time: %w", channelID, err)
	}
	return s, nil
}

// clock returns the time now, in UTC, and as it is stored.
func (d *DB) clock() (time.Time, string) {
	t := d.now().UTC()
	return t, t.Format(time.RFC3339Nano)
}

// isUniqueViolation reports a UNIQUE constraint failure.
func isUniqueViolation(err error) bool {
	var se sqlite3.Error
	var pe *pgconn.PgError
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique ||
		errors.As(err, &pe) && pe.Code == "23505"
}
