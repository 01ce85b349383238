package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/bot/fakediscord"
)

// The secret rolls of the visibility tests: totals and dice no other
// message has, so that finding one in a message is finding the roll.
const (
	gmRollExpr    = "1d20+98765" // dice:17
	gmRollTotal   = "98782"
	blindRollExpr = "1d20+87654" // dice:16
	blindTotal    = "87670"
	gmChannelID   = "1300000000000000099"
	ephemeral     = discordgo.MessageFlagsEphemeral
)

// secretLeaks lists the secret totals and dice text contains.
func secretLeaks(text string) []string {
	var out []string
	for _, s := range []string{gmRollTotal, blindTotal, "(17)", "(16)", "98765", "87654", "1d10 (9)"} {
		if strings.Contains(text, s) {
			out = append(out, s)
		}
	}
	return out
}

// seenMessage is the text of a message as Discord receives it: content,
// embeds and the ephemeral flag.
type seenMessage struct {
	Content string                 `json:"content"`
	Embeds  []json.RawMessage      `json:"embeds"`
	Flags   discordgo.MessageFlags `json:"flags"`
}

func (m seenMessage) text() string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		b.Write(e)
	}
	return b.String()
}

// seenInChannel returns the text of every message the bot sent to Discord
// that members other than the one who ran the command can read: answers
// and follow-ups that are not ephemeral, edits, and posts in any channel
// but the GM channel.
func seenInChannel(t *testing.T, reqs []fakediscord.Request) []string {
	t.Helper()
	var out []string
	for _, r := range reqs {
		var m seenMessage
		switch r.Route {
		case fakediscord.RouteCallback:
			var cb struct {
				Data *seenMessage `json:"data"`
			}
			if err := json.Unmarshal(r.Payload(), &cb); err != nil {
				t.Fatalf("callback %s: %v", r.Payload(), err)
			}
			if cb.Data == nil {
				continue
			}
			m = *cb.Data
		case fakediscord.RouteFollowup, fakediscord.RouteCreateMessage, fakediscord.RouteEditMessage, fakediscord.RouteEditOriginal:
			if err := json.Unmarshal(r.Payload(), &m); err != nil {
				t.Fatalf("%s %s: %v", r.Route, r.Payload(), err)
			}
			if r.Route == fakediscord.RouteCreateMessage && r.Param("channel") == gmChannelID {
				continue
			}
		default:
			continue
		}
		if m.Flags&ephemeral == 0 {
			out = append(out, m.text())
		}
	}
	return out
}

// gmPosts returns the text of the messages posted in the GM channel.
func gmPosts(t *testing.T, reqs []fakediscord.Request) string {
	var b strings.Builder
	for _, r := range reqs {
		if r.Route == fakediscord.RouteCreateMessage && r.Param("channel") == gmChannelID {
			var m seenMessage
			if err := json.Unmarshal(r.Payload(), &m); err != nil {
				t.Fatal(err)
			}
			b.WriteString(m.text() + "\n")
		}
	}
	return b.String()
}

// privateFollowups returns the content of the ephemeral follow-ups the
// bot sent to Discord, in order.
func privateFollowups(t *testing.T, reqs []fakediscord.Request) []string {
	t.Helper()
	var out []string
	for _, r := range reqs {
		if r.Route != fakediscord.RouteFollowup {
			continue
		}
		var m seenMessage
		if err := json.Unmarshal(r.Payload(), &m); err != nil {
			t.Fatalf("%s %s: %v", r.Route, r.Payload(), err)
		}
		if m.Flags&ephemeral != 0 {
			out = append(out, m.Content)
		}
	}
	return out
}

// checkSecretsKept fails t if a secret roll's total or dice are in a
// message other players can read (what reqs sent to Discord that they
// see, the answers seen that left otherwise, bob's /history bobSaw), or
// if either secret roll is missing from the GM channel's posts or from
// the GM's /history gmSaw.
func checkSecretsKept(t *testing.T, reqs []fakediscord.Request, seen []string, bobSaw, gmSaw string) {
	t.Helper()
	for _, text := range append(append(seen, seenInChannel(t, reqs)...), bobSaw) {
		if leaks := secretLeaks(text); len(leaks) > 0 {
			t.Errorf("a message other players can read shows %v of a secret roll:\n%s", leaks, text)
		}
	}
	if posts := gmPosts(t, reqs); !strings.Contains(posts, gmRollTotal) || !strings.Contains(posts, blindTotal) {
		t.Errorf("the GM channel got %q; want both secret rolls", posts)
	}
	if !strings.Contains(gmSaw, gmRollTotal) || !strings.Contains(gmSaw, blindTotal) {
		t.Errorf("the GM's /history shows %q; want both secret rolls' totals", gmSaw)
	}
}

