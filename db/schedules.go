package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A campaign has at most one schedule: rounds played by themselves
// between sessions. cron keeps nothing across restarts; this table does.
// Every firing is recorded by its identity (schedule, scheduled time), once.

// Policies for firings missed while the bot was down.
const (
	// MissedSkip records missed firings without playing them.
	MissedSkip = "skip"
	// MissedCatchUp plays up to the schedule's limit of them, the newest.
	MissedCatchUp = "catch-up"
)

// Firing statuses.
const (
	FiringPending = "pending" // posted its preview; waits for the GM's button
	FiringApplied = "applied" // its rounds were played
	FiringSkipped = "skipped" // the GM declined it
	FiringMissed  = "missed"  // the bot was down; the policy did not play it
)

// Schedule is a campaign's schedule.
type Schedule struct {
	ID         int64
	CampaignID int64
	GuildID    string
	// ChannelID is where its reports are posted.
	ChannelID string
	// Spec is what the GM typed; Cron the five-field spec it stands for,
	// in Timezone (an IANA name).
	Spec     string
	Cron     string
	Timezone string
	// Rounds a firing plays, 1 to 3.
	Rounds int
	Paused bool
	// Approve: a firing posts its preview and waits for the GM's button.
	Approve bool
	// Missed is the campaign's policy for firings missed while the bot
	// was down (MissedSkip or MissedCatchUp), CatchUpLimit how many a
	// catch-up plays at most.
	Missed       string
	CatchUpLimit int
	// LastFiring is the scheduled time of the newest firing dealt with:
	// firings after it are due.
	LastFiring time.Time
	CreatedBy  string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// FiringRecord is one firing as stored.
type FiringRecord struct {
	ScheduleID int64
	At         time.Time
	Status     string
	FirstRound int
	LastRound  int
	Note       string
	UpdatedAt  time.Time
}

// firingStamp is how a firing's time is stored: UTC, whole seconds, so
// every process writes the same text for the same firing.
func firingStamp(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

const scheduleCols = `s.id, s.campaign_id, c.guild_id, s.channel_id, s.spec, s.cron, s.timezone, s.rounds, s.paused, s.approve,
	s.missed, s.catch_up_limit, s.last_firing, s.created_by, s.created_at, s.updated_at`

const scheduleFrom = ` FROM faction_schedules s JOIN faction_campaigns c ON c.id = s.campaign_id `

func scanSchedule(row interface{ Scan(...any) error }) (Schedule, error) {
	var s Schedule
	var last, created, updated string
	if err := row.Scan(&s.ID, &s.CampaignID, &s.GuildID, &s.ChannelID, &s.Spec, &s.Cron, &s.Timezone, &s.Rounds, &s.Paused, &s.Approve,
		&s.Missed, &s.CatchUpLimit, &last, &s.CreatedBy, &created, &updated); err != nil {
		return Schedule{}, err
	}
	var err error
	if s.LastFiring, err = time.Parse(time.RFC3339, last); err != nil {
		return Schedule{}, fmt.Errorf("schedule %d: bad time: %w", s.ID, err)
	}
	if s.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return Schedule{}, fmt.Errorf("schedule %d: bad time: %w", s.ID, err)
	}
	if s.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return Schedule{}, fmt.Errorf("schedule %d: bad time: %w", s.ID, err)
	}
	return s, nil
}

