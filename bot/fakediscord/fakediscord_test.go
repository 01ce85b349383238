package fakediscord_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/tablehand/tablehand/bot/fakediscord"
)

// handled is what the test's INTERACTION_CREATE handler reports: the
// decoded interaction and the error of its callback.
type handled struct {
	i   *discordgo.InteractionCreate
	err error
}

// answer is the handler's reply to each kind of interaction.
func answer(i *discordgo.InteractionCreate) *discordgo.InteractionResponse {
	switch i.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		return &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "2d6", Value: "2d6"}}},
		}
	case discordgo.InteractionMessageComponent:
		return &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "pressed " + i.MessageComponentData().CustomID},
		}
	default:
		return &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok " + i.ApplicationCommandData().Name},
		}
	}
}

// openSession opens a real discordgo session against the fake. Its
// interaction handler answers with answer and reports on the returned
// channel. The cleanup closes the session before the fake (Close costs 1 s).
func openSession(t *testing.T, fake *fakediscord.Server) (*discordgo.Session, <-chan *discordgo.Ready, <-chan handled) {
	t.Helper()
	s, err := discordgo.New(fakediscord.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = fake.Client()
	ready := make(chan *discordgo.Ready, 4)
	got := make(chan handled, 16)
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- handled{i: i, err: s.InteractionRespond(i.Interaction, answer(i))}
	})
	start := time.Now()
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Logf("Open (GET /gateway, dial, HELLO, IDENTIFY, READY) took %v", time.Since(start))
	t.Cleanup(func() {
		// The handler reports came from goroutines started after any
		// reconnect read this flag, so writing it here is race-free.
		s.ShouldReconnectOnError = false
		if err := s.Close(); err != nil {
			t.Errorf("close session: %v", err)
		}
	})
	return s, ready, got
}

func next[T any](ctx context.Context, t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatalf("waiting: %v", ctx.Err())
		panic("unreachable")
	}
}

// dispatch sends an interaction and returns the handler's report for it.
func dispatch(ctx context.Context, t *testing.T, fake *fakediscord.Server, got <-chan handled, in fakediscord.Interaction) *discordgo.InteractionCreate {
	t.Helper()
	if err := fake.DispatchInteraction(in); err != nil {
		t.Fatalf("dispatch %s: %v", in.ID, err)
	}
	h := next(ctx, t, got)
	if h.i.ID != in.ID {
		t.Fatalf("handler got interaction %s, want %s", h.i.ID, in.ID)
	}
	if h.err != nil {
		t.Fatalf("InteractionRespond %s: %v", in.ID, h.err)
	}
	return h.i
}

