package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot"
	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The two-processes row of issue 11's figures with real processes: the
// mixed load of bot's BenchmarkMixedLoadStores (/init next, /init damage,
// /faction order in equal shares over 1,000 channels), sent as signed
// interactions over loopback HTTP to two `tablehand http` processes on one
// PostgreSQL schema, alternately, at a fixed rate.

const (
	procGuilds    = 100
	procPerGuild  = 10 // channels of each guild, each with a begun fight
	procFactions  = 4  // players' factions in each guild's campaign
	procHP        = 1_000_000
	procRate      = 1000 // commands a second
	procSetupJobs = 16
)

// procCombatants are every fight's NPCs, with hit points no run can use
// up: every damage lands in full, no one is defeated, and each /init next
// plays exactly one turn.
var procCombatants = []string{"Goblin", "Orc", "Ogre"}

var procKinds = []string{"next", "damage", "order"}

// procChannel is one channel's fight and what was acknowledged in it.
type procChannel struct {
	guild, id, gm string
	next, damage  atomic.Int64
}

// procWorld is the load's world: the processes, the channels and guilds,
// and what the interactions are built and signed with.
type procWorld struct {
	s        signer
	fake     *fakediscord.Server
	client   *http.Client
	urls     []string
	channels []*procChannel
	orders   map[string]*atomic.Int64 // acknowledged /faction order, by guild
	sent     atomic.Uint64
	rest     bool // the processes have a token and send follow-ups to fake
}

// procCall is one interaction and what it does when acknowledged.
type procCall struct {
	kind   int
	body   []byte
	ch     *procChannel
	guild  string
	amount int64
}

// post sends body to the processes in turn and returns when its answer
// was final, and what is wrong with that answer as a user would read it
// ("" when nothing is). An answer deferred (type 5, "thinking...") is
// final when its follow-up reaches Discord (the fake). An order refused
// because the faction already acted this round is the rules' answer, not
// a failure (refused reports it).
func (w *procWorld) post(body []byte) (done time.Time, failure string, refused bool) {
	url := w.urls[w.sent.Add(1)%uint64(len(w.urls))]
	status, a, err := w.s.send(w.client, url, body)
	done = time.Now()
	content := a.Data.Content
	switch {
	case err != nil || status != http.StatusOK:
		return done, fmt.Sprintf("status %d, %v", status, err), false
	case a.Type == 5 && !w.rest:
		return done, "deferred (type 5), and no token to send the answer with", false
	case a.Type == 5:
		if done, content, err = w.followUp(body); err != nil {
			return done, "deferred: " + err.Error(), false
		}
	case a.Type != 4:
		return done, fmt.Sprintf("answered with type %d: %s", a.Type, a.Body), false
	}
	switch {
	case strings.Contains(content, "already acted"):
		return done, "", true
	case strings.HasPrefix(content, "⚠️"):
		return done, content, false
	}
	for _, bad := range []string{"database is locked", "Something went wrong", "cannot save anything"} {
		if strings.Contains(content, bad) {
			return done, content, false
		}
	}
	return done, "", false
}

