package bot

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// initRouter is the router with the encounter tracker over a database in
// t.TempDir().
func initRouter(t *testing.T) *kit.Router {
	t.Helper()
	store := testStore(t)
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Policies = encounter.NewPolicies(encounter.Generic{})
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) }
	deps.Log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	return commands.New(deps)
}

// Every kind of answer the tracker gives, held to Discord's schemas: the
// public tracker with its buttons and its ping, the in-place update of a
// click, private answers for the GM, the log, autocomplete, a mistake.
func TestInitResponsesMatchDiscordSchemas(t *testing.T) {
	spec := loadDiscordSpec(t)
	r := initRouter(t)
	ctx := t.Context()
	run := func(user, line string) kit.Response {
		t.Helper()
		req, err := r.ParseLine(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		req.User, req.ChannelID = kit.User{ID: user, Name: user}, "table"
		if user == "gm" {
			req.Permissions = kit.ManageChannels
		}
		resp, err := r.Handle(ctx, req)
		if _, mistake := kit.AsUserError(err); err != nil && !mistake {
			t.Fatalf("%s: %v", line, err)
		}
		return resp
	}
	responses := map[string]kit.Response{
		"start":        run("gm", "/init start"),
		"add":          run("gm", "/init add name:Goblin initiative:5 hp:7"),
		"add hidden":   run("gm", `/init add name:"Shadow *Lord*" initiative:20 hp:40 hidden:true`),
		"add a player": run("gm", "/init add name:Aria owner:42 initiative:15 hp:20"),
		"begin":        run("gm", "/init begin"),
		"effect":       run("gm", "/init effect target:Aria effect:blessed rounds:3 ends:start"),
		"next":         run("gm", "/init next"),
		"mistake":      run("42", "/init damage target:Nobody amount:1"),
		"list":         run("gm", "/init list"),
		"list posted":  run("42", "/init list post:true"),
		"log":          run("gm", "/init log"),
	}
	click := &kit.Request{Kind: kit.KindComponent, CustomID: responses["list posted"].Rows[0][1].CustomID,
		User: kit.User{ID: "42"}, ChannelID: "table", Options: kit.Options{}}
	var err error
	if responses["click"], err = r.Handle(ctx, click); err != nil {
		t.Fatal(err)
	}
	responses["undo"] = run("gm", "/init undo")
	ac, err := r.ParseAutocomplete("/init damage target:a")
	if err != nil {
		t.Fatal(err)
	}
	ac.ChannelID = "table"
	if responses["autocomplete"], err = r.Handle(ctx, ac); err != nil {
		t.Fatal(err)
	}
	if got := responses["click"].Type; got != kit.UpdateMessage {
		t.Errorf("a click answered with type %d, want an update of the tracker (7)", got)
	}
	// The hidden Shadow Lord has the first turn: to the players it is the
	// start of Aria's, so the beginning pings her, and the GM's next, to
	// her own turn, pings no one again (issue 20).
	if got := responses["begin"].MentionUsers; len(got) != 1 || got[0] != "42" {
		t.Errorf("Aria's turn pings %v, want [42]", got)
	}
	if got := responses["next"].MentionUsers; len(got) != 0 {
		t.Errorf("the GM's next to the turn Aria was pinged for pings %v again", got)
	}
	for name, resp := range responses {
		t.Run(name, func(t *testing.T) { spec.checkResponse(t, resp) })
	}
}

// The tracker through the real gateway path: a GM begins the fight, the
// player whose turn it is is pinged, and ends the turn with the button,
// which edits the tracker (callback type 7).
func TestInitThroughGateway(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	t.Cleanup(fake.Close)
	router := initRouter(t)
	ready := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- Serve(ctx, ServeOptions{Token: "test-token", Router: router, HTTPClient: fake.Client(),
			OnReady: func() { close(ready) }, Log: slog.New(slog.NewTextHandler(testWriter{t}, nil))})
	}()
	t.Cleanup(func() {
		cancel()
		<-errc
	})
	select {
	case <-ready:
	case err := <-errc:
		t.Fatalf("Serve returned before it was ready: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve was not ready within 10 s")
	}
	s := &served{fake: fake, router: router}

	const player = "1400000000000000042"
	asPlayer := func(in fakediscord.Interaction) fakediscord.Interaction {
		in.User = fakediscord.User{ID: player, Username: "alice"}
		in.Permissions = "0"
		return in
	}
	sub := func(name string, opts ...fakediscord.Option) fakediscord.Interaction {
		return fake.SlashCommand("init", fakediscord.Subcommand(name, opts...))
	}
	s.answer(t, sub("start"))
	s.answer(t, sub("add", fakediscord.StringOpt("name", "Goblin"), fakediscord.IntOpt("initiative", 5), fakediscord.IntOpt("hp", 7)))
	s.answer(t, sub("add", fakediscord.StringOpt("name", "Aria"), fakediscord.UserOpt("owner", player), fakediscord.IntOpt("initiative", 15)))
	if cb := s.answer(t, asPlayer(sub("begin"))); !cb.Data.Ephemeral() || !strings.Contains(cb.Data.Content, "only the GM") {
		t.Errorf("a player began the fight: %+v", cb.Data)
	}
	cb := s.answer(t, sub("begin"))
	if cb.Type != 4 || !strings.HasPrefix(cb.Data.Content, "<@"+player+"> The fight begins") {
		t.Fatalf("begin answered %d %q", cb.Type, cb.Data.Content)
	}
	if want := `{"parse":[],"users":["` + player + `"],"replied_user":false}`; string(cb.Data.AllowedMentions) != want {
		t.Errorf("allowed_mentions %s, want %s", cb.Data.AllowedMentions, want)
	}
	var rows []struct {
		Components []struct {
			Label    string `json:"label"`
			CustomID string `json:"custom_id"`
		} `json:"components"`
	}
	if err := json.Unmarshal(mustJSON(t, cb.Data.Components), &rows); err != nil || len(rows) != 1 || len(rows[0].Components) != 2 {
		t.Fatalf("the tracker's buttons: %s (%v)", mustJSON(t, cb.Data.Components), err)
	}
	end := rows[0].Components[1]
	if end.Label != "End turn" {
		t.Fatalf("second button %+v", end)
	}
	cb = s.answer(t, asPlayer(fake.Component(end.CustomID)))
	if cb.Type != 7 || !strings.Contains(cb.Data.Content, "Round 1: Goblin's turn.") || len(cb.Data.Embeds) != 1 {
		t.Errorf("End turn answered %d %+v", cb.Type, cb.Data)
	}
	// The same button again: the turn has moved on.
	cb = s.answer(t, asPlayer(fake.Component(end.CustomID)))
	if cb.Type != 4 || !cb.Data.Ephemeral() || !strings.Contains(cb.Data.Content, "out of date") {
		t.Errorf("a stale End turn answered %d %+v", cb.Type, cb.Data)
	}
}
