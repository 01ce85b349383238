package bot

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands"
	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The mixed load of issue 7: the state-changing commands a busy server
// sends most (/init next, /init damage, /faction order), from many
// goroutines at once, over many channels, through the router and the
// SQLite store the bot runs with. Nothing acknowledged may be lost, no
// "database is locked" (nor any other failure) may reach a user, and the
// benchmark reports the latency of each kind of command.

// Kinds of command in the mix.
const (
	mixNext = iota
	mixDamage
	mixOrder
	mixKinds
)

var mixKindNames = [mixKinds]string{"next", "damage", "order"}

// mixCombatants are the combatants of every channel's fight: NPCs of the
// GM with hit points no run of the benchmark can use up, so every damage
// lands in full and no one is defeated (a defeated combatant's turns are
// passed over, and turns would no longer count one per /init next).
var mixCombatants = []string{"Goblin", "Orc", "Ogre"}

const (
	mixHP             = 1_000_000
	mixFactionsPerGld = 4 // factions of players in each guild's campaign
)

// mixChannel is one channel with a fight, and what was acknowledged in it.
type mixChannel struct {
	guild, id string
	gm        string
	// Set up: the journal's seq and the turns played when the load began.
	baseSeq, baseTurns int64
	// Acknowledged by the router (answered without an error).
	next, damage, damageCmds atomic.Int64
}

// mixFaction is one player's faction and the orders it was told it queued.
type mixFaction struct {
	guild, channel, name, owner string

	mu     sync.Mutex
	orders []int64
}

// mixWorld is a bot wired as cmd/tablehand's open() wires it (the same
// Deps, a fresh dice generator per request), over a database file with
// channels and campaigns set up through the router itself.
type mixWorld struct {
	store  *db.DB
	router *kit.Router
	// routers are the processes on the database (router is the first);
	// commands go to each in turn, as a load balancer or the shards
	// spread them.
	routers  []*kit.Router
	stores   []*db.DB // each process's store, stores[0] is store
	turn     atomic.Uint64
	channels []*mixChannel
	factions []*mixFaction
	logs     *lockedLog
}

// lockedLog keeps what a logger writes from many goroutines. The mixed
// load's router logs every failure that is not the user's mistake, and
// there must be none.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// newMixWorld opens a database in dir and sets up guilds x perGuild
// channels, each with a begun fight, and in each guild a faction campaign
// with mixFactionsPerGld factions of players.
func newMixWorld(tb testing.TB, dir string, guilds, perGuild int) *mixWorld {
	return newMixWorldOn(tb, filepath.Join(dir, "mixed.db"), 1, guilds, perGuild)
}

// newMixWorldOn is newMixWorld over the database at source (a SQLite file
// or a PostgreSQL URL), with procs processes on it: each its own store
// (connection pool) and router, as separate Tablehand processes are.
func newMixWorldOn(tb testing.TB, source string, procs, guilds, perGuild int) *mixWorld {
	tb.Helper()
	ctx := context.Background()
	logs := &lockedLog{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := DefaultConfig()
	random := func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))) }
	w := &mixWorld{logs: logs}
	for range procs {
		store, err := db.Open(ctx, source)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { store.Close() })
		sched := NewScheduler(SchedulerOptions{Store: store, Log: log, Resync: time.Minute})
		deps := kit.NewDeps(store, cfg.Rules)
		deps.Roller, deps.GMRoles, deps.Log = random, cfg.GMRoles, log
		deps.Policies, deps.Calendar = commands.Policies(nil, cfg.Rules), sched
		w.routers = append(w.routers, commands.New(deps))
		w.stores = append(w.stores, store)
	}
	w.router, w.store = w.routers[0], w.stores[0]
	store := w.store
	for g := range guilds {
		guild := fmt.Sprintf("g%03d", g)
		gm := "gm-" + guild
		for c := range perGuild {
			w.channels = append(w.channels, &mixChannel{guild: guild, id: fmt.Sprintf("%s-c%03d", guild, c), gm: gm})
		}
		for f := range mixFactionsPerGld {
			w.factions = append(w.factions, &mixFaction{
				guild: guild, channel: fmt.Sprintf("%s-c%03d", guild, 0),
				name: fmt.Sprintf("F%d", f+1), owner: fmt.Sprintf("%s-p%d", guild, f+1),
			})
		}
	}

	// The campaigns first, one guild at a time (the first /faction create
	// starts the campaign); then the fights, from a few goroutines.
	for _, f := range w.factions {
		w.must(tb, "gm-"+f.guild, true, f.guild, f.channel, fmt.Sprintf("/faction create name:%s owner:%s home:%s-home", f.name, f.owner, f.name))
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(w.channels); i = int(next.Add(1)) - 1 {
				ch := w.channels[i]
				w.must(tb, ch.gm, true, ch.guild, ch.id, "/init start")
				for k, name := range mixCombatants {
					w.must(tb, ch.gm, true, ch.guild, ch.id, fmt.Sprintf("/init add name:%s hp:%d init:%d", name, mixHP, k))
				}
				w.must(tb, ch.gm, true, ch.guild, ch.id, "/init begin")
				enc, err := store.Encounter(ctx, ch.id)
				if err != nil {
					tb.Error(err)
					return
				}
				ch.baseSeq, ch.baseTurns = enc.Seq, turnsPlayed(enc.State)
			}
		})
	}
	wg.Wait()
	if tb.Failed() {
		tb.FailNow()
	}
	return w
}

