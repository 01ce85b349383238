package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/robfig/cron/v3"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// The scheduler times the schedules the store keeps (/schedule), hands
// each due firing to the scheduled work a slice added to the router
// (kit.Job: the faction game's rounds), and posts what it returns to the
// schedule's channel. It knows schedules, not games. This is the only
// file that imports robfig/cron.
//
// cron keeps nothing across restarts: the database does. A schedule's
// firings are worked out from its last firing dealt with (PlanFirings, a
// pure function of the schedule, that time and now), so the job that cron
// runs and the catch-up at start are the same code (Scheduler.Run). Every
// firing has an identity, (schedule, scheduled time), and the store
// records it in the same transaction as the rounds it plays, under a
// primary key: a firing is applied at most once, also across restarts and
// with two processes on one database.

// Poster posts a message to a channel: the scheduler's reports.
type Poster interface {
	Post(ctx context.Context, channelID string, msg kit.Response) error
}

// SessionPoster posts with a discordgo session: the gateway's, or the
// REST-only session of the HTTP mode (posting needs no gateway).
type SessionPoster struct{ Session *discordgo.Session }

// Post sends msg to the channel with ChannelMessageSendComplex, held to
// Discord's limits, pinging nobody but msg.MentionUsers.
func (p SessionPoster) Post(ctx context.Context, channelID string, msg kit.Response) error {
	if p.Session == nil {
		return errors.New("post: no Discord session (is the bot token set?)")
	}
	msg.Type = kit.Message
	data := InteractionResponse(msg.Fit()).Data
	_, err := p.Session.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content: data.Content, Embeds: data.Embeds, Components: data.Components, Files: data.Files,
		AllowedMentions: data.AllowedMentions,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("post to channel %s: %w", channelID, err)
	}
	return nil
}

// NewRESTPoster returns a Poster over a session made with the bot token
// that never opens the gateway: `serve` posts scheduled reports with it
// beside its gateway session. apiURL, when set, sends its requests there.
func NewRESTPoster(token Secret, apiURL string) (Poster, error) {
	if token == "" {
		return SessionPoster{}, nil
	}
	s, err := discordgo.New("Bot " + string(token))
	if err != nil {
		return nil, fmt.Errorf("scheduler: create REST session: %w", err)
	}
	if apiURL != "" {
		if s.Client, err = apiClient(apiURL); err != nil {
			return nil, fmt.Errorf("scheduler: %w", err)
		}
	}
	s.LogLevel = discordgo.LogWarning
	return SessionPoster{Session: s}, nil
}

// SchedulerStore is what the scheduler needs of the database; *db.DB is
// one.
type SchedulerStore interface {
	Schedules(ctx context.Context) ([]db.Schedule, error)
	Schedule(ctx context.Context, guildID string) (db.Schedule, error)
	ScheduleByID(ctx context.Context, id int64) (db.Schedule, error)
	RecordMissed(ctx context.Context, scheduleID int64, at []time.Time, note string) (int, error)
}

// SchedulerOptions configures a Scheduler.
type SchedulerOptions struct {
	Store SchedulerStore
	Log   *slog.Logger
	// Now is the clock; default time.Now. Tests drive the scheduler with
	// a fake one and call Run, never waiting for cron.
	Now func() time.Time
	// Grace is how late a firing may be applied and still count as on
	// time; older ones were missed. Default DefaultGrace.
	Grace time.Duration
	// Resync, when above 0, reloads every schedule from the database that
	// often, to follow changes made by another process. Default none.
	Resync time.Duration
	// Hook, when set, is called after each step of a round the scheduler
	// plays (kit.Firing.Hook): tests stop or fail a round there.
	Hook func(db.RoundPhase) error
	// OutboxHook, when set, is called before each message from the
	// outbox is posted (OutboxClaimed) and after it was, before it is
	// marked (OutboxPosted): an error stops the delivery there, as if the
	// process had died. For tests.
	OutboxHook func(step string, id int64) error
}

// The steps of posting from the outbox, for SchedulerOptions.OutboxHook.
const (
	OutboxClaimed = "claimed"
	OutboxPosted  = "posted"
)

