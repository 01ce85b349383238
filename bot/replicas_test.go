package bot

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// replica is one `tablehand http` process: its own connection pool, router
// and endpoint (with its own in-memory replay memory) over the database at
// source, as cmd/tablehand wires them.
type replica struct {
	store  *db.DB
	router *kit.Router
	srv    *httptest.Server
}

func newReplica(t *testing.T, s signer, source string) *replica {
	t.Helper()
	store, err := db.Open(context.Background(), source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	router := commands.New(kit.Deps{
		Rolls: store, Characters: store, Encounters: store, Channels: store,
		Policies: encounter.NewPolicies(encounter.Generic{}),
		Rules:    commands.DefaultRules(),
		Roller:   func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) },
		Log:      slog.New(slog.DiscardHandler),
	})
	opts := HTTPOptions{PublicKey: s.pub, Handler: router, Now: func() time.Time { return testNow }}
	if store.Postgres() {
		opts.Replays = store
	}
	e, err := NewEndpoint(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &replica{store: store, router: router, srv: srv}
}

// do runs a console line on the replica's router as the GM, in channel
// "table" of guild "g".
func (r *replica) do(t *testing.T, line string) kit.Response {
	t.Helper()
	req, err := r.router.ParseLine(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User, req.GuildID, req.ChannelID, req.Permissions = kit.User{ID: "gm", Name: "gm"}, "g", "table", kit.ManageChannels
	resp, err := r.router.Handle(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return resp
}

// fightInteractions are n signed-ready interactions on one channel,
// alternately /init next and /init damage.
func fightInteractions(t *testing.T, n int) [][]byte {
	fake := fakediscord.New(fakediscord.Options{}) // only to build the interactions
	defer fake.Close()
	var out [][]byte
	for i := range n {
		var in fakediscord.Interaction
		if i%2 == 0 {
			in = fake.SlashCommand("init", fakediscord.Subcommand("next"))
		} else {
			in = fake.SlashCommand("init", fakediscord.Subcommand("damage", fakediscord.StringOpt("target", "Goblin"), fakediscord.IntOpt("amount", 1)))
		}
		in.GuildID, in.ChannelID = "g", "table"
		in.User = fakediscord.User{ID: "gm", Username: "gm"}
		in.Permissions = strconv.FormatInt(kit.ManageChannels, 10)
		out = append(out, interactionJSON(t, in))
	}
	return out
}

func startFight(t *testing.T, r *replica) {
	t.Helper()
	for _, line := range []string{
		"/init start",
		"/init add name:Goblin initiative:15 hp:100",
		"/init add name:Orc initiative:10 hp:100",
		"/init add name:Aria initiative:5 hp:30",
		"/init begin",
	} {
		r.do(t, line)
	}
}

// Two `tablehand http` replicas on one PostgreSQL, fed 50 signed /init next
// and /init damage on one channel alternately and all at once, leave the
// fight exactly as one process on SQLite does running them one by one;
// and an interaction sent to both replicas is answered by one of them
// only: the other refuses it as a replay.
func TestHTTPReplicasOnPostgres(t *testing.T) {
	source := dbtest.Postgres(t)
	s := newSigner(t)
	const n = 50
	calls := fightInteractions(t, n)

	serial := newReplica(t, s, dbtest.SQLite(t))
	startFight(t, serial)
	for _, body := range calls {
		if resp := s.post(t, serial.srv.URL, body, testNow); resp.StatusCode != http.StatusOK {
			t.Fatalf("serial run: status %d", resp.StatusCode)
		}
	}

	replicas := []*replica{newReplica(t, s, source), newReplica(t, s, source)}
	startFight(t, replicas[0])
	var wg sync.WaitGroup
	status := make([]int, n)
	for i, body := range calls {
		wg.Go(func() {
			resp := s.post(t, replicas[i%2].srv.URL, body, testNow)
			io.Copy(io.Discard, resp.Body)
			status[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for i, st := range status {
		if st != http.StatusOK {
			t.Errorf("interaction %d: status %d, want 200", i, st)
		}
	}
	want, got := fightState(t, serial), fightState(t, replicas[1])
	if got != want {
		t.Errorf("after 50 concurrent commands on two replicas:\n%s\nwant, as the serial run on SQLite:\n%s", got, want)
	}
	if list := replicas[0].do(t, "/init list").Content; list != serial.do(t, "/init list").Content {
		t.Errorf("/init list differs from the serial run's:\n%s", list)
	}

	// An interaction replica 0 answered, sent again to replica 1, which
	// never saw it: refused.
	if resp := s.post(t, replicas[1].srv.URL, calls[0], testNow); resp.StatusCode != http.StatusConflict {
		t.Errorf("replica 0's interaction sent to replica 1: status %d, want 409", resp.StatusCode)
	}

	// A new interaction, to both replicas at once.
	var fresh map[string]any
	if err := json.Unmarshal(fightInteractions(t, 1)[0], &fresh); err != nil {
		t.Fatal(err)
	}
	fresh["id"] = "990000000000000001"
	replay, err := json.Marshal(fresh)
	if err != nil {
		t.Fatal(err)
	}
	var answered, refused int
	var mu sync.Mutex
	for _, r := range replicas {
		wg.Go(func() {
			resp := s.post(t, r.srv.URL, replay, testNow)
			io.Copy(io.Discard, resp.Body)
			mu.Lock()
			defer mu.Unlock()
			switch resp.StatusCode {
			case http.StatusOK:
				answered++
			case http.StatusConflict:
				refused++
			}
		})
	}
	wg.Wait()
	if answered != 1 || refused != 1 {
		t.Errorf("one interaction sent to both replicas: answered %d times, refused %d; want 1 and 1", answered, refused)
	}
}

// fightState is the channel's encounter as stored: its state, as JSON.
func fightState(t *testing.T, r *replica) string {
	t.Helper()
	e, err := r.store.Encounter(context.Background(), "table")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(e.State)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
