package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

func testRouter(t *testing.T, logs *bytes.Buffer) *kit.Router {
	t.Helper()
	r := kit.NewRouter(slog.New(slog.NewTextHandler(logs, nil)), []string{"gm-role"})
	r.Define(kit.Command{Name: "t", Description: "test", Options: []kit.Option{
		{Type: kit.SubCommand, Name: "ok", Description: "answers"},
		{Type: kit.SubCommand, Name: "boom", Description: "panics"},
		{Type: kit.SubCommand, Name: "oops", Description: "user mistake"},
		{Type: kit.SubCommand, Name: "fail", Description: "internal failure"},
		{Type: kit.SubCommand, Name: "gm", Description: "GM only"},
		{Type: kit.SubCommand, Name: "damaged", Description: "a damaged database"},
	}})
	r.Route("t/damaged", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{}, fmt.Errorf("load encounter 7: %w", db.ErrDamaged)
	}, false)
	r.Route("t/ok", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{Type: kit.Message, Content: "hello " + req.User.Name}, nil
	}, false)
	r.Route("t/boom", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		var m map[string]int
		m["x"] = 1 // a nil map write: a real runtime panic
		return kit.Response{}, nil
	}, false)
	r.Route("t/oops", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{}, kit.Errorf("count must be 1 or more (example: count:3)")
	}, false)
	r.Route("t/fail", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{}, errors.New("load encounter 7: disk I/O error")
	}, false)
	r.Route("t/gm", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{Type: kit.Message, Content: "GM stuff"}, nil
	}, true)
	r.RouteComponent("btn", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{Type: kit.UpdateMessage, Content: "clicked " + req.CustomID}, nil
	}, false)
	r.RouteAutocomplete("t/ok", "name", func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		return kit.Response{Choices: []kit.Choice{{Name: "Goblin", Value: "goblin"}}}, nil
	})
	return r
}

