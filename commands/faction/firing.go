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
		fmt.Fprintf(&b, " %d more factions did not fit.", len(rest))
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
	s, err := h.Schedules.ScheduleByID(ctx, f.ScheduleID)
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
	res, err := h.Factions.PlayRounds(ctx, req.GuildID, db.PlayOptions{Rounds: s.Rounds, Roller: h.Roller(), ActorID: req.User.ID,
		Firing: &f, Pending: true, Note: "approved by " + req.User.ID})
	if err != nil {
		return kit.Response{}, factionError(firingDone(err, f))
	}
	return h.roundReply(ctx, req, res, fmt.Sprintf("🗓️ **%s** approved the firing for %s.", kit.DisplayName(req.User), FireTime(f.At)))
}

func (h *handlers) firingSkip(ctx context.Context, req *kit.Request) (kit.Response, error) {
	_, f, err := h.firingSchedule(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.Schedules.SkipFiring(ctx, f, "skipped by "+req.User.ID); err != nil {
		return kit.Response{}, firingDone(err, f)
	}
	return kit.Response{Content: fmt.Sprintf("🗓️ **%s** skipped the firing for %s: no round was played.", kit.DisplayName(req.User), FireTime(f.At)),
		Result: map[string]any{"skipped": f.At.Unix()}}, nil
}
