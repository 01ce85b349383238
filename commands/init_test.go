package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands/core"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// initTable is a channel with a real database file, for /init: "gm" has
// GM rights, everyone else is a player.
type initTable struct {
	kittest.Table
	file     string
	policies encounter.Policies
	// now, when set, is the commands' clock (Deps.Now) from the next
	// open on.
	now func() time.Time
}

func newInitTable(t testing.TB, policies ...encounter.Policy) *initTable {
	t.Helper()
	it := &initTable{Table: kittest.Table{T: t}, file: filepath.Join(t.TempDir(), "t.db"), policies: encounter.NewPolicies(policies...)}
	it.open()
	t.Cleanup(func() { it.Store.Close() })
	return it
}

// open opens the database and builds the router over it, as a restart of
// the bot would.
func (it *initTable) open() {
	it.T.Helper()
	store, err := db.Open(context.Background(), it.file)
	if err != nil {
		it.T.Fatal(err)
	}
	it.Store = store
	deps := kittest.Deps(store)
	deps.Policies = it.policies
	if it.now != nil {
		deps.Now = it.now
	}
	it.R = New(deps)
}

// restart closes the database and opens it again with a new router.
func (it *initTable) restart() {
	it.T.Helper()
	if err := it.Store.Close(); err != nil {
		it.T.Fatal(err)
	}
	it.open()
}

// view returns a response's result as an InitResult.
func view(t testing.TB, resp kit.Response) tracker.InitResult {
	t.Helper()
	res, ok := resp.Result.(tracker.InitResult)
	if !ok {
		t.Fatalf("result %T, want InitResult", resp.Result)
	}
	return res
}

func turnOf(v tracker.InitResult) string {
	if v.Turn == nil {
		return "<nil>"
	}
	return *v.Turn
}

// setup starts a generic fight: Aria (alice's), Bram (bob's), a goblin
// and a hidden assassin, begun with the given dice.
func (it *initTable) setup() {
	it.T.Helper()
	it.Must("alice", `/character set name:Aria system:arc stats:"init=3 hp=20"`)
	it.Must("bob", `/character set name:Bram system:burst stats:"init=1 hp=15 max_hp=18"`)
	it.Must("gm", "/init start")
	it.Must("alice", "/init join")
	it.Must("bob", "/init join character:Bram initiative:12")
	it.Must("gm", "/init add name:Goblin init:2 hp:7")
	it.Must("gm", "/init add name:Assassin init:4 hp:10 hidden:true")
	// Aria 12+3 = 15, Bram 12 as given, Goblin 5+2 = 7, Assassin 16+4 = 20.
	it.Must("gm", "/init begin dice:12,5,16")
}

