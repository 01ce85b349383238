package bot

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/faction"
)

// schedMust parses a spec in a zone as the scheduler does: the tests need
// no import of cron, which stays in scheduler.go.
func schedMust(t *testing.T, zone, spec string) Firings {
	t.Helper()
	s, err := parseSpec(spec, zone)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func times(ts ...string) []time.Time {
	out := []time.Time{}
	for _, s := range ts {
		out = append(out, at(s))
	}
	return out
}

func sameTimes(a, b []time.Time) bool {
	return slices.EqualFunc(a, b, func(x, y time.Time) bool { return x.Equal(y) })
}

// PlanFirings is a pure function of (schedule, last, now): no clock.
func TestPlanFirings(t *testing.T) {
	fri := schedMust(t, "Europe/Paris", "0 18 * * 5") // Fridays 18:00 in Paris: 17:00 UTC in winter
	grace := 10 * time.Minute
	skip := MissedPolicy{Mode: db.MissedSkip, Grace: grace}
	catchUp := func(n int) MissedPolicy { return MissedPolicy{Mode: db.MissedCatchUp, Limit: n, Grace: grace} }
	for _, tc := range []struct {
		name        string
		sched       Firings
		last, now   string
		p           MissedPolicy
		due, missed []time.Time
		more        int
	}{
		{"nothing due yet", fri, "2025-01-03T17:00:00Z", "2025-01-10T16:59:59Z", skip, nil, nil, 0},
		{"on time", fri, "2025-01-03T17:00:00Z", "2025-01-10T17:00:00.3Z", skip, times("2025-01-10T17:00:00Z"), nil, 0},
		{"a restart within the grace misses nothing", fri, "2025-01-03T17:00:00Z", "2025-01-10T17:09:00Z", skip, times("2025-01-10T17:00:00Z"), nil, 0},
		// Only the newest firing can be on time: two within the grace are
		// one on time and one missed.
		{"the newest only", schedMust(t, "UTC", "*/5 * * * *"), "2025-01-10T16:50:00Z", "2025-01-10T17:01:00Z", skip,
			times("2025-01-10T17:00:00Z"), times("2025-01-10T16:55:00Z"), 0},
		{"already dealt with", fri, "2025-01-10T17:00:00Z", "2025-01-10T17:00:05Z", skip, nil, nil, 0},
		{"down two weeks, skip", fri, "2024-12-27T17:00:00Z", "2025-01-10T17:00:01Z", skip,
			times("2025-01-10T17:00:00Z"), times("2025-01-03T17:00:00Z"), 0},
		{"down three weeks, catch up one", fri, "2024-12-20T17:00:00Z", "2025-01-10T17:00:01Z", catchUp(1),
			times("2025-01-03T17:00:00Z", "2025-01-10T17:00:00Z"), times("2024-12-27T17:00:00Z"), 0},
		{"down over the firing, skip", fri, "2025-01-03T17:00:00Z", "2025-01-11T09:00:00Z", skip,
			nil, times("2025-01-10T17:00:00Z"), 0},
		{"down over the firing, catch up", fri, "2024-12-27T17:00:00Z", "2025-01-11T09:00:00Z", catchUp(3),
			times("2025-01-03T17:00:00Z", "2025-01-10T17:00:00Z"), nil, 0},
		// Paris moves to summer time on 2025-03-30: 18:00 is then 16:00 UTC.
		{"daylight saving", fri, "2025-03-21T17:00:00Z", "2025-04-04T16:00:00Z", catchUp(5),
			times("2025-03-28T17:00:00Z", "2025-04-04T16:00:00Z"), nil, 0},
		// Every minute for a week: the report lists 50, counts the rest.
		{"a long outage", schedMust(t, "UTC", "* * * * *"), "2025-01-01T00:00:00Z", "2025-01-08T00:00:00Z", skip,
			times("2025-01-08T00:00:00Z"), nil, 7*24*60 - 1 - 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PlanFirings(tc.sched, at(tc.last), at(tc.now), tc.p)
			if !sameTimes(got.Due, tc.due) {
				t.Errorf("due %v, want %v", got.Due, tc.due)
			}
			if tc.name == "a long outage" {
				if len(got.Missed) != maxListedMissed || got.MoreMissed != tc.more || !got.Missed[49].Equal(at("2025-01-07T23:59:00Z")) {
					t.Errorf("missed %d listed, %d more (want %d, %d)", len(got.Missed), got.MoreMissed, maxListedMissed, tc.more)
				}
				return
			}
			if !sameTimes(got.Missed, tc.missed) || got.MoreMissed != tc.more {
				t.Errorf("missed %v (+%d), want %v (+%d)", got.Missed, got.MoreMissed, tc.missed, tc.more)
			}
		})
	}
}

