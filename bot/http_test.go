package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

var testNow = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

type signer struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newSigner(t testing.TB) signer {
	t.Helper()
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	priv := ed25519.NewKeyFromSeed(seed)
	return signer{pub: priv.Public().(ed25519.PublicKey), priv: priv}
}

// post sends body to url signed as Discord signs it, at time at.
func (s signer) post(t *testing.T, url string, body []byte, at time.Time) *http.Response {
	t.Helper()
	ts := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(s.priv, append([]byte(ts), body...))
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// wireResponse is an interaction response as JSON carries it.
type wireResponse struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data *struct {
		Content         string `json:"content"`
		Flags           int    `json:"flags"`
		AllowedMentions *struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	} `json:"data"`
}

func decodeResponse(t *testing.T, resp *http.Response) wireResponse {
	t.Helper()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var ir wireResponse
	if err := json.NewDecoder(resp.Body).Decode(&ir); err != nil {
		t.Fatal(err)
	}
	return ir
}

// testRouter is the router over a database of its own, with seeded dice.
func testRouter(t *testing.T) *kit.Router {
	t.Helper()
	return commands.New(seededDeps(testStore(t)))
}

// testStore is a SQLite database of t's own, closed when t ends.
func testStore(t testing.TB) *db.DB {
	t.Helper()
	store, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// seededDeps are the dependencies over store with the default rules and
// dice seeded alike in every run.
func seededDeps(store *db.DB) kit.Deps {
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(1, 2))) }
	return deps
}

// fakeREST is a REST session that talks to fake.
func fakeREST(t testing.TB, fake *fakediscord.Server) *discordgo.Session {
	t.Helper()
	rest, err := discordgo.New(fakediscord.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	rest.Client = fake.Client()
	return rest
}

func interactionJSON(t testing.TB, in fakediscord.Interaction) []byte {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHTTPEndpoint(t *testing.T) {
	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{}) // only to build fixtures here
	defer fake.Close()
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: testRouter(t), Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()

	ping := []byte(`{"id":"1","application_id":"2","type":1,"token":"tok","version":1}`)
	if ir := decodeResponse(t, s.post(t, srv.URL, ping, testNow)); ir.Type != discordgo.InteractionResponsePong {
		t.Errorf("PING answered type %d, want 1", ir.Type)
	}

	roll := interactionJSON(t, fake.SlashCommand("roll", fakediscord.StringOpt("expression", "2d6+3"), fakediscord.StringOpt("dice", "4,5")))
	ir := decodeResponse(t, s.post(t, srv.URL, roll, testNow.Add(-time.Minute)))
	if ir.Type != discordgo.InteractionResponseChannelMessageWithSource || !strings.Contains(ir.Data.Content, "2d6 (4, 5) + 3 = ") {
		t.Errorf("/roll answered %+v", ir.Data)
	}
	if ir.Data.AllowedMentions == nil || ir.Data.AllowedMentions.Parse == nil {
		t.Error("allowed_mentions not set")
	}

	// The same signed request again (a replay, within the timestamp's
	// window) is refused rather than run twice.
	if resp := s.post(t, srv.URL, roll, testNow.Add(-time.Minute)); resp.StatusCode != http.StatusConflict {
		t.Errorf("a replayed interaction: status %d, want 409", resp.StatusCode)
	}

	// Refused before anything is parsed.
	cases := []struct {
		name   string
		mutate func(*http.Request)
		at     time.Time
		status int
	}{
		{"no signature", func(r *http.Request) { r.Header.Del("X-Signature-Ed25519") }, testNow, 401},
		{"signature of other bytes", func(r *http.Request) { r.Header.Set("X-Signature-Ed25519", strings.Repeat("ab", 64)) }, testNow, 401},
		{"not hex", func(r *http.Request) { r.Header.Set("X-Signature-Ed25519", "zz") }, testNow, 401},
		{"timestamp changed", func(r *http.Request) {
			r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(testNow.Unix()+1, 10))
		}, testNow, 401},
		{"six minutes old", nil, testNow.Add(-6 * time.Minute), 401},
		{"six minutes ahead", nil, testNow.Add(6 * time.Minute), 401},
		{"GET", func(r *http.Request) { r.Method = http.MethodGet }, testNow, 405},
	}
	for _, c := range cases {
		ts := strconv.FormatInt(c.at.Unix(), 10)
		req, err := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(roll))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(ts), roll...))))
		req.Header.Set("X-Signature-Timestamp", ts)
		if c.mutate != nil {
			c.mutate(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.status)
		}
	}

	big := append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), MaxInteractionBody)...)
	if resp := s.post(t, srv.URL, big, testNow); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: status %d, want 413", resp.StatusCode)
	}
	if resp := s.post(t, srv.URL, []byte(`{not json`), testNow); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("signed garbage: status %d, want 400", resp.StatusCode)
	}
}