func TestInitFight(t *testing.T) {
	it := newInitTable(t)
	it.Must("alice", `/character set name:Aria system:arc stats:"init=3 hp=20"`)
	resp := it.Must("gm", "/init start")
	if v := view(t, resp); v.Round != 0 || v.Turn != nil || len(v.Order) != 0 || v.System != "generic" {
		t.Errorf("start: %s", kittest.ResultJSON(t, resp))
	}
	resp = it.Must("alice", "/init join")
	if v := view(t, resp); !slices.Equal(v.Order, []string{"Aria"}) || v.Combatants[0].Owner != "alice" || v.Combatants[0].Resources["hp"] != 20 || v.Combatants[0].Max["hp"] != 20 {
		t.Errorf("join: %s", kittest.ResultJSON(t, resp))
	}
	it.Must("gm", "/init add name:Goblin init:2 hp:7")
	resp = it.Must("gm", "/init add name:Assassin init:4 hp:10 reveal_on_turn:true")
	if !resp.Ephemeral || !strings.Contains(resp.Content, "Assassin joins") {
		t.Errorf("adding a hidden combatant is not for the GM alone: %+v", resp)
	}
	if v := view(t, it.Must("alice", "/init list")); slices.Contains(v.Order, "Assassin") || len(v.Combatants) != 2 {
		t.Errorf("the players see the hidden assassin: %v", v.Order)
	}
	if v := view(t, it.Must("gm", "/init list")); !slices.Contains(v.Order, "Assassin") {
		t.Errorf("the GM does not see the assassin: %v", v.Order)
	}

	// Aria 10+3 = 13, Goblin 15+2 = 17, Assassin 1+4 = 5.
	resp = it.Must("gm", "/init begin dice:10,15,1")
	v := view(t, resp)
	if v.Round != 1 || turnOf(v) != "Goblin" || !slices.Equal(v.Order, []string{"Goblin", "Aria", "Assassin"}) {
		t.Errorf("begin: %s", kittest.ResultJSON(t, resp))
	}
	if resp.Ephemeral || len(resp.Embeds) != 1 || len(resp.Rows) != 1 || resp.MentionUsers != nil {
		t.Errorf("begin: want a public tracker with buttons and no ping (an NPC's turn): %+v", resp)
	}
	if strings.Contains(resp.Content, "Assassin") || strings.Contains(resp.Embeds[0].Description, "Assassin") {
		t.Errorf("the public begin names the hidden assassin:\n%s\n%s", resp.Content, resp.Embeds[0].Description)
	}
	tracker := it.Must("gm", "/init next")
	if v := view(t, tracker); turnOf(v) != "Aria" || !slices.Equal(tracker.MentionUsers, []string{"alice"}) || !strings.HasPrefix(tracker.Content, "<@alice> Round 1: Aria's turn.") {
		t.Errorf("Aria's turn does not ping alice alone: %q %v", tracker.Content, tracker.MentionUsers)
	}
	// Stunned until the end of the goblin's next turn: 1 round on the
	// source, ending at the end of its turn.
	resp = it.Must("alice", "/init effect target:Goblin effect:stunned rounds:1 ends:end relative:source source:Aria")
	if got := view(t, resp).Combatants[0].Conditions; len(got) != 1 || got[0].Ends != "ends at the end of Aria's turn, round 1" {
		t.Errorf("effect: %s", kittest.ResultJSON(t, resp))
	}
	resp = it.Must("alice", "/init damage target:goblin amount:4 type:fire")
	if resp.Content != "Goblin took 4 fire damage (hp 7 -> 3)" || resp.Ephemeral {
		t.Errorf("damage: %+v", resp)
	}
	// Alice ends her own turn with the button of the tracker that started
	// it (the damage since does not make it stale): the tracker is edited
	// in place; the stun ends with her turn; the assassin appears.
	resp = it.Must("alice", "click:"+tracker.Rows[0][1].CustomID)
	v = view(t, resp)
	if resp.Type != kit.UpdateMessage || turnOf(v) != "Assassin" || !slices.Contains(v.Order, "Assassin") || len(v.Combatants[0].Conditions) != 0 {
		t.Errorf("End turn: type %d, %s", resp.Type, kittest.ResultJSON(t, resp))
	}
	if !strings.Contains(resp.Content, "stunned on Goblin ended") || !strings.Contains(resp.Content, "Assassin appears.") {
		t.Errorf("End turn: %q", resp.Content)
	}
	resp = it.Must("gm", "/init next")
	if v := view(t, resp); v.Round != 2 || turnOf(v) != "Goblin" {
		t.Errorf("round 2: %s", kittest.ResultJSON(t, resp))
	}
	resp = it.Must("gm", "/init end")
	if v := view(t, resp); !v.Ended || v.Turn != nil || !strings.HasPrefix(resp.Content, "The fight is over after 2 rounds.") {
		t.Errorf("end: %q %s", resp.Content, kittest.ResultJSON(t, resp))
	}
	if _, err := it.Do("gm", "/init list"); err == nil || !strings.Contains(err.Error(), "there is no encounter in this channel") {
		t.Errorf("list after the end: %v", err)
	}
}