func TestCronParseSchedule(t *testing.T) {
	after := at("2025-01-06T12:00:00Z") // a Monday
	for _, tc := range []struct {
		when, zone, spec string
		first            string
	}{
		{"daily 18:00", "UTC", "0 18 * * *", "2025-01-06T18:00:00Z"},
		{"weekly fri 18:00", "Europe/Paris", "0 18 * * 5", "2025-01-10T17:00:00Z"},
		{"Weekly Friday 9:30", "America/New_York", "30 9 * * 5", "2025-01-10T14:30:00Z"},
		{"every 3 days 09:00", "UTC", "0 9 */3 * *", "2025-01-07T09:00:00Z"},
		{"every 1 day 09:00", "UTC", "0 9 * * *", "2025-01-07T09:00:00Z"},
		{"every 6 hours", "UTC", "0 */6 * * *", "2025-01-06T18:00:00Z"},
		{"0  18 * * 5", "", "0 18 * * 5", "2025-01-10T18:00:00Z"},
		{"@daily", "UTC", "@daily", "2025-01-07T00:00:00Z"},
	} {
		spec, next, err := Cron{}.ParseSchedule(tc.when, tc.zone, after, 3)
		if err != nil {
			t.Errorf("%q in %q: %v", tc.when, tc.zone, err)
			continue
		}
		if spec != tc.spec || len(next) != 3 || !next[0].Equal(at(tc.first)) {
			t.Errorf("%q in %q: spec %q next %v; want %q from %s", tc.when, tc.zone, spec, next, tc.spec, tc.first)
		}
	}
	for _, tc := range []struct{ when, zone, want string }{
		{"daily 18:00", "Mars/Olympus", `unknown timezone "Mars/Olympus"`},
		{"daily 18:00", "Europe/ Paris", "unknown timezone"},
		{"daily 6pm", "UTC", "the time is HH:MM"},
		{"weekly someday 18:00", "UTC", "the day is mon, tue"},
		{"every 40 days 09:00", "UTC", "N from 1 to 31"},
		{"every fortnight", "UTC", "not a schedule Tablehand knows"},
		{"0 18 * *", "UTC", "five fields"},
		{"61 18 * * *", "UTC", "is not a schedule"},
		{"CRON_TZ=Asia/Tokyo 0 9 * * *", "UTC", "give the zone with timezone:"},
		{"0 0 30 2 *", "UTC", "never fires"},
	} {
		_, _, err := Cron{}.ParseSchedule(tc.when, tc.zone, after, 3)
		ue, ok := kit.AsUserError(err)
		if !ok || !strings.Contains(ue.Msg, tc.want) || !strings.Contains(ue.Msg, "example") && !strings.Contains(ue.Msg, "e.g.") {
			t.Errorf("%q in %q: %v; want a user error naming %q with an example", tc.when, tc.zone, err, tc.want)
		}
	}
}

// schedPoster records what the scheduler posts.
type schedPoster struct {
	mu    sync.Mutex
	posts []schedPost
}

type schedPost struct {
	channel string
	msg     kit.Response
}

func (p *schedPoster) Post(ctx context.Context, channelID string, msg kit.Response) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts = append(p.posts, schedPost{channelID, msg})
	return nil
}

func (p *schedPoster) take() []schedPost {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.posts
	p.posts = nil
	return out
}

