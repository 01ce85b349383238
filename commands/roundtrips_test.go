package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
)

// countingStore is the SQLite store with a count of the calls /roll makes
// of it: each is one round trip to the database (one statement; LogRoll
// one transaction).
type countingStore struct {
	*db.DB
	mu    sync.Mutex
	calls []string
}

func (s *countingStore) count(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, name)
}

// take returns the calls since the last take.
func (s *countingStore) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.calls
	s.calls = nil
	return out
}

func (s *countingStore) LogRoll(ctx context.Context, r db.Roll) (db.SavedRoll, error) {
	s.count("LogRoll")
	return s.DB.LogRoll(ctx, r)
}

func (s *countingStore) CharactersNamed(ctx context.Context, guildID, name string) ([]db.Character, error) {
	s.count("CharactersNamed")
	return s.DB.CharactersNamed(ctx, guildID, name)
}

func (s *countingStore) Characters(ctx context.Context, guildID, ownerID, system, prefix string, limit int) ([]db.Character, error) {
	s.count("Characters")
	return s.DB.Characters(ctx, guildID, ownerID, system, prefix, limit)
}

func (s *countingStore) GMChannel(ctx context.Context, guildID string) (string, error) {
	s.count("GMChannel")
	return s.DB.GMChannel(ctx, guildID)
}

func (s *countingStore) RollSources(ctx context.Context, guildID, userID, name, character string) (db.RollSources, error) {
	s.count("RollSources")
	return s.DB.RollSources(ctx, guildID, userID, name, character)
}

func (s *countingStore) Macros(ctx context.Context, guildID, userID string) ([]db.Macro, error) {
	s.count("Macros")
	return s.DB.Macros(ctx, guildID, userID)
}

// newCountingTable is a guild with a real database whose store counts
// its calls; alice plays Brom (som 3) and has saved rolls, the server
// too.
func newCountingTable(t testing.TB) (*kit.Router, *countingStore) {
	t.Helper()
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	store := &countingStore{DB: d}
	deps := kit.NewDeps(store, nil)
	deps.Codes, deps.Roller = kit.NewCodes(1, true), kittest.SeededRollers()
	r := New(deps)
	for _, line := range []string{
		`/character set name:Brom system:arc stats:"som=3"`,
		`/macro set name:atk roll:"1d20+som to hit"`,
		`/macro set name:flat roll:1d20+5`,
	} {
		kittest.Must(t, r, "alice", line)
	}
	kittest.Must(t, r, "gm", `/macro set name:init roll:1d20+som scope:server`)
	store.take()
	return r, store
}

// rollCosts are the store round trips of /roll: as main does it before
// saved rolls (typed rolls; measured there with the same counting store),
// and each use of a saved roll beside the roll it expands to.
var rollCosts = []struct {
	line string
	want []string
	// same is a typed roll the line must cost no more than.
	same string
}{
	// Unchanged: a roll that begins with dice reads no saved rolls.
	{line: `/roll 1d20+5`, want: []string{"LogRoll"}},
	{line: `/roll 1d20+som`, want: []string{"Characters", "LogRoll"}},
	// A secret roll reads the GM channel in the roll's own statement.
	{line: `/roll 1d20+som visibility:gm`, want: []string{"Characters", "LogRoll"}},
	{line: `/roll 1d20+som character:Brom`, want: []string{"CharactersNamed", "LogRoll"}},
	// A roll that begins with a stat's name: one read, as before, which
	// now brings the saved rolls of the name with the sheets.
	{line: `/roll som+2`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som`},
	// Saved rolls: as the roll they expand to.
	{line: `/roll atk`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som`},
	{line: `/roll atk+2`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som`},
	{line: `/roll 2#atk`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som`},
	{line: `/roll atk visibility:gm`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som visibility:gm`},
	{line: `/roll atk character:Brom`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som character:Brom`},
	{line: `/roll init`, want: []string{"RollSources", "LogRoll"}, same: `/roll 1d20+som`},
	// A saved roll that reads no stats costs the read a typed roll of a
	// word has always cost (/roll som+2), one more than its expansion
	// typed out.
	{line: `/roll flat`, want: []string{"RollSources", "LogRoll"}, same: `/roll som+2`},
}

// TestRollRoundTrips holds /roll with a saved roll to the store round
// trips of /roll before saved rolls: a saved roll's name is read in the
// same statement as the sheets a roll of a word already read.
func TestRollRoundTrips(t *testing.T) {
	r, store := newCountingTable(t)
	cost := map[string]int{}
	for _, c := range rollCosts {
		kittest.Must(t, r, "alice", c.line)
		got := store.take()
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: store calls %v, want %v", c.line, got, c.want)
		}
		cost[c.line] = len(got)
		if c.same != "" && len(got) > cost[c.same] {
			t.Errorf("%s: %d round trips, more than %s (%d)", c.line, len(got), c.same, cost[c.same])
		}
		t.Logf("%-32s %d round trips: %s", c.line, len(got), strings.Join(got, ", "))
	}
}

