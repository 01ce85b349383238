package commands

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

// answerLine answers one console line (or "complete ..." for
// autocomplete) through r as user u1 "alice", and decodes the `result` as
// the console prints it. A line that does not parse fails the test.
func answerLine(t testing.TB, r *kit.Router, line string) (kit.Response, map[string]any, error) {
	t.Helper()
	var req *kit.Request
	var err error
	if rest, ok := strings.CutPrefix(line, "complete "); ok {
		req, err = r.ParseAutocomplete(rest)
	} else {
		req, err = r.ParseLine(line)
	}
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User = kit.User{ID: "u1", Name: "alice"}
	resp, err := r.Handle(context.Background(), req)
	var result map[string]any
	if resp.Result != nil {
		js, jerr := json.Marshal(resp.Result)
		if jerr != nil {
			t.Fatalf("%s: result does not encode: %v", line, jerr)
		}
		if jerr := json.Unmarshal(js, &result); jerr != nil {
			t.Fatalf("%s: %v", line, jerr)
		}
	}
	return resp, result, err
}

// tableRequest reads a console-style line as user, in channel "table" of
// guild "guild", with the GM's permissions for "gm": `click:ID` clicks a
// button, `complete LINE` asks for suggestions. A line that does not
// parse fails the test.
func tableRequest(t testing.TB, r *kit.Router, user, line string) *kit.Request {
	t.Helper()
	var req *kit.Request
	var err error
	switch {
	case strings.HasPrefix(line, "click:"):
		req = &kit.Request{Kind: kit.KindComponent, CustomID: strings.TrimPrefix(line, "click:"), Options: kit.Options{}}
	case strings.HasPrefix(line, "complete "):
		req, err = r.ParseAutocomplete(strings.TrimPrefix(line, "complete "))
	default:
		req, err = r.ParseLine(line)
	}
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User = kit.User{ID: user, Name: user}
	req.ChannelID, req.GuildID = "table", "guild"
	if user == "gm" {
		req.Permissions = kit.ManageChannels
	}
	return req
}

// seededRollers hands out a roller per request, as serve does, from one
// seeded source, so a test's dice are the same on every run.
func seededRollers() func() dice.Roller {
	src := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	return func() dice.Roller {
		mu.Lock()
		defer mu.Unlock()
		return dice.NewRandom(rand.New(rand.NewPCG(src.Uint64(), 0)))
	}
}

// mustAnswer answers a line of a table's (see tableRequest) that must
// succeed.
func mustAnswer(t testing.TB, r *kit.Router, user, line string) kit.Response {
	t.Helper()
	resp, err := r.Handle(context.Background(), tableRequest(t, r, user, line))
	if err != nil {
		t.Fatalf("%s %s: %v", user, line, err)
	}
	return resp
}
