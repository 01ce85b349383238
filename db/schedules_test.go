package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
)

func testScheduleStore(t *testing.T) {
	now := time.Date(2025, 3, 7, 12, 0, 0, 0, time.UTC)
	d, _ := open(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	if _, err := d.SetSchedule(ctx, "g", db.Schedule{Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "UTC", Rounds: 1}); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("a schedule with no campaign: %v", err)
	}
	world(t, d, "g")
	s, err := d.SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "Europe/Paris", Rounds: 2, CreatedBy: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	if s.GuildID != "g" || s.Missed != db.MissedSkip || !s.LastFiring.Equal(now) || s.Paused || s.Rounds != 2 {
		t.Errorf("new schedule: %+v", s)
	}
	if fc, _ := d.Campaign(ctx, "g"); fc.Timezone != "Europe/Paris" {
		t.Errorf("the guild's zone: %q", fc.Timezone)
	}
	// Changing only the rounds keeps its place; changing the spec counts
	// from now.
	now = now.Add(time.Hour)
	s2, err := d.SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "daily 18:00", Cron: "0 18 * * *", Timezone: "Europe/Paris", Rounds: 3, Approve: true, Missed: db.MissedCatchUp, CatchUpLimit: 2})
	if err != nil || s2.ID != s.ID || !s2.LastFiring.Equal(s.LastFiring) || !s2.Approve || s2.CatchUpLimit != 2 {
		t.Errorf("same spec: %+v %v", s2, err)
	}
	s2, err = d.SetSchedule(ctx, "g", db.Schedule{ChannelID: "table", Spec: "weekly fri 18:00", Cron: "0 18 * * 5", Timezone: "Europe/Paris", Rounds: 1})
	if err != nil || !s2.LastFiring.Equal(now) || s2.Cron != "0 18 * * 5" {
		t.Errorf("new spec: %+v %v", s2, err)
	}
	// Pause, then resume: the firings in between are not due.
	if p, err := d.PauseSchedule(ctx, "g", true); err != nil || !p.Paused {
		t.Errorf("pause: %+v %v", p, err)
	}
	now = now.Add(72 * time.Hour)
	if p, err := d.PauseSchedule(ctx, "g", false); err != nil || p.Paused || !p.LastFiring.Equal(now) {
		t.Errorf("resume: %+v %v", p, err)
	}
	all, err := d.Schedules(ctx)
	if err != nil || len(all) != 1 || all[0].ID != s.ID {
		t.Errorf("all schedules: %+v %v", all, err)
	}

	// Firings: missed ones recorded once; a pending one approved once.
	t1, t2 := now.Add(time.Hour), now.Add(2*time.Hour)
	if n, err := d.RecordMissed(ctx, s.ID, []time.Time{t1}, "down"); n != 1 || err != nil {
		t.Errorf("record missed: %d %v", n, err)
	}
	if n, err := d.RecordMissed(ctx, s.ID, []time.Time{t1}, "down"); n != 0 || err != nil {
		t.Errorf("record missed twice: %d %v", n, err)
	}
	if got, _ := d.ScheduleByID(ctx, s.ID); !got.LastFiring.Equal(t1) {
		t.Errorf("last firing %v, want %v", got.LastFiring, t1)
	}
	f := db.Firing{ScheduleID: s.ID, At: t2.Add(300 * time.Millisecond)} // stored to the second
	if err := d.AddPendingFiring(ctx, f, ""); err != nil {
		t.Fatal(err)
	}
	if err := d.AddPendingFiring(ctx, db.Firing{ScheduleID: s.ID, At: t2}, ""); !errors.Is(err, db.ErrFiringDone) {
		t.Errorf("pending twice: %v", err)
	}
	oneRound := func(*db.FactionCampaign, []db.FactionOrder) (db.Played, error) {
		return db.Played{Rounds: []db.FactionRound{{Round: 1, Report: []byte(`{}`), Sheets: []byte(`[]`)}}}, nil
	}
	if _, err := d.PlayCampaign(ctx, "g", db.PlayOptions{Firing: &f}, oneRound); !errors.Is(err, db.ErrFiringDone) {
		t.Errorf("playing a pending firing as a new one: %v", err)
	}
	if _, err := d.PlayCampaign(ctx, "g", db.PlayOptions{Firing: &f, Pending: true}, oneRound); err != nil {
		t.Fatalf("approve: %v", err)
	}
	if err := d.SkipFiring(ctx, f, "gm"); !errors.Is(err, db.ErrFiringDone) {
		t.Errorf("skip an applied firing: %v", err)
	}
	t3 := t2.Add(time.Hour)
	if err := d.AddPendingFiring(ctx, db.Firing{ScheduleID: s.ID, At: t3}, ""); err != nil {
		t.Fatal(err)
	}
	if err := d.SkipFiring(ctx, db.Firing{ScheduleID: s.ID, At: t3}, "gm"); err != nil {
		t.Fatal(err)
	}
	fs, err := d.Firings(ctx, s.ID, 10)
	if err != nil || len(fs) != 3 || fs[0].Status != db.FiringSkipped || fs[1].Status != db.FiringApplied || fs[2].Status != db.FiringMissed {
		t.Errorf("firings: %+v %v", fs, err)
	}
	if _, err := d.FiringStatus(ctx, db.Firing{ScheduleID: s.ID, At: now}); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("an unknown firing: %v", err)
	}
	if del, err := d.DeleteSchedule(ctx, "g"); err != nil || del.ID != s.ID {
		t.Errorf("delete: %+v %v", del, err)
	}
	if _, err := d.Schedule(ctx, "g"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("deleted schedule: %v", err)
	}
}