// secretRollSteps are the interactions of the visibility tests, built on
// fake: the GM sets the GM channel, alice makes a gm and a blind roll,
// bob (a player) asks /history, and the GM does.
func secretRollSteps(fake *fakediscord.Server) (gm, alice, bob func(fakediscord.Interaction) fakediscord.Interaction, steps []fakediscord.Interaction) {
	as := func(id, name, perms string) func(fakediscord.Interaction) fakediscord.Interaction {
		return func(in fakediscord.Interaction) fakediscord.Interaction {
			in.User = fakediscord.User{ID: id, Username: name}
			in.Permissions = perms
			return in
		}
	}
	gm = as("1400000000000000010", "gm", "16") // Manage Channels
	alice = as("1400000000000000011", "alice", "0")
	bob = as("1400000000000000012", "bob", "0")
	steps = []fakediscord.Interaction{
		gm(fake.SlashCommand("system", fakediscord.Subcommand("gm-channel", fakediscord.ChannelOpt("channel", gmChannelID)))),
		alice(fake.SlashCommand("roll", fakediscord.StringOpt("expression", gmRollExpr), fakediscord.StringOpt("dice", "17"), fakediscord.StringOpt("visibility", "gm"))),
		alice(fake.SlashCommand("roll", fakediscord.StringOpt("expression", blindRollExpr), fakediscord.StringOpt("dice", "16"), fakediscord.StringOpt("visibility", "blind"))),
		bob(fake.SlashCommand("history")),
		gm(fake.SlashCommand("history")),
	}
	return gm, alice, bob, steps
}

// TestSecretRollsOverGateway: over the gateway, a gm or blind roll's
// total and dice are in no message another player can read (the
// channel's answers, follow-ups that are not ephemeral, posts outside the
// GM channel, bob's /history), and they are in the GM channel's posts,
// in the gm roll's roller's private follow-up and in the GM's /history.
func TestSecretRollsOverGateway(t *testing.T) {
	s := serve(t, ServeOptions{}, fakediscord.Options{})
	_, _, _, steps := secretRollSteps(s.fake)
	var bobSaw, gmSaw string
	for i, in := range steps {
		cb := s.answer(t, in)
		switch i {
		case 3:
			bobSaw = cb.Data.Content
		case 4:
			gmSaw = cb.Data.Content
		}
	}
	reqs := s.fake.Requests()
	checkSecretsKept(t, reqs, nil, bobSaw, gmSaw)
	if posts := gmPosts(t, reqs); !strings.Contains(posts, "This is now the GM channel") {
		t.Errorf("the GM channel got %q; want the check post", posts)
	}
	mine := slices.ContainsFunc(privateFollowups(t, reqs), func(content string) bool { return strings.Contains(content, gmRollTotal) })
	if !mine {
		t.Error("alice did not get her gm roll's result in a private follow-up")
	}
}

