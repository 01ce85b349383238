package bot

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// served is a running Serve against a fake Discord.
type served struct {
	fake   *fakediscord.Server
	router *commands.Router
	stop   func() error // cancels Serve and returns its error
}

// serve starts Serve against a new fake Discord and waits until it has
// registered its commands. Cleanup stops Serve before closing the fake, as
// discordgo needs.
func serve(t *testing.T, o ServeOptions, fakeOpts fakediscord.Options) *served {
	t.Helper()
	fake := fakediscord.New(fakeOpts)
	t.Cleanup(fake.Close)
	store, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	router := commands.New(commands.Deps{
		Rolls: store, Characters: store, Rules: commands.DefaultRules(),
		Roller: func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) },
		Log:    slog.New(slog.NewTextHandler(testWriter{t}, nil)),
	})
	ready := make(chan struct{})
	o.Token = "test-token"
	o.Router = router
	o.HTTPClient = fake.Client()
	o.OnReady = func() { close(ready) }
	o.Log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	start := time.Now()
	go func() { errc <- Serve(ctx, o) }()
	var once sync.Once
	var serveErr error
	s := &served{fake: fake, router: router, stop: func() error {
		once.Do(func() {
			cancel()
			serveErr = <-errc
		})
		return serveErr
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
	err := Serve(context.Background(), ServeOptions{Router: commands.New(commands.Deps{})})
	if err == nil || !strings.Contains(err.Error(), "TABLEHAND_TOKEN") {
		t.Errorf("Serve without a token: %v", err)
	}
}

// A bad token's error never shows the token.
func TestServeBadTokenNotLeaked(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	const token = "very-secret-token-value"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := Serve(ctx, ServeOptions{Token: token, Router: commands.New(commands.Deps{}), HTTPClient: fake.Client(), ReadyTimeout: 5 * time.Second})
	if err == nil {
		t.Fatal("Serve with a wrong token succeeded")
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("the token leaked into the error: %v", err)
	}
}