// schedWorld is a campaign with a schedule on a real database file and a
// fake clock.
type schedWorld struct {
	t      *testing.T
	file   string
	now    time.Time
	store  *db.DB
	sched  *Scheduler
	poster *schedPoster
	id     int64
}

func (w *schedWorld) clock() time.Time { return w.now }

func newSchedWorld(t *testing.T, s db.Schedule) *schedWorld {
	t.Helper()
	return newSchedWorldOn(t, filepath.Join(t.TempDir(), "t.db"), s)
}

// newSchedWorldOn is newSchedWorld on the database at source (a SQLite
// file or a PostgreSQL URL).
func newSchedWorldOn(t *testing.T, source string, s db.Schedule) *schedWorld {
	t.Helper()
	return newSchedWorldWith(t, source, s, nil)
}

// newSchedWorldWith is newSchedWorldOn with setup's changes to the
// campaign before it is stored (nil: none).
func newSchedWorldWith(t *testing.T, source string, s db.Schedule, setup func(*faction.Campaign)) *schedWorld {
	t.Helper()
	w := &schedWorld{t: t, file: source, now: at("2025-01-06T12:00:00Z"), poster: &schedPoster{}}
	w.store = w.open()
	ctx := context.Background()
	c, err := faction.NewCampaign(faction.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, home string }{{"Red", "Mars"}, {"Blue", "Luna"}} {
		g, err := c.AddFaction(f.name, "")
		if err != nil {
			t.Fatal(err)
		}
		g.Policy = faction.PolicyInvest
		if _, err := c.AddHabitat(f.home, f.name, "inner"); err != nil {
			t.Fatal(err)
		}
	}
	if setup != nil {
		setup(c)
	}
	state, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.CreateCampaign(ctx, "g", "reports", "gm", state); err != nil {
		t.Fatal(err)
	}
	s.ChannelID = "reports"
	sc, err := w.store.SetSchedule(ctx, "g", s)
	if err != nil {
		t.Fatal(err)
	}
	w.id = sc.ID
	w.sched = w.scheduler(w.store)
	return w
}

func (w *schedWorld) open() *db.DB {
	d, err := db.Open(context.Background(), w.file, db.WithClock(w.clock))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { d.Close() })
	return d
}

func (w *schedWorld) scheduler(store *db.DB) *Scheduler {
	src := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	s := NewScheduler(SchedulerOptions{Store: store, Now: w.clock})
	s.SetJob(roundsJob(store, func() dice.Roller {
		mu.Lock()
		defer mu.Unlock()
		return dice.NewRandom(rand.New(rand.NewPCG(src.Uint64(), 0)))
	}))
	s.poster = w.poster
	return s
}

// roundsJob is the scheduled work of the registry's systems (the faction
// game's rounds) over store, rolling with roller.
func roundsJob(store any, roller func() dice.Roller) kit.Job {
	deps := kit.NewDeps(nil, nil)
	deps.Store, deps.Roller = store, roller
	if ch, ok := store.(kit.ChannelStore); ok {
		deps.Channels = ch // the GM channel, as serve's deps have it
	}
	return commands.New(deps).Job()
}

func (w *schedWorld) round() int {
	w.t.Helper()
	fc, err := factioncmd.LoadCampaign(context.Background(), w.store, "g")
	if err != nil {
		w.t.Fatal(err)
	}
	return fc.Campaign.Round
}

