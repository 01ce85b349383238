package bot

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
)

// stallStore makes the store at source stall from another connection,
// as a slow database does, until the returned function lifts it: on
// PostgreSQL every table a command touches is locked (reads wait too);
// on SQLite the write lock is held (writes wait, up to the busy timeout).
func stallStore(t *testing.T, source string, postgres bool) (lift func()) {
	t.Helper()
	ctx := context.Background()
	other, err := db.Open(ctx, source)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := other.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{"BEGIN IMMEDIATE"}
	if postgres {
		stmts = []string{"BEGIN", "LOCK TABLE interactions, rolls, system_settings IN ACCESS EXCLUSIVE MODE"}
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("stall the store: %s: %v", s, err)
		}
	}
	lifted := false
	lift = func() {
		if lifted {
			return
		}
		lifted = true
		if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
			t.Error(err)
		}
		conn.Close()
		other.Close()
	}
	t.Cleanup(lift)
	return lift
}

// deferClock is the endpoint's defer clock in a test: each request's
// clock is handed to the test, which fires it when it chooses.
type deferClock chan chan time.Time

func (c deferClock) after(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c <- ch
	return ch
}

// next is the clock of the next request, started when it arrived.
func (c deferClock) next(t *testing.T) chan time.Time {
	t.Helper()
	select {
	case ch := <-c:
		return ch
	case <-time.After(5 * time.Second):
		t.Fatal("the request started no defer clock")
		return nil
	}
}

// A slow store costs no interaction Discord's 3 seconds: with the store
// stalled, /odds and /help are answered at once without their defer
// clock ever firing, and a /roll, which waits on the replay memory and
// the roll log, is deferred when its clock (started when it arrived)
// fires, and followed up, once, when the store comes back.
func TestStalledStoreAnswersInTime(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			source := dbtest.Source(t, kind)
			ctx := context.Background()
			store, err := db.Open(ctx, source)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			deps := seededDeps(store)
			router := commands.New(deps)

			s := newSigner(t)
			fake := fakediscord.New(fakediscord.Options{})
			defer fake.Close()
			rest := fakeREST(t, fake)
			clock := make(deferClock, 10)
			e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: Logged(router, nil, nil), REST: rest, Replays: store,
				Now: func() time.Time { return testNow }, After: clock.after})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(e)
			defer srv.Close()

			lift := stallStore(t, source, kind == "postgres")
			send := func(in fakediscord.Interaction) <-chan wireResponse {
				out := make(chan wireResponse, 1)
				body := interactionJSON(t, in)
				go func() { out <- readAnswer(t, s.post(t, srv.URL, body, testNow)) }()
				return out
			}
			// Well inside the 5 s SQLite's busy timeout stalls a write for,
			// and PostgreSQL's lock for ever.
			const inTime = 3 * time.Second
			wait := func(what string, c <-chan wireResponse) wireResponse {
				t.Helper()
				select {
				case ir := <-c:
					return ir
				case <-time.After(inTime):
					t.Fatalf("%s: no answer in %v with the store stalled", what, inTime)
					return wireResponse{}
				}
			}

			for _, in := range []fakediscord.Interaction{
				fake.SlashCommand("odds", fakediscord.StringOpt("expression", "2d6")),
				fake.SlashCommand("help"),
				fake.SlashCommand("help", fakediscord.StringOpt("command", "roll")),
			} {
				c := send(in)
				clock.next(t) // started, never fired
				ir := wait(in.Name, c)
				if ir.Type != discordgo.InteractionResponseChannelMessageWithSource || ir.Data == nil {
					t.Errorf("/%s with the store stalled: %+v, want its answer (type 4)", in.Name, ir)
				}
			}

			in := fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d6"), fakediscord.StringOpt("dice", "4"))
			if err := fake.AddInteraction(in); err != nil {
				t.Fatal(err)
			}
			c := send(in)
			fire := clock.next(t)
			select {
			case ir := <-c:
				t.Fatalf("/roll answered with the store stalled, before its defer clock fired: %+v", ir)
			default:
			}
			fire <- testNow.Add(DeferAfter)
			ir := wait("roll", c)
			if ir.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
				t.Fatalf("/roll with the store stalled: type %d, want 5 (deferred)", ir.Type)
			}
			var di discordgo.Interaction
			if err := json.Unmarshal(interactionJSON(t, in), &di); err != nil {
				t.Fatal(err)
			}
			if err := rest.InteractionRespond(&di, &discordgo.InteractionResponse{Type: ir.Type}); err != nil {
				t.Fatalf("acknowledge at the fake: %v", err)
			}
			lift()
			got, err := fake.WaitRequest(waitCtx(t), fakediscord.Route(fakediscord.RouteEditOriginal))
			if err != nil {
				t.Fatalf("no follow-up once the store came back: %v", err)
			}
			var msg struct {
				Content string `json:"content"`
			}
			if err := got.Decode(&msg); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg.Content, "1d6 (4)") {
				t.Errorf("follow-up %q, want the roll", msg.Content)
			}
			e.Wait()
			var n int
			if err := store.SQL().QueryRow(`SELECT count(*) FROM rolls`).Scan(&n); err != nil || n != 1 {
				t.Errorf("%d rolls logged (%v), want 1", n, err)
			}
			// Sent again, it is a replay: refused, not rolled again.
			if resp := s.post(t, srv.URL, interactionJSON(t, in), testNow); resp.StatusCode != 409 {
				t.Errorf("the roll sent again: status %d, want 409", resp.StatusCode)
			}
		})
	}
}