func TestGatewaySession(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	fake := fakediscord.New(fakediscord.Options{Logf: t.Logf})
	t.Cleanup(fake.Close) // runs after the session's cleanup
	if err := fake.Dispatch("TYPING_START", map[string]string{}); !errors.Is(err, fakediscord.ErrNoSession) {
		t.Fatalf("dispatch before IDENTIFY: %v, want ErrNoSession", err)
	}

	start := time.Now()
	_, readyCh, got := openSession(t, fake)
	ready := next(ctx, t, readyCh)
	t.Logf("Open to READY handler: %v", time.Since(start))

	t.Run("handshake", func(t *testing.T) {
		id, err := fake.WaitIdentify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if id.Token != fakediscord.DefaultToken {
			t.Errorf("IDENTIFY token %q, want %q", id.Token, fakediscord.DefaultToken)
		}
		if id.Intents != int64(discordgo.IntentsAllWithoutPrivileged) {
			t.Errorf("IDENTIFY intents %d, want %d", id.Intents, discordgo.IntentsAllWithoutPrivileged)
		}
		if ready.Application == nil || ready.Application.ID != fake.AppID() {
			t.Errorf("READY application %+v, want ID %s", ready.Application, fake.AppID())
		}
		if ready.User == nil || !ready.User.Bot || ready.User.ID != fakediscord.DefaultBotUserID {
			t.Errorf("READY user %+v", ready.User)
		}
		if ready.SessionID == "" || ready.SessionID != fake.SessionID() {
			t.Errorf("READY session %q, fake has %q", ready.SessionID, fake.SessionID())
		}
		if len(ready.Guilds) != 1 || ready.Guilds[0].ID != fakediscord.DefaultGuildID || !ready.Guilds[0].Unavailable {
			t.Errorf("READY guilds %+v", ready.Guilds)
		}
		gw, err := fake.WaitRequest(ctx, fakediscord.Route(fakediscord.RouteGateway))
		if err != nil {
			t.Fatal(err)
		}
		if gw.Host != "discord.com" || gw.Header.Get("Authorization") != fakediscord.DefaultToken {
			t.Errorf("GET /gateway host %q authorization %q", gw.Host, gw.Header.Get("Authorization"))
		}
		ws, err := fake.WaitRequest(ctx, fakediscord.Route(fakediscord.RouteGatewayWS))
		if err != nil {
			t.Fatal(err)
		}
		if ws.RawQuery != "v=9&encoding=json" || ws.Status != http.StatusSwitchingProtocols {
			t.Errorf("gateway dial %s?%s -> %d", ws.Path, ws.RawQuery, ws.Status)
		}
		if _, err := fake.WaitFrame(ctx, func(f fakediscord.Frame) bool { return f.FromClient && f.Op == 1 }); err != nil {
			t.Errorf("no heartbeat: %v", err)
		}
	})

	t.Run("slash command", func(t *testing.T) {
		in := fake.SlashCommand("roll", fakediscord.StringOpt("expr", "2d6+1"))
		i := dispatch(ctx, t, fake, got, in)
		if i.AppID != fake.AppID() || i.GuildID != fakediscord.DefaultGuildID || i.ChannelID != fakediscord.DefaultChannelID {
			t.Errorf("interaction app %q guild %q channel %q", i.AppID, i.GuildID, i.ChannelID)
		}
		if i.Member == nil || i.Member.User == nil || i.Member.User.ID != fakediscord.DefaultUserID ||
			i.Member.Permissions != 16 || i.Member.JoinedAt.Year() != 2024 {
			t.Errorf("member %+v", i.Member)
		}
		data := i.ApplicationCommandData()
		if data.Name != "roll" || len(data.Options) != 1 || data.Options[0].StringValue() != "2d6+1" {
			t.Errorf("data %+v", data)
		}
		cb, err := fake.WaitCallback(ctx, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cb.Type != 4 || cb.Data == nil || cb.Data.Content != "ok roll" || cb.Data.Ephemeral() {
			t.Errorf("callback %+v data %+v", cb, cb.Data)
		}
		if m := fake.OriginalMessage(in.ID); m == nil || m["content"] != "ok roll" {
			t.Errorf("original message %v", m)
		}
	})

	t.Run("subcommand", func(t *testing.T) {
		in := fake.SlashCommand("init", fakediscord.Subcommand("next", fakediscord.IntOpt("count", 2)))
		in.User = fakediscord.User{ID: "42", Username: "gm", GlobalName: "The GM"}
		in.Nick = "Narrator"
		i := dispatch(ctx, t, fake, got, in)
		opts := i.ApplicationCommandData().Options
		if len(opts) != 1 || opts[0].Type != discordgo.ApplicationCommandOptionSubCommand || opts[0].Name != "next" ||
			len(opts[0].Options) != 1 || opts[0].Options[0].IntValue() != 2 {
			t.Errorf("options %+v", opts)
		}
		if i.Member.Nick != "Narrator" || i.Member.User.GlobalName != "The GM" {
			t.Errorf("member %+v user %+v", i.Member, i.Member.User)
		}
	})

	t.Run("autocomplete", func(t *testing.T) {
		in := fake.Autocomplete("roll", fakediscord.StringOpt("expr", "2d").Focus())
		i := dispatch(ctx, t, fake, got, in)
		if o := i.ApplicationCommandData().Options; len(o) != 1 || !o[0].Focused {
			t.Errorf("options %+v", o)
		}
		cb, err := fake.WaitCallback(ctx, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cb.Type != 8 || len(cb.Data.Choices) != 1 || cb.Data.Choices[0].Value != "2d6" {
			t.Errorf("callback %+v", cb.Data)
		}
	})

	t.Run("component from raw JSON", func(t *testing.T) {
		raw := json.RawMessage(`{
			"id": "900", "application_id": "` + fake.AppID() + `", "type": 3, "token": "raw-token", "version": 1,
			"guild_id": "` + fakediscord.DefaultGuildID + `", "channel_id": "` + fakediscord.DefaultChannelID + `",
			"member": {"user": {"id": "7", "username": "raw"}, "roles": [], "permissions": "0", "joined_at": "2024-05-01T10:00:00+00:00"},
			"data": {"custom_id": "round:next", "component_type": 2},
			"message": {"id": "901", "channel_id": "` + fakediscord.DefaultChannelID + `", "timestamp": "2024-05-01T10:00:00+00:00"}
		}`)
		if err := fake.DispatchInteractionJSON(raw); err != nil {
			t.Fatal(err)
		}
		h := next(ctx, t, got)
		if h.err != nil || h.i.ID != "900" {
			t.Fatalf("handled %s: %v", h.i.ID, h.err)
		}
		if m := fake.Message("901"); m == nil || m["content"] != "pressed round:next" {
			t.Errorf("updated message %v", m)
		}
	})

	t.Run("drop and resume", func(t *testing.T) {
		session := fake.SessionID()
		if n := fake.DropGateway(); n != 1 {
			t.Fatalf("dropped %d connections, want 1", n)
		}
		// Sent while the client is away: replayed on RESUME.
		queued := fake.SlashCommand("roll", fakediscord.StringOpt("expr", "1d20"))
		dispatch(ctx, t, fake, got, queued)
		r, err := fake.WaitResume(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r.SessionID != session || r.Token != fakediscord.DefaultToken || r.Seq < 1 {
			t.Errorf("RESUME %+v, session %s", r, session)
		}
		if _, err := fake.WaitFrame(ctx, func(f fakediscord.Frame) bool { return !f.FromClient && f.Type == "RESUMED" }); err != nil {
			t.Fatal(err)
		}
		after := fake.SlashCommand("roll", fakediscord.StringOpt("expr", "1d4"))
		dispatch(ctx, t, fake, got, after)
		if _, err := fake.WaitCallback(ctx, after.ID); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("429 on callback is retried", func(t *testing.T) {
		in := fake.SlashCommand("roll", fakediscord.StringOpt("expr", "3d6"))
		fake.FailNext(1, func(r fakediscord.Request) bool {
			return r.Route == fakediscord.RouteCallback && r.Param("id") == in.ID
		}, fakediscord.RateLimit(50*time.Millisecond))
		dispatch(ctx, t, fake, got, in)
		var tries []fakediscord.Request
		for _, r := range fake.Requests() {
			if r.Route == fakediscord.RouteCallback && r.Param("id") == in.ID {
				tries = append(tries, r)
			}
		}
		if len(tries) != 2 || tries[0].Status != http.StatusTooManyRequests || !tries[0].Fault || tries[1].Status != http.StatusNoContent {
			t.Fatalf("callback tries %v", tries)
		}
		if gap := tries[1].Time.Sub(tries[0].Time); gap < 50*time.Millisecond {
			t.Errorf("retried after %v, want at least retry_after 50ms", gap)
		}
	})

	t.Run("invalid session", func(t *testing.T) {
		old := fake.SessionID()
		if err := fake.InvalidateSession(false); err != nil {
			t.Fatal(err)
		}
		r := next(ctx, t, readyCh) // discordgo identifies again at once
		if r.SessionID == old || r.SessionID != fake.SessionID() {
			t.Errorf("new session %q, old %q, fake %q", r.SessionID, old, fake.SessionID())
		}
		dispatch(ctx, t, fake, got, fake.SlashCommand("roll"))
	})
}

func TestGatewayRefusesIdentify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		token   string
		intents discordgo.Intent
		code    int
	}{
		{"bad token", "Bot wrong", discordgo.IntentsGuilds, fakediscord.CloseAuthenticationFailed},
		{"privileged intents", fakediscord.DefaultToken, discordgo.IntentsAll, fakediscord.CloseDisallowedIntents},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakediscord.New(fakediscord.Options{Logf: t.Logf})
			defer fake.Close()
			s, err := discordgo.New(tc.token)
			if err != nil {
				t.Fatal(err)
			}
			s.Client = fake.Client()
			s.Identify.Intents = tc.intents
			// A failed Open leaves no connection, so there is nothing to Close.
			err = s.Open()
			var ce *websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != tc.code {
				t.Fatalf("Open: %v, want close %d", err, tc.code)
			}
		})
	}
}

func restError(t *testing.T, err error, status, code int) {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("error %v, want a RESTError %d/%d", err, status, code)
	}
	if re.Response.StatusCode != status || re.Message == nil || re.Message.Code != code {
		t.Fatalf("error %v, want %d with code %d", err, status, code)
	}
}