func (w *schedWorld) run(now string) RunResult {
	w.t.Helper()
	w.now = at(now)
	res, err := w.sched.Run(context.Background(), w.id, w.now)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// The scheduler driven by a fake clock: firings on time, no double
// firing, a pause, missed firings while down.
func TestSchedulerFirings(t *testing.T) {
	ctx := context.Background()
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 2, Missed: db.MissedCatchUp, CatchUpLimit: 1})

	// Before the first firing: nothing.
	if res := w.run("2025-01-06T17:59:59Z"); len(res.Applied)+len(res.Missed) != 0 || w.round() != 1 {
		t.Fatalf("early: %+v, round %d", res, w.round())
	}
	// The cron job itself (through cron's chain) at the firing's time.
	w.now = at("2025-01-06T18:00:00Z")
	if err := w.sched.upsert(mustSchedule(t, w.store, w.id)); err != nil {
		t.Fatal(err)
	}
	w.sched.cron.Entry(w.sched.entries[w.id].id).WrappedJob.Run()
	if w.round() != 3 {
		t.Fatalf("after the first firing (2 rounds): round %d, want 3", w.round())
	}
	posts := w.poster.take()
	if len(posts) == 0 || posts[0].channel != "reports" || !strings.Contains(posts[0].msg.Content, "Rounds 1 to 2") ||
		!strings.Contains(posts[0].msg.Content, "<t:1736186400:F>") {
		t.Fatalf("posts: %+v", posts)
	}
	last := posts[len(posts)-1].msg
	if len(last.Files) != 1 || last.Files[0].Name != "factions.png" {
		t.Errorf("the last post carries no chart: %+v", last.Files)
	}
	for _, p := range posts {
		checkPostLimits(t, p.msg)
	}

	// The same firing again, and from a second process on the same
	// database: nothing more.
	if res := w.run("2025-01-06T18:00:30Z"); len(res.Applied) != 0 {
		t.Errorf("fired twice: %+v", res)
	}
	other := w.scheduler(w.open())
	if res, err := other.Run(ctx, w.id, at("2025-01-06T18:01:00Z")); err != nil || len(res.Applied) != 0 || w.round() != 3 {
		t.Errorf("a second process fired again: %+v %v, round %d", res, err, w.round())
	}

	// Paused over the next firing: nothing, and nothing missed on resume.
	if _, err := w.store.PauseSchedule(ctx, "g", true); err != nil {
		t.Fatal(err)
	}
	if res := w.run("2025-01-07T18:00:00Z"); len(res.Applied) != 0 || w.round() != 3 {
		t.Errorf("fired while paused: %+v", res)
	}
	w.now = at("2025-01-07T20:00:00Z")
	if _, err := w.store.PauseSchedule(ctx, "g", false); err != nil {
		t.Fatal(err)
	}
	if res := w.run("2025-01-07T20:00:01Z"); len(res.Applied)+len(res.Missed) != 0 {
		t.Errorf("resumed: %+v", res)
	}
	w.poster.take()

	// Down from the 8th to the 11th at 09:00: three firings missed; the
	// policy catches up one (the newest) and reports the others.
	res := w.run("2025-01-11T09:00:00Z")
	if !sameTimes(res.Applied, times("2025-01-10T18:00:00Z")) || !sameTimes(res.Missed, times("2025-01-08T18:00:00Z", "2025-01-09T18:00:00Z")) {
		t.Fatalf("catch-up: %+v", res)
	}
	if w.round() != 5 {
		t.Errorf("round %d after catching up one firing, want 5", w.round())
	}
	posts = w.poster.take()
	if len(posts) == 0 || !strings.Contains(posts[0].msg.Content, "2 firing(s) missed while the bot was down") ||
		!strings.Contains(posts[0].msg.Content, "(late: the bot was down)") {
		t.Errorf("the report does not say what was missed: %q", posts[0].msg.Content)
	}
	fs, err := w.store.Firings(ctx, w.id, 10)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, f := range fs {
		statuses = append(statuses, f.At.Format("01-02")+" "+f.Status)
	}
	if want := []string{"01-10 applied", "01-09 missed", "01-08 missed", "01-06 applied"}; !slices.Equal(statuses, want) {
		t.Errorf("firings %v, want %v", statuses, want)
	}
	// A restart right after: nothing is due again.
	if res := w.run("2025-01-11T09:05:00Z"); len(res.Applied)+len(res.Missed) != 0 {
		t.Errorf("after the catch-up: %+v", res)
	}
}