// must runs one command line as the edges do (parsed as the console
// parses it, then the user, guild, channel and permissions Discord
// sends), records the message it posted as an edge does, and fails tb
// if it did not succeed.
func (w *mixWorld) must(tb testing.TB, user string, gm bool, guild, channel, line string) kit.Response {
	tb.Helper()
	resp, _, err := w.do(user, gm, guild, channel, line)
	if err != nil {
		tb.Fatalf("%s: %v\n%s", line, err, resp.Content)
	}
	return resp
}

// do answers one command line and returns the response, the router's
// time for it, and the error the router reported (the user then read the
// failure message in the response).
func (w *mixWorld) do(user string, gm bool, guild, channel, line string) (kit.Response, time.Duration, error) {
	ctx := context.Background()
	req, err := w.router.ParseLine(line)
	if err != nil {
		return kit.Response{}, 0, fmt.Errorf("parse %q: %w", line, err)
	}
	req.User = kit.User{ID: user, Name: user}
	req.GuildID, req.ChannelID = guild, channel
	if gm {
		req.Permissions |= kit.ManageChannels
	}
	router := w.routers[w.turn.Add(1)%uint64(len(w.routers))]
	start := time.Now()
	resp, err := router.Handle(ctx, req)
	took := time.Since(start)
	if err == nil && resp.Posted != nil {
		// The edge sends the tracker, then tells the handler its ID.
		err = resp.Posted(ctx, fmt.Sprintf("msg-%s-%d", channel, time.Now().UnixNano()))
	}
	return resp, took, err
}

// turnsPlayed counts the turns a begun fight has moved on from round 1's
// first: one a /init next while no one is defeated, delaying or skipping.
func turnsPlayed(e *encounter.Encounter) int64 {
	if !e.Begun {
		return 0
	}
	return int64((e.Round-1)*len(e.Combatants) + e.Turn)
}

// mixRun is what one run of the load saw.
type mixRun struct {
	elapsed time.Duration

	mu       sync.Mutex
	lat      [mixKinds][]time.Duration
	failures map[string]int // what the users read, for every failed command
}

func (r *mixRun) record(kind int, took time.Duration, failure string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lat[kind] = append(r.lat[kind], took)
	if failure != "" {
		if r.failures == nil {
			r.failures = map[string]int{}
		}
		r.failures[failure]++
	}
}

// failureTexts are what a user must never read under load: the store's
// lock error, the generic failure and the "cannot save" message.
var failureTexts = []string{"database is locked", "Something went wrong", "cannot save anything"}

// mixCmd is one command of the mix, drawn before it is sent.
type mixCmd struct {
	kind   int
	ch     *mixChannel // /init
	f      *mixFaction // /faction order
	user   string
	gm     bool
	line   string
	amount int // of /init damage
}

// draw picks a kind, then a channel (or faction) at random, and the
// command's user and options.
func (w *mixWorld) draw(r *rand.Rand) mixCmd {
	c := mixCmd{kind: r.IntN(mixKinds)}
	switch c.kind {
	case mixNext:
		c.ch = w.channels[r.IntN(len(w.channels))]
		c.user, c.gm, c.line = c.ch.gm, true, "/init next"
	case mixDamage:
		c.ch = w.channels[r.IntN(len(w.channels))]
		c.amount = 1 + r.IntN(9)
		c.user = fmt.Sprintf("%s-p%d", c.ch.guild, 1+r.IntN(mixFactionsPerGld))
		c.line = fmt.Sprintf("/init damage target:%s amount:%d", mixCombatants[r.IntN(len(mixCombatants))], c.amount)
	case mixOrder:
		c.f = w.factions[r.IntN(len(w.factions))]
		c.user = c.f.owner
		c.line = "/faction order action:invest stat:" + []string{"INF", "TEC", "SOL", "POP"}[r.IntN(4)]
	}
	return c
}