// OutboxStore is the outbox of a SchedulerStore that has one (*db.DB):
// the scheduler then has each round's report written there in the
// round's transaction and posts it from there, so that a report is
// posted even when the process that played the round stops right after.
type OutboxStore interface {
	ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]db.OutboxMessage, error)
	MarkPosted(ctx context.Context, id int64, now time.Time) error
}

// OutboxLease is how long a message taken from the outbox is another
// process's to post: after it, a process that took it and did not mark it
// posted is taken to have stopped, and it is posted again.
const OutboxLease = 2 * time.Minute

// outboxBatch is how many messages deliver takes from the outbox at once.
const outboxBatch = 20

// deliver posts what is due in the outbox, if the store has one: each
// message once, marked when posted. A message taken before (a process
// stopped between its post and its mark) is posted again and the log
// says so: at most once more per stop.
func (s *Scheduler) deliver(ctx context.Context) {
	ob, ok := s.o.Store.(OutboxStore)
	if !ok {
		return
	}
	s.deliverMu.Lock()
	defer s.deliverMu.Unlock()
	s.mu.Lock()
	p := s.poster
	s.mu.Unlock()
	if p == nil {
		return
	}
	for {
		msgs, err := ob.ClaimOutbox(ctx, s.o.Now(), OutboxLease, outboxBatch)
		if err != nil {
			s.o.Log.Error("read the outbox: the scheduled reports due are posted at the next try", "err", err)
			return
		}
		for _, m := range msgs {
			if !s.deliverOne(ctx, ob, p, m) {
				return
			}
		}
		if len(msgs) < outboxBatch {
			return
		}
	}
}

// deliverOne posts one message of the outbox and marks it; false stops
// the delivery (the hook's stop).
func (s *Scheduler) deliverOne(ctx context.Context, ob OutboxStore, p Poster, m db.OutboxMessage) bool {
	hook := func(step string) bool {
		if s.o.OutboxHook == nil {
			return true
		}
		if err := s.o.OutboxHook(step, m.ID); err != nil {
			s.o.Log.Warn("test: the outbox's delivery stops", "step", step, "outbox", m.ID, "err", err)
			return false
		}
		return true
	}
	if !hook(OutboxClaimed) {
		return false
	}
	if m.Attempts > 1 {
		s.o.Log.Warn("posting a scheduled report again: an earlier attempt was not marked posted, so it may show twice",
			"outbox", m.ID, "channel", m.ChannelID, "attempt", m.Attempts)
	}
	msg, err := kit.DecodePost(m.Body)
	if err == nil {
		err = p.Post(ctx, m.ChannelID, msg)
	}
	if err != nil {
		// Left claimed: it is tried again when the lease has passed.
		s.o.Log.Error("post a scheduled report; tried again later", "channel", m.ChannelID, "outbox", m.ID, "attempt", m.Attempts, "err", err)
		return true
	}
	if !hook(OutboxPosted) {
		return false
	}
	if err := ob.MarkPosted(ctx, m.ID, s.o.Now()); err != nil {
		s.o.Log.Error("mark a scheduled report posted: it may be posted again", "outbox", m.ID, "err", err)
	}
	return true
}

// DefaultGrace is how late a firing may run and still be on time: a
// restart within it misses nothing.
const DefaultGrace = 10 * time.Minute

// maxListedMissed bounds the missed firings recorded and reported one by
// one; older ones are counted.
const maxListedMissed = 50

// Scheduler runs the schedules of faction campaigns.
type Scheduler struct {
	o    SchedulerOptions
	cron *cron.Cron
	ctx  context.Context

	mu      sync.Mutex
	entries map[int64]scheduleEntry // by schedule ID
	job     kit.Job                 // what a firing does (SetJob)
	poster  Poster
	metrics *Metrics              // counts firings; nil counts nothing
	runs    map[int64]*sync.Mutex // one Run at a time per schedule
	// deliverMu keeps one delivery of the outbox at a time.
	deliverMu sync.Mutex
}

type scheduleEntry struct {
	id    cron.EntryID
	guild string
	key   string // spec and zone: a change is Remove then Add
	sched cron.Schedule
}