func mustSchedule(t *testing.T, d *db.DB, id int64) db.Schedule {
	t.Helper()
	s, err := d.ScheduleByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func checkPostLimits(t *testing.T, r kit.Response) {
	t.Helper()
	f := r.Fit()
	if len(f.Embeds) != len(r.Embeds) || f.Content != r.Content {
		t.Errorf("a post is over Discord's limits: %d embeds, %d characters of content", len(r.Embeds), len(r.Content))
	}
	total := 0
	for _, e := range r.Embeds {
		total += len([]rune(e.Title)) + len([]rune(e.Description))
		for _, fl := range e.Fields {
			total += len([]rune(fl.Name)) + len([]rune(fl.Value))
		}
	}
	if total > kit.MaxEmbedTotal || len(r.Embeds) > kit.MaxEmbeds {
		t.Errorf("a post has %d embeds and %d characters in them", len(r.Embeds), total)
	}
}

// Two processes' schedulers fire at once: one applies.
func TestSchedulerTwoProcesses(t *testing.T) {
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1})
	a, b := w.sched, w.scheduler(w.open())
	now := at("2025-01-06T18:00:01Z")
	w.now = now
	var wg sync.WaitGroup
	results := make([]RunResult, 2)
	for i, s := range []*Scheduler{a, b} {
		wg.Go(func() {
			var err error
			if results[i], err = s.Run(context.Background(), w.id, now); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(results[0].Applied) + len(results[1].Applied); n != 1 || w.round() != 2 {
		t.Errorf("applied %d times (%+v), round %d", n, results, w.round())
	}
}

// approve:true posts the preview with the GM's buttons; the round waits
// for the click, which plays it once.
func TestSchedulerApproval(t *testing.T) {
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Approve: true})
	res := w.run("2025-01-06T18:00:00Z")
	if !sameTimes(res.Pending, times("2025-01-06T18:00:00Z")) || w.round() != 1 {
		t.Fatalf("approval: %+v, round %d", res, w.round())
	}
	posts := w.poster.take()
	if len(posts) != 1 || len(posts[0].msg.Rows) != 1 || posts[0].msg.Rows[0][0].CustomID != "fapply:1:1736186400" ||
		!strings.Contains(posts[0].msg.Content, "waits for the GM") || len(posts[0].msg.Embeds) != 2 {
		t.Fatalf("approval post: %+v", posts)
	}
	if res := w.run("2025-01-06T18:00:10Z"); len(res.Pending) != 0 {
		t.Errorf("posted twice: %+v", res)
	}
	deps := kit.NewDeps(w.store, nil)
	deps.Calendar, deps.Roller = Cron{}, func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(3, 4))) }
	router := commands.New(deps)
	click := func(user string, gm bool, id string) (kit.Response, error) {
		req := &kit.Request{Kind: kit.KindComponent, CustomID: id, GuildID: "g", ChannelID: "reports", User: kit.User{ID: user, Name: user}}
		if gm {
			req.Permissions = kit.ManageChannels
		}
		return router.Handle(context.Background(), req)
	}
	id := posts[0].msg.Rows[0][0].CustomID
	if _, err := click("alice", false, id); err == nil {
		t.Error("a player approved a firing")
	}
	resp, err := click("gm", true, id)
	if err != nil || !strings.Contains(resp.Content, "approved the firing") || w.round() != 2 {
		t.Fatalf("approve: %v %q round %d", err, resp.Content, w.round())
	}
	if resp, err := click("gm", true, id); err == nil || !strings.Contains(resp.Content, "dealt with already") || w.round() != 2 {
		t.Errorf("approved twice: %v %q", err, resp.Content)
	}
	// The next firing, skipped by the GM.
	w.run("2025-01-07T18:00:00Z")
	posts = w.poster.take()
	if resp, err := click("gm", true, posts[0].msg.Rows[0][1].CustomID); err != nil || !strings.Contains(resp.Content, "skipped") || w.round() != 2 {
		t.Errorf("skip: %v %q", err, resp.Content)
	}
}

// failingPoster refuses every post, as a process that stops before it
// posts would leave them.
type failingPoster struct{}

func (failingPoster) Post(context.Context, string, kit.Response) error {
	return errors.New("the process stopped before it posted")
}