func loadSchedule(ctx context.Context, q querier, where string, arg any) (Schedule, error) {
	s, err := scanSchedule(q.QueryRowContext(ctx, `SELECT `+scheduleCols+scheduleFrom+`WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return Schedule{}, fmt.Errorf("schedule: %w", ErrNotFound)
	}
	return s, err
}

// SetSchedule creates or replaces the schedule of the guild's campaign and
// makes it run (a paused one resumes). A new schedule, a changed spec or
// zone, or a resumed one counts from now: no firing before now is due. The
// zone becomes the guild's (FactionCampaign.Timezone).
func (d *DB) SetSchedule(ctx context.Context, guildID string, s Schedule) (Schedule, error) {
	if s.Missed == "" {
		s.Missed = MissedSkip
	}
	var out Schedule
	err := d.tx(ctx, func(tx *sql.Tx) error {
		fc, err := loadCampaign(ctx, tx, guildID)
		if err != nil {
			return err
		}
		now, at := d.stamp(), firingStamp(d.now())
		old, err := loadSchedule(ctx, tx, "s.campaign_id = ?", fc.ID)
		switch {
		case errors.Is(err, ErrNotFound):
			_, err = tx.ExecContext(ctx, `INSERT INTO faction_schedules (campaign_id, channel_id, spec, cron, timezone, rounds, approve,
				missed, catch_up_limit, last_firing, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				fc.ID, s.ChannelID, s.Spec, s.Cron, s.Timezone, s.Rounds, s.Approve, s.Missed, s.CatchUpLimit, at, s.CreatedBy, now, now)
		case err != nil:
			return err
		default:
			last := firingStamp(old.LastFiring)
			if old.Cron != s.Cron || old.Timezone != s.Timezone || old.Paused {
				last = at
			}
			_, err = tx.ExecContext(ctx, `UPDATE faction_schedules SET channel_id = ?, spec = ?, cron = ?, timezone = ?, rounds = ?, paused = 0,
				approve = ?, missed = ?, catch_up_limit = ?, last_firing = ?, updated_at = ? WHERE id = ?`,
				s.ChannelID, s.Spec, s.Cron, s.Timezone, s.Rounds, s.Approve, s.Missed, s.CatchUpLimit, last, now, old.ID)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE faction_campaigns SET timezone = ? WHERE id = ?`, s.Timezone, fc.ID); err != nil {
			return err
		}
		out, err = loadSchedule(ctx, tx, "s.campaign_id = ?", fc.ID)
		return err
	})
	if err != nil {
		return Schedule{}, fmt.Errorf("set schedule: %w", err)
	}
	return out, nil
}

// Schedule returns the schedule of the guild's campaign, or an error
// wrapping ErrNotFound.
func (d *DB) Schedule(ctx context.Context, guildID string) (Schedule, error) {
	return loadSchedule(ctx, d.sql, "c.guild_id = ?", guildID)
}

// ScheduleByID returns a schedule by its ID, or an error wrapping
// ErrNotFound.
func (d *DB) ScheduleByID(ctx context.Context, id int64) (Schedule, error) {
	return loadSchedule(ctx, d.sql, "s.id = ?", id)
}

// Schedules lists every schedule, paused ones too, by ID.
func (d *DB) Schedules(ctx context.Context) ([]Schedule, error) {
	rows, err := d.sql.QueryContext(ctx, `SELECT `+scheduleCols+scheduleFrom+`ORDER BY s.id`)
	if err != nil {
		return nil, fmt.Errorf("list schedules: %w", err)
	}
	defer rows.Close()
	var out []Schedule
	for rows.Next() {
		s, err := scanSchedule(rows)
		if err != nil {
			return nil, fmt.Errorf("list schedules: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list schedules: %w", err)
	}
	return out, nil
}

// PauseSchedule pauses or resumes the guild's schedule. Firings while
// paused are not missed, they do not happen: a resumed schedule counts
// from now.
func (d *DB) PauseSchedule(ctx context.Context, guildID string, paused bool) (Schedule, error) {
	var out Schedule
	err := d.tx(ctx, func(tx *sql.Tx) error {
		s, err := loadSchedule(ctx, tx, "c.guild_id = ?", guildID)
		if err != nil {
			return err
		}
		last := firingStamp(s.LastFiring)
		if s.Paused && !paused {
			last = firingStamp(d.now())
		}
		if _, err := tx.ExecContext(ctx, `UPDATE faction_schedules SET paused = ?, last_firing = ?, updated_at = ? WHERE id = ?`,
			paused, last, d.stamp(), s.ID); err != nil {
			return err
		}
		out, err = loadSchedule(ctx, tx, "s.id = ?", s.ID)
		return err
	})
	if err != nil {
		return Schedule{}, fmt.Errorf("pause schedule: %w", err)
	}
	return out, nil
}

// DeleteSchedule removes the guild's schedule and its firings, and returns
// what it was.
func (d *DB) DeleteSchedule(ctx context.Context, guildID string) (Schedule, error) {
	var out Schedule
	err := d.tx(ctx, func(tx *sql.Tx) error {
		s, err := loadSchedule(ctx, tx, "c.guild_id = ?", guildID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM faction_schedules WHERE id = ?`, s.ID); err != nil {
			return err
		}
		out = s
		return nil
	})
	if err != nil {
		return Schedule{}, fmt.Errorf("delete schedule: %w", err)
	}
	return out, nil
}

// advanceLast moves a schedule's last firing forward to at, never back.
func advanceLast(ctx context.Context, tx *sql.Tx, scheduleID int64, at string) error {
	_, err := tx.ExecContext(ctx, `UPDATE faction_schedules SET last_firing = CASE WHEN last_firing < ? THEN ? ELSE last_firing END WHERE id = ?`, at, at, scheduleID)
	return err
}