// TestREST drives the REST routes without a gateway (no Open, no Close).
func TestREST(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fake := fakediscord.New(fakediscord.Options{Logf: t.Logf})
	defer fake.Close()
	s, err := discordgo.New(fakediscord.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = fake.Client()

	t.Run("bulk overwrite", func(t *testing.T) {
		cmds := []*discordgo.ApplicationCommand{
			{Name: "roll", Description: "Roll dice", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "expr", Description: "Dice", Required: true},
			}},
			{Name: "init", Description: "Initiative"},
		}
		first, err := s.ApplicationCommandBulkOverwrite(fake.AppID(), "", cmds)
		if err != nil {
			t.Fatal(err)
		}
		if len(first) != 2 || first[0].ID == "" || first[0].Name != "roll" || first[0].ApplicationID != fake.AppID() ||
			len(first[0].Options) != 1 || first[0].Options[0].Name != "expr" {
			t.Fatalf("overwrite answered %+v", first)
		}
		again, err := s.ApplicationCommandBulkOverwrite(fake.AppID(), "", cmds)
		if err != nil {
			t.Fatal(err)
		}
		if again[0].ID != first[0].ID || again[1].ID != first[1].ID {
			t.Errorf("IDs changed across overwrites: %s %s -> %s %s", first[0].ID, first[1].ID, again[0].ID, again[1].ID)
		}
		guild, err := s.ApplicationCommandBulkOverwrite(fake.AppID(), fakediscord.DefaultGuildID, cmds[:1])
		if err != nil {
			t.Fatal(err)
		}
		if len(guild) != 1 || guild[0].GuildID != fakediscord.DefaultGuildID || guild[0].ID == first[0].ID {
			t.Errorf("guild overwrite answered %+v", guild[0])
		}
		req, err := fake.WaitRequest(ctx, fakediscord.Route(fakediscord.RouteGuildCommands))
		if err != nil {
			t.Fatal(err)
		}
		var body []map[string]any
		if err := req.Decode(&body); err != nil || len(body) != 1 || body[0]["name"] != "roll" {
			t.Errorf("recorded body %s (%v)", req.Body, err)
		}
		if got := fake.SlashCommand("roll"); got.CommandID != guild[0].ID {
			t.Errorf("built interaction's command ID %s, want the guild command's %s", got.CommandID, guild[0].ID)
		}
		_, err = s.ApplicationCommandBulkOverwrite(fakediscord.DefaultBotUserID, "", cmds)
		restError(t, err, http.StatusForbidden, 50001)
	})

	t.Run("bad token", func(t *testing.T) {
		bad, err := discordgo.New("Bot wrong")
		if err != nil {
			t.Fatal(err)
		}
		bad.Client = fake.Client()
		_, err = bad.ChannelMessageSend(fakediscord.DefaultChannelID, "hi")
		restError(t, err, http.StatusUnauthorized, 0)
	})

	t.Run("interaction lifecycle", func(t *testing.T) {
		in := fake.SlashCommand("roll")
		if err := fake.AddInteraction(in); err != nil {
			t.Fatal(err)
		}
		i := &discordgo.Interaction{ID: in.ID, AppID: in.AppID, Token: in.Token}
		_, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "too early"})
		restError(t, err, http.StatusNotFound, 10015)
		deferred := &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
		}
		if err := s.InteractionRespond(i, deferred); err != nil {
			t.Fatal(err)
		}
		restError(t, s.InteractionRespond(i, deferred), http.StatusBadRequest, 40060)
		content := "rolled 7"
		m, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
		if err != nil {
			t.Fatal(err)
		}
		if m.Content != content || m.Flags != discordgo.MessageFlagsEphemeral {
			t.Errorf("edited original %+v", m)
		}
		f, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "follow-up"})
		if err != nil {
			t.Fatal(err)
		}
		if f.ID == "" || f.Content != "follow-up" || f.ChannelID != fakediscord.DefaultChannelID {
			t.Errorf("follow-up %+v", f)
		}
		cb, err := fake.WaitCallback(ctx, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cb.Type != 5 || !cb.Data.Ephemeral() {
			t.Errorf("callback %+v", cb)
		}
		unknown := &discordgo.Interaction{ID: "1", Token: "nope"}
		restError(t, s.InteractionRespond(unknown, deferred), http.StatusNotFound, 10062)
	})

	// An interaction the HTTP endpoint deferred, which the fake never saw:
	// its placeholder can be edited into the answer, or deleted to make
	// way for a private one, as on Discord.
	t.Run("answered elsewhere", func(t *testing.T) {
		for _, private := range []bool{false, true} {
			in := fake.SlashCommand("roll")
			i := &discordgo.Interaction{ID: in.ID, AppID: in.AppID, Token: in.Token}
			if private {
				if err := s.InteractionResponseDelete(i); err != nil {
					t.Fatalf("delete the placeholder: %v", err)
				}
				restError(t, s.InteractionResponseDelete(i), http.StatusNotFound, 10008)
				continue
			}
			content := "rolled 7"
			m, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
			if err != nil {
				t.Fatalf("edit the placeholder: %v", err)
			}
			if m.Content != content {
				t.Errorf("edited placeholder %+v", m)
			}
		}
	})

	t.Run("channel message with faults", func(t *testing.T) {
		route := fakediscord.Route(fakediscord.RouteCreateMessage)
		mark := len(fake.Requests())
		fake.FailNext(2, route, fakediscord.ServerError(http.StatusBadGateway)) // discordgo retries 502
		fake.FailNext(1, route, fakediscord.Fault{Status: http.StatusTooManyRequests, RetryAfter: 20 * time.Millisecond, Global: true})
		m, err := s.ChannelMessageSend(fakediscord.DefaultChannelID, "hello")
		if err != nil {
			t.Fatal(err)
		}
		if m.Content != "hello" || m.Author == nil || !m.Author.Bot {
			t.Errorf("message %+v", m)
		}
		fake.FailNext(1, route, fakediscord.ServerError(http.StatusInternalServerError))
		_, err = s.ChannelMessageSend(fakediscord.DefaultChannelID, "hello")
		restError(t, err, http.StatusInternalServerError, 0)
		fake.FailNext(1, route, fakediscord.Fault{Drop: true})
		if _, err = s.ChannelMessageSend(fakediscord.DefaultChannelID, "hello"); err == nil {
			t.Error("dropped request succeeded")
		}
		_, err = s.ChannelMessageSend(fakediscord.DefaultChannelID, "")
		restError(t, err, http.StatusBadRequest, 50006)
		_, err = s.ChannelMessageSend(fakediscord.DefaultChannelID, strings.Repeat("x", 2001))
		restError(t, err, http.StatusBadRequest, 50035)
		var statuses []int
		for _, r := range fake.Requests()[mark:] {
			if route(r) {
				statuses = append(statuses, r.Status)
			}
		}
		want := []int{502, 502, 429, 200, 500, 0, 400, 400}
		if len(statuses) != len(want) {
			t.Fatalf("statuses %v, want %v", statuses, want)
		}
		for i := range want {
			if statuses[i] != want[i] {
				t.Fatalf("statuses %v, want %v", statuses, want)
			}
		}
	})

	t.Run("unknown route", func(t *testing.T) {
		_, err := s.User("@me")
		restError(t, err, http.StatusNotFound, 0)
		r, err := fake.WaitRequest(ctx, func(r fakediscord.Request) bool { return r.Path == "/api/v9/users/@me" })
		if err != nil {
			t.Fatal(err)
		}
		if r.Route != "" || r.Status != http.StatusNotFound || r.Method != http.MethodGet {
			t.Errorf("recorded %v route %q", r, r.Route)
		}
	})

	t.Run("wait times out", func(t *testing.T) {
		short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		defer cancel()
		if _, err := fake.WaitRequest(short, func(fakediscord.Request) bool { return false }); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("WaitRequest: %v, want deadline exceeded", err)
		}
	})
}