// NewScheduler returns a scheduler that is not running yet: give it to
// kit.Deps as the Calendar, give it the router's job (SetJob), then Start
// it.
func NewScheduler(o SchedulerOptions) *Scheduler {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Grace == 0 {
		o.Grace = DefaultGrace
	}
	l := cronLogger{o.Log}
	return &Scheduler{
		o:       o,
		cron:    cron.New(cron.WithLocation(time.UTC), cron.WithLogger(l), cron.WithChain(cron.Recover(l), cron.SkipIfStillRunning(l))),
		ctx:     context.Background(),
		entries: map[int64]scheduleEntry{},
		runs:    map[int64]*sync.Mutex{},
	}
}

// SetJob gives the scheduler the work its firings do: the router's Job.
// Without one, a due firing is an error, retried while it is on time.
func (s *Scheduler) SetJob(j kit.Job) {
	s.mu.Lock()
	s.job = j
	s.mu.Unlock()
}

// ParseSchedule reads a schedule as Cron does (kit.Calendar).
func (s *Scheduler) ParseSchedule(when, zone string, after time.Time, n int) (string, []time.Time, error) {
	return Cron{}.ParseSchedule(when, zone, after, n)
}

// cronLogger writes cron's log to slog.
type cronLogger struct{ l *slog.Logger }

func (c cronLogger) Info(msg string, kv ...any) { c.l.Debug("cron: "+msg, kv...) }
func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append(kv, "err", err)...)
}

// Start loads every schedule into cron, catches up what was missed while
// the bot was down (each campaign's policy), and starts the clock. Jobs
// run with ctx; Stop ends them. Reports go to p; m, if not nil, counts
// the firings (tablehand_scheduler_firings_total).
func (s *Scheduler) Start(ctx context.Context, p Poster, m *Metrics) error {
	s.mu.Lock()
	s.ctx, s.poster, s.metrics = context.WithoutCancel(ctx), p, m
	s.mu.Unlock()
	if err := s.Reload(ctx); err != nil {
		return err
	}
	n := s.runAll(ctx)
	s.deliver(ctx)
	if s.o.Resync > 0 {
		s.cron.Schedule(cron.Every(s.o.Resync), cron.FuncJob(func() { s.RunDue(s.ctx) }))
	}
	s.cron.Start()
	s.o.Log.Info("scheduler started", "schedules", n)
	return nil
}

// RunDue reloads the schedules from the database and runs each of them at
// the scheduler's now: what another process changed is followed, and a
// firing that failed (a busy or full database) is tried again while it is
// still on time; Run does nothing when none is due. The resync runs it,
// and so does a test clock when it moves.
func (s *Scheduler) RunDue(ctx context.Context) {
	if err := s.Reload(ctx); err != nil {
		s.o.Log.Error("reload schedules", "err", err)
	}
	s.runAll(ctx)
	s.deliver(ctx) // what a stopped process left, of any schedule
}

// runAll runs every loaded schedule now: at start it catches up, later it
// retries firings that failed. It returns how many schedules there are.
func (s *Scheduler) runAll(ctx context.Context) int {
	s.mu.Lock()
	ids := make([]int64, 0, len(s.entries))
	for id := range s.entries {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	slices.Sort(ids)
	for _, id := range ids {
		if _, err := s.Run(ctx, id, s.o.Now()); err != nil {
			s.o.Log.Error("run a schedule", "schedule", id, "err", err)
		}
	}
	return len(ids)
}

// Stop stops the clock and waits for the jobs running.
func (s *Scheduler) Stop() {
	<-s.cron.Stop().Done()
}

// Reload brings cron in step with the database: every schedule added,
// changed or removed.
func (s *Scheduler) Reload(ctx context.Context) error {
	all, err := s.o.Store.Schedules(ctx)
	if err != nil {
		return fmt.Errorf("scheduler: load schedules: %w", err)
	}
	seen := map[int64]bool{}
	var errs []error
	for _, sc := range all {
		seen[sc.ID] = true
		if err := s.upsert(sc); err != nil {
			errs = append(errs, err)
		}
	}
	s.mu.Lock()
	for id := range s.entries {
		if !seen[id] {
			s.removeLocked(id)
		}
	}
	s.mu.Unlock()
	return errors.Join(errs...)
}

// ScheduleChanged follows a change of the guild's schedule at once: the
// /schedule handlers call it (kit.Calendar).
func (s *Scheduler) ScheduleChanged(ctx context.Context, guildID string) error {
	sc, err := s.o.Store.Schedule(ctx, guildID)
	if errors.Is(err, db.ErrNotFound) {
		s.mu.Lock()
		for id, e := range s.entries {
			if e.guild == guildID {
				s.removeLocked(id)
			}
		}
		s.mu.Unlock()
		return nil
	}
	if err != nil {
		return fmt.Errorf("scheduler: load the schedule of guild %s: %w", guildID, err)
	}
	// A guild has one schedule: drop any other it had (deleted, then set
	// anew).
	s.mu.Lock()
	for id, e := range s.entries {
		if e.guild == guildID && id != sc.ID {
			s.removeLocked(id)
		}
	}
	s.mu.Unlock()
	return s.upsert(sc)
}

// upsert puts one schedule in cron: a paused one is taken out, a changed
// one is removed and added again.
func (s *Scheduler) upsert(sc db.Schedule) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc.Paused {
		s.removeLocked(sc.ID)
		return nil
	}
	key := sc.Timezone + " " + sc.Cron
	if e, ok := s.entries[sc.ID]; ok && e.key == key {
		return nil
	}
	sched, err := parseSpec(sc.Cron, sc.Timezone)
	if err != nil {
		return fmt.Errorf("scheduler: schedule %d: %w", sc.ID, err)
	}
	s.removeLocked(sc.ID)
	id := sc.ID
	eid := s.cron.Schedule(sched, cron.FuncJob(func() { s.fire(id) }))
	s.entries[sc.ID] = scheduleEntry{id: eid, guild: sc.GuildID, key: key, sched: sched}
	return nil
}