// TestInitBadInputChangesNothing: every mistake gets an ephemeral answer
// naming it, and the stored encounter stays byte for byte as it was.
func TestInitBadInputChangesNothing(t *testing.T) {
	it := newInitTable(t)
	it.setup() // Assassin's turn, round 1
	it.Must("gm", "/init next")
	resp := it.Must("alice", "/init list post:true") // Aria's turn
	nextTurn := resp.Rows[0][0].CustomID
	endTurn := resp.Rows[0][1].CustomID
	it.Must("gm", "/init damage target:Goblin amount:1")

	for _, tt := range []struct{ user, line, want string }{
		{"gm", "/init damage target:Ogre amount:3", "there is no combatant named Ogre"},
		{"gm", "/init damage target:Goblin amount:-3", "option amount must be at least 0, not -3 (example: /init damage target:<text> amount:0)"},
		{"gm", "/init heal target:Goblin amount:-1", "option amount must be at least 1, not -1"},
		{"gm", "/init heal target:Goblin amount:0", "option amount must be at least 1, not 0 (example: /init heal target:<text> amount:1)"},
		{"alice", "/init damage target:Assassin amount:3", "there is no combatant named Assassin"},
		{"alice", "/init effect target:Goblin effect:marked rounds:1 source:Assassin", "there is no combatant named Assassin"},
		{"bob", "/init next", "it is Aria's turn, not yours"},
		{"bob", "/init delay", "it is Aria's turn, not yours"},
		{"bob", "click:" + endTurn, "it is Aria's turn, not yours"},
		{"alice", "click:" + nextTurn, "only the GM moves the fight on with Next turn"},
		{"alice", "/init add name:Ogre", "only the GM can do that"},
		{"alice", "/init begin", "only the GM can do that"},
		{"alice", "/init undo", "only the GM can do that"},
		{"alice", "/init end", "only the GM can do that"},
		{"alice", "/init remove name:Goblin", "only the GM can do that"},
		{"gm", "/init begin", "the fight has already begun"},
		{"gm", "/init add name:goblin", "there is already a combatant named goblin"},
		{"gm", "/init move name:Goblin position:9", "position 9 is out of range"},
		{"gm", "/init effect target:Goblin effect:<@1> rounds:1", "condition name"},
		{"gm", "/init clear target:Goblin effect:stunned", "Goblin has no condition named stunned"},
		{"gm", "/init redo", "nothing to redo"},
		{"gm", "/init start", "already running here (round 1)"},
		{"gm", "/init add name:Ogre init:1 dice:3,4", "dice: 2 values given but only 1 die rolled"},
		// Issue 15: a player without a sheet joins a generic fight under their
		// name (init_join.txtar); a name already in the fight is refused.
		{"carol", "/init join name:Aria", "the name Aria cannot be used in this fight"},
		{"alice", "/init join character:Bram", "Bram belongs to bob"},
	} {
		before := it.Stored()
		resp, err := it.Do(tt.user, tt.line)
		if _, ok := kit.AsUserError(err); !ok || !resp.Ephemeral || !strings.Contains(resp.Content, tt.want) {
			t.Errorf("%s %s: %q (ephemeral %v, err %v), want a private %q", tt.user, tt.line, resp.Content, resp.Ephemeral, err, tt.want)
		}
		if after := it.Stored(); after != before {
			t.Errorf("%s %s changed the stored encounter:\n%+v\n%+v", tt.user, tt.line, before, after)
		}
	}

	// A click on a tracker the fight has moved on from does nothing.
	it.Must("alice", "click:"+endTurn)
	before := it.Stored()
	if _, err := it.Do("alice", "click:"+endTurn); err == nil || !strings.Contains(err.Error(), "out of date") {
		t.Errorf("a stale End turn: %v", err)
	}
	if after := it.Stored(); after != before {
		t.Errorf("a stale click changed the encounter")
	}
}

// TestInitUndoRedo: undo restores exactly the state before the command,
// redo exactly the state after it, over any command.
func TestInitUndoRedo(t *testing.T) {
	it := newInitTable(t)
	it.setup()
	var states []string
	lines := []string{
		"/init next", "/init damage target:Goblin amount:3", "/init effect target:Aria effect:blessed rounds:2",
		"/init next", "/init skip name:Goblin", "/init next", "/init next",
	}
	states = append(states, it.Stored().State)
	for _, l := range lines {
		it.Must("gm", l)
		states = append(states, it.Stored().State)
	}
	for i := len(lines) - 1; i >= 0; i-- {
		resp := it.Must("gm", "/init undo")
		if got := it.Stored().State; got != states[i] {
			t.Fatalf("undo of %s: state\n%s\nwant\n%s", lines[i], got, states[i])
		}
		if !strings.HasPrefix(resp.Content, "↩️ Undone") {
			t.Errorf("undo: %q", resp.Content)
		}
	}
	for i := range lines {
		it.Must("gm", "/init redo")
		if got := it.Stored().State; got != states[i+1] {
			t.Fatalf("redo of %s: state\n%s\nwant\n%s", lines[i], got, states[i+1])
		}
	}
	// Undo three, then a new command: the three can no longer be redone.
	for range 3 {
		it.Must("gm", "/init undo")
	}
	it.Must("gm", "/init heal target:Goblin amount:1")
	if _, err := it.Do("gm", "/init redo"); err == nil {
		t.Errorf("redo after a new command succeeded")
	}
	resp := it.Must("gm", "/init log count:5")
	res := view(t, resp)
	if len(res.Log) != 5 || res.Log[4].Kind != "heal" || res.Log[3].Status != db.StatusUndo || res.Log[3].Ref == 0 {
		t.Errorf("log: %s", kittest.ResultJSON(t, resp))
	}
	var dropped int
	for _, e := range view(t, it.Must("gm", "/init log count:25")).Log {
		if e.Status == db.StatusDropped {
			dropped++
		}
	}
	if dropped != 3 {
		t.Errorf("%d dropped changes in the log, want 3", dropped)
	}
}