// markFiring records a firing as status: a new one (ErrFiringDone when it
// is there already), or with pending the one awaiting approval
// (ErrFiringDone when it is not awaiting any more).
func markFiring(ctx context.Context, tx *sql.Tx, f Firing, pending bool, status string, first, last int, note, now string) error {
	at := firingStamp(f.At)
	var res sql.Result
	var err error
	if pending {
		res, err = tx.ExecContext(ctx, `UPDATE faction_firings SET status = ?, first_round = ?, last_round = ?, note = ?, updated_at = ?
			WHERE schedule_id = ? AND scheduled_at = ? AND status = ?`, status, first, last, note, now, f.ScheduleID, at, FiringPending)
	} else {
		res, err = tx.ExecContext(ctx, `INSERT INTO faction_firings (schedule_id, scheduled_at, status, first_round, last_round, note, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (schedule_id, scheduled_at) DO NOTHING`, f.ScheduleID, at, status, first, last, note, now)
	}
	if err != nil {
		return fmt.Errorf("record firing %d at %s: %w", f.ScheduleID, at, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("firing %d at %s: %w", f.ScheduleID, at, ErrFiringDone)
	}
	return advanceLast(ctx, tx, f.ScheduleID, at)
}

// RecordMissed records firings that will not be played (status
// FiringMissed) and moves the schedule's last firing past them. Firings
// recorded already are left as they are; it returns how many were new.
func (d *DB) RecordMissed(ctx context.Context, scheduleID int64, at []time.Time, note string) (int, error) {
	n := 0
	err := d.tx(ctx, func(tx *sql.Tx) error {
		now := d.stamp()
		for _, t := range at {
			err := markFiring(ctx, tx, Firing{ScheduleID: scheduleID, At: t}, false, FiringMissed, 0, 0, note, now)
			switch {
			case errors.Is(err, ErrFiringDone):
				if err := advanceLast(ctx, tx, scheduleID, firingStamp(t)); err != nil {
					return err
				}
			case err != nil:
				return err
			default:
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("record missed firings: %w", err)
	}
	return n, nil
}

// AddPendingFiring records a firing as awaiting the GM's approval; a
// firing recorded already gets ErrFiringDone (another process posted it).
//
// posts, when given, go to the outbox in the same transaction (the
// preview the GM approves from): posted if, and only if, the firing is
// recorded as pending.
func (d *DB) AddPendingFiring(ctx context.Context, f Firing, note string, posts ...OutboxMessage) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		if err := markFiring(ctx, tx, f, false, FiringPending, 0, 0, note, d.stamp()); err != nil {
			return err
		}
		return addOutbox(ctx, tx, posts, d.now())
	})
}

// SkipFiring records that the GM declined a firing awaiting approval; one
// not awaiting approval gets ErrFiringDone.
func (d *DB) SkipFiring(ctx context.Context, f Firing, note string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		return markFiring(ctx, tx, f, true, FiringSkipped, 0, 0, note, d.stamp())
	})
}

const firingCols = `schedule_id, scheduled_at, status, first_round, last_round, note, updated_at`

func scanFiring(row interface{ Scan(...any) error }) (FiringRecord, error) {
	var f FiringRecord
	var at, updated string
	if err := row.Scan(&f.ScheduleID, &at, &f.Status, &f.FirstRound, &f.LastRound, &f.Note, &updated); err != nil {
		return FiringRecord{}, err
	}
	var err error
	if f.At, err = time.Parse(time.RFC3339, at); err != nil {
		return FiringRecord{}, fmt.Errorf("firing: bad time: %w", err)
	}
	if f.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return FiringRecord{}, fmt.Errorf("firing: bad time: %w", err)
	}
	return f, nil
}

// FiringStatus returns one firing as stored, or an error wrapping
// ErrNotFound.
func (d *DB) FiringStatus(ctx context.Context, f Firing) (FiringRecord, error) {
	r, err := scanFiring(d.sql.QueryRowContext(ctx, `SELECT `+firingCols+` FROM faction_firings WHERE schedule_id = ? AND scheduled_at = ?`,
		f.ScheduleID, firingStamp(f.At)))
	if errors.Is(err, sql.ErrNoRows) {
		return FiringRecord{}, fmt.Errorf("firing %d at %s: %w", f.ScheduleID, firingStamp(f.At), ErrNotFound)
	}
	return r, err
}

// Firings lists up to limit of a schedule's newest firings, newest first.
func (d *DB) Firings(ctx context.Context, scheduleID int64, limit int) ([]FiringRecord, error) {
	rows, err := d.sql.QueryContext(ctx, `SELECT `+firingCols+` FROM faction_firings WHERE schedule_id = ?
		ORDER BY scheduled_at DESC LIMIT ?`, scheduleID, limit)
	if err != nil {
		return nil, fmt.Errorf("list firings: %w", err)
	}
	defer rows.Close()
	var out []FiringRecord
	for rows.Next() {
		f, err := scanFiring(rows)
		if err != nil {
			return nil, fmt.Errorf("list firings: %w", err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list firings: %w", err)
	}
	return out, nil
}