// readAnswer reads the interaction response of resp, JSON or multipart
// (payload_json beside the files).
func readAnswer(t *testing.T, resp *http.Response) wireResponse {
	var ir wireResponse
	body := io.Reader(resp.Body)
	if mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil && mt == "multipart/form-data" {
		mr := multipart.NewReader(resp.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				t.Errorf("no payload_json: %v", err)
				return ir
			}
			if p.FormName() == "payload_json" {
				body = p
				break
			}
		}
	}
	if err := json.NewDecoder(body).Decode(&ir); err != nil {
		t.Errorf("decode the answer (status %d): %v", resp.StatusCode, err)
	}
	return ir
}

// On SQLite too the replay memory is the store's: an interaction sent
// again after the process restarted (the store closed and opened again,
// the endpoint's own memory gone) is refused, not run again, within the
// window a signed request is accepted in.
func TestReplayRefusedAfterRestart(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			source := dbtest.Source(t, kind)
			s := newSigner(t)
			fake := fakediscord.New(fakediscord.Options{})
			defer fake.Close()
			in := interactionJSON(t, fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d6"), fakediscord.StringOpt("dice", "4")))
			now := testNow
			process := func() (status int, rolls int) {
				store, err := db.Open(context.Background(), source)
				if err != nil {
					t.Fatal(err)
				}
				defer store.Close()
				deps := kit.NewDeps(store, commands.DefaultRules())
				e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: commands.New(deps), Replays: store, Now: func() time.Time { return now }})
				if err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewServer(e)
				defer srv.Close()
				resp := s.post(t, srv.URL, in, testNow)
				e.Wait()
				if err := store.SQL().QueryRow(`SELECT count(*) FROM rolls`).Scan(&rolls); err != nil {
					t.Fatal(err)
				}
				return resp.StatusCode, rolls
			}
			if status, rolls := process(); status != 200 || rolls != 1 {
				t.Fatalf("first: status %d, %d rolls", status, rolls)
			}
			// Restarted, and the signed timestamp still 4 minutes 59 old.
			now = testNow.Add(MaxClockSkew - time.Second)
			if status, rolls := process(); status != 409 || rolls != 1 {
				t.Errorf("sent again after a restart: status %d, %d rolls; want 409 and the one roll", status, rolls)
			}
		})
	}
}