// TestInitUndoLimit: /init undo goes back db.MaxUndo changes, across a
// restart, and then says why it stops, changing nothing.
func TestInitUndoLimit(t *testing.T) {
	it := newInitTable(t)
	it.setup()
	changes := db.MaxUndo + 20
	for range changes {
		it.Must("gm", "/init damage target:Goblin amount:0")
	}
	it.restart()
	for range db.MaxUndo {
		it.Must("gm", "/init undo")
	}
	before := it.Stored()
	resp, err := it.Do("gm", "/init undo")
	if _, ok := kit.AsUserError(err); !ok || !resp.Ephemeral || !strings.Contains(resp.Content, "only the last 100 changes can be undone") {
		t.Errorf("undo %d: %q (ephemeral %v, err %v), want a private \"only the last 100 changes can be undone\"", db.MaxUndo+1, resp.Content, resp.Ephemeral, err)
	}
	if after := it.Stored(); after != before {
		t.Errorf("a refused undo changed the stored encounter:\n%+v\n%+v", before, after)
	}
	if resp := it.Must("gm", "/init redo"); !strings.HasPrefix(resp.Content, "↪️ Redone") {
		t.Errorf("redo after the refused undo: %q", resp.Content)
	}
}

// TestInitHidden: the players never read a hidden combatant's numbers; the
// GM reads them in private.
func TestInitHidden(t *testing.T) {
	it := newInitTable(t)
	it.setup()
	resp := it.Must("gm", "/init damage target:Assassin amount:4")
	if !resp.Ephemeral || resp.Content != "Assassin took 4 damage (hp 10 -> 6)" {
		t.Errorf("damage to the hidden assassin: %+v", resp)
	}
	// Aria's turn, from the assassin's: the players saw it begin when the
	// assassin's did (issue 20), so this is the GM's alone.
	resp = it.Must("gm", "/init next")
	if !resp.Ephemeral || resp.Edit != nil || len(resp.MentionUsers) != 0 {
		t.Errorf("the GM's next from the hidden assassin reached the players: %+v", resp)
	}
	for _, e := range view(t, it.Must("alice", "/init log count:25")).Log {
		if strings.Contains(e.Summary, "Assassin") {
			t.Errorf("the players' log names the assassin: %+v", e)
		}
	}
	choices := it.Must("alice", "/init list").Result.(tracker.InitResult).Order
	if slices.Contains(choices, "Assassin") {
		t.Errorf("players see %v", choices)
	}
	req, err := it.R.ParseAutocomplete("/init damage target:a")
	if err != nil {
		t.Fatal(err)
	}
	req.User, req.ChannelID, req.GuildID = kit.User{ID: "alice"}, "table", "guild"
	ac, err := it.R.Handle(context.Background(), req)
	if err != nil || len(ac.Choices) != 2 || ac.Choices[0].Value != "Aria" || ac.Choices[1].Value != "Bram" {
		t.Errorf("the players' autocomplete: %+v, %v", ac.Choices, err)
	}
	resp = it.Must("gm", "/init reveal name:Assassin")
	if resp.Ephemeral || resp.Content != "Assassin appears." {
		t.Errorf("reveal: %+v", resp)
	}
	if v := view(t, it.Must("alice", "/init list")); !slices.Contains(v.Order, "Assassin") {
		t.Errorf("revealed, but the players do not see the assassin")
	}
}

