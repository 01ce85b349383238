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

func (h *handlers) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
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
	r := ScheduleResult{Spec: s.Spec, Cron: s.Cron, Timezone: s.Timezone, Rounds: s.Rounds, Paused: s.Paused, Approve: s.Approve,
		Missed: s.Missed, CatchUp: s.CatchUpLimit}
	if h.Cron == nil {
		return r, nil
	}
	_, next, err := h.Cron.ParseSchedule(s.Cron, s.Timezone, h.now(), 3)
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

// notify tells the running scheduler; a failure there is logged, not the
// user's: the store has the change and the scheduler reloads on start.
func (h *handlers) notify(ctx context.Context, guildID string) {
	if h.Scheduler == nil {
		return
	}
	if err := h.Scheduler.ScheduleChanged(ctx, guildID); err != nil && h.Log != nil {
		h.Log.Error("tell the scheduler", "guild", guildID, "err", err)
	}
}

func (h *handlers) scheduleSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	old, err := h.Schedules.Schedule(ctx, req.GuildID)
	exists := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, err
	}
	zone := strings.TrimSpace(req.Options.String("timezone"))
	if zone == "" {
		zone = fc.Timezone
	}
	if zone == "" {
		zone = "UTC"
	}
	if h.Cron == nil {
		return kit.Response{}, errors.New("schedule: no cron parser configured")
	}
	when := strings.TrimSpace(req.Options.String("when"))
	spec, _, err := h.Cron.ParseSchedule(when, zone, h.now(), 3)
	if err != nil {
		return kit.Response{}, err
	}
	s := db.Schedule{ChannelID: req.ChannelID, Spec: when, Cron: spec, Timezone: zone, Rounds: 1, CreatedBy: req.User.ID,
		Missed: db.MissedSkip, CatchUpLimit: 3}
	if exists {
		s.Rounds, s.Approve, s.Missed, s.CatchUpLimit = old.Rounds, old.Approve, old.Missed, old.CatchUpLimit
	}
	if n, ok := req.Options.Int("rounds"); ok {
		s.Rounds = int(n)
	}
	if req.Options.Has("approve") {
		s.Approve = req.Options.Bool("approve")
	}
	if m := req.Options.String("missed"); m != "" {
		if m != db.MissedSkip && m != db.MissedCatchUp {
			return kit.Response{}, kit.Errorf("missed is skip or catch-up, not %q", m)
		}
		s.Missed = m
	}
	if n, ok := req.Options.Int("catch_up"); ok {
		s.CatchUpLimit = int(n)
	}
	saved, err := h.Schedules.SetSchedule(ctx, req.GuildID, s)
	if err != nil {
		return kit.Response{}, err
	}
	h.notify(ctx, req.GuildID)
	res, err := h.scheduleResult(saved)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "🗓️ Faction rounds play " + res.text() + "\nReports are posted in this channel.", Result: res}, nil
}

func (h *handlers) loadSchedule(ctx context.Context, req *kit.Request) (db.Schedule, error) {
	s, err := h.Schedules.Schedule(ctx, req.GuildID)
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

func (h *handlers) schedulePause(ctx context.Context, req *kit.Request, pause bool) (kit.Response, error) {
	if _, err := h.loadSchedule(ctx, req); err != nil {
		return kit.Response{}, err
	}
	s, err := h.Schedules.PauseSchedule(ctx, req.GuildID, pause)
	if err != nil {
		return kit.Response{}, err
	}
	h.notify(ctx, req.GuildID)
	res, err := h.scheduleResult(s)
	if err != nil {
		return kit.Response{}, err
	}
	verb := "Paused"
	if !pause {
		verb = "Resumed (firings while paused do not count as missed)"
	}
	return kit.Response{Content: "🗓️ " + verb + ": " + res.text(), Result: res}, nil
}

func (h *handlers) scheduleDelete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	if _, err := h.loadSchedule(ctx, req); err != nil {
		return kit.Response{}, err
	}
	s, err := h.Schedules.DeleteSchedule(ctx, req.GuildID)
	if err != nil {
		return kit.Response{}, err
	}
	h.notify(ctx, req.GuildID)
	return kit.Response{Content: fmt.Sprintf("🗓️ Deleted the schedule `%s`: rounds play only with /faction round now.", kit.CodeSafe(s.Spec)),
		Result: map[string]string{"deleted": s.Spec}}, nil
}

