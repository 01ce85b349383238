package faction

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /schedule plays the guild's faction rounds by themselves between
// sessions: "0 to 3 Rounds should take place between RP sessions". The
// schedule lives in SQLite; the bot's scheduler (bot/scheduler.go) runs it
// and is told of every change here, so nothing waits for a restart.

var scheduleCommand = kit.Command{
	Name:        "schedule",
	Description: "Play faction rounds by themselves between sessions",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "set", Description: "Set when rounds play (GM)", Options: []kit.Option{
			{Type: kit.String, Name: "when", Description: "daily 18:00, weekly fri 18:00, every 3 days 09:00, or cron: 0 18 * * 5", Required: true, MaxLength: 100},
			{Type: kit.String, Name: "timezone", Description: "IANA zone, e.g. Europe/Paris (default: the server's, else UTC)", MaxLength: 64},
			{Type: kit.Integer, Name: "rounds", Description: "Rounds a firing plays (1-3, default 1)", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxRounds)},
			{Type: kit.Boolean, Name: "approve", Description: "Post a preview and wait for the GM's button"},
			{Type: kit.String, Name: "missed", Description: "Firings missed while the bot was down", Choices: []kit.Choice{
				{Name: "skip them", Value: db.MissedSkip}, {Name: "catch up (up to catch_up)", Value: db.MissedCatchUp}}},
			{Type: kit.Integer, Name: "catch_up", Description: "How many missed firings to catch up at most (default 3)", MinValue: kit.Float(0), MaxValue: kit.Float(10)},
		}},
		{Type: kit.SubCommand, Name: "show", Description: "The schedule and its next three firings"},
		{Type: kit.SubCommand, Name: "pause", Description: "Pause the schedule (GM)"},
		{Type: kit.SubCommand, Name: "resume", Description: "Resume the schedule (GM)"},
		{Type: kit.SubCommand, Name: "delete", Description: "Delete the schedule (GM)"},
	},
}

// registerSchedule adds /schedule and the buttons of firings awaiting
// approval.
func (h *handlers) registerSchedule(r *kit.Router) {
	r.Define(scheduleCommand)
	r.Route("schedule/set", h.scheduleSet, true)
	r.Route("schedule/show", h.scheduleShow, false)
	r.Route("schedule/pause", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return h.schedulePause(ctx, req, true)
	}, true)
	r.Route("schedule/resume", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return h.schedulePause(ctx, req, false)
	}, true)
	r.Route("schedule/delete", h.scheduleDelete, true)
	r.RouteComponent("fapply", h.firingApprove, true)
	r.RouteComponent("fskip", h.firingSkip, true)
}

// ScheduleResult is the console's `result` of /schedule.
type ScheduleResult struct {
	Spec     string   `json:"spec"`
	Cron     string   `json:"cron"`
	Timezone string   `json:"timezone"`
	Rounds   int      `json:"rounds"`
	Paused   bool     `json:"paused"`
	Approve  bool     `json:"approve"`
	Missed   string   `json:"missed"`
	CatchUp  int      `json:"catch_up"`
	Next     []int64  `json:"next,omitempty"` // Unix seconds
	Shown    []string `json:"shown,omitempty"`
}

func (h *handlers) scheduleResult(s db.Schedule) (ScheduleResult, error) {
	return scheduleResultAt(s, h.Calendar, h.Clock())
}

// scheduleResultAt is the schedule with its next firings after now, as
// /schedule show and the campaign page show it.
func scheduleResultAt(s db.Schedule, cron kit.Calendar, now time.Time) (ScheduleResult, error) {
	r := ScheduleResult{Spec: s.Spec, Cron: s.Cron, Timezone: s.Timezone, Rounds: s.Rounds, Paused: s.Paused, Approve: s.Approve,
		Missed: s.Missed, CatchUp: s.CatchUpLimit}
	if cron == nil {
		return r, nil
	}
	_, next, err := cron.ParseSchedule(s.Cron, s.Timezone, now, 3)
	if err != nil {
		return r, fmt.Errorf("schedule %d: stored spec %q: %w", s.ID, s.Cron, err)
	}
	for _, t := range next {
		r.Next = append(r.Next, t.Unix())
		r.Shown = append(r.Shown, FireTime(t))
	}
	return r, nil
}

