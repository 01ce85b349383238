package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
)

// Several tablehand processes on one PostgreSQL, as issue 11 asks them to
// behave: real processes of the real binary (proc_test.go), fed signed
// interactions over HTTP, their clocks moved and one of them killed with
// SIGKILL from outside.

// consoleSetup types lines into `tablehand console` (in this process: it
// only prepares the store) as the GM "gm" in channel of guild "g", with
// env, and fails the test on any warning.
func consoleSetup(t *testing.T, source, channel, lines string, env map[string]string) {
	t.Helper()
	consoleSetupIn(t, source, "g", channel, "gm", lines, env)
}

// consoleSetupIn is consoleSetup in guild, as user.
func consoleSetupIn(t *testing.T, source, guild, channel, user, lines string, env map[string]string) {
	t.Helper()
	out, err := runWith(t, env, lines, "console", "--db", source, "--guild", guild, "--channel", channel, "--user", user)
	if err != nil || strings.Contains(out, "⚠️") {
		t.Fatalf("console: %v\n%s", err, out)
	}
}

// openStore opens the store at source for the test to look at.
func openStore(t testing.TB, source string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Two `tablehand http` processes on one PostgreSQL, fed 50 signed /init
// next and /init damage on one channel, alternately and all at once,
// leave the fight exactly as one process on SQLite leaves it running them
// one by one, byte for byte; /init list and /faction show then read the
// same through either process (and the SQLite one). An interaction
// answered by one process is refused as a replay by the other, and one
// sent to both at once is answered once.
func TestHTTPProcessesOnPostgres(t *testing.T) {
	pg := dbtest.Postgres(t)
	serialDB := dbtest.SQLite(t)
	const setup = `/init start
/init add name:Goblin initiative:15 hp:100
/init add name:Orc initiative:10 hp:100
/init add name:Aria initiative:5 hp:30
/init begin
/faction create name:Red owner:alice home:Mars region:inner
/faction create name:Blue home:Luna region:inner policy:invest
/faction asset add faction:Red chart:Militia
`
	for _, source := range []string{serialDB, pg} {
		// As the interactions below will be: by snowflake.
		consoleSetupIn(t, source, snowflake("g"), snowflake("table"), snowflake("gm"),
			strings.ReplaceAll(setup, "owner:alice", "owner:"+snowflake("alice")), nil)
	}
	fake := fakediscord.New(fakediscord.Options{}) // only to build the interactions
	defer fake.Close()
	sub := fakediscord.Subcommand
	const n = 50
	var calls [][]byte
	for i := range n {
		if i%2 == 0 {
			calls = append(calls, slash(t, fake, "g", "table", "gm", true, "init", sub("next")))
		} else {
			calls = append(calls, slash(t, fake, "g", "table", "gm", true, "init", sub("damage", fakediscord.StringOpt("target", "Goblin"), fakediscord.IntOpt("amount", 1))))
		}
	}
	s := newSigner(t)
	client := &http.Client{Timeout: 30 * time.Second}

	_, serial := startHTTP(t, s, serialDB)
	for i, body := range calls {
		if status, a, err := s.send(client, serial, body); status != http.StatusOK || err != nil || strings.HasPrefix(a.Data.Content, "⚠️") {
			t.Fatalf("serial run, interaction %d: status %d, %q, %v", i, status, a.Data.Content, err)
		}
	}

	var replicas [2]string
	for i := range replicas {
		_, replicas[i] = startHTTP(t, s, pg)
	}
	var wg sync.WaitGroup
	answers := make([]string, n)
	for i, body := range calls {
		wg.Go(func() {
			status, a, err := s.send(client, replicas[i%2], body)
			answers[i] = fmt.Sprintf("status %d, %q, %v", status, a.Data.Content, err)
			if status != http.StatusOK || err != nil || strings.HasPrefix(a.Data.Content, "⚠️") {
				t.Errorf("interaction %d: %s", i, answers[i])
			}
		})
	}
	wg.Wait()
	// An answer slower than 2 s from its arrival (a busy machine, the
	// commands of one channel queued on its row lock) is deferred (type
	// 5) and finishes after it: wait, bounded, for those.
	want := fightState(t, serialDB)
	for deadline := time.Now().Add(30 * time.Second); fightState(t, pg) != want && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if got := fightState(t, pg); got != want {
		t.Errorf("after %d concurrent commands on two processes:\n%s\nwant, as the serial run on SQLite:\n%s", n, got, want)
	}

	// The same reads through each process, each a new interaction.
	for _, read := range []struct {
		user string
		gm   bool
		name string
		opts []fakediscord.Option
	}{
		{"gm", true, "init", []fakediscord.Option{sub("list")}},
		{"alice", false, "init", []fakediscord.Option{sub("list")}},
		{"gm", true, "faction", []fakediscord.Option{sub("show", fakediscord.StringOpt("faction", "Red"))}},
		{"alice", false, "faction", []fakediscord.Option{sub("show")}},
	} {
		var got []string
		for _, url := range []string{serial, replicas[0], replicas[1]} {
			status, a, err := s.send(client, url, slash(t, fake, "g", "table", read.user, read.gm, read.name, read.opts...))
			if status != http.StatusOK || err != nil || a.Type != 4 || strings.HasPrefix(a.Data.Content, "⚠️") {
				t.Fatalf("/%s by %s: status %d, %s, %v", read.name, read.user, status, a.Body, err)
			}
			got = append(got, string(a.Body))
		}
		if got[1] != got[0] || got[2] != got[0] {
			t.Errorf("/%s by %s reads differently:\non SQLite:\n%s\nthrough process 1:\n%s\nthrough process 2:\n%s", read.name, read.user, got[0], got[1], got[2])
		}
	}

	// An interaction process 0 answered, sent again to process 1, which
	// never saw it: refused.
	if status, _, err := s.send(client, replicas[1], calls[0]); status != http.StatusConflict || err != nil {
		t.Errorf("process 0's interaction sent to process 1: status %d (%v), want 409", status, err)
	}
	// A new interaction, to both processes at once: answered once.
	fresh := slash(t, fake, "g", "table", "gm", true, "init", sub("list"))
	statuses := make([]int, 2)
	for i, url := range replicas {
		wg.Go(func() {
			var err error
			if statuses[i], _, err = s.send(client, url, fresh); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if !(statuses[0] == http.StatusOK && statuses[1] == http.StatusConflict) && !(statuses[0] == http.StatusConflict && statuses[1] == http.StatusOK) {
		t.Errorf("one interaction sent to both processes: statuses %v, want one 200 and one 409", statuses)
	}
}

// fightState is the stored state of the fight in channel "table" (its
// snowflake), as JSON, but for when its turn last moved (the clock's).
func fightState(t *testing.T, source string) string {
	t.Helper()
	// Opened and closed here: the test polls, and a store left open until
	// the test ends holds its connections that long.
	d, err := db.Open(context.Background(), source)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	e, err := d.Encounter(context.Background(), snowflake("table"))
	if err != nil {
		t.Fatal(err)
	}
	// When the turn last moved is each run's clock's: not the fight.
	e.State.Moved.At = 0
	b, err := json.Marshal(e.State)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// testClock is the clock of one process, in the file that
// TABLEHAND_TEST_CLOCK names: the test moves it.
type testClock struct{ file string }

func newTestClock(t *testing.T, at string) testClock {
	t.Helper()
	c := testClock{file: filepath.Join(t.TempDir(), "clock")}
	c.write(t, at)
	return c
}

func (c testClock) env() string { return envTestClock + "=" + c.file }

// write sets the time, whole: a reader never sees half of it.
func (c testClock) write(t *testing.T, at string) {
	t.Helper()
	if err := os.WriteFile(c.file+".new", []byte(at+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(c.file+".new", c.file); err != nil {
		t.Fatal(err)
	}
}

// moved is what the process logs once its scheduler has run at the
// time at.
func moved(at string) string { return `msg="test clock moved" now=` + at }

// Two processes, each running the scheduler, over one PostgreSQL with a
// daily schedule. Each process has a clock of its own, as hosts do, and
// the test moves them (TABLEHAND_TEST_CLOCK): no waiting for a real 18:00.
//
// A process killed with SIGKILL in the middle of a scheduled round, after
// each step of its transaction in turn (TABLEHAND_TEST_STALL stops it
// there), leaves the campaign untouched and no firing recorded; the other
// process, running all along, then plays that firing, once, and posts its
// report. Then the two processes reach the next firing at the same moment:
// the round is played once and reported once.
func TestSchedulerProcessesOnPostgres(t *testing.T) {
	pg := dbtest.Postgres(t)
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	s := newSigner(t)
	day := func(i int, hhmmss string) string {
		return time.Date(2025, 1, 6+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02") + "T" + hhmmss + "Z"
	}
	setupClock := newTestClock(t, day(0, "12:00:00"))
	consoleSetup(t, pg, "reports", `/faction create name:Red owner:alice home:Mars region:inner
/faction create name:Blue home:Luna region:inner policy:invest
/faction create name:Black home:Titan region:outer policy:invest
/schedule set when:"daily 18:00" timezone:UTC rounds:1 missed:skip
`, map[string]string{envTestClock: setupClock.file})

	ctx := context.Background()
	store := openStore(t, pg)
	sc, err := store.Schedule(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	campaign := func() (round int, state string) {
		t.Helper()
		fc, err := factioncmd.LoadCampaign(ctx, store, "g")
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(fc.Campaign)
		if err != nil {
			t.Fatal(err)
		}
		return fc.Campaign.Round, fmt.Sprintf("version %d: %s", fc.Version, b)
	}
	// reports counts the messages posted to the campaign's channel for the
	// firing at.
	reports := func(at string) int {
		t.Helper()
		when, err := time.Parse(time.RFC3339, at)
		if err != nil {
			t.Fatal(err)
		}
		stamp := fmt.Sprintf("<t:%d:F>", when.Unix())
		n := 0
		for _, r := range fake.Requests() {
			var msg struct{ Content string }
			if r.Route != fakediscord.RouteCreateMessage || r.Param("channel") != "reports" {
				continue
			}
			if err := r.Decode(&msg); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(msg.Content, stamp) {
				n++
			}
		}
		return n
	}
	env := []string{"TABLEHAND_TOKEN=test-token", "TABLEHAND_API_URL=" + fake.URL(), s.env()}
	// start runs `tablehand http`, with its metrics, on the clock, and
	// waits for the line ready.
	start := func(ready string, clock testClock, more ...string) *botProc {
		p, _ := startBot(t, ready, []string{"http", "--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--db", pg},
			append(append(env, clock.env()), more...)...)
		return p
	}

	survivorClock := newTestClock(t, day(0, "12:00:00"))
	survivor := start(listening.String(), survivorClock)
	for i, phase := range db.RoundPhases {
		firing := day(i, "18:00:00")
		round, before := campaign()
		// It starts after the firing (a catch-up on time) and stalls in the
		// round at once: killed there.
		dying := start(`msg="test: a scheduled round stalls" phase=`+string(phase), newTestClock(t, day(i, "18:00:30")), envTestStall+"="+string(phase))
		dying.kill(t)
		if r, after := campaign(); after != before {
			t.Errorf("killed after %s: the campaign changed from round %d to %d:\n%s\nwas\n%s", phase, round, r, after, before)
		}
		at, err := time.Parse(time.RFC3339, firing)
		if err != nil {
			t.Fatal(err)
		}
		if rec, err := store.FiringStatus(ctx, db.Firing{ScheduleID: sc.ID, At: at}); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("killed after %s: the firing is recorded: %+v, %v", phase, rec, err)
		}

		// The other process's clock reaches the firing, a minute late.
		now := day(i, "18:01:00")
		ran := survivor.expect(moved(now))
		survivorClock.write(t, now)
		survivor.await(t, ran, moved(now))
		if r, _ := campaign(); r != round+1 {
			t.Errorf("after the kill after %s the other process left round %d, want %d", phase, r, round+1)
		}
		if rec, err := store.FiringStatus(ctx, db.Firing{ScheduleID: sc.ID, At: at}); err != nil || rec.Status != db.FiringApplied {
			t.Errorf("after the kill after %s the firing is %+v, %v; want it applied", phase, rec, err)
		}
		if n := reports(firing); n != 1 {
			t.Errorf("after the kill after %s the firing was reported %d times, want once", phase, n)
		}
	}

	// A second process beside the survivor; both reach the next firing at
	// once: it is played and reported once, and neither process fails. (The
	// one that comes second finds it played, a duplicate in its metrics,
	// when it read the schedule before the first committed; else it finds
	// nothing due. Which happens is up to the timing.)
	last := len(db.RoundPhases)
	otherClock := newTestClock(t, day(last-1, "18:01:00"))
	other := start(listening.String(), otherClock)
	round, _ := campaign()
	before := firings(t, survivor, other)
	now := day(last, "18:00:30")
	ran := []<-chan []string{survivor.expect(moved(now)), other.expect(moved(now))}
	survivorClock.write(t, now)
	otherClock.write(t, now)
	survivor.await(t, ran[0], moved(now))
	other.await(t, ran[1], moved(now))
	if r, _ := campaign(); r != round+1 {
		t.Errorf("two processes at the firing of %s: round %d, want %d (played once)", now, r, round+1)
	}
	if n := reports(day(last, "18:00:00")); n != 1 {
		t.Errorf("two processes at the firing of %s: reported %d times, want once", now, n)
	}
	after := firings(t, survivor, other)
	if played, failed := after["ok"]-before["ok"], after["error"]-before["error"]; played != 1 || failed != 0 {
		t.Errorf("two processes at the firing of %s: counted played %d times and failed %d times, want 1 and 0 (before %v, after %v)",
			now, played, failed, before, after)
	}
	t.Logf("two processes at the firing of %s: the second found it played (a duplicate) %d times", now, after["duplicate"]-before["duplicate"])
}

var (
	servingMetrics = regexp.MustCompile(`msg="serving metrics" addr=(\S+)`)
	firingsCounted = regexp.MustCompile(`(?m)^tablehand_scheduler_firings_total\{job="faction-round",outcome="(\w+)"\} (\d+)$`)
)

// firings adds up the scheduled firings the processes counted, by outcome
// (tablehand_scheduler_firings_total).
func firings(t *testing.T, procs ...*botProc) map[string]int {
	t.Helper()
	sum := map[string]int{}
	for _, p := range procs {
		m := servingMetrics.FindStringSubmatch(p.stderr.String())
		if m == nil {
			t.Fatalf("tablehand %s serves no metrics:\n%s", p.cmd.Args[1], tail(p.stderr.String()))
		}
		resp, err := http.Get("http://" + m[1] + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range firingsCounted.FindAllStringSubmatch(string(b), -1) {
			n, err := strconv.Atoi(c[2])
			if err != nil {
				t.Fatal(err)
			}
			sum[c[1]] += n
		}
	}
	return sum
}
