package bot

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

// served is a running Serve against a fake Discord.
type served struct {
	fake   *fakediscord.Server
	router *kit.Router
	// done receives each interaction's ID once its answer and everything
	// the response asked for (edits, follow-ups) are done.
	done chan string
	stop func() error // cancels Serve and returns its error
	// exited waits for Serve to return by itself, and returns its error
	// (stop returns it too, after).
	exited func(ctx context.Context) (error, bool)
}

// serve starts Serve against a new fake Discord and waits until it has
// registered its commands. Cleanup stops Serve before closing the fake, as
// discordgo needs.
func serve(t *testing.T, o ServeOptions, fakeOpts fakediscord.Options) *served {
	t.Helper()
	fake := fakediscord.New(fakeOpts)
	t.Cleanup(fake.Close)
	store := testStore(t)
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) }
	deps.Log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	router := commands.New(deps)
	ready := make(chan struct{})
	o.Token = "test-token"
	o.Router = router
	o.HTTPClient = fake.Client()
	o.OnReady = func() { close(ready) }
	done := make(chan string, 64)
	o.answered = func(id string) { done <- id }
	o.Log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	start := time.Now()
	go func() { errc <- Serve(ctx, o) }()
	var once sync.Once
	var serveErr error
	s := &served{fake: fake, router: router, done: done, stop: func() error {
		once.Do(func() {
			cancel()
			serveErr = <-errc
		})
		return serveErr
	}, exited: func(ctx context.Context) (error, bool) {
		select {
		case err := <-errc:
			errc <- err // for stop
			return err, true
		case <-ctx.Done():
			return nil, false
		}
	}}
	t.Cleanup(func() { s.stop() })
	select {
	case <-ready:
		t.Logf("serve: start to commands registered in %v", time.Since(start))
	case err := <-errc:
		errc <- err // for stop
		t.Fatalf("Serve returned before it was ready: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve was not ready within 10 s")
	}
	return s
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// answer dispatches in and returns the bot's callback.
func (s *served) answer(t *testing.T, in fakediscord.Interaction) fakediscord.Callback {
	t.Helper()
	if err := s.fake.DispatchInteraction(in); err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	cb, err := s.fake.WaitCallback(waitCtx(t), in.ID)
	if err != nil {
		t.Fatalf("no callback for interaction %s: %v", in.ID, err)
	}
	for s.done != nil {
		select {
		case id := <-s.done:
			if id == in.ID {
				return cb
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("interaction %s was answered but its follow-through never finished", in.ID)
		}
	}
	return cb
}

// The foundation's end-to-end test: serve connects, bulk-overwrites every
// command, answers a /roll interaction, and after the gateway drops it
// resumes and still answers.
func TestServeEndToEnd(t *testing.T) {
	s := serve(t, ServeOptions{}, fakediscord.Options{})
	ctx := waitCtx(t)

	id, err := s.fake.WaitIdentify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if id.Token != fakediscord.DefaultToken {
		t.Errorf("IDENTIFY token %q, want %q", id.Token, fakediscord.DefaultToken)
	}

	// Every command, globally, exactly as `tablehand commands` prints them.
	put, err := s.fake.WaitRequest(ctx, fakediscord.Route(fakediscord.RouteGlobalCommands))
	if err != nil {
		t.Fatal(err)
	}
	var sent []map[string]any
	if err := put.Decode(&sent); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range s.router.Commands() {
		want = append(want, c.Name)
	}
	var got []string
	for _, c := range sent {
		got = append(got, c["name"].(string))
	}
	if !slices.Equal(got, want) {
		t.Errorf("bulk overwrite registered %v, want %v", got, want)
	}
	var printed strings.Builder
	if err := WriteCommands(&printed, s.router); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(printed.String()) != strings.TrimSpace(string(put.Body)) {
		t.Errorf("`tablehand commands` prints\n%s\nbut serve sent\n%s", printed.String(), put.Body)
	}

	cb := s.answer(t, s.fake.SlashCommand("roll", fakediscord.StringOpt("expression", "2d6+3"), fakediscord.StringOpt("dice", "4,5")))
	if cb.Type != 4 || cb.Data == nil || !strings.Contains(cb.Data.Content, "2d6 (4, 5) + 3 = ") || !strings.Contains(cb.Data.Content, "12") {
		t.Fatalf("/roll 2d6+3 dice:4,5 answered %+v", cb.Data)
	}
	if string(cb.Data.AllowedMentions) != `{"parse":[],"replied_user":false}` {
		t.Errorf("allowed_mentions = %s; want nobody pinged", cb.Data.AllowedMentions)
	}
	if cb.Data.Ephemeral() {
		t.Error("a public roll answered ephemerally")
	}

	// A user's mistake is answered privately, naming it.
	cb = s.answer(t, s.fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d0")))
	if !cb.Data.Ephemeral() || !strings.Contains(cb.Data.Content, "d0") {
		t.Errorf("/roll 1d0 answered %+v", cb.Data)
	}

	// Autocomplete and a button click travel the same path.
	ac := s.fake.Autocomplete("roll", fakediscord.StringOpt("expression", "1d2").Focus())
	cb = s.answer(t, ac)
	if cb.Type != 8 || len(cb.Data.Choices) == 0 || cb.Data.Choices[0].Value != "1d2" {
		t.Errorf("autocomplete answered type %d %+v", cb.Type, cb.Data)
	}

	// The gateway drops: discordgo resumes, and the bot still answers.
	s.fake.DropGateway()
	if _, err := s.fake.WaitResume(ctx); err != nil {
		t.Fatalf("no RESUME after the drop: %v", err)
	}
	cb = s.answer(t, s.fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d20"), fakediscord.StringOpt("dice", "17")))
	if cb.Type != 4 || !strings.Contains(cb.Data.Content, "1d20 (17) = 17") {
		t.Fatalf("after the resume, /roll answered %+v", cb.Data)
	}

	// Its "Roll again" button rolls the same expression afresh.
	var comps []struct {
		Components []struct {
			CustomID string `json:"custom_id"`
		} `json:"components"`
	}
	if err := json.Unmarshal(mustJSON(t, cb.Data.Components), &comps); err != nil || len(comps) == 0 || len(comps[0].Components) == 0 {
		t.Fatalf("no button on the roll: %s (%v)", mustJSON(t, cb.Data.Components), err)
	}
	cb = s.answer(t, s.fake.Component(comps[0].Components[0].CustomID))
	if cb.Type != 4 || !strings.Contains(cb.Data.Content, "rolled `1d20`") {
		t.Errorf("Roll again answered %+v", cb.Data)
	}

	if err := s.stop(); err != nil {
		t.Errorf("Serve returned %v after a clean shutdown", err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// With dev_guild, commands go to that guild only, where they update at once.
func TestServeRegistersInDevGuild(t *testing.T) {
	s := serve(t, ServeOptions{DevGuild: fakediscord.DefaultGuildID}, fakediscord.Options{})
	reqs := s.fake.Requests()
	var guild, global int
	for _, r := range reqs {
		switch r.Route {
		case fakediscord.RouteGuildCommands:
			guild++
			if r.Param("guild") != fakediscord.DefaultGuildID {
				t.Errorf("commands registered in guild %s", r.Param("guild"))
			}
		case fakediscord.RouteGlobalCommands:
			global++
		}
	}
	if guild != 1 || global != 0 {
		t.Errorf("%d guild and %d global bulk overwrites; want 1 and 0", guild, global)
	}
	if len(s.fake.Commands(fakediscord.DefaultGuildID)) != len(s.router.Commands()) {
		t.Errorf("the guild holds %d commands, want %d", len(s.fake.Commands(fakediscord.DefaultGuildID)), len(s.router.Commands()))
	}
}

func TestServeRefusesWithoutToken(t *testing.T) {
	err := Serve(context.Background(), ServeOptions{Router: commands.New(kit.NewDeps(nil, nil))})
	if err == nil || !strings.Contains(err.Error(), "TABLEHAND_TOKEN") {
		t.Errorf("Serve without a token: %v", err)
	}
}

// A token reset while the bot runs: Discord closes the session and refuses
// the token (4004). Serve stops with an error that says so, for the
// operator, instead of reconnecting for ever and spending the day's
// session starts.
func TestServeStopsWhenTokenRevoked(t *testing.T) {
	s := serve(t, ServeOptions{}, fakediscord.Options{})
	s.fake.RevokeToken()
	s.fake.DropGateway()
	err, ok := s.exited(waitCtx(t))
	if !ok {
		t.Fatal("Serve goes on after Discord refused its token")
	}
	if err == nil || !strings.Contains(err.Error(), "refused the bot") || !strings.Contains(err.Error(), "4004") {
		t.Errorf("Serve returned %v, want the gateway's refusal (4004)", err)
	}
	attempts := 0
	for _, f := range s.fake.Frames() {
		if f.FromClient && (f.Op == 2 || f.Op == 6) {
			attempts++
		}
	}
	if attempts != 2 { // the first IDENTIFY, then one refused RESUME
		t.Errorf("%d IDENTIFY or RESUME frames, want 2: no retry after a refusal", attempts)
	}
}

// A bad token's error never shows the token.
func TestServeBadTokenNotLeaked(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	const token = "very-secret-token-value"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := Serve(ctx, ServeOptions{Token: token, Router: commands.New(kit.NewDeps(nil, nil)), HTTPClient: fake.Client(), ReadyTimeout: 5 * time.Second})
	if err == nil {
		t.Fatal("Serve with a wrong token succeeded")
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("the token leaked into the error: %v", err)
	}
}

// The encounter tracker over the real gateway path: the first tracker is
// looked up and remembered, a later /init next edits that message, and a
// click on it pings the next player in a follow-up, and only them.
func TestServeTrackerEditsAndPings(t *testing.T) {
	s := serve(t, ServeOptions{}, fakediscord.Options{})
	ctx := waitCtx(t)
	init := func(sub string, opts ...fakediscord.Option) fakediscord.Callback {
		return s.answer(t, s.fake.SlashCommand("init", fakediscord.Subcommand(sub, opts...)))
	}
	init("start")
	init("add", fakediscord.StringOpt("name", "Brom"), fakediscord.IntOpt("init", 3), fakediscord.UserOpt("owner", "777"))
	init("add", fakediscord.StringOpt("name", "Gob"), fakediscord.IntOpt("init", 1))
	begin := s.fake.SlashCommand("init", fakediscord.Subcommand("begin", fakediscord.StringOpt("dice", "14,9")))
	s.answer(t, begin)
	// The edge looks up the message the tracker became.
	if _, err := s.fake.WaitRequest(ctx, func(r fakediscord.Request) bool {
		return r.Route == fakediscord.RouteGetOriginal && strings.Contains(r.Path, begin.Token)
	}); err != nil {
		t.Fatalf("the tracker's message was not looked up: %v", err)
	}
	tracker := s.fake.OriginalMessage(begin.ID)
	trackerID, _ := tracker["id"].(string)
	if trackerID == "" {
		t.Fatalf("no tracker message at the fake: %v", tracker)
	}

	cb := init("next")
	if len(cb.Data.Embeds) != 0 || !strings.Contains(cb.Data.Content, "Gob's turn") {
		t.Errorf("/init next answered %+v; want the news without a second tracker", cb.Data)
	}
	edit, err := s.fake.WaitRequest(ctx, fakediscord.Route(fakediscord.RouteEditMessage))
	if err != nil {
		t.Fatalf("the tracker was not edited: %v", err)
	}
	if edit.Param("message") != trackerID || !strings.Contains(string(edit.Body), "Round 1: Gob's turn") {
		t.Errorf("edited message %s with %s; want %s showing Gob's turn", edit.Param("message"), edit.Body, trackerID)
	}

	// Next turn on the tracker: the click edits it (type 7) and a follow-up
	// pings Brom's player, and nobody else.
	var rows []struct {
		Components []struct {
			CustomID string `json:"custom_id"`
		} `json:"components"`
	}
	if err := json.Unmarshal(mustJSON(t, s.fake.Message(trackerID)["components"]), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("the tracker has no buttons: %v", err)
	}
	click := s.fake.Component(rows[0].Components[0].CustomID)
	click.GuildID = fakediscord.DefaultGuildID
	cb = s.answer(t, click)
	if cb.Type != 7 {
		t.Fatalf("click answered type %d %+v, want 7", cb.Type, cb.Data)
	}
	ping, err := s.fake.WaitRequest(ctx, fakediscord.Route(fakediscord.RouteFollowup))
	if err != nil {
		t.Fatalf("no follow-up ping: %v", err)
	}
	var msg struct {
		Content         string `json:"content"`
		AllowedMentions struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	if err := ping.Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg.Content, "<@777>") || len(msg.AllowedMentions.Parse) != 0 || !slices.Equal(msg.AllowedMentions.Users, []string{"777"}) {
		t.Errorf("follow-up %+v; want a ping of 777 only", msg)
	}
}

// A handler slower than DeferAfter over the gateway: the interaction is
// acknowledged in time ("thinking...") and the answer follows; a slow click
// is acknowledged as an update and its update edits the message clicked.
func TestServeDefersSlowAnswers(t *testing.T) {
	h := slow{release: make(chan struct{}), resp: kit.Response{Type: kit.Message, Content: "took a while"}}
	s := serve(t, ServeOptions{deferAfter: 20 * time.Millisecond, handler: h}, fakediscord.Options{})
	ctx := waitCtx(t)
	in := s.fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d6"))
	if err := s.fake.DispatchInteraction(in); err != nil {
		t.Fatal(err)
	}
	cb, err := s.fake.WaitCallback(ctx, in.ID)
	if err != nil || cb.Type != 5 {
		t.Fatalf("first answer %+v, %v; want type 5 (deferred)", cb, err)
	}
	close(h.release)
	edit, err := s.fake.WaitRequest(ctx, func(r fakediscord.Request) bool {
		return r.Route == fakediscord.RouteEditOriginal && strings.Contains(r.Path, in.Token)
	})
	if err != nil {
		t.Fatalf("the deferred answer never came: %v", err)
	}
	if !strings.Contains(string(edit.Payload()), "took a while") {
		t.Errorf("the follow-up carried %s", edit.Payload())
	}
}