func TestCallbackDeadline(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(fakediscord.Options{CallbackDeadline: time.Nanosecond})
	defer fake.Close()
	s, err := discordgo.New(fakediscord.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = fake.Client()
	in := fake.SlashCommand("roll")
	if err := fake.AddInteraction(in); err != nil {
		t.Fatal(err)
	}
	err = s.InteractionRespond(&discordgo.Interaction{ID: in.ID, Token: in.Token},
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	restError(t, err, http.StatusNotFound, 10062)
}

// rawConn is a bare websocket client for the gateway paths discordgo only
// reaches through its 1 s Close (server-side closes, op 7) or never.
type rawConn struct {
	t *testing.T
	c *websocket.Conn
}

func dialRaw(t *testing.T, fake *fakediscord.Server) *rawConn {
	t.Helper()
	c, resp, err := websocket.DefaultDialer.Dial(fake.GatewayURL()+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Logf("close raw conn: %v", err)
		}
	})
	r := &rawConn{t: t, c: c}
	if hello := r.read(); hello.Op != 10 {
		t.Fatalf("first frame op %d, want HELLO", hello.Op)
	}
	return r
}

type rawFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func (r *rawConn) send(op int, d any) {
	r.t.Helper()
	if err := r.c.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		r.t.Fatalf("send op %d: %v", op, err)
	}
}