// The preview of a firing that waits for approval is written to the
// outbox with the firing's record: when the process that recorded it
// does not post it, another process on the database posts it once, when
// the first one's lease has passed.
func TestSchedulerApprovalPreviewOutbox(t *testing.T) {
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Approve: true})
	w.sched.poster = failingPoster{}
	if res := w.run("2025-01-06T18:00:00Z"); !sameTimes(res.Pending, times("2025-01-06T18:00:00Z")) {
		t.Fatalf("approval: %+v", res)
	}
	other := w.scheduler(w.open())
	other.deliver(context.Background())
	if posts := w.poster.take(); len(posts) != 0 {
		t.Fatalf("posted within the first process's lease: %+v", posts)
	}
	w.now = w.now.Add(OutboxLease + time.Second)
	other.deliver(context.Background())
	posts := w.poster.take()
	if len(posts) != 1 || posts[0].channel != "reports" || !strings.Contains(posts[0].msg.Content, "waits for the GM") ||
		len(posts[0].msg.Rows) != 1 || posts[0].msg.Rows[0][0].CustomID != "fapply:1:1736186400" {
		t.Fatalf("the preview, posted by the other process: %+v", posts)
	}
	w.now = w.now.Add(OutboxLease + time.Second)
	other.deliver(context.Background())
	if posts := w.poster.take(); len(posts) != 0 {
		t.Errorf("posted again: %+v", posts)
	}
}