// BenchmarkRollRoundTrips rolls each line of rollCosts and reports its
// store round trips per roll (trips/op) beside its time.
func BenchmarkRollRoundTrips(b *testing.B) {
	r, store := newCountingTable(b)
	for _, c := range rollCosts {
		b.Run(strings.TrimPrefix(c.line, "/roll "), func(b *testing.B) {
			store.take()
			for b.Loop() {
				kittest.Must(b, r, "alice", c.line)
			}
			b.ReportMetric(float64(len(store.take()))/float64(b.N), "trips/op")
		})
	}
}

// pgTrips is a table on PostgreSQL whose store reports each round trip
// it makes to the server (db.WithRoundTrips).
type pgTrips struct {
	r     *kit.Router
	mu    sync.Mutex
	trips []string
}

func newPGTrips(t testing.TB) *pgTrips {
	t.Helper()
	p := &pgTrips{}
	d, err := db.Open(context.Background(), dbtest.Postgres(t), db.WithRoundTrips(func(what string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.trips = append(p.trips, strings.Join(strings.Fields(what), " "))
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	deps := kittest.Deps(d)
	deps.Codes, deps.Roller = kit.NewCodes(1, true), kittest.SeededRollers()
	p.r = New(deps)
	return p
}

// run answers line as user and returns the round trips it cost.
func (p *pgTrips) run(t testing.TB, user, line string) []string {
	t.Helper()
	p.mu.Lock()
	p.trips = nil
	p.mu.Unlock()
	kittest.Must(t, p.r, user, line)
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.trips)
}

// pgCosts are the round trips to PostgreSQL of /roll and of the
// tracker's commands, in the order played: a roll is one statement (it
// saves the roll and reads the GM channel a secret roll is shown in); a
// change of a fight is BEGIN, the load that locks its row, the one
// statement that writes the change, its journal entry and snapshot, and
// COMMIT.
var pgCosts = []struct {
	user, line string
	want       int // -1: not held
}{
	{"alice", `/roll 1d20`, -1}, // alice's name is recorded
	{"alice", `/roll 1d20+5`, 1},
	{"alice", `/roll 1d20+5 visibility:gm`, 1}, // no GM channel yet
	{"gm", `/system gm-channel channel:#gm`, -1},
	{"alice", `/roll 1d20+5 visibility:gm`, 1},
	{"alice", `/roll 1d20+5 visibility:blind`, 1},
	{"alice", `/character set name:Brom system:arc stats:"som=3"`, -1},
	{"alice", `/roll 1d20+som`, 2}, // the sheet, then the roll
	// A rules command's secret roll reads the GM channel with the roll,
	// as /roll's does: the sheet (alice's one arc character), the roll.
	{"alice", `/arc reaction visibility:gm`, 2},
	{"alice", `/arc reaction`, 2},
	{"gm", `/init start`, -1},
	{"gm", `/init add name:Ogre initiative:12 hp:30`, 4},
	{"gm", `/init add name:Goblin initiative:8 hp:7`, 4},
	{"gm", `/init begin`, 4},
	{"gm", `/init next`, 4},
	{"gm", `/init damage target:Ogre amount:3`, 4},
	{"gm", `/init undo`, -1},
	{"gm", `/init next`, -1}, // drops the undone change: one statement more
	{"gm", `/init next`, 4},
}

// TestRoundTripsPostgres holds /roll to one round trip to PostgreSQL and
// a change of a fight (/init next) to four (five before the load said
// whether there were undone changes to drop). Each is one driver call of
// database/sql (db.WithRoundTrips), each a round trip on the wire.
func TestRoundTripsPostgres(t *testing.T) {
	p := newPGTrips(t)
	for _, c := range pgCosts {
		got := p.run(t, c.user, c.line)
		t.Logf("%s %s: %d\n\t%s", c.user, c.line, len(got), strings.Join(got, "\n\t"))
		if c.want >= 0 && len(got) != c.want {
			t.Errorf("%s %s: %d round trips, want %d:\n\t%s", c.user, c.line, len(got), c.want, strings.Join(got, "\n\t"))
		}
	}
}

// A secret roll is shown in the GM channel its statement read: the one
// set last, by this process or another.
func TestSecretRollReadsGMChannelWithTheWrite(t *testing.T) {
	p := newPGTrips(t)
	resp := kittest.Must(t, p.r, "alice", `/roll 1d20 visibility:blind`)
	if len(resp.Posts) != 0 || !strings.Contains(fmt.Sprint(resp.Followups), "No GM channel is set") {
		t.Errorf("no GM channel: %+v", resp)
	}
	kittest.Must(t, p.r, "gm", `/system gm-channel channel:#gm`)
	resp = kittest.Must(t, p.r, "alice", `/roll 1d20 visibility:blind`)
	if len(resp.Posts) != 1 || resp.Posts[0].ChannelID != "gm" {
		t.Errorf("GM channel #gm: posts %+v", resp.Posts)
	}
}