// send answers c, counts its effect when it was acknowledged, and returns
// the router's time and, when the user read a failure, what they read.
func (w *mixWorld) send(c mixCmd) (time.Duration, string) {
	guild, channel := "", ""
	if c.ch != nil {
		guild, channel = c.ch.guild, c.ch.id
	} else {
		guild, channel = c.f.guild, c.f.channel
	}
	resp, took, err := w.do(c.user, c.gm, guild, channel, c.line)
	if err == nil {
		switch c.kind {
		case mixNext:
			c.ch.next.Add(1)
		case mixDamage:
			c.ch.damage.Add(int64(c.amount))
			c.ch.damageCmds.Add(1)
		case mixOrder:
			res, ok := resp.Result.(factioncmd.FactionOrderResult)
			if !ok || res.ID == 0 {
				err = fmt.Errorf("order acknowledged without an order: %#v", resp.Result)
				break
			}
			c.f.mu.Lock()
			c.f.orders = append(c.f.orders, res.ID)
			c.f.mu.Unlock()
		}
	}
	if err != nil && c.kind == mixOrder && strings.Contains(err.Error(), "already acted") {
		// A faction takes one Faction Action a round, and an order is
		// checked when it is given (issue 15): the second invest of a
		// round is refused, rightly, and queues nothing.
		return took, ""
	}
	if err != nil {
		return took, fmt.Sprintf("%s: %s (%v)", mixKindNames[c.kind], resp.Content, err)
	}
	for _, bad := range failureTexts {
		if strings.Contains(resp.Content, bad) {
			return took, fmt.Sprintf("%s: acknowledged but reads %q", mixKindNames[c.kind], resp.Content)
		}
	}
	return took, ""
}

// run sends n commands from a pool of workers goroutines, each sending
// its next command once the last one is answered.
func (w *mixWorld) run(workers, n int, seed uint64) *mixRun {
	var issued atomic.Int64
	out := &mixRun{}
	var wg sync.WaitGroup
	start := time.Now()
	for id := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(seed, uint64(id)))
			for issued.Add(1) <= int64(n) {
				c := w.draw(r)
				took, failure := w.send(c)
				out.record(c.kind, took, failure)
			}
		})
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	return out
}

// runRate sends n commands at rate a second, each in a goroutine of its
// own, as the gateway and the HTTP endpoint run each interaction, whether
// or not the ones before it have been answered: the load of a busy
// server, where commands queue when they come faster than they are
// answered.
func (w *mixWorld) runRate(rate float64, n int, seed uint64) *mixRun {
	r := rand.New(rand.NewPCG(seed, 0))
	out := &mixRun{}
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		c := w.draw(r)
		if d := time.Until(start.Add(time.Duration(float64(i) * float64(time.Second) / rate))); d > 0 {
			time.Sleep(d)
		}
		wg.Go(func() {
			took, failure := w.send(c)
			out.record(c.kind, took, failure)
		})
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	return out
}

// check fails tb if any command failed or anything logged a failure.
func (r *mixRun) check(tb testing.TB, logs *lockedLog) {
	tb.Helper()
	n := 0
	for text, count := range r.failures {
		n += count
		tb.Errorf("%d× %s", count, mixShort(text))
	}
	if n > 0 {
		tb.Errorf("%d commands failed under load", n)
	}
	if s := logs.String(); s != "" {
		tb.Errorf("the router logged failures under load:\n%s", mixShort(s))
	}
}

