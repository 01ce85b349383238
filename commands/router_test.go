package commands

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

func testRouter(t *testing.T, logs *bytes.Buffer) *Router {
	t.Helper()
	r := newRouter(slog.New(slog.NewTextHandler(logs, nil)), []string{"gm-role"})
	r.define(Command{Name: "t", Description: "test", Options: []Option{
		{Type: SubCommand, Name: "ok", Description: "answers"},
		{Type: SubCommand, Name: "boom", Description: "panics"},
		{Type: SubCommand, Name: "oops", Description: "user mistake"},
		{Type: SubCommand, Name: "fail", Description: "internal failure"},
		{Type: SubCommand, Name: "gm", Description: "GM only"},
	}})
	r.handle("t/ok", func(ctx context.Context, req *Request) (Response, error) {
		return Response{Type: Message, Content: "hello " + req.User.Name}, nil
	}, false)
	r.handle("t/boom", func(ctx context.Context, req *Request) (Response, error) {
		var m map[string]int
		m["x"] = 1 // a nil map write: a real runtime panic
		return Response{}, nil
	}, false)
	r.handle("t/oops", func(ctx context.Context, req *Request) (Response, error) {
		return Response{}, Errorf("count must be 1 or more (example: count:3)")
	}, false)
	r.handle("t/fail", func(ctx context.Context, req *Request) (Response, error) {
		return Response{}, errors.New("load encounter 7: disk I/O error")
	}, false)
	r.handle("t/gm", func(ctx context.Context, req *Request) (Response, error) {
		return Response{Type: Message, Content: "GM stuff"}, nil
	}, true)
	r.handleComponent("btn", func(ctx context.Context, req *Request) (Response, error) {
		return Response{Type: UpdateMessage, Content: "clicked " + req.CustomID}, nil
	}, false)
	r.handleAutocomplete("t/ok", "name", func(ctx context.Context, req *Request) (Response, error) {
		return Response{Choices: []Choice{{Name: "Goblin", Value: "goblin"}}}, nil
	})
	return r
}

func TestRouterAnswersEveryKindOfOutcome(t *testing.T) {
	var logs bytes.Buffer
	r := testRouter(t, &logs)
	ctx := context.Background()
	do := func(req Request) (Response, error) {
		req.User = User{ID: "u1", Name: "alice"}
		return r.Handle(ctx, &req)
	}

	resp, err := do(Request{Kind: KindCommand, Path: "t/ok"})
	if err != nil || resp.Content != "hello alice" || resp.Ephemeral || resp.Type != Message {
		t.Errorf("t/ok = %+v, %v", resp, err)
	}

	resp, err = do(Request{Kind: KindCommand, Path: "t/boom"})
	if err == nil || !resp.Ephemeral || !strings.Contains(resp.Content, "Something went wrong") {
		t.Errorf("panicking handler = %+v, %v; want a private apology and an error", resp, err)
	}
	if !strings.Contains(logs.String(), "handler panicked") || !strings.Contains(logs.String(), "t/boom") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
	// The router still answers after a panic.
	if resp, err := do(Request{Kind: KindCommand, Path: "t/ok"}); err != nil || resp.Content != "hello alice" {
		t.Errorf("after a panic, t/ok = %+v, %v", resp, err)
	}

	logs.Reset()
	resp, err = do(Request{Kind: KindCommand, Path: "t/oops"})
	if _, ok := AsUserError(err); !ok || !resp.Ephemeral || !strings.Contains(resp.Content, "count must be 1 or more (example: count:3)") {
		t.Errorf("user mistake = %+v, %v; want the mistake, privately", resp, err)
	}
	if logs.Len() != 0 {
		t.Errorf("a user's mistake was logged as a failure: %s", logs.String())
	}

	resp, err = do(Request{Kind: KindCommand, Path: "t/fail"})
	if err == nil || strings.Contains(resp.Content, "disk I/O") || !resp.Ephemeral {
		t.Errorf("internal failure = %+v, %v; want a private apology without internals", resp, err)
	}
	if !strings.Contains(logs.String(), "load encounter 7: disk I/O error") {
		t.Errorf("internal failure not logged with its chain: %s", logs.String())
	}

	resp, err = do(Request{Kind: KindCommand, Path: "t/nope"})
	if _, ok := AsUserError(err); !ok || !strings.Contains(resp.Content, "/help") {
		t.Errorf("unknown route = %+v, %v", resp, err)
	}

	resp, err = do(Request{Kind: KindComponent, CustomID: "btn:42"})
	if err != nil || resp.Type != UpdateMessage || resp.Content != "clicked btn:42" {
		t.Errorf("button = %+v, %v", resp, err)
	}
	resp, err = do(Request{Kind: KindComponent, CustomID: "gone:1"})
	if _, ok := AsUserError(err); !ok {
		t.Errorf("stale button = %+v, %v; want a user error", resp, err)
	}

	resp, err = do(Request{Kind: KindAutocomplete, Path: "t/ok", Focused: "name"})
	if err != nil || resp.Type != Autocomplete || len(resp.Choices) != 1 || resp.Choices[0].Name != "Goblin" {
		t.Errorf("autocomplete = %+v, %v", resp, err)
	}
	resp, _ = do(Request{Kind: KindAutocomplete, Path: "t/ok", Focused: "other"})
	if resp.Type != Autocomplete || len(resp.Choices) != 0 {
		t.Errorf("autocomplete without a handler = %+v; want an empty type-8 answer", resp)
	}
}