// read returns the next frame; a close frame is returned as an error.
func (r *rawConn) readErr() (rawFrame, error) {
	if err := r.c.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return rawFrame{}, err
	}
	var f rawFrame
	err := r.c.ReadJSON(&f)
	return f, err
}

func (r *rawConn) read() rawFrame {
	r.t.Helper()
	f, err := r.readErr()
	if err != nil {
		r.t.Fatalf("read: %v", err)
	}
	return f
}

func (r *rawConn) dispatch(wantType string, wantSeq int64) rawFrame {
	r.t.Helper()
	f := r.read()
	if f.Op != 0 || f.T == nil || *f.T != wantType || f.S == nil || *f.S != wantSeq {
		r.t.Fatalf("got op %d t %v s %v, want dispatch %s s %d", f.Op, deref(f.T), deref(f.S), wantType, wantSeq)
	}
	return f
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func (r *rawConn) wantClose(code int) {
	r.t.Helper()
	_, err := r.readErr()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != code {
		r.t.Fatalf("read: %v, want close %d", err, code)
	}
}

func TestGatewayRaw(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(fakediscord.Options{HeartbeatInterval: 1500 * time.Millisecond, Logf: t.Logf})
	defer fake.Close()
	identify := map[string]any{"token": fakediscord.DefaultToken, "intents": 1}

	t.Run("hello interval", func(t *testing.T) {
		dialRaw(t, fake)
		var hello fakediscord.Frame
		for _, f := range fake.Frames() {
			if f.Op == 10 {
				hello = f
			}
		}
		if string(hello.Data) != `{"heartbeat_interval":1500}` {
			t.Errorf("HELLO d %s", hello.Data)
		}
	})
	t.Run("not authenticated", func(t *testing.T) {
		r := dialRaw(t, fake)
		r.send(3, map[string]any{})
		r.wantClose(fakediscord.CloseNotAuthenticated)
	})
	t.Run("unknown opcode", func(t *testing.T) {
		r := dialRaw(t, fake)
		r.send(99, nil)
		r.wantClose(fakediscord.CloseUnknownOpcode)
	})
	t.Run("close, replay on resume, reconnect request", func(t *testing.T) {
		r := dialRaw(t, fake)
		r.send(2, identify)
		var ready struct {
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(r.dispatch("READY", 1).D, &ready); err != nil {
			t.Fatal(err)
		}
		r.send(1, 1)
		if f := r.read(); f.Op != 11 {
			t.Fatalf("heartbeat answered with op %d", f.Op)
		}
		if err := fake.Dispatch("MESSAGE_CREATE", map[string]string{"id": "1"}); err != nil {
			t.Fatal(err)
		}
		r.dispatch("MESSAGE_CREATE", 2)
		fake.CloseGateway(fakediscord.CloseUnknownError, "bye")
		r.wantClose(fakediscord.CloseUnknownError)
		if err := fake.Dispatch("MESSAGE_DELETE", map[string]string{"id": "1"}); err != nil {
			t.Fatal(err)
		}

		r2 := dialRaw(t, fake)
		r2.send(6, map[string]any{"token": fakediscord.DefaultToken, "session_id": ready.SessionID, "seq": 1})
		r2.dispatch("MESSAGE_CREATE", 2)
		r2.dispatch("MESSAGE_DELETE", 3)
		r2.dispatch("RESUMED", 4)
		r2.send(2, identify)
		r2.wantClose(fakediscord.CloseAlreadyAuthenticated)

		r3 := dialRaw(t, fake)
		r3.send(6, map[string]any{"token": fakediscord.DefaultToken, "session_id": ready.SessionID, "seq": 4})
		r3.dispatch("RESUMED", 5)
		if err := fake.RequestReconnect(); err != nil {
			t.Fatal(err)
		}
		if f := r3.read(); f.Op != 7 {
			t.Fatalf("got op %d, want RECONNECT", f.Op)
		}
	})
	t.Run("heartbeat request, drop right after resume", func(t *testing.T) {
		r := dialRaw(t, fake)
		r.send(2, identify)
		var ready struct {
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(r.dispatch("READY", 1).D, &ready); err != nil {
			t.Fatal(err)
		}
		if err := fake.RequestHeartbeat(); err != nil {
			t.Fatal(err)
		}
		if f := r.read(); f.Op != 1 {
			t.Fatalf("got op %d, want a HEARTBEAT request", f.Op)
		}
		fake.DropAfterResume(1)
		fake.DropGateway()
		resume := map[string]any{"token": fakediscord.DefaultToken, "session_id": ready.SessionID, "seq": 1}
		r2 := dialRaw(t, fake)
		r2.send(6, resume)
		r2.dispatch("RESUMED", 2)
		// gorilla reports an end without a close frame as 1006.
		if f, err := r2.readErr(); !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
			t.Fatalf("after RESUMED: op %d, %v; want the connection dropped without a close frame", f.Op, err)
		}
		if err := fake.RequestHeartbeat(); !errors.Is(err, fakediscord.ErrNoSession) {
			t.Errorf("heartbeat request with no live connection: %v, want ErrNoSession", err)
		}
		// Only the next one: the session is still there to resume.
		resume["seq"] = 2
		r3 := dialRaw(t, fake)
		r3.send(6, resume)
		r3.dispatch("RESUMED", 3)
		r3.send(1, 3)
		if f := r3.read(); f.Op != 11 {
			t.Fatalf("heartbeat answered with op %d", f.Op)
		}
	})
	t.Run("no heartbeat acks, resume of unknown session", func(t *testing.T) {
		fake.SetHeartbeatAcks(false)
		defer fake.SetHeartbeatAcks(true)
		r := dialRaw(t, fake)
		r.send(1, nil) // frames are handled in order: no ACK comes before the answer to the RESUME
		r.send(6, map[string]any{"token": fakediscord.DefaultToken, "session_id": "nope", "seq": 1})
		if f := r.read(); f.Op != 9 || string(f.D) != "false" {
			t.Fatalf("got op %d d %s, want INVALID_SESSION false", f.Op, f.D)
		}
	})
	t.Run("rejected dial", func(t *testing.T) {
		fake.RejectGateway(1)
		_, resp, err := websocket.DefaultDialer.Dial(fake.GatewayURL(), nil)
		if !errors.Is(err, websocket.ErrBadHandshake) || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("dial: %v, want a bad handshake with 503", err)
		}
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
		dialRaw(t, fake)
	})
}