// verify reads every fight and campaign back from the store and checks
// that each acknowledged command left its effect, exactly once: the hit
// points lost are the damage acknowledged, the turns played are the
// /init next acknowledged, the journal holds one entry per acknowledged
// change and no more, and every faction's queue holds exactly the orders
// its player was told were queued.
func (w *mixWorld) verify(tb testing.TB) {
	tb.Helper()
	ctx := context.Background()
	journal := map[int64]map[string]int64{}
	rows, err := w.store.SQL().QueryContext(ctx, `SELECT encounter_id, kind, count(*) FROM encounter_events GROUP BY 1, 2`)
	if err != nil {
		tb.Fatal(err)
	}
	for rows.Next() {
		var id, n int64
		var kind string
		if err := rows.Scan(&id, &kind, &n); err != nil {
			tb.Fatal(err)
		}
		if journal[id] == nil {
			journal[id] = map[string]int64{}
		}
		journal[id][kind] = n
	}
	if err := firstErr(rows.Err(), rows.Close()); err != nil {
		tb.Fatal(err)
	}
	bad := 0
	report := func(format string, args ...any) {
		tb.Helper()
		if bad++; bad <= 10 {
			tb.Errorf(format, args...)
		}
	}
	for _, ch := range w.channels {
		enc, err := w.store.Encounter(ctx, ch.id)
		if err != nil {
			report("channel %s: %v", ch.id, err)
			continue
		}
		next, damage, damageCmds := ch.next.Load(), ch.damage.Load(), ch.damageCmds.Load()
		var lost int64
		for _, c := range enc.State.Combatants {
			lost += int64(c.Max["hp"] - c.Resources["hp"])
			if c.Defeated {
				report("channel %s: %s is defeated", ch.id, c.Name)
			}
		}
		if lost != damage {
			report("channel %s: %d hp lost, %d damage acknowledged", ch.id, lost, damage)
		}
		if turns := turnsPlayed(enc.State) - ch.baseTurns; turns != next {
			report("channel %s: %d turns played, %d /init next acknowledged", ch.id, turns, next)
		}
		if changes := enc.Seq - ch.baseSeq; changes != next+damageCmds {
			report("channel %s: the journal moved on by %d, %d changes acknowledged", ch.id, changes, next+damageCmds)
		}
		j := journal[enc.ID]
		if j[string(encounter.KindNext)] != next || j[string(encounter.KindDamage)] != damageCmds {
			report("channel %s: journal holds %d next and %d damage, acknowledged %d and %d",
				ch.id, j[string(encounter.KindNext)], j[string(encounter.KindDamage)], next, damageCmds)
		}
	}
	queued := map[string][]int64{} // guild/faction -> order IDs
	guilds := map[string]bool{}
	for _, f := range w.factions {
		guilds[f.guild] = true
	}
	for g := range guilds {
		orders, err := w.store.FactionOrders(ctx, g, "", "")
		if err != nil {
			tb.Fatal(err)
		}
		for _, o := range orders {
			if o.Mode != db.OrderQueued {
				report("guild %s: order %d is %q, not queued", g, o.ID, o.Mode)
			}
			queued[g+"/"+o.Faction] = append(queued[g+"/"+o.Faction], o.Number)
		}
	}
	for _, f := range w.factions {
		f.mu.Lock()
		acked := slices.Sorted(slices.Values(f.orders))
		f.mu.Unlock()
		stored := slices.Sorted(slices.Values(queued[f.guild+"/"+f.name]))
		if !slices.Equal(stored, acked) {
			report("faction %s of %s: %d orders queued, %d acknowledged (or other IDs)", f.name, f.guild, len(stored), len(acked))
		}
	}
	if bad > 10 {
		tb.Errorf("... and %d more", bad-10)
	}
}

// firstErr returns the first error that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// percentile returns the p-th percentile (0 < p < 1) of sorted.
func mixPercentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p))]
}

func mixMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// mixShort cuts a failure's text to a readable length.
func mixShort(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// TestMixedLoad is the small version of BenchmarkMixedLoad, run with the
// other tests: 50 channels in 5 guilds, 600 commands from 8 goroutines,
// then 300 more at 3,000 a second each in its own goroutine, and every
// acknowledged command's effect found afterwards.
func TestMixedLoad(t *testing.T) {
	w := newMixWorld(t, t.TempDir(), 5, 10)
	w.checkLoad(t)
}

// checkLoad sends 600 commands from 8 goroutines, then 300 more at 3,000
// a second each in its own goroutine, and finds every acknowledged
// command's effect afterwards.
func (w *mixWorld) checkLoad(t *testing.T) {
	for _, run := range []struct {
		r    *mixRun
		want int
	}{{w.run(8, 600, 1), 600}, {w.runRate(3000, 300, 2), 300}} {
		run.r.check(t, w.logs)
		n := 0
		for k := range run.r.lat {
			n += len(run.r.lat[k])
		}
		if n != run.want {
			t.Errorf("%d commands answered, want %d", n, run.want)
		}
	}
	w.verify(t)
}

// BenchmarkMixedLoad sends /init next, /init damage and /faction order in
// equal shares, each to a channel (or faction) drawn at random, over
// 1,000 channels in 100 guilds, each channel with a begun fight of three
// and each guild with a campaign of four players' factions:
//
//   - workers=N: from a fixed pool of N goroutines, each sending its next
//     command when the last is answered (N commands in flight: the most
//     the bot can answer, and the latency at that many);
//   - rate=R: R commands a second, each in a goroutine of its own as the
//     gateway and the HTTP endpoint run interactions, however many are in
//     flight (the latency of a server that busy).
//
// Each is a sub-benchmark on a database of its own, set up before the
// clock starts (about a second); after the load, every fight and queue is
// read back and checked against what was acknowledged. It reports
// commands a second and the p50/p99 of the router's time per command
// (what the bot's tablehand_command_duration_seconds measures), overall
// and per kind, and the transactions the store ran again (retries):
//
//	go test -run '^$' -bench MixedLoad -benchtime 10000x ./bot/
//
// The target is a p99 under 100 ms with nothing lost and no
// "database is locked" reaching a user.
func BenchmarkMixedLoad(b *testing.B) {
	type load struct {
		name    string
		workers int
		rate    float64
	}
	loads := []load{{"workers=8", 8, 0}, {"workers=32", 32, 0}, {"workers=128", 128, 0}, {"workers=256", 256, 0},
		{"rate=1000/s", 0, 1000}, {"rate=2000/s", 0, 2000}}
	for _, l := range loads {
		b.Run(l.name, func(b *testing.B) {
			w := newMixWorld(b, b.TempDir(), 100, 10)
			r, all := w.bench(b, l.workers, l.rate)
			for k, name := range mixKindNames {
				b.ReportMetric(mixMS(mixPercentile(r.lat[k], 0.50)), name+"-p50-ms")
				b.ReportMetric(mixMS(mixPercentile(r.lat[k], 0.99)), name+"-p99-ms")
			}
			if p99 := mixPercentile(all, 0.99); b.N >= 1000 && p99 >= 100*time.Millisecond {
				b.Logf("%s: p99 %v, over the 100 ms target", l.name, p99)
			}
		})
	}
}

// retries is how many transactions the stores ran again (db.Retries).
func (w *mixWorld) retries() int64 {
	var n int64
	for _, s := range w.stores {
		n += s.Retries()
	}
	return n
}

// bench times b.N commands of the mix, from workers goroutines or at rate
// a second, checks that all went well and nothing was lost, and reports
// commands a second and the p50 and p99 of all; it returns the run and
// all latencies, sorted (each kind's too).
func (w *mixWorld) bench(b *testing.B, workers int, rate float64) (*mixRun, []time.Duration) {
	seed := uint64(workers)<<40 | uint64(rate)<<20 | uint64(b.N)
	retries := w.retries()
	b.ResetTimer()
	var r *mixRun
	if rate > 0 {
		r = w.runRate(rate, b.N, seed)
	} else {
		r = w.run(workers, b.N, seed)
	}
	b.StopTimer()
	r.check(b, w.logs)
	w.verify(b)
	var all []time.Duration
	for k := range r.lat {
		slices.Sort(r.lat[k])
		all = append(all, r.lat[k]...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/r.elapsed.Seconds(), "cmds/s")
	b.ReportMetric(mixMS(mixPercentile(all, 0.50)), "p50-ms")
	b.ReportMetric(mixMS(mixPercentile(all, 0.99)), "p99-ms")
	b.ReportMetric(float64(w.retries()-retries), "retries")
	return r, all
}

// TestMixedLoadPostgres is TestMixedLoad with two processes on one
// PostgreSQL database, commands going to each in turn: nothing
// acknowledged is lost or applied twice, and no failure reaches a user.
func TestMixedLoadPostgres(t *testing.T) {
	w := newMixWorldOn(t, dbtest.Postgres(t), 2, 5, 10)
	w.checkLoad(t)
}

// BenchmarkMixedLoadStores is BenchmarkMixedLoad's mix over 1,000 channels
// on each store in one run: one process on SQLite, one and two processes
// on PostgreSQL (the commands going to each in turn), at 1,000 commands a
// second and from 32 workers; it reports the same figures:
//
//	go test -run '^$' -bench MixedLoadStores -benchtime 10000x ./bot/
//
// The PostgreSQL ones need a server (TABLEHAND_TEST_POSTGRES); the
// issue's target is a p99 under 100 ms at 1,000 commands a second, no
// lost update and no error reaching a user.
func BenchmarkMixedLoadStores(b *testing.B) {
	type setup struct {
		name  string
		procs int
		pg    bool
	}
	for _, st := range []setup{{"sqlite/procs=1", 1, false}, {"postgres/procs=1", 1, true}, {"postgres/procs=2", 2, true}} {
		for _, l := range []struct {
			name    string
			workers int
			rate    float64
		}{{"rate=1000/s", 0, 1000}, {"workers=32", 32, 0}} {
			b.Run(st.name+"/"+l.name, func(b *testing.B) {
				source := filepath.Join(b.TempDir(), "mixed.db")
				if st.pg {
					source = dbtest.Postgres(b)
				}
				newMixWorldOn(b, source, st.procs, 100, 10).bench(b, l.workers, l.rate)
			})
		}
	}
}
