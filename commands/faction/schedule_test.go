package faction_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/db"
)

// stubCron stands in for bot.Cron: every spec fires hourly from after.
type stubCron struct{}

func (stubCron) ParseSchedule(when, zone string, after time.Time, n int) (string, []time.Time, error) {
	if strings.Contains(when, "bad") {
		return "", nil, kit.Errorf("%q is not a schedule (e.g. when:\"daily 18:00\")", when)
	}
	var next []time.Time
	for i := 1; i <= n; i++ {
		next = append(next, after.Truncate(time.Hour).Add(time.Duration(i)*time.Hour))
	}
	return "cron " + when, next, nil
}

// stubCalendar is the kit.Calendar of a stub cron and the notes.
type stubCalendar struct {
	stubCron
	*notes
}

// notes records what the scheduler is told.
type notes struct{ guilds []string }

func (n *notes) ScheduleChanged(ctx context.Context, guildID string) error {
	n.guilds = append(n.guilds, guildID)
	return nil
}

func TestScheduleCommands(t *testing.T) {
	ft := newFtTable(t)
	now := time.Date(2025, 1, 6, 12, 30, 0, 0, time.UTC)
	n := &notes{}
	deps := kittest.Deps(ft.Store)
	deps.Calendar, deps.Now = stubCalendar{stubCron{}, n}, func() time.Time { return now }
	ft.R = kittest.Router(t, deps, factioncmd.System)
	if _, err := ft.Do("gm", `/schedule set when:"daily 18:00"`); !errors.Is(err, factioncmd.NoCampaign) {
		t.Errorf("no campaign: %v", err)
	}
	ft.world()
	resp := ft.Must("gm", `/schedule set when:"daily 18:00"`)
	res := resp.Result.(factioncmd.ScheduleResult)
	// No zone given and none known for the server: UTC.
	if res.Timezone != "UTC" || res.Cron != "cron daily 18:00" || res.Rounds != 1 || res.Missed != db.MissedSkip || res.CatchUp != 3 ||
		len(res.Shown) != 3 || res.Shown[0] != "<t:1736168400:F>" || !strings.Contains(resp.Content, "Next: <t:1736168400:F> · ") {
		t.Errorf("set: %+v\n%s", res, resp.Content)
	}
	// A zone given becomes the server's; options left out keep their value.
	ft.Must("gm", `/schedule set when:"weekly fri 18:00" timezone:Asia/Tokyo rounds:3 approve:true missed:catch-up catch_up:5`)
	res = ft.Must("gm", `/schedule set when:"daily 09:00"`).Result.(factioncmd.ScheduleResult)
	if res.Timezone != "Asia/Tokyo" || res.Rounds != 3 || !res.Approve || res.Missed != db.MissedCatchUp || res.CatchUp != 5 {
		t.Errorf("kept: %+v", res)
	}
	if _, err := ft.Do("gm", `/schedule set when:"bad spec"`); err == nil || !strings.Contains(err.Error(), "e.g.") {
		t.Errorf("a bad spec: %v", err)
	}
	if _, err := ft.Do("alice", `/schedule set when:"daily 18:00"`); !errors.Is(err, kit.ErrNotGM) {
		t.Errorf("a player set the schedule: %v", err)
	}
	if res := ft.Must("alice", "/schedule show").Result.(factioncmd.ScheduleResult); res.Spec != "daily 09:00" || len(res.Next) != 3 {
		t.Errorf("show: %+v", res)
	}
	if res := ft.Must("gm", "/schedule pause").Result.(factioncmd.ScheduleResult); !res.Paused {
		t.Errorf("pause: %+v", res)
	}
	ft.Must("gm", "/schedule resume")
	ft.Must("gm", "/schedule delete")
	if _, err := ft.Do("gm", "/schedule show"); err == nil || !strings.Contains(err.Error(), "no schedule here") {
		t.Errorf("deleted: %v", err)
	}
	// Every change told the scheduler: 3 sets, pause, resume, delete.
	if len(n.guilds) != 6 || n.guilds[0] != "guild" {
		t.Errorf("the scheduler was told %v", n.guilds)
	}
}

// The buttons of a firing awaiting approval: the GM's only, this guild's
// schedule only, each firing once.
func TestFiringButtons(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	ctx := context.Background()
	s, err := ft.Store.SetSchedule(ctx, "guild", db.Schedule{ChannelID: "table", Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 2, Approve: true})
	if err != nil {
		t.Fatal(err)
	}
	f := db.Firing{ScheduleID: s.ID, At: time.Now().Add(-time.Minute).Truncate(time.Second)}
	if err := ft.Store.AddPendingFiring(ctx, f, ""); err != nil {
		t.Fatal(err)
	}
	msg := factioncmd.ApprovalMessage(s, f, nil, "")
	apply, skip := msg.Rows[0][0].CustomID, msg.Rows[0][1].CustomID
	if apply != fmt.Sprintf("fapply:%d:%d", s.ID, f.At.Unix()) || !strings.Contains(msg.Content, factioncmd.FireTime(f.At)) {
		t.Fatalf("message: %+v", msg)
	}
	if _, err := ft.Do("alice", "click:"+apply); !errors.Is(err, kit.ErrNotGM) {
		t.Errorf("a player approved: %v", err)
	}
	if _, err := ft.Do("gm", fmt.Sprintf("click:fapply:%d:%d", s.ID+1, f.At.Unix())); err == nil || !strings.Contains(err.Error(), "schedule is gone") {
		t.Errorf("another schedule: %v", err)
	}
	resp := ft.Must("gm", "click:"+apply)
	if res := resp.Result.(factioncmd.RoundResult); len(res.Rounds) != 2 || res.Round != 3 {
		t.Errorf("approved: %+v", res)
	}
	if _, err := ft.Do("gm", "click:"+skip); err == nil || !strings.Contains(err.Error(), "dealt with already") {
		t.Errorf("skip after apply: %v", err)
	}
}