func (r ScheduleResult) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` (cron `%s`, %s): %d round", kit.CodeSafe(r.Spec), r.Cron, r.Timezone, r.Rounds)
	if r.Rounds != 1 {
		b.WriteString("s")
	}
	b.WriteString(" a firing")
	if r.Approve {
		b.WriteString(", each approved by the GM")
	}
	fmt.Fprintf(&b, "; missed firings: %s", r.Missed)
	if r.Missed == db.MissedCatchUp {
		fmt.Fprintf(&b, " (up to %d)", r.CatchUp)
	}
	if r.Paused {
		b.WriteString("\n⏸️ Paused: /schedule resume starts it again.")
	} else if len(r.Shown) > 0 {
		b.WriteString("\nNext: " + strings.Join(r.Shown, " · "))
	}
	return b.String()
}

// FireTime renders a firing's time for Discord: every reader sees it in
// their own zone.
func FireTime(t time.Time) string { return kit.Timestamp(t, "F") }

// notify tells the running scheduler; a failure there is logged, not the
// user's: the store has the change and the scheduler reloads on start.
func (h *handlers) notify(ctx context.Context, guildID string) {
	if h.Calendar == nil {
		return
	}
	if err := h.Calendar.ScheduleChanged(ctx, guildID); err != nil && h.Log != nil {
		h.Log.Error("tell the scheduler", "guild", guildID, "err", err)
	}
}

// scheduleChanged tells the scheduler of the change to s and answers
// with s between before and after.
func (h *handlers) scheduleChanged(ctx context.Context, req *kit.Request, s db.Schedule, before, after string) (kit.Response, error) {
	h.notify(ctx, req.GuildID)
	res, err := h.scheduleResult(s)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: before + res.text() + after, Result: res}, nil
}

func (h *handlers) scheduleSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c := kit.Read(req)
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	old, err := h.factions.s.Schedule(ctx, req.GuildID)
	exists := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, err
	}
	s, err := h.scheduleWhen(req, fc.Timezone)
	if err != nil {
		return kit.Response{}, err
	}
	fresh := s
	if exists {
		s.Rounds, s.Approve, s.Missed, s.CatchUpLimit = old.Rounds, old.Approve, old.Missed, old.CatchUpLimit
	}
	readScheduleOptions(c, &s)
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	saved, err := h.factions.s.SetSchedule(ctx, req.GuildID, s)
	if err != nil {
		return kit.Response{}, err
	}
	return h.scheduleChanged(ctx, req, saved, "🗓️ Faction rounds play ", "\nReports are posted in this channel."+keptNote(req.Options, fresh, saved))
}

// keptNote names the settings /schedule set kept from the schedule
// before without being given them (those a new schedule would not have):
// "" when none.
func keptNote(o kit.Options, fresh, saved db.Schedule) string {
	var kept []string
	example := ""
	for _, k := range []struct {
		option      string
		differs     bool
		value, also string
	}{
		{"rounds", saved.Rounds != fresh.Rounds, strconv.Itoa(saved.Rounds), "rounds:" + strconv.Itoa(fresh.Rounds)},
		{"approve", saved.Approve != fresh.Approve, strconv.FormatBool(saved.Approve), "approve:" + strconv.FormatBool(fresh.Approve)},
		{"missed", saved.Missed != fresh.Missed, saved.Missed, "missed:" + fresh.Missed},
		{"catch_up", saved.CatchUpLimit != fresh.CatchUpLimit, strconv.Itoa(saved.CatchUpLimit), "catch_up:" + strconv.Itoa(fresh.CatchUpLimit)},
	} {
		if k.differs && !o.Has(k.option) {
			kept = append(kept, "`"+k.option+":"+k.value+"`")
			if example == "" {
				example = fmt.Sprintf("/schedule set when:%q %s", saved.Spec, k.also)
			}
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return "\nKept from the schedule before: " + strings.Join(kept, ", ") + " (give the option to change it, e.g. `" + example + "`)."
}

// scheduleWhen is a new schedule of when: in timezone: (default: the
// campaign's zone, else UTC), with the default settings.
func (h *handlers) scheduleWhen(req *kit.Request, campaignZone string) (db.Schedule, error) {
	zone := strings.TrimSpace(req.Options.String("timezone"))
	if zone == "" {
		zone = campaignZone
	}
	if zone == "" {
		zone = "UTC"
	}
	if h.Calendar == nil {
		return db.Schedule{}, errors.New("schedule: no cron parser configured")
	}
	when := strings.TrimSpace(req.Options.String("when"))
	spec, _, err := h.Calendar.ParseSchedule(when, zone, h.Clock(), 3)
	if err != nil {
		return db.Schedule{}, err
	}
	return db.Schedule{ChannelID: req.ChannelID, Spec: when, Cron: spec, Timezone: zone, Rounds: 1, CreatedBy: req.User.ID,
		Missed: db.MissedSkip, CatchUpLimit: 3}, nil
}

// readScheduleOptions sets in s what the options of /schedule set change;
// the others keep the schedule's settings.
func readScheduleOptions(c *kit.Call, s *db.Schedule) {
	o := c.Req.Options
	s.Rounds = c.Or("rounds", s.Rounds)
	if o.Has("approve") {
		s.Approve = o.Bool("approve")
	}
	if m := o.String("missed"); m != "" {
		if m != db.MissedSkip && m != db.MissedCatchUp {
			c.Failf("missed is skip or catch-up, not %q", m)
		}
		s.Missed = m
	}
	s.CatchUpLimit = c.Or("catch_up", s.CatchUpLimit)
}

func (h *handlers) loadSchedule(ctx context.Context, req *kit.Request) (db.Schedule, error) {
	s, err := h.factions.s.Schedule(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return db.Schedule{}, kit.Errorf("no schedule here: the GM sets one with /schedule set when:\"weekly fri 18:00\" timezone:Europe/Paris")
	}
	return s, err
}

func (h *handlers) scheduleShow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	s, err := h.loadSchedule(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := h.scheduleResult(s)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "🗓️ Faction rounds play " + res.text(), Ephemeral: true, Result: res}, nil
}

// changeSchedule makes a change to the guild's schedule, which must
// exist.
func (h *handlers) changeSchedule(ctx context.Context, req *kit.Request, change func(ctx context.Context, guildID string) (db.Schedule, error)) (db.Schedule, error) {
	if _, err := h.loadSchedule(ctx, req); err != nil {
		return db.Schedule{}, err
	}
	return change(ctx, req.GuildID)
}

func (h *handlers) schedulePause(ctx context.Context, req *kit.Request, pause bool) (kit.Response, error) {
	s, err := h.changeSchedule(ctx, req, func(ctx context.Context, guildID string) (db.Schedule, error) {
		return h.factions.s.PauseSchedule(ctx, guildID, pause)
	})
	if err != nil {
		return kit.Response{}, err
	}
	verb := "Paused"
	if !pause {
		verb = "Resumed (firings while paused do not count as missed)"
	}
	return h.scheduleChanged(ctx, req, s, "🗓️ "+verb+": ", "")
}

func (h *handlers) scheduleDelete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	s, err := h.changeSchedule(ctx, req, h.factions.s.DeleteSchedule)
	if err != nil {
		return kit.Response{}, err
	}
	h.notify(ctx, req.GuildID)
	return kit.Response{Content: fmt.Sprintf("🗓️ Deleted the schedule `%s`: rounds play only with /faction round now.", kit.CodeSafe(s.Spec)),
		Result: map[string]string{"deleted": s.Spec}}, nil
}
