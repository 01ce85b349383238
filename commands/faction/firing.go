package faction

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// A firing of a schedule that waits for the GM's approval posts its
// preview with two buttons: play the round(s), or skip the firing.

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
	kept, rest := fitEmbeds(PreviewEmbeds(reps))
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	fmt.Fprintf(&b, "🗓️ The schedule's firing for %s waits for the GM: here is its preview (exact odds; the dice are one possible outcome).", FireTime(f.At))
	if len(rest) > 0 {
		fmt.Fprintf(&b, " %s did not fit.", kit.Plural(len(rest), "more faction"))
	}
	return kit.Response{Type: kit.Message, Content: b.String(), Embeds: kept, Rows: []kit.Row{firingButtons(f)},
		Result: RoundResult{Rounds: reps}}
}

func parseFiring(customID string) (db.Firing, error) {
	id, unix, ok := buttonIDs(customID)
	if !ok {
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
	s, err := h.factions.s.ScheduleByID(ctx, f.ScheduleID)
	if errors.Is(err, db.ErrNotFound) || err == nil && s.GuildID != req.GuildID {
		return db.Schedule{}, f, kit.Errorf("this schedule is gone: its firing cannot be played any more")
	}
	return s, f, err
}

// firingDone is the mistake of a click on a firing played or skipped
// already; any other error stays as it is.
func firingDone(err error, f db.Firing) error {
	if errors.Is(err, db.ErrFiringDone) {
		return kit.Errorf("the firing for %s has been dealt with already", FireTime(f.At))
	}
	return err
}

func (h *handlers) firingApprove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	s, f, err := h.firingSchedule(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	p, err := h.factions.play(ctx, req.GuildID, Play{Rounds: s.Rounds, Roller: h.Roller(),
		Store:  db.PlayOptions{ActorID: req.User.ID, Firing: &f, Pending: true, Note: "approved by " + req.User.ID},
		Header: fmt.Sprintf("🗓️ **%s** approved the firing for %s.", kit.DisplayName(req.User), FireTime(f.At))})
	if err != nil {
		return kit.Response{}, factionError(firingDone(err, f))
	}
	return p.Messages[0], nil
}

func (h *handlers) firingSkip(ctx context.Context, req *kit.Request) (kit.Response, error) {
	_, f, err := h.firingSchedule(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.factions.s.SkipFiring(ctx, f, "skipped by "+req.User.ID); err != nil {
		return kit.Response{}, firingDone(err, f)
	}
	return kit.Response{Content: fmt.Sprintf("🗓️ **%s** skipped the firing for %s: no round was played.", kit.DisplayName(req.User), FireTime(f.At)),
		Result: map[string]any{"skipped": f.At.Unix()}}, nil
}

// roundsJob is the game's scheduled work: a schedule's firing plays its
// rounds and posts their report, or, with approval, posts its preview for
// the GM (kit.Job).
type roundsJob struct{ h *handlers }

// Name names the job in the metrics.
func (roundsJob) Name() string { return "faction-round" }

// Fire deals with one due firing of a campaign's schedule.
func (j roundsJob) Fire(ctx context.Context, f kit.Firing) (kit.Fired, error) {
	sc := f.Schedule
	firing := db.Firing{ScheduleID: sc.ID, At: f.At}
	if sc.Approve {
		return j.h.awaitApproval(ctx, sc, firing, f)
	}
	header := "🗓️ The schedule's firing for " + FireTime(f.At)
	if f.Note != "" {
		header += " (late: the bot was down)"
	}
	if f.Header != "" {
		header = f.Header + "\n" + header
	}
	// The GMs read the secret Questions of held orders in their channel
	// (none set: in /faction orders).
	gm, err := j.h.GMChannel(ctx, sc.GuildID)
	if err != nil {
		return kit.Fired{}, err
	}
	p, err := j.h.factions.play(ctx, sc.GuildID, Play{Rounds: sc.Rounds, Roller: j.h.Roller(), Header: header, Paged: true,
		Store: db.PlayOptions{ActorID: "schedule", Firing: &firing, Note: f.Note, Hook: f.Hook}, Outbox: f.Outbox, GMChannel: gm})
	if errors.Is(err, db.ErrFiringDone) {
		return kit.Fired{Outcome: kit.FiredDone}, nil
	}
	if err != nil {
		return kit.Fired{}, err
	}
	out := kit.Fired{Outcome: kit.FiredApplied, Posts: p.Messages}
	if f.Outbox != "" {
		out.Posts = nil // in the outbox, for the edge to post
	}
	for _, r := range p.Result.Rounds {
		out.Rounds = append(out.Rounds, r.Round)
	}
	return out, nil
}

// awaitApproval records a firing as waiting for the GM and posts its
// preview with the buttons that play it or skip it: with an outbox
// (f.Outbox), the preview is written to it in the transaction that
// records the firing, so a process that stops after that still has it
// posted, by any process, once.
func (h *handlers) awaitApproval(ctx context.Context, sc db.Schedule, firing db.Firing, f kit.Firing) (kit.Fired, error) {
	fc, orders, _, err := h.factions.plan(ctx, sc.GuildID)
	if err != nil {
		return kit.Fired{}, err
	}
	reps, err := PreviewRounds(fc.Campaign, orders, sc.Rounds, h.Roller())
	if err != nil {
		return kit.Fired{}, fmt.Errorf("preview the firing of schedule %d: %w", sc.ID, err)
	}
	preview := ApprovalMessage(sc, firing, reps, f.Header)
	var posts []db.OutboxMessage
	if f.Outbox != "" {
		body, err := kit.EncodePost(preview)
		if err != nil {
			return kit.Fired{}, err
		}
		posts = append(posts, db.OutboxMessage{ChannelID: f.Outbox, Body: body})
	}
	err = h.factions.s.AddPendingFiring(ctx, firing, f.Note, posts...)
	if errors.Is(err, db.ErrFiringDone) {
		return kit.Fired{Outcome: kit.FiredDone}, nil
	}
	if err != nil {
		return kit.Fired{}, err
	}
	out := kit.Fired{Outcome: kit.FiredPending, Posts: []kit.Response{preview}}
	if f.Outbox != "" {
		out.Posts = nil // in the outbox, for the edge to post
	}
	return out, nil
}
