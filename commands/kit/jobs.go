package kit

import (
	"context"
	"time"

	"github.com/tablehand/tablehand/db"
)

// Scheduled work. A slice whose game moves between sessions (the faction
// game's rounds) adds a Job to the router at Mount; the edge that keeps
// time (bot's Scheduler) finds it with Router.Job, times the schedules the
// store keeps (db.Schedule) with cron, works out which firings are due and
// which were missed, hands each due firing to the job, and posts what the
// job returns. The edge knows schedules, not games.

// Job deals with one due firing of a schedule.
type Job interface {
	// Name names the job in the metrics ("faction-round").
	Name() string
	// Fire deals with the firing: plays it, or posts it for the GM's
	// approval. A firing dealt with already (by another process, or an
	// earlier run) is the outcome FiredDone, not an error.
	Fire(ctx context.Context, f Firing) (Fired, error)
}

// Firing is one due firing of a schedule.
type Firing struct {
	Schedule db.Schedule
	// At is the time it was scheduled for.
	At time.Time
	// Note says why it runs late ("caught up at ..."), "" when on time.
	Note string
	// Header opens the first message posted: what the edge has to say
	// of the firings before it (missed while the bot was down).
	Header string
	// Hook, when set, is called after each step of the store's
	// transaction (db.PlayOptions.Hook): tests stop or fail a firing
	// there.
	Hook func(db.RoundPhase) error
	// Outbox, when not "", says the edge posts from the store's outbox:
	// the job writes its report there, to this channel, in the
	// transaction that plays it (db.PlayOptions.Outbox), instead of
	// returning it in Fired.Posts.
	Outbox string
}

// Outcomes of Fire.
const (
	FiredApplied = "applied" // played
	FiredPending = "pending" // posted for the GM's approval
	FiredDone    = "done"    // dealt with already: nothing posted
)

// Fired is what Fire did, and what to post to the schedule's channel.
type Fired struct {
	Outcome string
	// Rounds are the rounds played.
	Rounds []int
	// Posts are the messages to post to the schedule's channel, in order.
	Posts []Response
}

// AddJob adds the scheduled work of a slice. The store keeps one kind
// of schedule, so a router has at most one job: a second panics at start.
func (r *Router) AddJob(j Job) {
	if r.job != nil {
		panic("commands: a second scheduled job, " + j.Name() + ", beside " + r.job.Name())
	}
	r.job = j
}

// Job returns the scheduled work the slices added, nil when none did.
func (r *Router) Job() Job { return r.job }