// firingButtons are the GM's buttons of a firing awaiting approval:
// fapply:<schedule>:<unix> and fskip:<schedule>:<unix>, the firing's
// identity.
func firingButtons(f db.Firing) kit.Row {
	id := fmt.Sprintf("%d:%d", f.ScheduleID, f.At.Unix())
	return kit.Row{
		{Label: "Play the round(s)", Style: kit.Success, CustomID: "fapply:" + id},
		{Label: "Skip this firing", Style: kit.Secondary, CustomID: "fskip:" + id},
	}
}

// ApprovalMessage is what a firing awaiting the GM's approval posts: its
// preview, with the buttons that play it or skip it. header says which
// firing it is (and which were missed).
func ApprovalMessage(s db.Schedule, f db.Firing, reps []rules.RoundReport, header string) kit.Response {
	embeds := PreviewEmbeds(reps)
	kept, rest := packEmbeds(embeds, kit.MaxEmbeds, kit.MaxEmbedTotal)
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	fmt.Fprintf(&b, "🗓️ The schedule's firing for %s waits for the GM: here is its preview (exact odds; the dice are one possible outcome).", FireTime(f.At))
	if len(rest) > 0 {
		fmt.Fprintf(&b, " %d more factions did not fit.", len(rest))
	}
	return kit.Response{Type: kit.Message, Content: b.String(), Embeds: kept, Rows: []kit.Row{firingButtons(f)},
		Result: RoundResult{Rounds: reps}}
}

func parseFiring(customID string) (db.Firing, error) {
	parts := strings.Split(customID, ":")
	if len(parts) != 3 {
		return db.Firing{}, kit.Errorf("this button no longer works")
	}
	id, err1 := strconv.ParseInt(parts[1], 10, 64)
	unix, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return db.Firing{}, kit.Errorf("this button no longer works")
	}
	return db.Firing{ScheduleID: id, At: time.Unix(unix, 0).UTC()}, nil
}

// firingSchedule checks the button's schedule is this guild's.
func (h *handlers) firingSchedule(ctx context.Context, req *kit.Request) (db.Schedule, db.Firing, error) {
	f, err := parseFiring(req.CustomID)
	if err != nil {
		return db.Schedule{}, f, err
	}
	s, err := h.Schedules.ScheduleByID(ctx, f.ScheduleID)
	if errors.Is(err, db.ErrNotFound) || err == nil && s.GuildID != req.GuildID {
		return db.Schedule{}, f, kit.Errorf("this schedule is gone: its firing cannot be played any more")
	}
	return s, f, err
}

func (h *handlers) firingApprove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	s, f, err := h.firingSchedule(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := h.Factions.PlayRounds(ctx, req.GuildID, db.PlayOptions{Rounds: s.Rounds, Roller: h.Roller(), ActorID: req.User.ID,
		Firing: &f, Pending: true, Note: "approved by " + req.User.ID})
	if errors.Is(err, db.ErrFiringDone) {
		return kit.Response{}, kit.Errorf("the firing for %s has been dealt with already", FireTime(f.At))
	}
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	hist, err := h.Factions.RoundHistory(ctx, req.GuildID, chartRounds)
	if err != nil {
		return kit.Response{}, err
	}
	msgs, err := RoundMessages(res, hist, fmt.Sprintf("🗓️ **%s** approved the firing for %s.", kit.DisplayName(req.User), FireTime(f.At)), false)
	if err != nil {
		return kit.Response{}, err
	}
	return msgs[0], nil
}

func (h *handlers) firingSkip(ctx context.Context, req *kit.Request) (kit.Response, error) {
	_, f, err := h.firingSchedule(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.Schedules.SkipFiring(ctx, f, "skipped by "+req.User.ID); errors.Is(err, db.ErrFiringDone) {
		return kit.Response{}, kit.Errorf("the firing for %s has been dealt with already", FireTime(f.At))
	} else if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("🗓️ **%s** skipped the firing for %s: no round was played.", kit.DisplayName(req.User), FireTime(f.At)),
		Result: map[string]any{"skipped": f.At.Unix()}}, nil
}

// fireTime renders a firing's time for Discord: every reader sees it in
// their own zone.
func FireTime(t time.Time) string { return fmt.Sprintf("<t:%d:F>", t.Unix()) }