// slow answers after release is closed.
type slow struct {
	release chan struct{}
	resp    kit.Response
}

func (s slow) Handle(ctx context.Context, req *kit.Request) (kit.Response, error) {
	<-s.release
	return s.resp, nil
}

func TestHTTPEndpointDefersSlowAnswers(t *testing.T) {
	for _, ephemeral := range []bool{false, true} {
		s := newSigner(t)
		fake := fakediscord.New(fakediscord.Options{})
		defer fake.Close()
		rest := fakeREST(t, fake)
		h := slow{release: make(chan struct{}), resp: kit.Response{Type: kit.Message, Content: "took a while", Ephemeral: ephemeral}}
		e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: h, REST: rest, Now: func() time.Time { return testNow }, DeferAfter: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(e)
		in := fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d6"))
		if err := fake.AddInteraction(in); err != nil { // the fake accepts webhooks for it
			t.Fatal(err)
		}
		ir := decodeResponse(t, s.post(t, srv.URL, interactionJSON(t, in), testNow))
		if ir.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
			t.Fatalf("slow handler: first answer type %d, want 5 (deferred)", ir.Type)
		}
		// Play Discord's part: the deferred answer makes the "thinking..."
		// message that the follow-up edits or deletes.
		var di discordgo.Interaction
		if err := json.Unmarshal(interactionJSON(t, in), &di); err != nil {
			t.Fatal(err)
		}
		if err := rest.InteractionRespond(&di, &discordgo.InteractionResponse{Type: ir.Type}); err != nil {
			t.Fatalf("acknowledge at the fake: %v", err)
		}
		close(h.release)
		ctx := waitCtx(t)
		route := fakediscord.RouteEditOriginal
		if ephemeral {
			route = fakediscord.RouteFollowup
		}
		got, err := fake.WaitRequest(ctx, fakediscord.Route(route))
		if err != nil {
			t.Fatalf("ephemeral=%v: no %s: %v", ephemeral, route, err)
		}
		var msg struct {
			Content string `json:"content"`
			Flags   int    `json:"flags"`
		}
		if err := got.Decode(&msg); err != nil {
			t.Fatal(err)
		}
		if msg.Content != "took a while" || (msg.Flags&64 != 0) != ephemeral {
			t.Errorf("ephemeral=%v: follow-up %+v", ephemeral, msg)
		}
		e.Wait()
		srv.Close()
	}
}

func TestNewEndpointNeedsKey(t *testing.T) {
	if _, err := NewEndpoint(HTTPOptions{Handler: slow{}}); err == nil || !strings.Contains(err.Error(), "TABLEHAND_PUBLIC_KEY") {
		t.Errorf("no key: %v", err)
	}
	if _, err := ParsePublicKey("abc"); err == nil {
		t.Error("a short key parsed")
	}
	k, err := ParsePublicKey(strings.Repeat("0f", 32))
	if err != nil || len(k) != 32 {
		t.Errorf("a good key: %v", err)
	}
}