// followUp waits for the deferred answer to the interaction body, sent to
// Discord as an edit of the placeholder or a message replacing it, and
// returns when it arrived and its text.
func (w *procWorld) followUp(body []byte) (time.Time, string, error) {
	var in struct{ Token string }
	if err := json.Unmarshal(body, &in); err != nil {
		return time.Time{}, "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), bot.FollowupTimeout+10*time.Second)
	defer cancel()
	r, err := w.fake.WaitRequest(ctx, func(r fakediscord.Request) bool {
		return r.Param("token") == in.Token && (r.Route == fakediscord.RouteEditOriginal || r.Route == fakediscord.RouteFollowup)
	})
	if err != nil {
		return time.Now(), "", err
	}
	var msg struct{ Content string }
	err = r.Decode(&msg)
	return r.Time, msg.Content, err
}

// setUp builds the world through the processes: each guild's campaign,
// then every channel's fight, from a few goroutines.
func (w *procWorld) setUp(b *testing.B) {
	b.Helper()
	sub, str, num := fakediscord.Subcommand, fakediscord.StringOpt, fakediscord.IntOpt
	var campaigns, fights [][]byte
	w.orders = map[string]*atomic.Int64{}
	for g := range procGuilds {
		guild := fmt.Sprintf("g%03d", g)
		w.orders[guild] = &atomic.Int64{}
		for f := range procFactions {
			campaigns = append(campaigns, slash(b, w.fake, guild, guild+"-c000", "gm-"+guild, true, "faction",
				sub("create", str("name", fmt.Sprintf("F%d", f+1)), str("owner", snowflake(fmt.Sprintf("%s-p%d", guild, f+1))), str("home", fmt.Sprintf("F%d-home", f+1)))))
		}
		for c := range procPerGuild {
			ch := &procChannel{guild: guild, id: fmt.Sprintf("%s-c%03d", guild, c), gm: "gm-" + guild}
			w.channels = append(w.channels, ch)
			fights = append(fights, slash(b, w.fake, guild, ch.id, ch.gm, true, "init", sub("start")))
			for k, name := range procCombatants {
				fights = append(fights, slash(b, w.fake, guild, ch.id, ch.gm, true, "init", sub("add", str("name", name), num("hp", procHP), num("initiative", int64(k)))))
			}
			fights = append(fights, slash(b, w.fake, guild, ch.id, ch.gm, true, "init", sub("begin")))
		}
	}
	// A guild's campaign starts with its first faction, a fight with
	// /init start: each guild's (channel's) commands in order.
	for _, group := range []struct {
		bodies [][]byte
		per    int
	}{{campaigns, procFactions}, {fights, len(procCombatants) + 2}} {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range procSetupJobs {
			wg.Go(func() {
				for i := int(next.Add(1)) - 1; i*group.per < len(group.bodies); i = int(next.Add(1)) - 1 {
					for _, body := range group.bodies[i*group.per : (i+1)*group.per] {
						if _, failure, _ := w.post(body); failure != "" {
							b.Errorf("setting up: %s", failure)
							return
						}
					}
				}
			})
		}
		wg.Wait()
		if b.Failed() {
			b.FailNow()
		}
	}
}

// draw picks a kind, then a channel (or a guild's faction) at random, and
// builds the interaction, as bot's mixed load draws its commands.
func (w *procWorld) draw(b *testing.B, r *rand.Rand) procCall {
	sub := fakediscord.Subcommand
	c := procCall{kind: r.IntN(len(procKinds)), ch: w.channels[r.IntN(len(w.channels))]}
	switch c.kind {
	case 0:
		c.body = slash(b, w.fake, c.ch.guild, c.ch.id, c.ch.gm, true, "init", sub("next"))
	case 1:
		c.amount = 1 + r.Int64N(9)
		player := fmt.Sprintf("%s-p%d", c.ch.guild, 1+r.IntN(procFactions))
		c.body = slash(b, w.fake, c.ch.guild, c.ch.id, player, false, "init", sub("damage",
			fakediscord.StringOpt("target", procCombatants[r.IntN(len(procCombatants))]), fakediscord.IntOpt("amount", c.amount)))
	case 2:
		c.guild = c.ch.guild
		owner := fmt.Sprintf("%s-p%d", c.guild, 1+r.IntN(procFactions))
		c.body = slash(b, w.fake, c.guild, c.guild+"-c000", owner, false, "faction", sub("order",
			fakediscord.StringOpt("action", "invest"), fakediscord.StringOpt("stat", []string{"INF", "TEC", "SOL", "POP"}[r.IntN(4)])))
	}
	return c
}

// count records c's effect once it was acknowledged.
func (c procCall) count(w *procWorld, refused bool) {
	switch {
	case c.kind == 0:
		c.ch.next.Add(1)
	case c.kind == 1:
		c.ch.damage.Add(c.amount)
	case !refused:
		w.orders[c.guild].Add(1)
	}
}

// verify reads every fight and campaign back from the store: the hit
// points lost are the damage acknowledged, the turns played the /init
// next acknowledged, and each guild's queue holds the orders its players
// were told were queued.
func (w *procWorld) verify(b *testing.B, source string) {
	b.Helper()
	ctx := context.Background()
	store := openStore(b, source)
	bad := 0
	report := func(format string, args ...any) {
		if bad++; bad <= 10 {
			b.Errorf(format, args...)
		}
	}
	for _, ch := range w.channels {
		enc, err := store.Encounter(ctx, snowflake(ch.id)) // as slash sends it
		if err != nil {
			b.Fatal(err)
		}
		var lost int64
		for _, c := range enc.State.Combatants {
			lost += int64(c.Max["hp"] - c.Resources["hp"])
		}
		if want := ch.damage.Load(); lost != want {
			report("channel %s: %d hp lost, %d damage acknowledged", ch.id, lost, want)
		}
		if turns, want := procTurns(enc.State), ch.next.Load(); turns != want {
			report("channel %s: %d turns played, %d /init next acknowledged", ch.id, turns, want)
		}
	}
	for guild, acked := range w.orders {
		orders, err := store.FactionOrders(ctx, snowflake(guild), "", "") // as slash sends it
		if err != nil {
			b.Fatal(err)
		}
		if int64(len(orders)) != acked.Load() {
			report("guild %s: %d orders stored, %d acknowledged", guild, len(orders), acked.Load())
		}
	}
	if bad > 10 {
		b.Errorf("... and %d more", bad-10)
	}
}

// procTurns counts the turns a begun fight has moved on from round 1's
// first, one a /init next while no one is defeated.
func procTurns(e *encounter.Encounter) int64 {
	return int64((e.Round-1)*len(e.Combatants) + e.Turn)
}

// BenchmarkMixedLoadProcesses is the procs=2 row of bot's
// BenchmarkMixedLoadStores with two real `tablehand http` processes on one
// fresh PostgreSQL schema: 1,000 channels in 100 guilds, each channel with
// a begun fight of three and each guild a campaign of four players'
// factions, all set up through the processes before the clock starts (tens
// of seconds). Then b.N signed interactions over loopback HTTP, to each
// process in turn, open loop at 1,000 a second: each is sent at its
// scheduled time whether or not the ones before it were answered, and its
// latency runs from that time to its final answer. It reports commands a
// second and p50/p99 overall and per kind, and fails if any answer is an
// error a user would read, a process logs an error, or an acknowledged
// update is missing from the store. It runs twice, each on a schema of its
// own:
//
//   - rest=none: the processes have no bot token, as TestHTTPProcessesOnPostgres
//     runs them: every answer must be final in the HTTP response (type 4);
//     one deferred past bot.DeferAfter fails the run.
//
//   - rest=fake: with a token, as a deployed bot runs, against the fake
//     Discord in this process: the extras (tracker messages) are posted,
//     and a deferred answer (type 5) counts until its follow-up arrives.
//     The fake shares the machine's cores, so this is the pessimistic row.
//
//     TABLEHAND_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable \
//     go test ./cmd/tablehand -run '^$' -bench MixedLoadProcesses -benchtime 10000x
//
// The target is a p99 under 100 ms at 1,000 commands a second.
func BenchmarkMixedLoadProcesses(b *testing.B) {
	b.Run("rest=none", func(b *testing.B) { benchProcesses(b, false) })
	b.Run("rest=fake", func(b *testing.B) { benchProcesses(b, true) })
}

func benchProcesses(b *testing.B, rest bool) {
	pg := dbtest.Postgres(b) // skips with how to run it when there is no server
	w := &procWorld{
		s:      newSigner(b),
		fake:   fakediscord.New(fakediscord.Options{}), // builds the interactions; Discord for rest=fake
		client: &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 1024}},
		rest:   rest,
	}
	defer w.fake.Close()
	var env []string
	if rest {
		env = []string{"TABLEHAND_TOKEN=test-token", "TABLEHAND_API_URL=" + w.fake.URL()}
	}
	var errs []<-chan []string
	for range 2 {
		p, url := startHTTP(b, w.s, pg, env...)
		w.urls = append(w.urls, url)
		errs = append(errs, p.expect(`level=ERROR.*`))
	}
	w.setUp(b)

	r := rand.New(rand.NewPCG(11, 2))
	var (
		mu       sync.Mutex
		lat      [3][]time.Duration
		failures = map[string]int{}
		wg       sync.WaitGroup
	)
	n := 0
	start := time.Now()
	for b.Loop() {
		c := w.draw(b, r)
		at := start.Add(time.Duration(n) * time.Second / procRate)
		n++
		time.Sleep(time.Until(at))
		wg.Go(func() {
			done, failure, refused := w.post(c.body)
			took := done.Sub(at)
			if failure == "" {
				c.count(w, refused)
			}
			mu.Lock()
			defer mu.Unlock()
			lat[c.kind] = append(lat[c.kind], took)
			if failure != "" {
				failures[procKinds[c.kind]+": "+tail(failure)]++
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()

	for text, count := range failures {
		b.Errorf("%d× %s", count, text)
	}
	for i, found := range errs {
		select {
		case m := <-found:
			b.Errorf("process %d logged an error under load: %s", i+1, m[0])
		default:
		}
	}
	w.verify(b, pg)
	var all []time.Duration
	for k, name := range procKinds {
		slices.Sort(lat[k])
		b.ReportMetric(procMS(lat[k], 0.50), name+"-p50-ms")
		b.ReportMetric(procMS(lat[k], 0.99), name+"-p99-ms")
		all = append(all, lat[k]...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "cmds/s")
	b.ReportMetric(procMS(all, 0.50), "p50-ms")
	b.ReportMetric(procMS(all, 0.99), "p99-ms")
	if p99 := procMS(all, 0.99); b.N >= 1000 && p99 >= 100 {
		b.Logf("p99 %.1f ms, over the 100 ms target", p99)
	}
}

// procMS is the p-th percentile (0 < p < 1) of sorted, in milliseconds.
func procMS(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return float64(sorted[min(len(sorted)-1, int(float64(len(sorted))*p))].Microseconds()) / 1000
}