func (s *Scheduler) removeLocked(id int64) {
	if e, ok := s.entries[id]; ok {
		s.cron.Remove(e.id)
		delete(s.entries, id)
	}
}

// fire is the cron job of a schedule.
func (s *Scheduler) fire(id int64) {
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	if _, err := s.Run(ctx, id, s.o.Now()); err != nil {
		s.o.Log.Error("scheduled firing", "schedule", id, "err", err)
	}
}

// NextFirings returns the next n firings cron holds for a schedule after
// t, none when it is not loaded (paused or unknown). For /schedule show's
// tests and the operator.
func (s *Scheduler) NextFirings(id int64, after time.Time, n int) []time.Time {
	s.mu.Lock()
	e, ok := s.entries[id]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	var out []time.Time
	for t := after; len(out) < n; {
		t = e.sched.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out
}

// RunResult is what one Run did.
type RunResult struct {
	// Applied firings played their rounds; Pending ones posted their
	// preview for the GM; Missed ones were recorded as missed (MoreMissed
	// older ones counted only); Done were dealt with elsewhere (another
	// process, or a Run before).
	Applied    []time.Time
	Pending    []time.Time
	Missed     []time.Time
	MoreMissed int
	Done       []time.Time
	Rounds     []int
}

// Run deals with a schedule's firings due at now: those after its last
// firing, applied (or, with approval, posted for the GM), the missed ones
// handled by the campaign's policy. It is what cron runs, and what the
// start runs to catch up; a Run with nothing due does nothing. Each
// firing dealt with is counted by its outcome.
func (s *Scheduler) Run(ctx context.Context, id int64, now time.Time) (RunResult, error) {
	s.mu.Lock()
	job, m := s.job, s.metrics
	s.mu.Unlock()
	res, err := s.run(ctx, job, id, now)
	name := "none"
	if job != nil {
		name = job.Name()
	}
	res.count(m, name, err)
	return res, err
}

// Outcomes of a scheduled firing, as counted by
// tablehand_scheduler_firings_total{job="<the job's name>"}, beside
// OutcomeOK (played) and OutcomeError (a Run that failed: retried while on
// time).
const (
	FiringPending   = "pending"   // previewed, waiting for the GM's approval
	FiringMissed    = "missed"    // the bot was down; the policy skipped it
	FiringDuplicate = "duplicate" // already dealt with, by another process or an earlier Run
)

func (r RunResult) count(m *Metrics, job string, err error) {
	for _, c := range []struct {
		outcome string
		n       int
	}{
		{OutcomeOK, len(r.Applied)}, {FiringPending, len(r.Pending)},
		{FiringMissed, len(r.Missed) + r.MoreMissed}, {FiringDuplicate, len(r.Done)},
	} {
		for range c.n {
			m.SchedulerFiring(job, c.outcome)
		}
	}
	if err != nil {
		m.SchedulerFiring(job, OutcomeError)
	}
}

func (s *Scheduler) run(ctx context.Context, job kit.Job, id int64, now time.Time) (RunResult, error) {
	s.mu.Lock()
	lock, ok := s.runs[id]
	if !ok {
		lock = &sync.Mutex{}
		s.runs[id] = lock
	}
	s.mu.Unlock()
	lock.Lock()
	defer lock.Unlock()

	var res RunResult
	sc, sched, err := s.load(ctx, id)
	if sched == nil || err != nil {
		return res, err
	}
	plan := PlanFirings(sched, sc.LastFiring, now, MissedPolicy{Mode: sc.Missed, Limit: sc.CatchUpLimit, Grace: s.o.Grace})
	res.Missed, res.MoreMissed = plan.Missed, plan.MoreMissed
	header, err := s.recordMissed(ctx, sc, plan)
	if err != nil {
		return res, err
	}
	if len(plan.Due) > 0 && job == nil {
		return res, fmt.Errorf("schedule %d: %d firing(s) due and no scheduled work to do them", sc.ID, len(plan.Due))
	}
	_, outbox := s.o.Store.(OutboxStore)
	if outbox {
		// Whatever this run plays, and what is left over from a process
		// that stopped, is posted before Run returns.
		defer s.deliver(ctx)
	}
	for _, at := range plan.Due {
		f := kit.Firing{Schedule: sc, At: at, Header: header, Hook: s.o.Hook}
		if outbox {
			f.Outbox = sc.ChannelID
		}
		if now.Sub(at) > s.o.Grace {
			f.Note = "caught up at " + now.UTC().Format(time.RFC3339)
		}
		fired, err := job.Fire(ctx, f)
		if err != nil {
			return res, err
		}
		switch fired.Outcome {
		case kit.FiredDone:
			res.Done = append(res.Done, at)
			continue
		case kit.FiredPending:
			res.Pending = append(res.Pending, at)
		default:
			res.Applied = append(res.Applied, at)
			res.Rounds = append(res.Rounds, fired.Rounds...)
		}
		for _, m := range fired.Posts {
			s.post(ctx, sc.ChannelID, m)
		}
		header = ""
	}
	if header != "" {
		s.post(ctx, sc.ChannelID, kit.Response{Type: kit.Message, Content: header})
	}
	return res, nil
}

// load reads a schedule and parses its spec; a schedule deleted or
// paused meanwhile is none (a nil Firings) and no error.
func (s *Scheduler) load(ctx context.Context, id int64) (db.Schedule, Firings, error) {
	sc, err := s.o.Store.ScheduleByID(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return sc, nil, nil // deleted meanwhile
	}
	if err != nil || sc.Paused {
		return sc, nil, err
	}
	sched, err := parseSpec(sc.Cron, sc.Timezone)
	if err != nil {
		return sc, nil, fmt.Errorf("schedule %d: %w", sc.ID, err)
	}
	return sc, sched, nil
}

// recordMissed records the firings the plan missed and returns the
// header that reports them, "" when there are none or another process
// recorded (and reported) them first.
func (s *Scheduler) recordMissed(ctx context.Context, sc db.Schedule, plan FiringPlan) (string, error) {
	if len(plan.Missed) == 0 {
		return "", nil
	}
	n, err := s.o.Store.RecordMissed(ctx, sc.ID, plan.Missed, "missed while the bot was down")
	if err != nil || n == 0 {
		return "", err
	}
	return missedHeader(plan, sc), nil
}

// post sends a message; a failure is logged: the rounds are played and
// their report stays in /faction report.
func (s *Scheduler) post(ctx context.Context, channelID string, m kit.Response) {
	s.mu.Lock()
	p := s.poster
	s.mu.Unlock()
	if p == nil {
		s.o.Log.Warn("no poster: a scheduled report is not posted", "channel", channelID)
		return
	}
	if err := p.Post(ctx, channelID, m); err != nil {
		s.o.Log.Error("post a scheduled report", "channel", channelID, "err", err)
	}
}

func missedHeader(plan FiringPlan, sc db.Schedule) string {
	var times []string
	for _, t := range plan.Missed {
		times = append(times, kit.Timestamp(t, "F"))
	}
	if len(times) > 5 {
		times = append(times[:2], "…", times[len(times)-1])
	}
	n := len(plan.Missed) + plan.MoreMissed
	what := "not played (policy: skip)"
	if sc.Missed == db.MissedCatchUp {
		what = fmt.Sprintf("not played: a catch-up plays at most %d", sc.CatchUpLimit)
	}
	return fmt.Sprintf("⚠️ %d firing(s) missed while the bot was down, %s: %s", n, what, strings.Join(times, ", "))
}

// Firings is when a schedule fires: the next firing after a time, zero
// when there is none. cron.Schedule is one.
type Firings interface {
	Next(time.Time) time.Time
}

// MissedPolicy is a campaign's policy for firings missed while the bot was
// down.
type MissedPolicy struct {
	// Mode is db.MissedSkip or db.MissedCatchUp.
	Mode string
	// Limit is how many missed firings a catch-up plays, the newest.
	Limit int
	// Grace is how late a firing may be and still count as on time.
	Grace time.Duration
}

// FiringPlan is what to do with a schedule's firings at a moment.
type FiringPlan struct {
	// Due are the firings to apply now, oldest first.
	Due []time.Time
	// Missed are the firings that will not be applied, oldest first;
	// MoreMissed counts older ones not listed.
	Missed     []time.Time
	MoreMissed int
}

// PlanFirings is the pure heart of the scheduler: the firings of sched
// after last (the newest firing dealt with) up to now, split by the
// policy. The newest, when at most Grace before now, is on time and due;
// the others were missed while the bot was down: skip leaves them all,
// catch-up plays the newest Limit of them. No clock is read.
func PlanFirings(sched Firings, last, now time.Time, p MissedPolicy) FiringPlan {
	var plan FiringPlan
	var late []time.Time
	for t := sched.Next(last); !t.IsZero() && !t.After(now); t = sched.Next(t) {
		late = append(late, t)
		if len(late) > maxListedMissed+p.Limit+1 {
			late = late[1:]
			plan.MoreMissed++
		}
	}
	if n := len(late); n > 0 && now.Sub(late[n-1]) <= p.Grace {
		plan.Due, late = late[n-1:], late[:n-1]
	}
	if p.Mode == db.MissedCatchUp && p.Limit > 0 {
		k := min(p.Limit, len(late))
		plan.Due = append(append([]time.Time{}, late[len(late)-k:]...), plan.Due...)
		late = late[:len(late)-k]
	}
	if len(late) > maxListedMissed {
		plan.MoreMissed += len(late) - maxListedMissed
		late = late[len(late)-maxListedMissed:]
	}
	plan.Missed = late
	return plan
}

// parseSpec parses a stored five-field spec in its zone, once, as cron
// runs it: "CRON_TZ=<zone> <spec>" through cron.ParseStandard.
func parseSpec(spec, zone string) (cron.Schedule, error) {
	if zone == "" {
		zone = "UTC"
	}
	return cron.ParseStandard("CRON_TZ=" + zone + " " + spec)
}

// Cron reads schedules as the GM types them: the kit.Calendar of a
// process that runs no scheduler (the console), whose changes it has no
// one to tell.
type Cron struct{}

// ScheduleChanged does nothing: no scheduler runs here.
func (Cron) ScheduleChanged(context.Context, string) error { return nil }

var weekdays = map[string]int{
	"sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2, "wed": 3, "wednesday": 3,
	"thu": 4, "thur": 4, "thurs": 4, "thursday": 4, "fri": 5, "friday": 5, "sat": 6, "saturday": 6,
}

const scheduleExamples = "e.g. when:\"daily 18:00\", when:\"weekly fri 18:00\", when:\"every 3 days 09:00\" or a cron spec such as when:\"0 18 * * 5\" (minute hour day month weekday)"

// clockTime reads "18:00" or "9:30".
func clockTime(s string) (hour, minute int, ok bool) {
	h, m, found := strings.Cut(s, ":")
	if !found || len(m) != 2 {
		return 0, 0, false
	}
	hour, err1 := strconv.Atoi(h)
	minute, err2 := strconv.Atoi(m)
	return hour, minute, err1 == nil && err2 == nil && hour >= 0 && hour < 24 && minute >= 0 && minute < 60
}

// presetSpec turns the presets people say into a cron spec: "daily HH:MM",
// "weekly <day> HH:MM", "every N days HH:MM" (days of the month, as cron
// counts them: it starts again on the 1st), "every N hours". ok is false
// when when is no preset (then it is read as a cron spec).
func presetSpec(when string) (spec string, ok bool, err error) {
	f := strings.Fields(strings.ToLower(when))
	bad := func(what string) (string, bool, error) {
		return "", true, kit.Errorf("%q: %s (%s)", when, what, scheduleExamples)
	}
	switch {
	case len(f) == 2 && f[0] == "daily":
		h, m, ok := clockTime(f[1])
		if !ok {
			return bad("the time is HH:MM, 00:00 to 23:59")
		}
		return fmt.Sprintf("%d %d * * *", m, h), true, nil
	case len(f) == 3 && f[0] == "weekly":
		d, known := weekdays[f[1]]
		if !known {
			return bad("the day is mon, tue, wed, thu, fri, sat or sun")
		}
		h, m, ok := clockTime(f[2])
		if !ok {
			return bad("the time is HH:MM, 00:00 to 23:59")
		}
		return fmt.Sprintf("%d %d * * %d", m, h, d), true, nil
	case len(f) == 4 && f[0] == "every" && (f[2] == "days" || f[2] == "day"):
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > 31 {
			return bad("every N days takes N from 1 to 31")
		}
		h, m, ok := clockTime(f[3])
		if !ok {
			return bad("the time is HH:MM, 00:00 to 23:59")
		}
		if n == 1 {
			return fmt.Sprintf("%d %d * * *", m, h), true, nil
		}
		return fmt.Sprintf("%d %d */%d * *", m, h, n), true, nil
	case len(f) == 3 && f[0] == "every" && (f[2] == "hours" || f[2] == "hour"):
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > 23 {
			return bad("every N hours takes N from 1 to 23")
		}
		return fmt.Sprintf("0 */%d * * *", n), true, nil
	case len(f) > 0 && (f[0] == "daily" || f[0] == "weekly" || f[0] == "every"):
		return bad("not a schedule Tablehand knows")
	}
	return "", false, nil
}

// ParseSchedule reads when in zone: a preset or a five-field cron spec
// (or a descriptor such as @daily). It checks the zone with
// time.LoadLocation and parses "CRON_TZ=<zone> <spec>" once with
// cron.ParseStandard. A mistake is a *kit.UserError with an example.
func (Cron) ParseSchedule(when, zone string, after time.Time, n int) (string, []time.Time, error) {
	when = strings.TrimSpace(when)
	if zone == "" {
		zone = "UTC"
	}
	if _, err := time.LoadLocation(zone); err != nil || strings.ContainsAny(zone, " \t") {
		return "", nil, kit.Errorf("unknown timezone %q: use an IANA name such as Europe/Paris, America/New_York or UTC (example: /schedule set when:\"daily 18:00\" timezone:Europe/Paris)", zone)
	}
	if strings.HasPrefix(strings.ToUpper(when), "CRON_TZ=") || strings.HasPrefix(strings.ToUpper(when), "TZ=") {
		return "", nil, kit.Errorf("give the zone with timezone:, not inside when: (example: /schedule set when:\"0 18 * * 5\" timezone:Europe/Paris)")
	}
	spec, preset, err := presetSpec(when)
	if err != nil {
		return "", nil, err
	}
	if !preset {
		spec = strings.Join(strings.Fields(when), " ")
		if len(strings.Fields(spec)) != 5 && !strings.HasPrefix(spec, "@") {
			return "", nil, kit.Errorf("%q is not a schedule: a cron spec has five fields (minute hour day month weekday); %s", when, scheduleExamples)
		}
	}
	sched, err := parseSpec(spec, zone)
	if err != nil {
		return "", nil, kit.Errorf("%q is not a schedule: %v; %s", when, err, scheduleExamples)
	}
	var next []time.Time
	for t := after; len(next) < n; {
		t = sched.Next(t)
		if t.IsZero() {
			break
		}
		next = append(next, t)
	}
	if len(next) == 0 && n > 0 {
		return "", nil, kit.Errorf("%q never fires (such as February 30th); %s", when, scheduleExamples)
	}
	return spec, next, nil
}