// TestInitConcurrent fires 50 /init next and /init damage commands at one
// encounter at once, through the router, and checks the result against the
// same commands run one after the other: no update is lost.
func TestInitConcurrent(t *testing.T) {
	// Damage only to those it cannot defeat, so that the order of turns
	// and damage cannot matter to the final state.
	var lines []string
	for i := range 50 {
		if i%2 == 0 {
			lines = append(lines, "/init next")
		} else {
			lines = append(lines, fmt.Sprintf("/init damage target:%s amount:%d", []string{"Troll", "Golem"}[i/2%2], 1+i%3))
		}
	}
	setup := func() *initTable {
		it := newInitTable(t)
		it.setup()
		it.Must("gm", `/init add name:Troll initiative:1 resources:"hp=500"`)
		it.Must("gm", `/init add name:Golem initiative:30 hp:500`)
		return it
	}
	serial := setup()
	for _, l := range lines {
		serial.Must("gm", l)
	}
	concurrent := setup()
	start := concurrent.Stored()
	var wg sync.WaitGroup
	errs := make(chan error, len(lines))
	for _, l := range lines {
		wg.Go(func() {
			_, err := concurrent.Do("gm", l)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	got, want := concurrent.Stored(), serial.Stored()
	if got.Seq != start.Seq+int64(len(lines)) || got.Events != start.Events+len(lines) {
		t.Errorf("seq %d, %d events; want %d, %d", got.Seq, got.Events, start.Seq+int64(len(lines)), start.Events+len(lines))
	}
	if got.State != want.State {
		t.Errorf("concurrent state\n%s\nserial state\n%s", got.State, want.State)
	}
}

// TestInitRestart closes and reopens the database between every two
// commands: each answer and the final state are those of a run without
// restarts.
func TestInitRestart(t *testing.T) {
	script := []struct{ user, line string }{
		{"alice", `/character set name:Aria system:arc stats:"init=3 hp=20"`},
		{"gm", "/system set name:burst"},
		{"gm", "/init start system:generic"},
		{"alice", "/init join"},
		{"gm", "/init add name:Goblin init:2 hp:7"},
		{"gm", "/init add name:Shade hp:5 initiative:1 hidden:true"},
		{"gm", "/init begin dice:10,15"},
		{"gm", "/init effect target:Aria effect:poisoned rounds:2 source:Goblin"},
		{"gm", "/init next"},
		{"alice", "/init damage target:Goblin amount:5"},
		{"alice", "/init next"},
		{"gm", "/init undo"},
		{"gm", "/init redo"},
		{"gm", "/init next"},
		{"gm", "/init add name:Ogre initiative:14 hp:30"},
		{"gm", "/init next"},
		{"gm", "/init prev"},
		{"gm", "/init next"},
		{"gm", "/init delay"},
		{"gm", "/init next"},
		{"gm", "/init next"},
		{"gm", "/init next"},
		{"gm", "/init log count:25"},
		{"gm", "/init end"},
	}
	run := func(restart bool) ([]string, kittest.StoredFight) {
		it := newInitTable(t)
		var out []string
		for _, s := range script {
			if restart {
				it.restart()
			}
			resp, err := it.Do(s.user, s.line)
			if err != nil {
				t.Fatalf("%s %s: %v", s.user, s.line, err)
			}
			out = append(out, resp.Content+"\n"+kittest.ResultJSON(t, resp))
		}
		return out, it.Stored()
	}
	plain, plainState := run(false)
	restarted, restartedState := run(true)
	for i := range plain {
		if plain[i] != restarted[i] {
			t.Errorf("%s: with restarts\n%s\nwithout\n%s", script[i].line, restarted[i], plain[i])
		}
	}
	if plainState != restartedState {
		t.Errorf("final state with restarts\n%+v\nwithout\n%+v", restartedState, plainState)
	}
}

// fakeArc stands in for a system's policy: the generic rules under
// another name.
type fakeArc struct{ encounter.Generic }

func (fakeArc) Name() string { return "arc" }

func TestInitSystems(t *testing.T) {
	it := newInitTable(t, fakeArc{})
	if res := it.Must("gm", "/system show").Result.(core.SystemResult); res != (core.SystemResult{System: "generic", Scope: "default"}) {
		t.Errorf("show with nothing set: %+v", res)
	}
	it.Must("gm", "/system set name:burst scope:guild")
	if res := it.Must("alice", "/system show").Result.(core.SystemResult); res != (core.SystemResult{System: "burst", Scope: "guild"}) {
		t.Errorf("show: %+v", res)
	}
	if _, err := it.Do("alice", "/system set name:arc"); err == nil {
		t.Errorf("a player set the system")
	}
	// burst has no encounter policy here: the fight runs generic, and says
	// so.
	resp := it.Must("gm", "/init start")
	if v := view(t, resp); v.System != "generic" || !strings.Contains(resp.Content, "burst has no encounter rules yet") {
		t.Errorf("start under burst: %q %s", resp.Content, kittest.ResultJSON(t, resp))
	}
	it.Must("gm", "/init end")
	it.Must("gm", "/system set name:arc")
	if v := view(t, it.Must("gm", "/init start")); v.System != "arc" {
		t.Errorf("start under arc: %s", v.System)
	}
	it.Must("alice", `/character set name:Rex system:burst stats:"hp=3"`)
	if _, err := it.Do("alice", "/init join character:Rex"); err == nil || !strings.Contains(err.Error(), "this fight runs on the arc rules") {
		t.Errorf("a burst character joins an arc fight: %v", err)
	}
	it.Must("gm", "/init end")
	if _, err := it.Do("gm", "/init start system:ulm"); err == nil || !strings.Contains(err.Error(), "there is no system named ulm") {
		t.Errorf("an explicit system without rules: %v", err)
	}
}

// TestInitAddStats: stats typed as options or as text, and tracks, go where
// the policies read them.
func TestInitAddStats(t *testing.T) {
	it := newInitTable(t)
	it.Must("gm", "/init start")
	resp := it.Must("gm", `/init add name:Mech kind:machine engine:3 durability:12 stats:"som=3 empathy=2" resources:"vigor=2 max_vigor=5 max_shield=4"`)
	c := view(t, resp).Combatants[0]
	wantStats := map[string]int{"machine": 1, "engine": 3, "som": 3, "empathy": 2}
	wantRes := map[string]int{"durability": 12, "vigor": 2, "shield": 4}
	wantMax := map[string]int{"durability": 12, "vigor": 5, "shield": 4}
	if !mapsEqual(c.Stats, wantStats) || !mapsEqual(c.Resources, wantRes) || !mapsEqual(c.Max, wantMax) || !c.NPC {
		t.Errorf("add: %s", kittest.ResultJSON(t, resp))
	}
	it.Must("bob", `/character set name:Bram system:ulm stats:"agility=2 hp=9"`)
	c = view(t, it.Must("gm", "/init add character:Bram agility:4 name:\"Bram the Bold\"")).Combatants[1]
	if c.Name != "Bram the Bold" || c.Owner != "bob" || c.NPC || c.Stats["agility"] != 4 || c.Resources["hp"] != 9 {
		t.Errorf("add from a sheet: %+v", c)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// BenchmarkInitNext times /init next through the router with 1000
// encounters in the database, and reports the median and 99th percentile
// of one command.
func BenchmarkInitNext(b *testing.B) {
	it := newInitTable(b)
	const channels = 1000
	ctx := context.Background()
	req := func(channel, line string) *kit.Request {
		r, err := it.R.ParseLine(line)
		if err != nil {
			b.Fatal(err)
		}
		r.User, r.ChannelID, r.Permissions = kit.User{ID: "gm"}, channel, kit.ManageChannels
		return r
	}
	for i := range channels {
		ch := fmt.Sprint("c", i)
		for _, l := range []string{"/init start", "/init add name:Aria initiative:15 hp:20", "/init add name:Bram initiative:12 hp:15",
			"/init add name:Goblin initiative:8 hp:7", "/init add name:Ogre initiative:3 hp:30", "/init begin"} {
			if _, err := it.R.Handle(ctx, req(ch, l)); err != nil {
				b.Fatal(err)
			}
		}
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		r := req(fmt.Sprint("c", i%channels), "/init next")
		start := time.Now()
		if _, err := it.R.Handle(ctx, r); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	pct := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))].Microseconds()) }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
}

// complete runs an autocomplete line ("/init clear target:Aria effect:st")
// as user and returns the suggested values.
func (it *initTable) complete(user, line string) []string {
	it.T.Helper()
	req, err := it.R.ParseAutocomplete(line)
	if err != nil {
		it.T.Fatalf("complete %s: %v", line, err)
	}
	req.User = kit.User{ID: user, Name: user}
	req.ChannelID, req.GuildID = "table", "guild"
	if user == "gm" {
		req.Permissions = kit.ManageChannels
	}
	resp, err := it.R.Handle(context.Background(), req)
	if err != nil || resp.Type != kit.Autocomplete {
		it.T.Fatalf("complete %s: type %v, %v", line, resp.Type, err)
	}
	var out []string
	for _, c := range resp.Choices {
		out = append(out, fmt.Sprint(c.Value))
	}
	return out
}

// /init defeat is the GM's: it marks a combatant defeated (its turns
// passed over, struck through on the tracker) and back:true undoes it.
func TestInitDefeat(t *testing.T) {
	it := newInitTable(t)
	it.setup()
	if resp, err := it.Do("alice", "/init defeat name:Goblin"); err == nil {
		t.Errorf("a player defeated the Goblin: %q", resp.Content)
	}
	resp := it.Must("gm", "/init defeat name:Goblin")
	if resp.Content != "Goblin is defeated." || resp.Ephemeral {
		t.Errorf("defeat: %q (ephemeral %v)", resp.Content, resp.Ephemeral)
	}
	v := view(t, resp)
	for _, c := range v.Combatants {
		if c.Name == "Goblin" && !c.Defeated {
			t.Errorf("the Goblin is not defeated: %+v", c)
		}
	}
	if list := it.Must("alice", "/init list"); !strings.Contains(list.Embeds[0].Description, "~~Goblin~~") {
		t.Errorf("the tracker does not strike the Goblin through: %q", list.Embeds[0].Description)
	}
	// The hidden Assassin's defeat is the GM's to know.
	if resp := it.Must("gm", "/init defeat name:Assassin"); !resp.Ephemeral {
		t.Errorf("the hidden Assassin's defeat went to the channel: %q", resp.Content)
	}
	resp = it.Must("gm", "/init defeat name:Goblin back:true")
	if resp.Content != "Goblin is back in the fight." {
		t.Errorf("back: %q", resp.Content)
	}
	for _, c := range view(t, resp).Combatants {
		if c.Name == "Goblin" && c.Defeated {
			t.Errorf("the Goblin is still defeated")
		}
	}
}

// Autocomplete of /init: a combatant's conditions for clear (none of a
// hidden combatant's for a player), and for join the asker's own
// characters (anyone's for the GM).
func TestInitSuggestions(t *testing.T) {
	it := newInitTable(t)
	it.setup()
	it.Must("gm", "/init effect target:Aria effect:stunned rounds:2")
	it.Must("gm", "/init effect target:Aria effect:blessed rounds:3")
	it.Must("gm", "/init effect target:Assassin effect:stealthy rounds:3")
	if got := it.complete("alice", "/init clear target:Aria effect:st"); !slices.Equal(got, []string{"stunned"}) {
		t.Errorf("Aria's conditions for st: %v", got)
	}
	if got := it.complete("alice", "/init clear target:Aria effect:"); !slices.Equal(got, []string{"stunned", "blessed"}) {
		t.Errorf("Aria's conditions: %v", got)
	}
	if got := it.complete("alice", "/init clear target:Assassin effect:"); len(got) != 0 {
		t.Errorf("a player is shown the hidden Assassin's conditions: %v", got)
	}
	if got := it.complete("gm", "/init clear target:Assassin effect:"); !slices.Equal(got, []string{"stealthy"}) {
		t.Errorf("the GM's view of the Assassin's conditions: %v", got)
	}
	it.Must("alice", `/character set name:Lyra system:arc stats:"init=1 hp=9"`)
	if got := it.complete("alice", "/init join character:"); !slices.Equal(got, []string{"Aria", "Lyra"}) {
		t.Errorf("alice's characters to join with: %v", got)
	}
	if got := it.complete("gm", "/init join character:"); !slices.Equal(got, []string{"Aria", "Bram", "Lyra"}) {
		t.Errorf("the GM's characters to join with: %v", got)
	}
}
