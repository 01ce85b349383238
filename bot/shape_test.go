package bot

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/db"
)

// storeDigest is a digest of every row of every table of store: equal
// digests, nothing changed.
func storeDigest(t *testing.T, store *db.DB) string {
	t.Helper()
	ctx := context.Background()
	rows, err := store.SQL().QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, table := range tables {
		rows, err := store.SQL().QueryContext(ctx, `SELECT * FROM "`+table+`" ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%s %q\n", table, vals)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestHTTPEndpointRefusesShapes sends, signed, payloads Discord would never
// send (issue 25, item 4): each is a 4xx with a message naming the
// mistake, and the store is exactly as before.
func TestHTTPEndpointRefusesShapes(t *testing.T) {
	store := testStore(t)
	deps := seededDeps(store)
	router := commands.New(deps)

	s := newSigner(t)
	fake := fakediscord.New(fakediscord.Options{}) // only to build fixtures
	defer fake.Close()
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: Logged(router, slogDiscard(), nil), Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()

	// asMap is a fixture as a JSON object, to break.
	asMap := func(in fakediscord.Interaction) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(interactionJSON(t, in), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	send := func(m map[string]any) *http.Response {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return s.post(t, srv.URL, b, testNow)
	}
	initCmd := func(sub string, opts ...fakediscord.Option) map[string]any {
		return asMap(fake.SlashCommand("init", fakediscord.Subcommand(sub, opts...)))
	}
	for _, m := range []map[string]any{
		initCmd("start"),
		initCmd("add", fakediscord.StringOpt("name", "Orc"), fakediscord.IntOpt("hp", 10)),
	} {
		if resp := send(m); resp.StatusCode != http.StatusOK {
			t.Fatalf("setting up the fight: status %d", resp.StatusCode)
		}
	}
	// What the cases break: each, sent whole, changes the store.
	damage := func() map[string]any {
		return initCmd("damage", fakediscord.StringOpt("target", "Orc"), fakediscord.IntOpt("amount", 2))
	}
	roll := func() map[string]any {
		return asMap(fake.SlashCommand("roll", fakediscord.StringOpt("expression", "2d20 + 3")))
	}
	click := func() map[string]any {
		return asMap(fake.Component("init:next"))
	}
	// opt is the first option of a command's leaf.
	opt := func(m map[string]any, name string) map[string]any {
		opts := m["data"].(map[string]any)["options"].([]any)
		for len(opts) == 1 && opts[0].(map[string]any)["options"] != nil {
			opts = opts[0].(map[string]any)["options"].([]any)
		}
		for _, o := range opts {
			if o := o.(map[string]any); o["name"] == name {
				return o
			}
		}
		t.Fatalf("no option %s in %v", name, m)
		return nil
	}
	leafOpts := func(m map[string]any) []any {
		sub := m["data"].(map[string]any)["options"].([]any)[0].(map[string]any)
		return sub["options"].([]any)
	}
	user := func(m map[string]any) map[string]any {
		if mem, ok := m["member"].(map[string]any); ok {
			return mem["user"].(map[string]any)
		}
		return m["user"].(map[string]any)
	}
	for _, base := range []func() map[string]any{damage, roll} {
		before := storeDigest(t, store)
		if resp := send(base()); resp.StatusCode != http.StatusOK {
			t.Fatalf("a well-formed request: status %d", resp.StatusCode)
		}
		if storeDigest(t, store) == before {
			t.Fatal("a well-formed request changed nothing: the cases below would prove nothing")
		}
	}

	cases := []struct {
		name   string
		base   func() map[string]any
		break_ func(m map[string]any)
		want   string // in the answer's body
	}{
		{"text for an integer", damage, func(m map[string]any) { opt(m, "amount")["value"] = "abc" }, "amount needs a whole number"},
		{"an object for an integer", damage, func(m map[string]any) { opt(m, "amount")["value"] = map[string]any{"x": 1} }, "amount needs a whole number"},
		{"a fraction for an integer", damage, func(m map[string]any) { opt(m, "amount")["value"] = 2.5 }, "amount needs a whole number"},
		{"1e300 for an integer", damage, func(m map[string]any) { opt(m, "amount")["value"] = 1e300 }, "amount needs a whole number"},
		{"null for an integer", damage, func(m map[string]any) { opt(m, "amount")["value"] = nil }, "amount needs a whole number"},
		{"an integer below its minimum", damage, func(m map[string]any) { opt(m, "amount")["value"] = -3 }, "at least 0"},
		{"a number for text", roll, func(m map[string]any) { opt(m, "expression")["value"] = 7 }, "expression needs text"},
		{"text over its length", roll, func(m map[string]any) { opt(m, "expression")["value"] = strings.Repeat("1+", 500) + "1" }, "at most"},
		{"a NUL in text", roll, func(m map[string]any) { opt(m, "expression")["value"] = "2d20\x00+3" }, "NUL"},
		{"an option not defined", roll, func(m map[string]any) {
			d := m["data"].(map[string]any)
			d["options"] = append(d["options"].([]any), map[string]any{"name": "sneaky", "type": 3, "value": "x"})
		}, "no option"},
		{"a required option left out", damage, func(m map[string]any) {
			sub := m["data"].(map[string]any)["options"].([]any)[0].(map[string]any)
			sub["options"] = leafOpts(m)[:1]
		}, "needs amount"},
		{"a choice not offered", damage, func(m map[string]any) {
			sub := m["data"].(map[string]any)["options"].([]any)[0].(map[string]any)
			sub["name"] = "effect"
			sub["options"] = []any{
				map[string]any{"name": "target", "type": 3, "value": "Orc"},
				map[string]any{"name": "effect", "type": 3, "value": "stunned"},
				map[string]any{"name": "rounds", "type": 4, "value": 2},
				map[string]any{"name": "ends", "type": 3, "value": "middle"},
			}
		}, "takes one of"},
		{"a user option not a snowflake", damage, func(m map[string]any) {
			sub := m["data"].(map[string]any)["options"].([]any)[0].(map[string]any)
			sub["name"] = "add"
			sub["options"] = []any{
				map[string]any{"name": "name", "type": 3, "value": "Goblin"},
				map[string]any{"name": "owner", "type": 6, "value": "bob"},
			}
		}, "owner is not a snowflake"},
		{"text for a boolean", roll, func(m map[string]any) {
			m["data"] = map[string]any{"name": "init", "type": 1, "options": []any{map[string]any{
				"name": "list", "type": 1, "options": []any{map[string]any{"name": "post", "type": 5, "value": "yes"}},
			}}}
		}, "post needs true or false"},
		{"a user ID not a snowflake", roll, func(m map[string]any) { user(m)["id"] = "abc" }, "snowflake"},
		{"an empty user ID", roll, func(m map[string]any) { user(m)["id"] = "" }, "snowflake"},
		{"a NUL in the user ID", roll, func(m map[string]any) { user(m)["id"] = "123\x00" }, "snowflake"},
		{"a user ID over 2^64", roll, func(m map[string]any) { user(m)["id"] = "18446744073709551616" }, "snowflake"},
		{"a NUL in the user's name", roll, func(m map[string]any) { user(m)["username"] = "Bob\x00" }, "NUL"},
		{"neither member nor user", roll, func(m map[string]any) { delete(m, "member"); delete(m, "user") }, "neither member.user nor user"},
		{"a member without a user", roll, func(m map[string]any) { delete(m["member"].(map[string]any), "user") }, "neither member.user nor user"},
		{"an interaction ID not a snowflake", roll, func(m map[string]any) { m["id"] = "x1" }, "id is not a snowflake"},
		{"a guild ID not a snowflake", roll, func(m map[string]any) { m["guild_id"] = "guild" }, "guild_id"},
		{"no channel", roll, func(m map[string]any) { delete(m, "channel_id") }, "channel_id"},
		{"a role not a snowflake", roll, func(m map[string]any) {
			m["member"].(map[string]any)["roles"] = []any{"gm"} // the fixture is a guild's: it has a member
		}, "roles"},
		{"an empty custom_id", click, func(m map[string]any) { m["data"].(map[string]any)["custom_id"] = "" }, "custom_id"},
		{"a custom_id over 100", click, func(m map[string]any) {
			m["data"].(map[string]any)["custom_id"] = "init:next:" + strings.Repeat("9", 100)
		}, "custom_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.base()
			c.break_(m)
			before := storeDigest(t, store)
			resp := send(m)
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode < 400 || resp.StatusCode >= 500 {
				t.Errorf("status %d, want 4xx; body %q", resp.StatusCode, body)
			}
			if !strings.Contains(string(body), c.want) {
				t.Errorf("body %q, want it to say %q", body, c.want)
			}
			if storeDigest(t, store) != before {
				t.Error("the store changed")
			}
		})
	}
}

// On the gateway an interaction of a shape Discord would not send runs
// nothing and gets no answer (there is no one to answer): the log says
// it was refused, and the next one is answered as usual.
func TestGatewayDropsShapes(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{Logf: t.Logf})
	t.Cleanup(fake.Close)
	logs := &logSink{t: t}
	s := startServe(t, fake, ServeOptions{Log: slog.New(slog.NewTextHandler(logs, nil))})
	for _, c := range []struct {
		name   string
		break_ func(in *fakediscord.Interaction)
	}{
		{"a user ID that is not a snowflake", func(in *fakediscord.Interaction) { in.User.ID = "alice" }},
		{"a channel ID that is not a snowflake", func(in *fakediscord.Interaction) { in.ChannelID = "12x" }},
		{"a NUL in the user's name", func(in *fakediscord.Interaction) { in.User.GlobalName = "al\x00ice" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := s.roll(13)
			c.break_(&bad)
			if err := fake.DispatchInteraction(bad); err != nil {
				t.Fatal(err)
			}
			logs.waitLog(t, "interaction refused: a shape Discord would not send", "interaction="+bad.ID)
			// The next interaction is answered; by then the refused one
			// would have been too.
			wantRoll(t, "the next interaction", s.answer(t, s.roll(14)), 14)
			if n := len(callbacks(fake, bad.ID)); n != 0 {
				t.Errorf("%d callbacks for the refused interaction, want none", n)
			}
			if lines := logs.lines("path=roll", "interaction="+bad.ID); len(lines) != 0 {
				t.Errorf("the refused interaction ran: %q", lines)
			}
		})
	}
}

func TestIsSnowflake(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "1": true, "381234567890123456": true, "18446744073709551615": true,
		"": false, "01": false, "+1": false, "-1": false, "1_0": false, " 1": false, "1e3": false,
		"18446744073709551616": false, "99999999999999999999": false, "100000000000000000000": false,
	} {
		if got := isSnowflake(s); got != want {
			t.Errorf("isSnowflake(%q) = %v, want %v", s, got, want)
		}
	}
}