// TestGMChannelRefused: when Discord refuses the post in the GM channel
// (the bot may not write there), the GM who sets it, and then a roller,
// are told so privately.
func TestGMChannelRefused(t *testing.T) {
	s := serve(t, ServeOptions{}, fakediscord.Options{})
	gm, alice, _, _ := secretRollSteps(s.fake)
	forbidden := fakediscord.Fault{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"}
	s.fake.FailNext(2, fakediscord.Route(fakediscord.RouteCreateMessage), forbidden)
	s.answer(t, gm(s.fake.SlashCommand("system", fakediscord.Subcommand("gm-channel", fakediscord.ChannelOpt("channel", gmChannelID)))))
	s.answer(t, alice(s.fake.SlashCommand("roll", fakediscord.StringOpt("expression", blindRollExpr), fakediscord.StringOpt("dice", "16"), fakediscord.StringOpt("visibility", "blind"))))
	told := privateFollowups(t, s.fake.Requests())
	if len(told) != 2 || !strings.Contains(told[0], "Tablehand cannot post in <#"+gmChannelID+">: give it View Channel and Send Messages") ||
		!strings.Contains(told[1], "could not post this roll in the GM channel") {
		t.Errorf("private follow-ups %q; want the GM told the channel is refused, then alice", told)
	}
	for _, text := range told {
		if leaks := secretLeaks(text); len(leaks) > 0 {
			t.Errorf("the refusal shows %v of the blind roll: %s", leaks, text)
		}
	}
}

// TestSecretRollsOverHTTP is TestSecretRollsOverGateway for the HTTP
// interactions endpoint: answers leave as HTTP responses, follow-ups and
// posts through the REST session.
func TestSecretRollsOverHTTP(t *testing.T) {
	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	rest := fakeREST(t, fake)
	router := testRouter(t)
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: router, REST: rest, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	_, _, _, steps := secretRollSteps(fake)
	var seen []string
	var bobSaw, gmSaw string
	for i, in := range steps {
		if err := fake.AddInteraction(in); err != nil {
			t.Fatal(err)
		}
		resp := s.post(t, srv.URL, interactionJSON(t, in), testNow)
		var body bytes.Buffer
		if _, err := body.ReadFrom(resp.Body); err != nil {
			t.Fatal(err)
		}
		var ir struct {
			Data *seenMessage `json:"data"`
		}
		if err := json.Unmarshal(body.Bytes(), &ir); err != nil || ir.Data == nil {
			t.Fatalf("step %d answered %s (%v)", i, body.Bytes(), err)
		}
		if ir.Data.Flags&ephemeral == 0 {
			seen = append(seen, ir.Data.text())
		}
		switch i {
		case 3:
			bobSaw = ir.Data.Content
		case 4:
			gmSaw = ir.Data.Content
		}
		e.Wait() // the follow-ups and posts have gone
	}
	checkSecretsKept(t, fake.Requests(), seen, bobSaw, gmSaw)
}

// TestSecretRollsInConsole: the console's lines say who sees what; a
// secret roll's total and dice are in none another player can see.
func TestSecretRollsInConsole(t *testing.T) {
	router := testRouter(t)
	in := strings.Join([]string{
		"@gm /system gm-channel channel:" + gmChannelID,
		"@alice /roll " + gmRollExpr + " dice:17 visibility:gm",
		"@alice /roll " + blindRollExpr + " dice:16 visibility:blind",
		"@alice /arc reaction som:5 dice:9 visibility:blind",
		"@bob /history",
		"@gm /history",
	}, "\n")
	var out bytes.Buffer
	if err := Console(context.Background(), ConsoleOptions{Router: router, JSON: true, GMs: []string{"gm"}, Guild: "g"}, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var gmPosted, gmSaw string
	for _, raw := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		// ConsoleLine's discordgo types cannot decode buttons: the fields
		// that say who reads what.
		var l struct {
			Input, User string
			Response    struct{ Data *seenMessage }
			Result      json.RawMessage
			Followups   []seenMessage
			Posts       []struct {
				ChannelID string `json:"channel_id"`
				Data      seenMessage
			}
			Edit *struct{ Data seenMessage }
		}
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		var others []string // what members other than l.User can read
		if d := l.Response.Data; d != nil && d.Flags&ephemeral == 0 {
			others = append(others, d.Content)
		}
		for _, f := range l.Followups {
			if f.Flags&ephemeral == 0 {
				others = append(others, f.Content)
			}
		}
		for _, p := range l.Posts {
			if p.ChannelID == gmChannelID {
				gmPosted += p.Data.Content
			} else {
				others = append(others, p.Data.Content)
			}
		}
		if l.Edit != nil {
			others = append(others, l.Edit.Data.Content)
		}
		if l.User == "bob" {
			others = append(others, string(raw)) // bob reads all of his
		}
		if l.User == "gm" {
			gmSaw += l.Response.Data.Content
		}
		for _, text := range others {
			if leaks := secretLeaks(text); len(leaks) > 0 {
				t.Errorf("%s: a message other players can read shows %v of a secret roll:\n%s", l.Input, leaks, text)
			}
		}
		if strings.Contains(l.Input, "visibility:") {
			if res := l.Result; len(secretLeaks(string(res))) > 0 || strings.Contains(string(res), `"total"`) {
				t.Errorf("%s: the public answer's result %s holds the roll's total or dice", l.Input, res)
			}
		}
	}
	if !strings.Contains(gmPosted, gmRollTotal) || !strings.Contains(gmPosted, blindTotal) || !strings.Contains(gmPosted, "1d10 (9)") {
		t.Errorf("the GM channel got %q; want the three secret rolls", gmPosted)
	}
	if !strings.Contains(gmSaw, gmRollTotal) || !strings.Contains(gmSaw, blindTotal) {
		t.Errorf("the GM's /history shows %q; want both secret rolls' totals", gmSaw)
	}
}
