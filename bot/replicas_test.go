package bot

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// replica is a `tablehand http` inside the test process: its own
// connection pool, router and endpoint (with its own in-memory replay
// memory) over the database at source, as cmd/tablehand wires them. (Real
// processes: cmd/tablehand's processes_test.go.)
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
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Policies = encounter.NewPolicies(encounter.Generic{})
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) }
	router := commands.New(deps)
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

// ask runs a console line on the replica's router as the GM, in channel
// "table" of guild "g"; a line that does not parse fails t.
func (r *replica) ask(t *testing.T, line string) (kit.Response, error) {
	t.Helper()
	req, err := r.router.ParseLine(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User, req.GuildID, req.ChannelID, req.Permissions = kit.User{ID: "gm", Name: "gm"}, "g", "table", kit.ManageChannels
	return r.router.Handle(context.Background(), req)
}

// do is ask of a line that must succeed.
func (r *replica) do(t *testing.T, line string) kit.Response {
	t.Helper()
	resp, err := r.ask(t, line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return resp
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
