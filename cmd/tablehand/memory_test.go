package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The memory target of issue 7: the resident size of the bot stays under
// 100 MB with 10,000 encounters and 1,000 factions in its database. The
// test fills a database that big, starts the real binary on it (the
// tablehand that testscript puts on PATH: this test binary running main),
// drives it the way Discord does, and reads the kernel's VmHWM (the peak
// resident size) and VmRSS of the process.
//
// Filling the database takes some seconds, so the test runs only when
// asked:
//
//	TABLEHAND_MEMTEST=1 go test -run ResidentMemory -v ./cmd/tablehand/
//
// TABLEHAND_MEMTEST_BIN names another binary to measure instead, such as
// one built with go build ./cmd/tablehand.

const (
	memChannels       = 5_000 // each with an ended fight and a running one
	memGuilds         = 100
	memFactionsPerGld = 10
	memTargetMB       = 100
)

// memWorld is the database the test fills: its file and what is in it.
type memWorld struct {
	path     string
	channels []memChannel
	factions []memFaction
}

type memChannel struct{ guild, id, gm, player string }

type memFaction struct{ guild, channel, name, owner string }

func memGuildID(g int) string   { return fmt.Sprintf("12%016d", g) }
func memChannelID(c int) string { return fmt.Sprintf("13%016d", c) }
func memUserID(u int) string    { return fmt.Sprintf("14%016d", u) }

var memCombatants = []string{"Goblin", "Orc", "Ogre", "Wolf"}