// An HTTP-endpoint bot gets no READY: it looks its application up and
// registers the commands over REST.
func TestRESTSessionRegistersCommands(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	router := testRouter(t)
	s, err := RESTSession(context.Background(), "test-token", fake.URL(), "", router, slogDiscard())
	if err != nil || s == nil {
		t.Fatalf("RESTSession: %v", err)
	}
	if n := len(fake.Commands("")); n != len(router.Commands()) {
		t.Errorf("%d commands registered, want %d", n, len(router.Commands()))
	}
	if _, err := RESTSession(context.Background(), "wrong", fake.URL(), "", router, slogDiscard()); err == nil || strings.Contains(err.Error(), "wrong") {
		t.Errorf("a wrong token: %v (want an error without the token)", err)
	}
	if s, err := RESTSession(context.Background(), "", fake.URL(), "", router, slogDiscard()); s != nil || err != nil {
		t.Errorf("no token: %v, %v; want nil, nil", s, err)
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// An answer with an attachment goes back as multipart/form-data: the
// response as payload_json and the file as files[0].
func TestHTTPEndpointAttachments(t *testing.T) {
	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	png := []byte("\x89PNG fake image bytes")
	h := fixed{resp: kit.Response{Type: kit.Message, Content: "odds",
		Embeds: []kit.Embed{{Title: "3d6", Image: "attachment://odds.png"}},
		Files:  []kit.File{{Name: "odds.png", ContentType: "image/png", Data: png}}}}
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: h, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	resp := s.post(t, srv.URL, interactionJSON(t, fake.SlashCommand("odds", fakediscord.StringOpt("expression", "3d6"))), testNow)
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("Content-Type %q (%v); want multipart/form-data", resp.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(resp.Body, params["boundary"])
	parts := map[string][]byte{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		parts[p.FormName()] = b
	}
	if !bytes.Equal(parts["files[0]"], png) {
		t.Errorf("files[0] = %q, want the image", parts["files[0]"])
	}
	if !strings.Contains(string(parts["payload_json"]), `"url":"attachment://odds.png"`) || !strings.Contains(string(parts["payload_json"]), `"type":4`) {
		t.Errorf("payload_json = %s", parts["payload_json"])
	}
}

// fixed answers every request with resp.
type fixed struct{ resp kit.Response }

func (f fixed) Handle(context.Context, *kit.Request) (kit.Response, error) {
	return f.resp, nil
}

// Slow answers to a click and a ping: a click defers as an update (type 6)
// and its update edits the message clicked; an answer that pings someone
// replaces the placeholder with a message of its own, since an edit
// notifies nobody.
func TestHTTPEndpointDefersClicksAndPings(t *testing.T) {
	cases := []struct {
		name      string
		component bool
		resp      kit.Response
		deferType discordgo.InteractionResponseType
		route     string
	}{
		{"click answered with an update", true, kit.Response{Type: kit.UpdateMessage, Content: "Round 2 begins"},
			discordgo.InteractionResponseDeferredMessageUpdate, fakediscord.RouteEditOriginal},
		{"command answered with a ping", false, kit.Response{Type: kit.Message, Content: "<@42> your turn", MentionUsers: []string{"42"}},
			discordgo.InteractionResponseDeferredChannelMessageWithSource, fakediscord.RouteFollowup},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSigner(t)
			fake := fakediscord.New(fakediscord.Options{})
			defer fake.Close()
			rest := fakeREST(t, fake)
			h := slow{release: make(chan struct{}), resp: c.resp}
			e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: h, REST: rest, Now: func() time.Time { return testNow }, DeferAfter: 20 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(e)
			defer srv.Close()
			in := fake.SlashCommand("init", fakediscord.Subcommand("next"))
			if c.component {
				in = fake.Component("init:next:1:1.1")
			}
			if err := fake.AddInteraction(in); err != nil {
				t.Fatal(err)
			}
			ir := decodeResponse(t, s.post(t, srv.URL, interactionJSON(t, in), testNow))
			if ir.Type != c.deferType {
				t.Fatalf("first answer type %d, want %d", ir.Type, c.deferType)
			}
			var di discordgo.Interaction
			if err := json.Unmarshal(interactionJSON(t, in), &di); err != nil {
				t.Fatal(err)
			}
			if err := rest.InteractionRespond(&di, &discordgo.InteractionResponse{Type: ir.Type}); err != nil {
				t.Fatalf("acknowledge at the fake: %v", err)
			}
			close(h.release)
			got, err := fake.WaitRequest(waitCtx(t), fakediscord.Route(c.route))
			if err != nil {
				t.Fatalf("no %s: %v", c.route, err)
			}
			var msg struct {
				Content string `json:"content"`
			}
			if err := json.Unmarshal(got.Payload(), &msg); err != nil || msg.Content != c.resp.Content {
				t.Errorf("%s carried %s (%v)", c.route, got.Payload(), err)
			}
			e.Wait()
		})
	}
}

// The endpoint refuses an interaction ID again for at least
// 2×MaxClockSkew (a request signed up to MaxClockSkew ahead of our clock
// stays acceptable that long), and forgets it in time, so the memory stays
// bounded by the traffic of a few windows.
func TestSeenIDsWindow(t *testing.T) {
	var s seenIDs
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if !s.first("a", t0) || s.first("a", t0) {
		t.Fatal("a new ID, then the same again")
	}
	// Recorded just before the generation turns over, so it is refused
	// for a whole window from then, across the turn.
	late := t0.Add(seenSpan - time.Second)
	if !s.first("b", late) {
		t.Fatal("b is new")
	}
	for _, d := range []time.Duration{time.Second, seenSpan / 2, seenSpan - time.Second} {
		if s.first("b", late.Add(d)) {
			t.Errorf("b accepted again %v after it came", d)
		}
	}
	if s.first("a", t0.Add(seenSpan+time.Minute)) {
		t.Errorf("a accepted again within 2 windows")
	}
	// Long after: forgotten, and the previous generation dropped.
	if !s.first("b", late.Add(3*seenSpan)) {
		t.Errorf("b still remembered three windows later")
	}
	if s.prev != nil || len(s.cur) != 1 {
		t.Errorf("memory not bounded: prev %d, cur %d entries", len(s.prev), len(s.cur))
	}
	// A clock that goes back forgets nothing.
	if s.first("b", late.Add(2*seenSpan)) {
		t.Errorf("b accepted again after the clock went back")
	}
}