func TestRouterGMCheck(t *testing.T) {
	r := testRouter(t, &bytes.Buffer{})
	ctx := context.Background()
	cases := []struct {
		name  string
		perms int64
		roles []string
		ok    bool
	}{
		{"player", 0, nil, false},
		{"player with another role", 1 << 11, []string{"bard"}, false},
		{"manage channels", ManageChannels, nil, true},
		{"configured GM role", 0, []string{"bard", "gm-role"}, true},
	}
	for _, c := range cases {
		req := &Request{Kind: KindCommand, Path: "t/gm", Permissions: c.perms, Roles: c.roles}
		resp, err := r.Handle(ctx, req)
		if c.ok && (err != nil || resp.Content != "GM stuff") {
			t.Errorf("%s: %+v, %v; want allowed", c.name, resp, err)
		}
		if !c.ok && (!errors.Is(err, ErrNotGM) || !resp.Ephemeral) {
			t.Errorf("%s: %+v, %v; want refused privately", c.name, resp, err)
		}
		if req.GM != c.ok {
			t.Errorf("%s: req.GM = %v", c.name, req.GM)
		}
	}
}

func TestRouterRejectsDuplicates(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering a route twice did not panic")
		}
	}()
	r := newRouter(nil, nil)
	h := func(context.Context, *Request) (Response, error) { return Response{}, nil }
	r.handle("x", h, false)
	r.handle("x", h, false)
}

func TestParseLine(t *testing.T) {
	r := testRouter(t, &bytes.Buffer{})
	r.define(Command{Name: "add", Description: "test options", Options: []Option{
		{Type: String, Name: "name", Description: "n", Required: true},
		{Type: Integer, Name: "hp", Description: "h"},
		{Type: Boolean, Name: "hidden", Description: "b"},
	}})
	cases := []struct {
		line, path string
		want       Options
	}{
		{`/t ok`, "t/ok", Options{}},
		{`/add name:Goblin hp:7`, "add", Options{"name": "Goblin", "hp": int64(7)}},
		{`/add name:"Red Goblin" hidden:true`, "add", Options{"name": "Red Goblin", "hidden": true}},
		{`/add Red Goblin hp:-3`, "add", Options{"name": "Red Goblin", "hp": int64(-3)}},
		{`/add v:20+3`, "add", Options{"name": "v:20+3"}},
		{`/ADD NAME:x`, "add", Options{"name": "x"}},
		{`/add name:"say \"hi\""`, "add", Options{"name": `say "hi"`}},
	}
	for _, c := range cases {
		req, err := r.ParseLine(c.line)
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		if req.Path != c.path || len(req.Options) != len(c.want) {
			t.Errorf("%s: path %q options %v; want %q %v", c.line, req.Path, req.Options, c.path, c.want)
			continue
		}
		for k, v := range c.want {
			if req.Options[k] != v {
				t.Errorf("%s: option %s = %#v, want %#v", c.line, k, req.Options[k], v)
			}
		}
	}
	errs := []struct{ line, want string }{
		{`roll 1d6`, "starts with /"},
		{`/nosuch`, "unknown command /nosuch"},
		{`/t`, "needs one of: ok, boom"},
		{`/t nope`, `no subcommand "nope"`},
		{`/add hp:3`, "needs name"},
		{`/add name:x hp:three`, "whole number"},
		{`/add name:x hidden:maybe`, "true or false"},
		{`/add name:x name:y`, "given twice"},
		{`/add name:"open`, "quote is not closed"},
		{`/t ok extra`, `unexpected "extra"`},
	}
	for _, c := range errs {
		_, err := r.ParseLine(c.line)
		if _, ok := AsUserError(err); !ok || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want a user error containing %q", c.line, err, c.want)
		}
	}
}