func TestRouterAnswersEveryKindOfOutcome(t *testing.T) {
	var logs bytes.Buffer
	r := testRouter(t, &logs)
	ctx := context.Background()
	do := func(req kit.Request) (kit.Response, error) {
		req.User = kit.User{ID: "u1", Name: "alice"}
		return r.Handle(ctx, &req)
	}

	resp, err := do(kit.Request{Kind: kit.KindCommand, Path: "t/ok"})
	if err != nil || resp.Content != "hello alice" || resp.Ephemeral || resp.Type != kit.Message {
		t.Errorf("t/ok = %+v, %v", resp, err)
	}

	resp, err = do(kit.Request{Kind: kit.KindCommand, Path: "t/boom"})
	if err == nil || !resp.Ephemeral || !strings.Contains(resp.Content, "Something went wrong") {
		t.Errorf("panicking handler = %+v, %v; want a private apology and an error", resp, err)
	}
	if !strings.Contains(logs.String(), "handler panicked") || !strings.Contains(logs.String(), "t/boom") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
	// The router still answers after a panic.
	if resp, err := do(kit.Request{Kind: kit.KindCommand, Path: "t/ok"}); err != nil || resp.Content != "hello alice" {
		t.Errorf("after a panic, t/ok = %+v, %v", resp, err)
	}

	logs.Reset()
	resp, err = do(kit.Request{Kind: kit.KindCommand, Path: "t/oops"})
	if _, ok := kit.AsUserError(err); !ok || !resp.Ephemeral || !strings.Contains(resp.Content, "count must be 1 or more (example: count:3)") {
		t.Errorf("user mistake = %+v, %v; want the mistake, privately", resp, err)
	}
	if logs.Len() != 0 {
		t.Errorf("a user's mistake was logged as a failure: %s", logs.String())
	}

	resp, err = do(kit.Request{Kind: kit.KindCommand, Path: "t/fail"})
	if err == nil || strings.Contains(resp.Content, "disk I/O") || !resp.Ephemeral {
		t.Errorf("internal failure = %+v, %v; want a private apology without internals", resp, err)
	}
	if !strings.Contains(logs.String(), "load encounter 7: disk I/O error") {
		t.Errorf("internal failure not logged with its chain: %s", logs.String())
	}

	// A damaged database: retrying will not help, and the user is told so.
	logs.Reset()
	resp, err = do(kit.Request{Kind: kit.KindCommand, Path: "t/damaged"})
	if err == nil || resp.Content != kit.DamagedMessage || !resp.Ephemeral || strings.Contains(resp.Content, "try again.") {
		t.Errorf("damaged database = %+v, %v", resp, err)
	}
	if !strings.Contains(logs.String(), "database damaged: stop Tablehand and restore a backup") {
		t.Errorf("a damaged database was not logged for the operator: %s", logs.String())
	}

	resp, err = do(kit.Request{Kind: kit.KindCommand, Path: "t/nope"})
	if _, ok := kit.AsUserError(err); !ok || !strings.Contains(resp.Content, "/help") {
		t.Errorf("unknown route = %+v, %v", resp, err)
	}

	resp, err = do(kit.Request{Kind: kit.KindComponent, CustomID: "btn:42"})
	if err != nil || resp.Type != kit.UpdateMessage || resp.Content != "clicked btn:42" {
		t.Errorf("button = %+v, %v", resp, err)
	}
	resp, err = do(kit.Request{Kind: kit.KindComponent, CustomID: "gone:1"})
	if _, ok := kit.AsUserError(err); !ok {
		t.Errorf("stale button = %+v, %v; want a user error", resp, err)
	}

	resp, err = do(kit.Request{Kind: kit.KindAutocomplete, Path: "t/ok", Focused: "name"})
	if err != nil || resp.Type != kit.Autocomplete || len(resp.Choices) != 1 || resp.Choices[0].Name != "Goblin" {
		t.Errorf("autocomplete = %+v, %v", resp, err)
	}
	resp, _ = do(kit.Request{Kind: kit.KindAutocomplete, Path: "t/ok", Focused: "other"})
	if resp.Type != kit.Autocomplete || len(resp.Choices) != 0 {
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
		{"manage channels", kit.ManageChannels, nil, true},
		{"configured GM role", 0, []string{"bard", "gm-role"}, true},
	}
	for _, c := range cases {
		req := &kit.Request{Kind: kit.KindCommand, Path: "t/gm", Permissions: c.perms, Roles: c.roles}
		resp, err := r.Handle(ctx, req)
		if c.ok && (err != nil || resp.Content != "GM stuff") {
			t.Errorf("%s: %+v, %v; want allowed", c.name, resp, err)
		}
		if !c.ok && (!errors.Is(err, kit.ErrNotGM) || !resp.Ephemeral) {
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
	r := kit.NewRouter(nil, nil)
	h := func(context.Context, *kit.Request) (kit.Response, error) { return kit.Response{}, nil }
	r.Route("x", h, false)
	r.Route("x", h, false)
}

func TestParseLine(t *testing.T) {
	r := testRouter(t, &bytes.Buffer{})
	r.Define(kit.Command{Name: "add", Description: "test options", Options: []kit.Option{
		{Type: kit.String, Name: "name", Description: "n", Required: true},
		{Type: kit.Integer, Name: "hp", Description: "h"},
		{Type: kit.Boolean, Name: "hidden", Description: "b"},
	}})
	cases := []struct {
		line, path string
		want       kit.Options
	}{
		{`/t ok`, "t/ok", kit.Options{}},
		{`/add name:Goblin hp:7`, "add", kit.Options{"name": "Goblin", "hp": int64(7)}},
		{`/add name:"Red Goblin" hidden:true`, "add", kit.Options{"name": "Red Goblin", "hidden": true}},
		{`/add Red Goblin hp:-3`, "add", kit.Options{"name": "Red Goblin", "hp": int64(-3)}},
		{`/add v:20+3`, "add", kit.Options{"name": "v:20+3"}},
		{`/ADD NAME:x`, "add", kit.Options{"name": "x"}},
		{`/add name:"say \"hi\""`, "add", kit.Options{"name": `say "hi"`}},
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
		if _, ok := kit.AsUserError(err); !ok || !strings.Contains(err.Error(), c.want) {
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
	r := New(kit.NewDeps(nil, nil))
	long := strings.Repeat("1+", 300) + "1"
	for _, tc := range []struct {
		name string
		req  *kit.Request
		want string
	}{
		{"below the minimum", &kit.Request{Kind: kit.KindCommand, Path: "history", Options: kit.Options{"count": int64(0)}},
			"option count must be at least 1, not 0 (example: /history count:1)"},
		{"above the maximum", &kit.Request{Kind: kit.KindCommand, Path: "init/damage", Options: kit.Options{"target": "Gob", "amount": int64(2_000_000)}},
			"option amount must be at most 1000000, not 2000000 (example: /init damage target:<text> amount:1000000)"},
		{"too long", &kit.Request{Kind: kit.KindCommand, Path: "roll", Options: kit.Options{"expression": long}},
			"option expression takes at most"},
		{"not a choice", &kit.Request{Kind: kit.KindCommand, Path: "xhalem/engage", Options: kit.Options{"kind": "machine", "evasion": int64(2), "mode": "double"}},
			"option mode takes one of normal, advantage, disadvantage, detriment, not double"},
		{"a required option missing", &kit.Request{Kind: kit.KindCommand, Path: "init/damage", Options: kit.Options{"amount": int64(3)}},
			"/init damage needs target: e.g. /init damage target:<text> amount:<integer>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.User, tc.req.Permissions = kit.User{ID: "gm", Name: "gm"}, kit.ManageChannels
			resp, err := r.Handle(context.Background(), tc.req)
			ue, ok := kit.AsUserError(err)
			if !ok || !strings.HasPrefix(ue.Msg, tc.want) || !resp.Ephemeral {
				t.Errorf("got %q (%v), ephemeral %v; want a private %q", resp.Content, err, resp.Ephemeral, tc.want)
			}
		})
	}
	// Within bounds the handler runs (and here finds no encounter store).
	if _, err := r.Handle(context.Background(), &kit.Request{Kind: kit.KindCommand, Path: "history", Options: kit.Options{"count": int64(25)}, User: kit.User{ID: "u"}}); err != nil {
		if ue, ok := kit.AsUserError(err); ok && strings.Contains(ue.Msg, "option count") {
			t.Errorf("count:25 refused: %v", err)
		}
	}
	// Half-typed autocomplete is not checked.
	if _, err := r.Handle(context.Background(), &kit.Request{Kind: kit.KindAutocomplete, Path: "roll", Focused: "expression", Options: kit.Options{"expression": long}, User: kit.User{ID: "u"}}); err != nil {
		if ue, ok := kit.AsUserError(err); ok && strings.Contains(ue.Msg, "option expression") {
			t.Errorf("autocomplete held to the length: %v", err)
		}
	}
}