// fillMemWorld makes the database: memChannels channels in memGuilds
// guilds, each channel with a fight played a little and ended and a
// second one begun (10,000 encounters, through the store's own methods,
// so their journals are what the bot writes), and in each guild a
// campaign of memFactionsPerGld players' factions, each with a home, an
// asset and a queued order (1,000 factions, through the router's
// /faction commands).
func fillMemWorld(t *testing.T) *memWorld {
	t.Helper()
	ctx := context.Background()
	w := &memWorld{path: filepath.Join(t.TempDir(), "big.db")}
	wired, err := open(ctx, "", w.path, io.Discard, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	defer wired.store.Close()
	for c := range memChannels {
		g := c % memGuilds
		w.channels = append(w.channels, memChannel{guild: memGuildID(g), id: memChannelID(c), gm: memUserID(g), player: memUserID(1000 + c)})
	}
	for g := range memGuilds {
		for f := range memFactionsPerGld {
			w.factions = append(w.factions, memFaction{guild: memGuildID(g), channel: memChannelID(g),
				name: fmt.Sprintf("F%d", f+1), owner: memUserID(100_000 + g*memFactionsPerGld + f)})
		}
	}

	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for worker := range 4 {
		wg.Go(func() {
			roller := dice.NewRandom(mrand.New(mrand.NewPCG(7, uint64(worker))))
			for i := int(next.Add(1)) - 1; i < len(w.channels); i = int(next.Add(1)) - 1 {
				if err := fillChannel(ctx, wired.store, roller, w.channels[i]); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	encDone := time.Now()

	do := func(user string, gm bool, guild, channel, line string) {
		t.Helper()
		req, err := wired.router.ParseLine(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		req.User = kit.User{ID: user, Name: user}
		req.GuildID, req.ChannelID = guild, channel
		if gm {
			req.Permissions = kit.ManageChannels
		}
		if resp, err := wired.router.Handle(ctx, req); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, resp.Content)
		}
	}
	for i, f := range w.factions {
		gm := memUserID(i / memFactionsPerGld)
		do(gm, true, f.guild, f.channel, fmt.Sprintf("/faction create name:%s owner:%s home:%s-home region:r%d", f.name, f.owner, f.name, i%3))
		do(gm, true, f.guild, f.channel, fmt.Sprintf("/faction asset add faction:%s chart:Militia", f.name))
		do(f.owner, false, f.guild, f.channel, "/faction order action:invest stat:INF")
	}
	t.Logf("filled %d encounters in %v and %d factions in %v", 2*len(w.channels), encDone.Sub(start).Round(time.Millisecond),
		len(w.factions), time.Since(encDone).Round(time.Millisecond))

	var encounters, factions, size int64
	q := wired.store.SQL()
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM encounters`).Scan(&encounters); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRowContext(ctx, `SELECT coalesce(sum(json_array_length(state, '$.factions')), 0) FROM faction_campaigns`).Scan(&factions); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRowContext(ctx, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	if encounters != 2*memChannels || factions != memGuilds*memFactionsPerGld {
		t.Fatalf("the database holds %d encounters and %d factions, want %d and %d", encounters, factions, 2*memChannels, memGuilds*memFactionsPerGld)
	}
	t.Logf("database: %d encounters, %d factions, %.1f MB", encounters, factions, float64(size)/(1<<20))
	return w
}

// fillChannel plays a short fight in ch and ends it, then begins another.
func fillChannel(ctx context.Context, store *db.DB, roller dice.Roller, ch memChannel) error {
	p := encounter.Generic{}
	for fight := range 2 {
		if _, err := store.StartEncounter(ctx, ch.guild, ch.id, encounter.GenericName, ch.gm); err != nil {
			return err
		}
		changes := []func(e *db.Encounter) (encounter.Event, error){
			func(e *db.Encounter) (encounter.Event, error) {
				for k, name := range memCombatants {
					c := encounter.Combatant{Name: name, NPC: true, Stats: map[string]int{"init": k},
						Resources: map[string]int{"hp": 30}, Max: map[string]int{"hp": 30}}
					if _, err := e.State.Add(p, roller, ch.gm, c); err != nil {
						return encounter.Event{}, err
					}
				}
				return e.State.Begin(p, roller, ch.gm)
			},
			func(e *db.Encounter) (encounter.Event, error) { return e.State.Damage(p, ch.player, "Orc", 7, "fire") },
			func(e *db.Encounter) (encounter.Event, error) { return e.State.Next(p, ch.gm) },
		}
		if fight == 0 {
			changes = append(changes, func(e *db.Encounter) (encounter.Event, error) { return e.State.End(p, ch.gm) })
		}
		for _, change := range changes {
			if _, _, err := store.UpdateEncounter(ctx, ch.id, change); err != nil {
				return err
			}
		}
	}
	return nil
}

// status reads the process's VmRSS and VmHWM, in MB.
func (p *botProc) status(t *testing.T) (rss, hwm float64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if name == "VmRSS" {
			rss = kb / 1024
		} else {
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

func TestResidentMemory(t *testing.T) {
	if os.Getenv("TABLEHAND_MEMTEST") == "" {
		t.Skip("slow: set TABLEHAND_MEMTEST=1 to fill a database of 10,000 encounters and 1,000 factions and measure the bot on it")
	}
	w := fillMemWorld(t)
	t.Run("http", func(t *testing.T) { memHTTP(t, w) })
	t.Run("console", func(t *testing.T) { memConsole(t, w) })
}

// TestResidentMemoryPostgres is TestResidentMemory with the bot on
// PostgreSQL: the same world, filled on SQLite and moved with
// db.MigrateStore (as migrate-store moves it), then the same load on the
// same binary given the PostgreSQL URL.
func TestResidentMemoryPostgres(t *testing.T) {
	if os.Getenv("TABLEHAND_MEMTEST") == "" {
		t.Skip("slow: set TABLEHAND_MEMTEST=1 to fill a database of 10,000 encounters and 1,000 factions and measure the bot on it")
	}
	pg := dbtest.Postgres(t)
	w := fillMemWorld(t)
	ctx := context.Background()
	from, err := db.Open(ctx, w.path)
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	to, err := db.Open(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer to.Close()
	start := time.Now()
	if _, err := db.MigrateStore(ctx, from, to); err != nil {
		t.Fatal(err)
	}
	t.Logf("moved to PostgreSQL in %v", time.Since(start).Round(time.Millisecond))
	w.path = pg
	t.Run("http", func(t *testing.T) { memHTTP(t, w) })
	t.Run("console", func(t *testing.T) { memConsole(t, w) })
}

// memHTTP runs `tablehand http` on the database and sends it, from 32
// concurrent clients, signed interactions that touch every running fight
// (/init list, /init damage, /init next) and every faction (/faction
// show, /faction order), and every guild's campaign (/faction list).
func memHTTP(t *testing.T, w *memWorld) {
	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{}) // only to build the interactions
	defer fake.Close()
	type call struct {
		what string
		body []byte
	}
	var calls []call
	add := func(what, guild, channel, user string, gm bool, name string, opts ...fakediscord.Option) {
		calls = append(calls, call{what, slash(t, fake, guild, channel, user, gm, name, opts...)})
	}
	sub := fakediscord.Subcommand
	for _, ch := range w.channels {
		add("init list", ch.guild, ch.id, ch.player, false, "init", sub("list"))
		add("init damage", ch.guild, ch.id, ch.player, false, "init", sub("damage", fakediscord.StringOpt("target", "Goblin"), fakediscord.IntOpt("amount", 3)))
		add("init next", ch.guild, ch.id, ch.gm, true, "init", sub("next"))
	}
	for i, f := range w.factions {
		if i%memFactionsPerGld == 0 {
			add("faction list", f.guild, f.channel, f.owner, false, "faction", sub("list"))
		}
		add("faction show", f.guild, f.channel, f.owner, false, "faction", sub("show"))
		add("faction order", f.guild, f.channel, f.owner, false, "faction", sub("order", fakediscord.StringOpt("action", "invest"), fakediscord.StringOpt("stat", "TEC")))
	}
	// Shuffled, so that the clients work on many channels and guilds at once.
	r := mrand.New(mrand.NewPCG(1, 2))
	r.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })

	p, url := startHTTP(t, s, w.path)
	idle, _ := p.status(t)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}, Timeout: 30 * time.Second}
	var sent atomic.Int64
	var peak atomic.Int64 // the highest VmRSS sampled, kB
	failures := map[string]int{}
	var mu sync.Mutex
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			rss, _ := p.status(t)
			if kb := int64(rss * 1024); kb > peak.Load() {
				peak.Store(kb)
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for i := int(sent.Add(1)) - 1; i < len(calls); i = int(sent.Add(1)) - 1 {
				c := calls[i]
				status, a, err := s.send(client, url, c.body)
				// Every one is answered at once (type 4, a message), none deferred
				// (type 5), and none with a failure.
				if status != http.StatusOK || err != nil || a.Type != 4 || strings.HasPrefix(a.Data.Content, "⚠️") {
					mu.Lock()
					failures[fmt.Sprintf("%s: status %d, type %d, %q %v", c.what, status, a.Type, a.Data.Content, err)]++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	close(stop)
	<-sampled
	rss, hwm := p.status(t)
	// The kernel updates VmHWM lazily: a sample can be a little above it.
	hwm = max(hwm, float64(peak.Load())/1024)
	for f, n := range failures {
		t.Errorf("%d× %s", n, f)
	}
	t.Logf("tablehand http: %d interactions from 32 clients in %v (%.0f a second)", len(calls), took.Round(time.Millisecond), float64(len(calls))/took.Seconds())
	t.Logf("tablehand http: VmRSS idle %.1f MB, after the load %.1f MB; peak (VmHWM, or the highest VmRSS sampled every 50 ms) %.1f MB",
		idle, rss, hwm)
	if hwm >= memTargetMB {
		t.Errorf("tablehand http peaked at %.1f MB resident: the target is under %d MB", hwm, memTargetMB)
	}
}

// memConsole runs `tablehand console` on the database and types /init
// list in every channel, /init damage in every tenth, and /faction show
// for every faction of the first guild.
func memConsole(t *testing.T, w *memWorld) {
	var input strings.Builder
	n := 0
	for i, ch := range w.channels {
		fmt.Fprintf(&input, "#%s /init list\n", ch.id)
		n++
		if i%10 == 0 {
			fmt.Fprintf(&input, "#%s /init damage target:Orc amount:2\n", ch.id)
			n++
		}
	}
	guild := w.factions[0].guild
	for _, f := range w.factions[:memFactionsPerGld] {
		fmt.Fprintf(&input, "/faction show faction:%s\n", f.name)
		n++
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, botBinary(t), "console", "--json", "--db", w.path, "--guild", guild, "--user", "gm")
	cmd.Dir = t.TempDir()
	cmd.Env = botEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &botProc{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(stdin, input.String())
		// Stdin stays open until the answers are counted: the process must
		// still be there to be measured.
	}()
	start := time.Now()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	answered, failed := 0, 0
	for answered < n && sc.Scan() {
		answered++
		var line struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Error != "" {
			if failed++; failed <= 5 {
				t.Errorf("console: %s", sc.Text())
			}
		}
	}
	took := time.Since(start)
	rss, hwm := p.status(t)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("tablehand console: %v\n%s", err, tail(p.stderr.String()))
	}
	if answered != n {
		t.Fatalf("console answered %d of %d lines\n%s", answered, n, tail(p.stderr.String()))
	}
	t.Logf("tablehand console: %d commands in %v; VmRSS %.1f MB, VmHWM (peak) %.1f MB", n, took.Round(time.Millisecond), rss, hwm)
	if hwm >= memTargetMB {
		t.Errorf("tablehand console peaked at %.1f MB resident: the target is under %d MB", hwm, memTargetMB)
	}
}