// The router holds every command's values to its definition, as Discord's
// client does before it sends anything: a request from any edge (a console
// line, a forged or malformed interaction) that breaks a bound, a length,
// a fixed choice or a required option reaches no handler, and the user is
// told which option and shown a correct one. Autocomplete, which Discord
// sends with half-typed values, is not held to them.
func TestRouterHoldsOptionsToDefinitions(t *testing.T) {
	r := New(Deps{})
	long := strings.Repeat("1+", 300) + "1"
	for _, tc := range []struct {
		name string
		req  *Request
		want string
	}{
		{"below the minimum", &Request{Kind: KindCommand, Path: "history", Options: Options{"count": int64(0)}},
			"option count must be at least 1, not 0 (example: /history count:1)"},
		{"above the maximum", &Request{Kind: KindCommand, Path: "init/damage", Options: Options{"target": "Gob", "amount": int64(2_000_000)}},
			"option amount must be at most 1000000, not 2000000 (example: /init damage target:<text> amount:1000000)"},
		{"too long", &Request{Kind: KindCommand, Path: "roll", Options: Options{"expression": long}},
			"option expression takes at most"},
		{"not a choice", &Request{Kind: KindCommand, Path: "xhalem/engage", Options: Options{"kind": "machine", "evasion": int64(2), "mode": "double"}},
			"option mode takes one of normal, advantage, disadvantage, detriment, not double"},
		{"a required option missing", &Request{Kind: KindCommand, Path: "init/damage", Options: Options{"amount": int64(3)}},
			"/init damage needs target: e.g. /init damage target:<text> amount:<integer>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.User, tc.req.Permissions = User{ID: "gm", Name: "gm"}, ManageChannels
			resp, err := r.Handle(context.Background(), tc.req)
			ue, ok := AsUserError(err)
			if !ok || !strings.HasPrefix(ue.Msg, tc.want) || !resp.Ephemeral {
				t.Errorf("got %q (%v), ephemeral %v; want a private %q", resp.Content, err, resp.Ephemeral, tc.want)
			}
		})
	}
	// Within bounds the handler runs (and here finds no encounter store).
	if _, err := r.Handle(context.Background(), &Request{Kind: KindCommand, Path: "history", Options: Options{"count": int64(25)}, User: User{ID: "u"}}); err != nil {
		if ue, ok := AsUserError(err); ok && strings.Contains(ue.Msg, "option count") {
			t.Errorf("count:25 refused: %v", err)
		}
	}
	// Half-typed autocomplete is not checked.
	if _, err := r.Handle(context.Background(), &Request{Kind: KindAutocomplete, Path: "roll", Focused: "expression", Options: Options{"expression": long}, User: User{ID: "u"}}); err != nil {
		if ue, ok := AsUserError(err); ok && strings.Contains(ue.Msg, "option expression") {
			t.Errorf("autocomplete held to the length: %v", err)
		}
	}
}