// A scheduled round that holds an Investigation for the GM's choice
// among Covert Assets posts the question without its secrets in the
// schedule's channel, and whole, with its buttons, in the GM channel,
// from the outbox of the round's transaction (issue 20).
func TestSchedulerSecretQuestionToGMs(t *testing.T) {
	w := newSchedWorldWith(t, filepath.Join(t.TempDir(), "t.db"), db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1},
		func(c *faction.Campaign) {
			for range 2 {
				if _, err := c.AddCovertAsset("Red", "Fixer", "Mars"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.AddAsset("Blue", "Spy", "Mars"); err != nil {
				t.Fatal(err)
			}
		})
	ctx := context.Background()
	if err := w.store.SetGMChannel(ctx, "g", "gms", "gm"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.QueueOrder(ctx, "g", db.FactionOrder{Faction: "Blue", Mode: db.OrderQueued, Body: []byte(`{"action":"investigate","asset":1}`), CreatedBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	if res := w.run("2025-01-06T18:00:00Z"); len(res.Applied) != 1 {
		t.Fatalf("the firing: %+v", res)
	}
	var report, gms []schedPost
	for _, p := range w.poster.take() {
		switch p.channel {
		case "reports":
			report = append(report, p)
		case "gms":
			gms = append(gms, p)
		}
	}
	for _, p := range report {
		b, err := kit.EncodePost(p.msg)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "Fixer") || strings.Contains(string(b), "fans:") {
			t.Errorf("the schedule's channel reads the Covert Assets: %s", b)
		}
	}
	if len(report) == 0 || !strings.Contains(report[0].msg.Content, "the GM chooses which Covert Asset") {
		t.Errorf("the report does not say the GM chooses: %+v", report)
	}
	if len(gms) != 1 || !strings.Contains(gms[0].msg.Content, "Fixer #1000001 of Red at Mars") ||
		len(gms[0].msg.Rows) != 1 || !strings.HasPrefix(gms[0].msg.Rows[0][0].CustomID, "fans:1:0:Blue") {
		t.Errorf("the GM channel's question: %+v", gms)
	}
}

// A change is Remove then Add, at run time, no restart: what /schedule
// does through ScheduleChanged.
func TestSchedulerFollowsChanges(t *testing.T) {
	ctx := context.Background()
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1})
	if err := w.sched.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	after := at("2025-01-06T12:00:00Z")
	if got := w.sched.NextFirings(w.id, after, 1); !sameTimes(got, times("2025-01-06T18:00:00Z")) {
		t.Fatalf("loaded: %v", got)
	}
	old := w.sched.entries[w.id].id
	if _, err := w.store.SetSchedule(ctx, "g", db.Schedule{ChannelID: "reports", Spec: "weekly fri 18:00", Cron: "0 18 * * 5", Timezone: "Europe/Paris", Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.sched.ScheduleChanged(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if got := w.sched.NextFirings(w.id, after, 1); !sameTimes(got, times("2025-01-10T17:00:00Z")) || w.sched.entries[w.id].id == old {
		t.Errorf("changed: %v", got)
	}
	if len(w.sched.cron.Entries()) != 1 {
		t.Errorf("%d cron entries, want 1", len(w.sched.cron.Entries()))
	}
	if _, err := w.store.PauseSchedule(ctx, "g", true); err != nil {
		t.Fatal(err)
	}
	if err := w.sched.ScheduleChanged(ctx, "g"); err != nil || w.sched.NextFirings(w.id, after, 1) != nil || len(w.sched.cron.Entries()) != 0 {
		t.Errorf("paused: %v, %d entries", err, len(w.sched.cron.Entries()))
	}
	if _, err := w.store.PauseSchedule(ctx, "g", false); err != nil {
		t.Fatal(err)
	}
	if err := w.sched.ScheduleChanged(ctx, "g"); err != nil || len(w.sched.cron.Entries()) != 1 {
		t.Errorf("resumed: %v", err)
	}
	if _, err := w.store.DeleteSchedule(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if err := w.sched.ScheduleChanged(ctx, "g"); err != nil || len(w.sched.cron.Entries()) != 0 {
		t.Errorf("deleted: %v, %d entries", err, len(w.sched.cron.Entries()))
	}
}

// The handlers tell the scheduler: /schedule set through the router.
func TestScheduleCommandNotifies(t *testing.T) {
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1})
	deps := kit.NewDeps(w.store, nil)
	deps.Calendar, deps.Now = w.sched, w.clock
	router := commands.New(deps)
	req, err := router.ParseLine(`/schedule set when:"every 2 days 07:30" timezone:Asia/Tokyo`)
	if err != nil {
		t.Fatal(err)
	}
	req.GuildID, req.ChannelID, req.Permissions = "g", "reports", kit.ManageChannels
	resp, err := router.Handle(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var res factioncmd.ScheduleResult
	b, _ := json.Marshal(resp.Result)
	if err := json.Unmarshal(b, &res); err != nil || res.Cron != "30 7 */2 * *" || len(res.Next) != 3 {
		t.Fatalf("result: %s", b)
	}
	// 07:30 in Tokyo is 22:30 UTC the day before.
	if got := w.sched.NextFirings(w.id, w.now, 1); !sameTimes(got, times("2025-01-06T22:30:00Z")) {
		t.Errorf("the scheduler follows: %v", got)
	}
}

// SessionPoster posts with ChannelMessageSendComplex, chart attached,
// pinging nobody.
func TestSessionPoster(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	p, err := NewRESTPoster("test-token", fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	msg := kit.Response{Content: "🗺️ **Round 1** is played", Embeds: []kit.Embed{{Title: "Round 1 · Red", Image: "attachment://factions.png"}},
		Files: []kit.File{{Name: "factions.png", ContentType: "image/png", Data: []byte("\x89PNG")}}}
	if err := p.Post(context.Background(), "123", msg); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range fake.Requests() {
		if r.Route != fakediscord.RouteCreateMessage {
			continue
		}
		found = true
		var body struct {
			Content         string `json:"content"`
			AllowedMentions struct {
				Parse []string `json:"parse"`
			} `json:"allowed_mentions"`
			Embeds []struct {
				Title string `json:"title"`
			} `json:"embeds"`
		}
		if err := json.Unmarshal(r.Payload(), &body); err != nil {
			t.Fatal(err)
		}
		if r.Param("channel") != "123" || body.Content != msg.Content || len(body.Embeds) != 1 || body.AllowedMentions.Parse == nil ||
			!strings.Contains(string(r.Body), "factions.png") {
			t.Errorf("posted %s", r.Body)
		}
	}
	if !found {
		t.Fatal("nothing posted")
	}
	if err := (SessionPoster{}).Post(context.Background(), "1", msg); err == nil {
		t.Error("a poster without a session posted")
	}
}

// flakyStore fails the first PlayCampaign, as a busy or full database
// would.
type flakyStore struct {
	*db.DB
	failed bool
}

func (f *flakyStore) PlayCampaign(ctx context.Context, guildID string, p db.PlayOptions, play func(*db.FactionCampaign, []db.FactionOrder) (db.Played, error)) (db.PlayResult, error) {
	if !f.failed {
		f.failed = true
		return db.PlayResult{}, errors.New("database is locked")
	}
	return f.DB.PlayCampaign(ctx, guildID, p, play)
}

// A firing that fails is not lost: the next pass, still on time, plays it
// (the resync pass runs every schedule again), and it is not reported as
// missed.
func TestSchedulerRetriesFailedFiring(t *testing.T) {
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Missed: db.MissedSkip})
	s := NewScheduler(SchedulerOptions{Store: w.store, Now: w.clock})
	s.SetJob(roundsJob(&flakyStore{DB: w.store}, func() dice.Roller {
		return dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	}))
	s.poster = w.poster
	if err := s.upsert(mustSchedule(t, w.store, w.id)); err != nil {
		t.Fatal(err)
	}
	w.now = at("2025-01-06T18:00:00Z")
	if _, err := s.Run(context.Background(), w.id, w.now); err == nil {
		t.Fatal("the failing firing reported no error")
	}
	if w.round() != 1 {
		t.Fatalf("round %d after a failed firing, want 1", w.round())
	}
	w.now = at("2025-01-06T18:01:00Z") // the next resync pass
	if n := s.runAll(context.Background()); n != 1 {
		t.Fatalf("runAll ran %d schedules, want 1", n)
	}
	if w.round() != 2 {
		t.Errorf("round %d after the retry, want 2", w.round())
	}
	for _, p := range w.poster.take() {
		if strings.Contains(p.msg.Content, "missed") {
			t.Errorf("a retried firing reported as missed: %q", p.msg.Content)
		}
	}
}

// tablehand_scheduler_firings_total counts each firing by its outcome:
// a failure, its retry played, firings missed while down, and one waiting
// for the GM. Start hands the metrics over.
func TestSchedulerCountsFirings(t *testing.T) {
	w := newSchedWorld(t, db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Missed: db.MissedSkip})
	s := NewScheduler(SchedulerOptions{Store: w.store, Now: w.clock})
	s.SetJob(roundsJob(&flakyStore{DB: w.store}, func() dice.Roller {
		return dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	}))
	m := NewMetrics()
	w.now = at("2025-01-06T18:00:00Z")
	// Start catches up at once: the firing due now fails (the flaky
	// store), and is counted as an error.
	if err := s.Start(context.Background(), w.poster, m); err != nil {
		t.Fatal(err)
	}
	s.Stop() // the real clock's cron plays no part here: Run is called below
	series := func(outcome string) string {
		return `tablehand_scheduler_firings_total{job="faction-round",outcome="` + outcome + `"}`
	}
	if v := metricValue(t, m, series(OutcomeError)); v != 1 {
		t.Errorf("errors = %v after a failed firing, want 1", v)
	}
	if _, err := s.Run(context.Background(), w.id, at("2025-01-06T18:01:00Z")); err != nil {
		t.Fatal(err)
	}
	// Down from the 7th to the 10th at 09:00: the 7th, 8th and 9th missed.
	if _, err := s.Run(context.Background(), w.id, at("2025-01-10T09:00:00Z")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.SetSchedule(context.Background(), "g", db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1, Approve: true, ChannelID: "reports"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), w.id, at("2025-01-10T18:00:00Z")); err != nil {
		t.Fatal(err)
	}
	for outcome, want := range map[string]float64{OutcomeOK: 1, OutcomeError: 1, FiringMissed: 3, FiringPending: 1} {
		if v := metricValue(t, m, series(outcome)); v != want {
			t.Errorf("%s = %v, want %v", series(outcome), v, want)
		}
	}
}
